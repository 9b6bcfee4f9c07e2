//! One contract for both outboxes: the embedded SQLite one and MongoDB.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use outbox::emails::ContactMessage;
use outbox::{
    Filter, Notification, OutboxError, OutboxStore, Outcome, Settlement, State, Template,
};

use crate::racers::claimed_by;

const LEASE: Duration = Duration::from_secs(30);

fn now() -> DateTime<Utc> {
    service_common::now()
}

fn email(to: &str) -> Notification {
    let params = BTreeMap::from([
        ("to_email".to_owned(), to.to_owned()),
        ("subject".to_owned(), "Package Incoming".to_owned()),
    ]);
    Notification::new(Template::Receiver, to, "Rita", params, now())
}

async fn each_email_is_claimed_by_exactly_one_of_many_claimers(store: Arc<dyn OutboxStore>) {
    let emails: Vec<Notification> = (0..20)
        .map(|i| email(&format!("r{i}@example.com")))
        .collect();
    store.enqueue(&emails).await.unwrap();
    let all = claimed_by(store.clone(), 6, |store| async move {
        let claimed = store.claim(now(), LEASE).await.unwrap();
        claimed
            .map(|c| {
                assert_eq!(
                    (c.notification.state, c.notification.attempts),
                    (State::Sending, 1)
                );
                c.notification.id
            })
            .into_iter()
            .collect()
    })
    .await;
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!(
        (all.len(), distinct.len()),
        (20, 20),
        "every e-mail claimed once, none twice"
    );
    assert_eq!(
        store.backlog().await.unwrap(),
        20,
        "claimed but unsettled e-mails are still to go out"
    );
}

async fn an_expired_lease_is_taken_over_and_the_old_claim_cannot_settle(
    store: Arc<dyn OutboxStore>,
) {
    let e = email("a@example.com");
    store.enqueue(std::slice::from_ref(&e)).await.unwrap();
    let first = store
        .claim(now(), Duration::from_millis(1))
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = store
        .claim(now(), LEASE)
        .await
        .unwrap()
        .expect("the crashed worker's e-mail is taken over");
    assert_eq!(second.notification.id, e.id);
    assert_eq!(second.notification.attempts, 2);
    assert!(
        !store
            .settle(&e.id, &first.claim, &Outcome::Sent, now())
            .await
            .unwrap(),
        "a lost claim settles nothing"
    );
    assert!(
        store
            .settle(&e.id, &second.claim, &Outcome::Sent, now())
            .await
            .unwrap()
    );
    let sent = store.get(&e.id).await.unwrap();
    assert_eq!(sent.state, State::Sent);
    assert!(sent.sent_at.is_some());
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_none(),
        "a sent e-mail is never claimed again"
    );
    assert_eq!(store.backlog().await.unwrap(), 0);
}

async fn a_retry_waits_until_it_is_due_and_a_failure_can_be_requeued(store: Arc<dyn OutboxStore>) {
    let e = email("b@example.com");
    store.enqueue(std::slice::from_ref(&e)).await.unwrap();
    let c = store.claim(now(), LEASE).await.unwrap().unwrap();
    let later = now() + chrono::Duration::seconds(60);
    store
        .settle(
            &e.id,
            &c.claim,
            &Outcome::Retry {
                at: later,
                error: "503 Service Unavailable".into(),
            },
            now(),
        )
        .await
        .unwrap();
    let retrying = store.get(&e.id).await.unwrap();
    assert_eq!(
        (retrying.state, retrying.last_error.as_str()),
        (State::Retrying, "503 Service Unavailable")
    );
    let failing_since = retrying.failing_since.expect("the retry window starts");
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_none(),
        "not before it is due"
    );
    let c = store
        .claim(later, LEASE)
        .await
        .unwrap()
        .expect("due at its time");
    assert_eq!(c.notification.attempts, 2);
    store
        .settle(
            &e.id,
            &c.claim,
            &Outcome::Failed {
                error: "403 Forbidden".into(),
            },
            later,
        )
        .await
        .unwrap();
    let failed = store.get(&e.id).await.unwrap();
    assert_eq!(
        (failed.state, failed.failing_since),
        (State::Failed, Some(failing_since))
    );
    assert!(
        store.claim(later, LEASE).await.unwrap().is_none(),
        "dead letters wait for an admin"
    );

    let requeued = store.retry(&e.id, later).await.unwrap();
    assert_eq!(
        (requeued.state, requeued.attempts, requeued.failing_since),
        (State::Queued, 0, None)
    );
    assert!(matches!(
        store.retry(&e.id, later).await,
        Err(OutboxError::NotFailed)
    ));
    assert!(matches!(
        store.retry("000000000000000000000000", later).await,
        Err(OutboxError::NotFound)
    ));
    assert_eq!(
        store
            .claim(later, LEASE)
            .await
            .unwrap()
            .unwrap()
            .notification
            .id,
        e.id
    );
}

async fn a_contact_message_is_kept_no_longer_than_its_delivery(store: Arc<dyn OutboxStore>) {
    let message = ContactMessage {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much to Lagos?".into(),
    };
    let n = message.notification(now());
    store.enqueue(std::slice::from_ref(&n)).await.unwrap();
    assert_eq!(
        store.get(&n.id).await.unwrap().params["message"],
        "How much to Lagos?"
    );
    let c = store.claim(now(), LEASE).await.unwrap().unwrap();
    store
        .settle(&n.id, &c.claim, &Outcome::Sent, now())
        .await
        .unwrap();
    assert!(store.get(&n.id).await.unwrap().params.is_empty());
}

async fn the_list_is_newest_first_and_pages_cover_everything_once(store: Arc<dyn OutboxStore>) {
    let mut ids = Vec::new();
    for i in 0..5 {
        let e = email(&format!("p{i}@example.com"));
        ids.push(e.id.clone());
        store.enqueue(&[e]).await.unwrap();
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    ids.reverse();
    let mut seen = Vec::new();
    let mut token = None;
    loop {
        let page = store
            .list(&Filter::default(), 2, token.as_deref())
            .await
            .unwrap();
        seen.extend(page.notifications.into_iter().map(|n| n.id));
        match page.next {
            Some(next) => token = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, ids);
    assert!(matches!(
        store.list(&Filter::default(), 2, Some("nonsense")).await,
        Err(OutboxError::BadPageToken)
    ));
}

/// An e-mail to `to` about shipment `tracking`, failed for good.
fn failed(to: &str, tracking: &str) -> Notification {
    let mut n = email(to);
    n.tracking_number = tracking.into();
    n.settle(
        &Outcome::Failed {
            error: "503 Service Unavailable".into(),
        },
        now(),
    );
    n
}

async fn lists_filter_by_state_and_text_and_failed_ones_are_requeued_together(
    store: Arc<dyn OutboxStore>,
) {
    let lagos = failed("Ada@Lagos.example", "PSE111111111");
    let accra = failed("kofi@accra.example", "PSE222222222");
    let queued = email("ama@accra.example");
    for n in [&lagos, &accra, &queued] {
        store.enqueue(std::slice::from_ref(n)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let ids = |filter: Filter| {
        let store = store.clone();
        async move {
            let page = store.list(&filter, 10, None).await.unwrap();
            page.notifications
                .into_iter()
                .map(|n| n.id)
                .collect::<Vec<_>>()
        }
    };
    let text = |t: &str| Some(t.to_owned());
    assert_eq!(
        ids(Filter {
            state: Some(State::Failed),
            text: None
        })
        .await,
        [accra.id.clone(), lagos.id.clone()]
    );
    assert_eq!(
        ids(Filter {
            state: None,
            text: text("ACCRA")
        })
        .await,
        [queued.id.clone(), accra.id.clone()]
    );
    assert_eq!(
        ids(Filter {
            state: None,
            text: text("ada@lagos")
        })
        .await,
        [lagos.id.as_str()],
        "any case"
    );
    assert_eq!(
        ids(Filter {
            state: Some(State::Failed),
            text: text("1111")
        })
        .await,
        [lagos.id.as_str()],
        "by tracking number"
    );
    assert!(
        ids(Filter {
            state: None,
            text: text("%")
        })
        .await
        .is_empty(),
        "text is literal"
    );

    let later = now() + chrono::Duration::seconds(5);
    assert_eq!(store.retry_failed(Some("accra"), later).await.unwrap(), 1);
    let requeued = store.get(&accra.id).await.unwrap();
    assert_eq!(
        (
            requeued.state,
            requeued.attempts,
            requeued.next_attempt_at,
            requeued.failing_since
        ),
        (State::Queued, 0, later, None)
    );
    assert_eq!(store.get(&lagos.id).await.unwrap().state, State::Failed);
    assert_eq!(store.retry_failed(None, later).await.unwrap(), 1);
    assert_eq!(store.retry_failed(None, later).await.unwrap(), 0);
    assert_eq!(store.backlog().await.unwrap(), 3);
    let c = store.claim(later, LEASE).await.unwrap().unwrap();
    assert_eq!(c.notification.attempts, 1, "fresh attempts");
}

async fn batch_claims_never_hand_one_email_to_two_workers(store: Arc<dyn OutboxStore>) {
    let emails: Vec<Notification> = (0..60)
        .map(|i| email(&format!("r{i}@example.com")))
        .collect();
    store.enqueue(&emails).await.unwrap();
    let all = claimed_by(store.clone(), 6, |store| async move {
        let batch = store.claim_batch(now(), LEASE, 7).await.unwrap();
        assert!(batch.len() <= 7, "a batch holds at most its limit");
        batch
            .into_iter()
            .map(|c| {
                assert_eq!(
                    (c.notification.state, c.notification.attempts),
                    (State::Sending, 1)
                );
                c.notification.id
            })
            .collect()
    })
    .await;
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!(
        (all.len(), distinct.len()),
        (60, 60),
        "every e-mail claimed once, none twice"
    );
}

async fn a_failure_in_a_batch_retries_only_that_email(store: Arc<dyn OutboxStore>) {
    let emails: Vec<Notification> = (0..3)
        .map(|i| email(&format!("r{i}@example.com")))
        .collect();
    store.enqueue(&emails).await.unwrap();
    let batch = store.claim_batch(now(), LEASE, 10).await.unwrap();
    assert_eq!(batch.len(), 3);
    let later = now() + chrono::Duration::minutes(5);
    let failing = batch[1].notification.id.clone();
    let settlements: Vec<Settlement> = batch
        .iter()
        .map(|c| {
            c.settlement(if c.notification.id == failing {
                Outcome::Retry {
                    at: later,
                    error: "503 Service Unavailable".into(),
                }
            } else {
                Outcome::Sent
            })
        })
        .collect();
    assert_eq!(
        store.settle_batch(&settlements, now()).await.unwrap(),
        [true, true, true]
    );
    for c in &batch {
        let expected = if c.notification.id == failing {
            State::Retrying
        } else {
            State::Sent
        };
        assert_eq!(store.get(&c.notification.id).await.unwrap().state, expected);
    }
    assert!(
        store
            .claim_batch(now(), LEASE, 10)
            .await
            .unwrap()
            .is_empty(),
        "nothing is due before the retry"
    );
    let again = store.claim_batch(later, LEASE, 10).await.unwrap();
    let ids: Vec<_> = again.iter().map(|c| c.notification.id.clone()).collect();
    assert_eq!(ids, [failing], "only the failed e-mail is tried again");
    assert_eq!(again[0].notification.attempts, 2);
}

async fn a_batch_whose_lease_ran_out_is_claimable_again(store: Arc<dyn OutboxStore>) {
    let emails: Vec<Notification> = (0..4)
        .map(|i| email(&format!("r{i}@example.com")))
        .collect();
    store.enqueue(&emails).await.unwrap();
    let crashed = store
        .claim_batch(now(), Duration::from_millis(1), 10)
        .await
        .unwrap();
    assert_eq!(crashed.len(), 4);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let taken_over = store.claim_batch(now(), LEASE, 10).await.unwrap();
    let mut ids: Vec<_> = taken_over
        .iter()
        .map(|c| c.notification.id.clone())
        .collect();
    ids.sort();
    let mut expected: Vec<_> = emails.iter().map(|e| e.id.clone()).collect();
    expected.sort();
    assert_eq!(
        ids, expected,
        "the crashed worker's whole batch is taken over"
    );
    assert!(taken_over.iter().all(|c| c.notification.attempts == 2));
    let stale: Vec<Settlement> = crashed
        .iter()
        .map(|c| c.settlement(Outcome::Sent))
        .collect();
    assert_eq!(
        store.settle_batch(&stale, now()).await.unwrap(),
        [false; 4],
        "a lost claim settles nothing"
    );
    assert_eq!(store.backlog().await.unwrap(), 4);
}

async fn local_delivery_marks_due_emails_sent_once_and_leaves_the_rest(
    store: Arc<dyn OutboxStore>,
) {
    let due: Vec<Notification> = (0..5)
        .map(|i| email(&format!("r{i}@example.com")))
        .collect();
    let mut later = email("later@example.com");
    later.next_attempt_at = now() + chrono::Duration::minutes(5);
    store.enqueue(&due).await.unwrap();
    store.enqueue(std::slice::from_ref(&later)).await.unwrap();
    let crashed = store
        .claim_batch(now(), Duration::from_millis(1), 1)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;

    let first = store.deliver_local(now(), 3).await.unwrap();
    let rest = store.deliver_local(now(), 10).await.unwrap();
    assert_eq!(
        (first.len(), rest.len()),
        (3, 2),
        "at most the limit at once"
    );
    let mut ids: Vec<_> = first.iter().chain(&rest).map(|n| n.id.clone()).collect();
    ids.sort();
    let mut expected: Vec<_> = due.iter().map(|e| e.id.clone()).collect();
    expected.sort();
    assert_eq!(
        ids, expected,
        "every due e-mail once, the one not due yet not at all"
    );
    assert!(store.deliver_local(now(), 10).await.unwrap().is_empty());
    for n in first.iter().chain(&rest) {
        let stored = store.get(&n.id).await.unwrap();
        assert_eq!(stored.state, State::Sent);
        assert!(stored.sent_at.is_some());
        let attempts = if n.id == crashed[0].notification.id {
            2
        } else {
            1
        };
        assert_eq!((n.attempts, stored.attempts), (attempts, attempts));
    }
    assert_eq!(store.get(&later.id).await.unwrap().state, State::Queued);
    let lost = &crashed[0];
    assert!(
        !store
            .settle(&lost.notification.id, &lost.claim, &Outcome::Sent, now())
            .await
            .unwrap(),
        "the crashed claim no longer holds the e-mail it lost"
    );
    assert_eq!(store.backlog().await.unwrap(), 1);
}

macro_rules! contract {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$case(std::sync::Arc::new(outbox::SqliteOutbox::open(dir.path()).unwrap())).await;
                }
            )*
        }
        mod mongo {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let Some((uri, database)) = test_servers::mongodb() else { return };
                    super::$case(std::sync::Arc::new(outbox::MongoOutbox::connect(&uri, &database).await.unwrap())).await;
                }
            )*
        }
    };
}

contract!(
    each_email_is_claimed_by_exactly_one_of_many_claimers,
    an_expired_lease_is_taken_over_and_the_old_claim_cannot_settle,
    a_retry_waits_until_it_is_due_and_a_failure_can_be_requeued,
    a_contact_message_is_kept_no_longer_than_its_delivery,
    the_list_is_newest_first_and_pages_cover_everything_once,
    lists_filter_by_state_and_text_and_failed_ones_are_requeued_together,
    batch_claims_never_hand_one_email_to_two_workers,
    a_failure_in_a_batch_retries_only_that_email,
    a_batch_whose_lease_ran_out_is_claimable_again,
    local_delivery_marks_due_emails_sent_once_and_leaves_the_rest,
);
