//! One contract for the webhook endpoints and deliveries of both stores: SQLite and MongoDB.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use outbox::webhooks::{
    Attempt, Endpoint, Event, EventType, MAX_CUSTOMER_ENDPOINTS, MAX_ENDPOINTS, WebhookStore,
};
use outbox::{OutboxError, OutboxStore, Outcome, State};

use crate::racers::claimed_by;

const LEASE: Duration = Duration::from_secs(30);

fn now() -> DateTime<Utc> {
    service_common::now()
}

fn endpoint(url: &str, events: &[EventType]) -> Endpoint {
    Endpoint::new(url, events.to_vec(), "", "", now()).0
}

fn event(kind: EventType, shipment: &str) -> Event {
    Event::new(
        kind,
        shipment,
        "PSE000000001",
        serde_json::json!({ "shipment": { "id": shipment } }),
        now(),
    )
}

/// An edit that turns an endpoint on and queues no e-mail.
fn enable() -> outbox::webhooks::EndpointEdit {
    Arc::new(|e: &mut Endpoint| {
        e.enabled = true;
        Ok(Vec::new())
    })
}

fn answered(code: u16) -> Attempt {
    Attempt {
        at: now(),
        status_code: code,
        excerpt: "ok".into(),
        error: String::new(),
        duration_ms: 3,
    }
}

async fn events_reach_only_the_enabled_endpoints_that_want_them(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    let shop = endpoint("https://shop.example.com/in", &[EventType::ShipmentDeleted]);
    let mut off = endpoint("https://off.example.com/in", &[EventType::ShipmentCreated]);
    off.enabled = false;
    // A customer's endpoint hears of that customer's shipments only.
    let acme = Endpoint::new(
        "https://acme.example.com/in",
        vec![EventType::ShipmentCreated],
        "",
        "acme",
        now(),
    )
    .0;
    for e in [&erp, &shop, &off, &acme] {
        store.create_endpoint(e).await.unwrap();
    }
    store
        .publish(&[
            event(EventType::ShipmentCreated, "s1"),
            event(EventType::ShipmentCreated, "s2").of_customer("acme"),
            event(EventType::ShipmentCreated, "s3").of_customer("globex"),
        ])
        .await
        .unwrap();
    let count = |id: &str| {
        let store = store.clone();
        let id = id.to_owned();
        async move {
            store
                .deliveries(&id, 50, None)
                .await
                .unwrap()
                .deliveries
                .len()
        }
    };
    assert_eq!(
        (
            count(&erp.id).await,
            count(&shop.id).await,
            count(&off.id).await,
            count(&acme.id).await
        ),
        (3, 0, 0, 1)
    );
    let heard = store.deliveries(&acme.id, 50, None).await.unwrap();
    assert_eq!(heard.deliveries[0].shipment_id, "s2");
    let listed: Vec<String> = store
        .endpoints()
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(listed, [erp.id, shop.id, off.id, acme.id], "oldest first");
}

async fn deliveries_of_one_shipment_go_out_in_order(store: Arc<dyn WebhookStore>) {
    let all = EventType::SUBSCRIBABLE;
    let erp = endpoint("https://erp.example.com/in", &all);
    store.create_endpoint(&erp).await.unwrap();
    let first = event(EventType::ShipmentCreated, "a");
    let second = event(EventType::ShipmentStatusChanged, "a");
    let other = event(EventType::ShipmentCreated, "b");
    store.publish(std::slice::from_ref(&first)).await.unwrap();
    store.publish(std::slice::from_ref(&second)).await.unwrap();
    store.publish(std::slice::from_ref(&other)).await.unwrap();

    let a1 = store.claim(now(), LEASE).await.unwrap().unwrap();
    assert_eq!(a1.delivery.event_id, first.id);
    let b1 = store.claim(now(), LEASE).await.unwrap().unwrap();
    assert_eq!(
        b1.delivery.event_id, other.id,
        "another shipment's event need not wait"
    );
    store
        .settle(
            &b1.delivery.id,
            &b1.claim,
            &Outcome::Sent,
            answered(204),
            now(),
        )
        .await
        .unwrap();
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_none(),
        "a's second event waits while its first is on its way"
    );
    let later = now() + chrono::Duration::seconds(60);
    let retry = Outcome::Retry {
        at: later,
        error: "HTTP 503".into(),
    };
    assert!(
        store
            .settle(&a1.delivery.id, &a1.claim, &retry, answered(503), now())
            .await
            .unwrap()
    );
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_none(),
        "still waiting: the first is retrying"
    );
    let again = store.claim(later, LEASE).await.unwrap().unwrap();
    assert_eq!(
        (again.delivery.event_id.as_str(), again.delivery.attempts),
        (first.id.as_str(), 2)
    );
    store
        .settle(
            &again.delivery.id,
            &again.claim,
            &Outcome::Sent,
            answered(200),
            later,
        )
        .await
        .unwrap();
    let a2 = store.claim(later, LEASE).await.unwrap().unwrap();
    assert_eq!(a2.delivery.event_id, second.id, "then the second");

    let sent = store.delivery(&again.delivery.id).await.unwrap();
    assert_eq!(sent.state, State::Sent);
    assert_eq!(
        sent.log.iter().map(|a| a.status_code).collect::<Vec<_>>(),
        [200, 503],
        "every attempt is kept, the latest first"
    );
}

async fn each_delivery_is_claimed_by_exactly_one_of_many_claimers(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    let events: Vec<Event> = (0..20)
        .map(|i| event(EventType::ShipmentCreated, &format!("s{i}")))
        .collect();
    store.publish(&events).await.unwrap();
    let all = claimed_by(store.clone(), 5, |store| async move {
        let claimed = store.claim(now(), LEASE).await.unwrap();
        claimed.map(|c| c.delivery.id).into_iter().collect()
    })
    .await;
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (20, 20));
}

async fn a_disabled_endpoint_gets_nothing_new_and_its_queue_waits(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    store
        .publish(&[event(EventType::ShipmentCreated, "s1")])
        .await
        .unwrap();
    let window = Duration::from_secs(24 * 3600);
    let start = now();
    let disable = |at: DateTime<Utc>| {
        Arc::new(move |e: &mut Endpoint| {
            e.record_result(false, window, at);
            Ok(Vec::new())
        })
    };
    let e = store
        .update_endpoint(&erp.id, disable(start))
        .await
        .unwrap();
    assert!(e.enabled, "a first failure starts the count");
    let e = store
        .update_endpoint(&erp.id, disable(start + chrono::Duration::hours(24)))
        .await
        .unwrap();
    assert!(!e.enabled, "a day of failures disables it");
    assert!(e.disabled_reason.starts_with("Disabled on"));
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_none(),
        "its queue waits"
    );
    store
        .publish(&[event(EventType::ShipmentCreated, "s2")])
        .await
        .unwrap();
    assert_eq!(
        store
            .deliveries(&erp.id, 50, None)
            .await
            .unwrap()
            .deliveries
            .len(),
        1,
        "nothing new is queued for it"
    );
    store.update_endpoint(&erp.id, enable()).await.unwrap();
    assert!(
        store.claim(now(), LEASE).await.unwrap().is_some(),
        "enabled again, the queue goes out"
    );
}

async fn an_edit_queues_its_emails_in_the_same_write(
    store: Arc<dyn WebhookStore>,
    emails: Arc<dyn OutboxStore>,
) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    let alert = outbox::emails::endpoint_disabled(
        "ops@example.com",
        &erp.url,
        "ERP",
        "2026-11-28 06:00 UTC",
        "https://example.com/webhooks",
        now(),
    );
    let queued = alert.clone();
    let e = store
        .update_endpoint(
            &erp.id,
            Arc::new(move |e: &mut Endpoint| {
                e.enabled = false;
                Ok(vec![queued.clone()])
            }),
        )
        .await
        .unwrap();
    assert!(!e.enabled);
    let sent = emails.get(&alert.id).await.expect("the alert is queued");
    assert_eq!(
        (sent.to_email.as_str(), sent.subject.as_str(), sent.state),
        (
            "ops@example.com",
            "Webhook endpoint disabled: https://erp.example.com/in",
            State::Queued
        )
    );
    // An edit that sends nothing queues nothing.
    let before = emails.backlog().await.unwrap();
    store.update_endpoint(&erp.id, enable()).await.unwrap();
    assert_eq!(emails.backlog().await.unwrap(), before);
}

async fn a_settled_delivery_can_be_resent_with_the_same_event_id(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    let e = event(EventType::ShipmentCreated, "s1");
    store.publish(std::slice::from_ref(&e)).await.unwrap();
    let c = store.claim(now(), LEASE).await.unwrap().unwrap();
    assert!(matches!(
        store.resend(&c.delivery.id, now()).await,
        Err(OutboxError::StillOnItsWay)
    ));
    let failed = Outcome::Failed {
        error: "HTTP 410 Gone".into(),
    };
    store
        .settle(&c.delivery.id, &c.claim, &failed, answered(410), now())
        .await
        .unwrap();
    assert!(
        !store
            .settle(
                &c.delivery.id,
                &c.claim,
                &Outcome::Sent,
                answered(200),
                now()
            )
            .await
            .unwrap(),
        "a settled claim cannot settle again"
    );
    let resent = store.resend(&c.delivery.id, now()).await.unwrap();
    assert_eq!(
        (resent.state, resent.attempts, resent.event_id.as_str()),
        (State::Queued, 0, e.id.as_str())
    );
    let again = store.claim(now(), LEASE).await.unwrap().unwrap();
    assert_eq!(
        again.delivery.log.len(),
        1,
        "the earlier attempt stays in the log"
    );
    assert!(matches!(
        store.resend("dlv_missing", now()).await,
        Err(OutboxError::DeliveryNotFound)
    ));
}

async fn deleting_an_endpoint_removes_its_deliveries(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    store
        .publish(&[event(EventType::ShipmentCreated, "s1")])
        .await
        .unwrap();
    store.delete_endpoint(&erp.id).await.unwrap();
    assert!(matches!(
        store.endpoint(&erp.id).await,
        Err(OutboxError::EndpointNotFound)
    ));
    assert!(store.claim(now(), LEASE).await.unwrap().is_none());
    assert!(matches!(
        store.delete_endpoint(&erp.id).await,
        Err(OutboxError::EndpointNotFound)
    ));
}

async fn deliveries_page_newest_first_and_endpoints_are_capped(store: Arc<dyn WebhookStore>) {
    let erp = endpoint("https://erp.example.com/in", &[EventType::ShipmentCreated]);
    store.create_endpoint(&erp).await.unwrap();
    for i in 0..5 {
        store
            .publish(&[event(EventType::ShipmentCreated, &format!("s{i}"))])
            .await
            .unwrap();
    }
    let first = store.deliveries(&erp.id, 3, None).await.unwrap();
    let second = store
        .deliveries(&erp.id, 3, first.next.as_deref())
        .await
        .unwrap();
    assert!(second.next.is_none());
    let shipments: Vec<String> = first
        .deliveries
        .iter()
        .chain(&second.deliveries)
        .map(|d| d.shipment_id.clone())
        .collect();
    assert_eq!(shipments, ["s4", "s3", "s2", "s1", "s0"]);
    assert!(matches!(
        store.deliveries(&erp.id, 3, Some("nonsense")).await,
        Err(OutboxError::BadPageToken)
    ));
    for i in 1..MAX_ENDPOINTS {
        store
            .create_endpoint(&endpoint(
                &format!("https://e{i}.example.com/"),
                &[EventType::ShipmentCreated],
            ))
            .await
            .unwrap();
    }
    assert!(matches!(
        store
            .create_endpoint(&endpoint(
                "https://one-more.example.com/",
                &[EventType::ShipmentCreated]
            ))
            .await,
        Err(OutboxError::TooManyEndpoints(MAX_ENDPOINTS))
    ));
    // Each customer has a limit of its own, apart from the company's and from each other's.
    let of = |customer: &str, i: usize| {
        Endpoint::new(
            &format!("https://{customer}{i}.example.com/"),
            vec![EventType::ShipmentCreated],
            "",
            customer,
            now(),
        )
        .0
    };
    for i in 0..MAX_CUSTOMER_ENDPOINTS {
        store.create_endpoint(&of("acme", i)).await.unwrap();
    }
    assert!(matches!(
        store.create_endpoint(&of("acme", 99)).await,
        Err(OutboxError::TooManyEndpoints(MAX_CUSTOMER_ENDPOINTS))
    ));
    store.create_endpoint(&of("globex", 0)).await.unwrap();
    let stored = store.endpoints().await.unwrap();
    assert_eq!(
        stored.iter().filter(|e| e.customer_id == "acme").count(),
        MAX_CUSTOMER_ENDPOINTS
    );
}

#[test]
fn a_rotated_secret_keeps_signing_for_the_overlap_only() {
    let start = now();
    let (mut e, first) = Endpoint::new(
        "https://erp.example.com/",
        vec![EventType::ShipmentCreated],
        "",
        "",
        start,
    );
    assert!(first.starts_with("whsec_") && first.len() > 40);
    let second = e.rotate(Duration::from_secs(3600), start);
    assert_ne!(first, second);
    assert_eq!(e.signing_keys(start), [first.as_str(), second.as_str()]);
    assert_eq!(
        e.previous_secret_expires_at(start),
        Some(start + chrono::Duration::hours(1))
    );
    let after = start + chrono::Duration::hours(1);
    assert_eq!(e.signing_keys(after), [second.as_str()]);
    let third = e.rotate(Duration::ZERO, after);
    assert_eq!(
        e.signing_keys(after),
        [third.as_str()],
        "no overlap: the old key stops at once"
    );
}

macro_rules! contract {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$case(std::sync::Arc::new(outbox::webhooks::SqliteWebhooks::open(dir.path()).unwrap())).await;
                }
            )*
        }
        mod mongo {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let Some((uri, database)) = test_servers::mongodb() else { return };
                    super::$case(std::sync::Arc::new(outbox::webhooks::MongoWebhooks::connect(&uri, &database).await.unwrap())).await;
                }
            )*
        }
    };
}

contract!(
    events_reach_only_the_enabled_endpoints_that_want_them,
    deliveries_of_one_shipment_go_out_in_order,
    each_delivery_is_claimed_by_exactly_one_of_many_claimers,
    a_disabled_endpoint_gets_nothing_new_and_its_queue_waits,
    a_settled_delivery_can_be_resent_with_the_same_event_id,
    deleting_an_endpoint_removes_its_deliveries,
    deliveries_page_newest_first_and_endpoints_are_capped,
);

/// Cases that also read the e-mail outbox the stores share (one SQLite file, one database).
macro_rules! with_outbox {
    ($($case:ident),* $(,)?) => {
        mod sqlite_with_outbox {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    let emails = std::sync::Arc::new(outbox::SqliteOutbox::open(dir.path()).unwrap());
                    super::$case(std::sync::Arc::new(outbox::webhooks::SqliteWebhooks::open(dir.path()).unwrap()), emails).await;
                }
            )*
        }
        mod mongo_with_outbox {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let Some((uri, database)) = test_servers::mongodb() else { return };
                    let emails = std::sync::Arc::new(outbox::MongoOutbox::connect(&uri, &database).await.unwrap());
                    super::$case(std::sync::Arc::new(outbox::webhooks::MongoWebhooks::connect(&uri, &database).await.unwrap()), emails).await;
                }
            )*
        }
    };
}

with_outbox!(an_edit_queues_its_emails_in_the_same_write);
