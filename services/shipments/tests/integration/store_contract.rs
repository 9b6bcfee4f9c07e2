//! One contract for every shipment store: the embedded SQLite store and MongoDB.

use crate::common;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;

use audit::{Action, Actor, AuditEntry, AuditLog, AuditQuery};
use chrono::NaiveDate;
use common::shipment;
use shipments::domain::{ShipmentPatch, Status};
use shipments::error::ShipmentError;
use shipments::search::fold;
use shipments::store::{DeleteRecord, Edit, Effects, ListQuery, MAX_COUNTED, Order, ShipmentStore};

const CLERK: &str = "clerk@example.com";

fn clerk() -> Actor {
    Actor {
        id: "u-clerk".into(),
        email: CLERK.into(),
        ..Default::default()
    }
}

/// A delete's effects: its audit entry alone.
fn audited(entry: AuditEntry) -> Effects {
    Effects {
        audit: vec![entry],
        ..Effects::default()
    }
}

/// The audit entries with `action`, newest first.
async fn recorded(log: &Arc<dyn AuditLog>, action: Action) -> Vec<AuditEntry> {
    let query = AuditQuery {
        action: Some(action),
        page_size: 100,
        ..Default::default()
    };
    log.list(&query).await.unwrap().entries
}
use shipments::updates::{EmailRule, EmailRules, Event};

async fn insert_then_read_back_by_id_and_tracking_number(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let s = shipment("Ada Shipper", "Auckland");
    store.insert(&s, &Effects::default()).await.unwrap();
    assert_eq!(store.get(&s.id).await.unwrap(), s);
    assert_eq!(
        store
            .find_by_tracking_number(&s.tracking_number)
            .await
            .unwrap(),
        s
    );
    assert!(matches!(
        store.get("000000000000000000000000").await,
        Err(ShipmentError::NotFound)
    ));
}

async fn duplicate_tracking_number_is_refused(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let first = shipment("A", "X");
    store.insert(&first, &Effects::default()).await.unwrap();
    let mut second = shipment("B", "Y");
    second.tracking_number = first.tracking_number.clone();
    assert!(matches!(
        store.insert(&second, &Effects::default()).await,
        Err(ShipmentError::DuplicateTrackingNumber)
    ));
    assert!(
        matches!(store.get(&second.id).await, Err(ShipmentError::NotFound)),
        "nothing half-written"
    );
}

async fn list_is_newest_first_and_pages_cover_everything_once(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let mut inserted = Vec::new();
    for i in 0..7 {
        let s = shipment(&format!("Shipper {i}"), "Lagos");
        store.insert(&s, &Effects::default()).await.unwrap();
        inserted.push(s);
    }
    inserted.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    let ids: Vec<String> = inserted.into_iter().map(|s| s.id).collect();
    let mut seen = Vec::new();
    let mut query = ListQuery {
        page_size: 3,
        ..Default::default()
    };
    loop {
        let page = store.list(&query).await.unwrap();
        assert_eq!(page.total, 7);
        seen.extend(page.shipments.iter().map(|s| s.id.clone()));
        match page.next {
            Some(next) => query.after = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, ids);
}

async fn search_is_case_insensitive_literal_substring_over_six_fields(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let a = shipment("Zoë O'Brien", "Rotterdam");
    let b = shipment("Carlos", "Lagos (Apapa) .* port");
    let c = shipment("Mei", "Tokyo");
    for s in [&a, &b, &c] {
        store.insert(s, &Effects::default()).await.unwrap();
    }
    let search = |text: &str| ListQuery {
        text: Some(fold(text)),
        page_size: 50,
        ..Default::default()
    };
    let found = |page: shipments::store::ListPage| {
        page.shipments.into_iter().map(|s| s.id).collect::<Vec<_>>()
    };
    assert_eq!(
        found(store.list(&search("o'bri")).await.unwrap()),
        vec![a.id.clone()]
    );
    assert_eq!(
        found(store.list(&search("ROTTER")).await.unwrap()),
        vec![a.id.clone()]
    );
    assert_eq!(
        found(store.list(&search("(apapa) .*")).await.unwrap()),
        vec![b.id.clone()]
    );
    assert_eq!(
        found(
            store
                .list(&search(&c.tracking_number.as_str()[3..9]))
                .await
                .unwrap()
        ),
        vec![c.id.clone()]
    );
    for pattern in [".*", "^pse", "{\"$gt\":\"\"}", "[a-z]+", "\\"] {
        let page = store.list(&search(pattern)).await.unwrap();
        assert!(
            page.shipments.iter().all(|s| s.id == b.id),
            "{pattern} must match literally"
        );
    }
    assert_eq!(
        store.list(&search("pending")).await.unwrap().total,
        3,
        "status is searchable"
    );
}

/// The ids a search finds (as the service asks: folded), in any order.
async fn found_by(store: &Arc<dyn ShipmentStore>, text: &str) -> BTreeSet<String> {
    let query = ListQuery {
        text: Some(fold(text)),
        page_size: 50,
        ..Default::default()
    };
    let page = store.list(&query).await.unwrap();
    page.shipments.into_iter().map(|s| s.id).collect()
}

async fn search_ignores_case_and_accents_both_ways(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let accented = shipment("Jürgen Müller", "Straße 5, Köln");
    let plain = shipment("Anna MULLER", "Sao Paulo");
    let arabic = shipment("مُحَمَّد الفاسي", "القاهرة");
    for s in [&accented, &plain, &arabic] {
        store.insert(s, &Effects::default()).await.unwrap();
    }
    let ids = |list: &[&shipments::domain::Shipment]| -> BTreeSet<String> {
        list.iter().map(|s| s.id.clone()).collect()
    };
    // Typed with or without the accent, in any case, or with the accent as a separate mark.
    for text in ["muller", "MULLER", "Müller", "mÜller", "mu\u{308}ller"] {
        assert_eq!(
            found_by(&store, text).await,
            ids(&[&accented, &plain]),
            "{text}"
        );
    }
    for text in ["koln", "KÖLN", "strasse", "Straße", "STRASSE", "jurgen m"] {
        assert_eq!(found_by(&store, text).await, ids(&[&accented]), "{text}");
    }
    for text in ["são paulo", "SAO PAULO"] {
        assert_eq!(found_by(&store, text).await, ids(&[&plain]), "{text}");
    }
    // Shorter than the trigram index: the other path folds the same way.
    assert_eq!(found_by(&store, "Ür").await, ids(&[&accented]));
    // Arabic stays searchable, with or without its optional vowel marks.
    for text in ["محمد", "مُحَمَّد", "الفاسي", "القاهرة"] {
        assert_eq!(found_by(&store, text).await, ids(&[&arabic]), "{text}");
    }
}

async fn status_filter_combines_with_search(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let a = shipment("Alpha", "Oslo");
    let b = shipment("Alphonse", "Oslo");
    store.insert(&a, &Effects::default()).await.unwrap();
    store.insert(&b, &Effects::default()).await.unwrap();
    let deliver: Edit = Arc::new(|s| {
        s.apply(
            &ShipmentPatch {
                status: Some(Status::Delivered),
                ..Default::default()
            },
            CLERK,
            shipments::domain::now(),
        );
        Ok(Effects::default())
    });
    store.update(&b.id, deliver).await.unwrap();
    let query = ListQuery {
        status: Some(Status::Delivered),
        text: Some("alph".into()),
        page_size: 10,
        after: None,
        ..Default::default()
    };
    let page = store.list(&query).await.unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.shipments[0].id, b.id);
    assert_eq!(page.shipments[0].status, Status::Delivered);
}

async fn broad_matches_are_counted_up_to_the_cap_and_still_page(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    // A few writers at a time: enough to be quick, without queueing past the insert deadline.
    futures::stream::iter(0..MAX_COUNTED + 2)
        .for_each_concurrent(8, |i| {
            let store = store.clone();
            async move {
                store
                    .insert(
                        &shipment(&format!("Kumasi Trader {i}"), "Tema"),
                        &Effects::default(),
                    )
                    .await
                    .unwrap()
            }
        })
        .await;
    let mut query = ListQuery {
        status: Some(Status::Pending),
        text: Some("kumasi".into()),
        page_size: 2,
        after: None,
        ..Default::default()
    };
    let first = store.list(&query).await.unwrap();
    assert_eq!(
        first.total,
        MAX_COUNTED + 1,
        "past the cap the count says 'more'"
    );
    query.after = first.next;
    let second = store.list(&query).await.unwrap();
    assert_eq!(second.shipments.len(), 2);
    assert!(
        second
            .shipments
            .iter()
            .all(|s| first.shipments.iter().all(|f| f.id != s.id)),
        "the next page moves on"
    );
}

async fn update_is_atomic_and_refused_edits_write_nothing(
    store: Arc<dyn ShipmentStore>,
    log: Arc<dyn AuditLog>,
) {
    let s = shipment("Ada", "Accra");
    store.insert(&s, &Effects::default()).await.unwrap();
    let refuse: Edit = Arc::new(|s| {
        s.current_location = "half-written".into();
        Err(ShipmentError::Invalid(Default::default()))
    });
    assert!(store.update(&s.id, refuse).await.is_err());
    assert_eq!(
        store.get(&s.id).await.unwrap(),
        s,
        "a refused edit leaves the shipment as it was"
    );
    assert!(
        recorded(&log, Action::ShipmentUpdate).await.is_empty(),
        "and records nothing"
    );

    // Concurrent updates: each appends its history entry; none is lost.
    let mut tasks = Vec::new();
    for i in 0..10 {
        let store = store.clone();
        let id = s.id.clone();
        tasks.push(tokio::spawn(async move {
            let edit: Edit = Arc::new(move |s| {
                let change = ShipmentPatch {
                    current_location: Some(format!("Stop {i}")),
                    ..Default::default()
                };
                s.apply(&change, CLERK, shipments::domain::now());
                let entry = AuditEntry::new(
                    &clerk(),
                    Action::ShipmentUpdate,
                    &s.id,
                    s.tracking_number.as_str(),
                );
                Ok(Effects {
                    audit: vec![entry],
                    ..Effects::default()
                })
            });
            store.update(&id, edit).await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(store.get(&s.id).await.unwrap().shipment_history.len(), 11);
    assert_eq!(
        recorded(&log, Action::ShipmentUpdate).await.len(),
        10,
        "each committed change has its one entry, even after retries"
    );
    let missing: Edit = Arc::new(|_| Ok(Effects::default()));
    assert!(matches!(
        store.update("nope", missing).await,
        Err(ShipmentError::NotFound)
    ));
}

async fn delete_removes_records_a_snapshot_and_reports_missing(
    store: Arc<dyn ShipmentStore>,
    log: Arc<dyn AuditLog>,
) {
    let s = shipment("Ada", "Accra");
    store.insert(&s, &Effects::default()).await.unwrap();
    let record: DeleteRecord = Arc::new(|s| {
        audited(
            AuditEntry::new(
                &clerk(),
                Action::ShipmentDelete,
                &s.id,
                s.tracking_number.as_str(),
            )
            .with_snapshot(s),
        )
    });
    assert_eq!(
        store.delete(&s.id, record.clone()).await.unwrap(),
        s,
        "the deleted shipment is returned"
    );
    let deleted = recorded(&log, Action::ShipmentDelete).await;
    assert_eq!(deleted.len(), 1);
    let snapshot: shipments::domain::Shipment =
        serde_json::from_str(deleted[0].snapshot.as_deref().unwrap()).unwrap();
    assert_eq!(snapshot, s, "the entry keeps the whole deleted shipment");
    assert!(matches!(
        store.find_by_tracking_number(&s.tracking_number).await,
        Err(ShipmentError::NotFound)
    ));
    assert!(matches!(
        store.delete(&s.id, record).await,
        Err(ShipmentError::NotFound)
    ));
    assert_eq!(
        recorded(&log, Action::ShipmentDelete).await.len(),
        1,
        "a missing shipment records nothing"
    );
}

async fn counters_count_within_their_window_only(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let hour = Duration::from_secs(3600);
    let hour_start = 1_800_000_000; // a whole hour
    let at = |minute: i64| chrono::DateTime::from_timestamp(hour_start + minute * 60, 0).unwrap();
    let key = format!("test:{}", shipment("Ada", "Accra").id);
    for (minute, count) in [(0, 1), (10, 2), (59, 3), (60, 1), (61, 2)] {
        assert_eq!(
            store.hit(&key, hour, at(minute)).await.unwrap(),
            count,
            "minute {minute}"
        );
    }
    let other = format!("test:{}", shipment("Bo", "Oslo").id);
    assert_eq!(
        store.hit(&other, hour, at(61)).await.unwrap(),
        1,
        "keys count apart"
    );
}

async fn email_rules_default_to_everyone_and_round_trip(
    store: Arc<dyn ShipmentStore>,
    log: Arc<dyn AuditLog>,
) {
    let defaults = store.email_rules().await.unwrap();
    assert!(Event::ALL.iter().all(|&e| defaults.rule(e)
        == EmailRule {
            // Nobody has subscribed to a shipment being created.
            subscribers: e != Event::Created,
            ..EmailRule::default()
        }));
    let mut rules = EmailRules::default();
    rules.0.insert(
        Event::Delivered,
        EmailRule {
            shipper: false,
            receiver: true,
            subscribers: false,
        },
    );
    let entry = AuditEntry::new(
        &clerk(),
        Action::SettingsUpdate,
        "tracking_emails",
        "Tracking e-mails",
    );
    store.set_email_rules(&rules, &entry).await.unwrap();
    assert_eq!(store.email_rules().await.unwrap(), rules);
    assert_eq!(recorded(&log, Action::SettingsUpdate).await, vec![entry]);
}

/// A shipment booked `days_ago` days before `today` at 10:00 UTC, expected `expected_in`
/// days after `today`, in `status` (delivered at 09:00 `today` when delivered).
fn booked(
    today: NaiveDate,
    days_ago: u64,
    expected_in: i64,
    status: Status,
) -> shipments::domain::Shipment {
    let mut s = shipment("Kofi", "Accra");
    s.created_at = (today - chrono::Days::new(days_ago))
        .and_hms_opt(10, 0, 0)
        .unwrap()
        .and_utc();
    s.details.expected_delivery_date = today + chrono::Duration::days(expected_in);
    s.status = status;
    if status == Status::Delivered {
        s.delivered_at = Some(today.and_hms_opt(9, 0, 0).unwrap().and_utc());
    }
    s
}

async fn statistics_count_by_status_lateness_and_day(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let today = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let late = booked(today, 1, -2, Status::Pending);
    let due_today = booked(today, 0, 0, Status::InTransit);
    let on_time = booked(today, 0, 5, Status::OnHold);
    let done = booked(today, 40, -3, Status::Delivered);
    for s in [&late, &due_today, &on_time, &done] {
        store.insert(s, &Effects::default()).await.unwrap();
    }
    let stats = store.statistics(today, 30).await.unwrap();
    let count = |stats: &shipments::store::Statistics, status| {
        stats
            .by_status
            .iter()
            .find(|(s, _)| *s == status)
            .map_or(0, |(_, n)| *n)
    };
    assert_eq!(
        [
            Status::Pending,
            Status::InTransit,
            Status::OnHold,
            Status::Delivered,
            Status::Delayed
        ]
        .map(|st| count(&stats, st)),
        [1, 1, 1, 1, 0]
    );
    assert_eq!(
        stats.late, 1,
        "expected before today and not delivered; due today is not late yet"
    );
    assert_eq!((stats.created.len(), stats.delivered.len()), (30, 30));
    assert_eq!(
        (stats.created[29], stats.created[28]),
        (2, 1),
        "today last, yesterday before it"
    );
    assert_eq!(
        stats.created.iter().sum::<u64>(),
        3,
        "booked 40 days ago is outside the 30 days"
    );
    assert_eq!(stats.delivered[29], 1);

    // The counts follow every change and delete.
    let deliver: Edit = Arc::new(|s| {
        let change = ShipmentPatch {
            status: Some(Status::Delivered),
            ..Default::default()
        };
        s.apply(&change, CLERK, shipments::domain::now());
        Ok(Effects::default())
    });
    store.update(&late.id, deliver).await.unwrap();
    let record: DeleteRecord = Arc::new(|s| {
        audited(AuditEntry::new(
            &clerk(),
            Action::ShipmentDelete,
            &s.id,
            s.tracking_number.as_str(),
        ))
    });
    store.delete(&on_time.id, record).await.unwrap();
    let stats = store.statistics(today, 30).await.unwrap();
    assert_eq!(
        (
            count(&stats, Status::Pending),
            count(&stats, Status::Delivered),
            count(&stats, Status::OnHold)
        ),
        (0, 2, 0)
    );
    assert_eq!(stats.late, 0);
}

async fn lists_sort_by_expected_delivery_and_filter_by_dates_and_lateness(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let today = shipments::domain::now().date_naive();
    let mut all = Vec::new();
    for (days_ago, expected_in, status) in [
        (3, 4, Status::Pending),
        (2, -1, Status::InTransit),
        (1, -5, Status::Delivered),
        (0, 2, Status::Pending),
        (0, 2, Status::Delayed),
    ] {
        let s = booked(today, days_ago, expected_in, status);
        store.insert(&s, &Effects::default()).await.unwrap();
        all.push(s);
    }
    let list = |order, after: Option<shipments::store::Cursor>| ListQuery {
        order,
        page_size: 2,
        after,
        ..Default::default()
    };
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list(&list(Order::ExpectedDelivery, after.clone()))
            .await
            .unwrap();
        seen.extend(
            page.shipments
                .iter()
                .map(|s| s.details.expected_delivery_date),
        );
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    let mut expected: Vec<_> = all
        .iter()
        .map(|s| s.details.expected_delivery_date)
        .collect();
    expected.sort();
    assert_eq!(
        seen, expected,
        "earliest first, every shipment once across pages"
    );
    let last_first = store
        .list(&ListQuery {
            order: Order::ExpectedDeliveryLastFirst,
            page_size: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        last_first.shipments[0].details.expected_delivery_date,
        today + chrono::Duration::days(4)
    );
    let oldest = store
        .list(&ListQuery {
            order: Order::OldestFirst,
            page_size: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(oldest.shipments[0].id, all[0].id);

    let start = |d: NaiveDate| d.and_hms_opt(0, 0, 0).unwrap().and_utc();
    let booked_yesterday_or_before = ListQuery {
        created_from: Some(start(today - chrono::Days::new(2))),
        created_before: Some(start(today)),
        page_size: 10,
        ..Default::default()
    };
    let ids: Vec<_> = store
        .list(&booked_yesterday_or_before)
        .await
        .unwrap()
        .shipments
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, [all[2].id.clone(), all[1].id.clone()]);
    let late = ListQuery {
        late_on: Some(today),
        page_size: 10,
        ..Default::default()
    };
    let late = store.list(&late).await.unwrap();
    assert_eq!(
        (late.total, late.shipments[0].id.as_str()),
        (1, all[1].id.as_str()),
        "the delivered one is not late"
    );
    let late_and_searched = ListQuery {
        late_on: Some(today),
        text: Some("kofi".into()),
        page_size: 10,
        ..Default::default()
    };
    assert_eq!(store.list(&late_and_searched).await.unwrap().total, 1);
}

async fn claims_are_unique_until_their_shipment_is_deleted(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let claim = |name: &str| Effects {
        claims: vec![format!("reference:{name}")],
        ..Effects::default()
    };
    let first = shipment("Ada Shipper", "Auckland");
    store.insert(&first, &claim("ORDER-1")).await.unwrap();
    let second = shipment("Bo Shipper", "Busan");
    let refused = store.insert(&second, &claim("ORDER-1")).await;
    assert!(
        matches!(&refused, Err(ShipmentError::AlreadyClaimed(c)) if c == "reference:ORDER-1"),
        "{refused:?}"
    );
    assert!(
        matches!(store.get(&second.id).await, Err(ShipmentError::NotFound)),
        "a refused insert writes nothing"
    );
    // The holder of a claim is known (an import compares a row with it).
    let holder = store.claim_holder("reference:ORDER-1").await.unwrap();
    assert_eq!(holder.as_deref(), Some(first.id.as_str()));
    assert_eq!(store.claim_holder("reference:NONE").await.unwrap(), None);
    let record: DeleteRecord =
        Arc::new(|s| audited(AuditEntry::new(&clerk(), Action::ShipmentDelete, &s.id, "")));
    store.delete(&first.id, record).await.unwrap();
    assert_eq!(store.claim_holder("reference:ORDER-1").await.unwrap(), None);
    store.insert(&second, &claim("ORDER-1")).await.unwrap();
    let holder = store.claim_holder("reference:ORDER-1").await.unwrap();
    assert_eq!(holder.as_deref(), Some(second.id.as_str()));
}

async fn insert_each_keeps_every_shipment_whole_on_its_own(
    store: Arc<dyn ShipmentStore>,
    log: Arc<dyn AuditLog>,
) {
    let made: Vec<_> = ["A", "B", "C"]
        .iter()
        .map(|name| {
            let s = shipment(&format!("{name} Batch"), "Oslo");
            let effects = Effects {
                audit: vec![AuditEntry::new(
                    &clerk(),
                    Action::ShipmentCreate,
                    &s.id,
                    s.tracking_number.as_str(),
                )],
                // The second claims what the first claims.
                claims: vec![if *name == "C" {
                    "row:f:3".into()
                } else {
                    "row:f:1".into()
                }],
                ..Effects::default()
            };
            (s, effects)
        })
        .collect();
    let outcomes = store.insert_each(made.clone()).await.unwrap();
    assert!(outcomes[0].is_ok() && outcomes[2].is_ok(), "{outcomes:?}");
    assert!(matches!(outcomes[1], Err(ShipmentError::AlreadyClaimed(_))));
    assert!(store.get(&made[0].0.id).await.is_ok());
    assert!(matches!(
        store.get(&made[1].0.id).await,
        Err(ShipmentError::NotFound)
    ));
    assert!(store.get(&made[2].0.id).await.is_ok());
    let targets: Vec<String> = recorded(&log, Action::ShipmentCreate)
        .await
        .into_iter()
        .map(|e| e.target_id)
        .collect();
    assert_eq!(targets.len(), 2, "the refused one left no audit entry");
    assert!(!targets.contains(&made[1].0.id));
    assert_eq!(
        found_by(&store, "batch").await,
        BTreeSet::from([made[0].0.id.clone(), made[2].0.id.clone()]),
        "the search finds the written ones, not the refused one"
    );
    let counted = async |store: &Arc<dyn ShipmentStore>| {
        let stats = store
            .statistics(shipments::domain::now().date_naive(), 30)
            .await
            .unwrap();
        (
            stats.by_status.iter().map(|(_, n)| n).sum::<u64>(),
            stats.created.iter().sum::<u64>(),
        )
    };
    assert_eq!(
        counted(&store).await,
        (2, 2),
        "the dashboard counts the written ones, not the refused one"
    );
    let unrefused: Vec<_> = ["D", "E"]
        .iter()
        .map(|name| (shipment(&format!("{name} Lot"), "Oslo"), Effects::default()))
        .collect();
    let outcomes = store.insert_each(unrefused.clone()).await.unwrap();
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    assert_eq!(
        found_by(&store, "lot").await,
        BTreeSet::from([unrefused[0].0.id.clone(), unrefused[1].0.id.clone()])
    );
    assert_eq!(counted(&store).await, (4, 4));
}

async fn imports_are_kept_and_listed_newest_first(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    use shipments::import::{ImportRecord, ImportState};
    let base = shipments::domain::now();
    let records: Vec<ImportRecord> = (0..3)
        .map(|i| {
            let mut record = ImportRecord::new(
                format!("import{i}"),
                format!("day-{i}.csv"),
                10,
                CLERK.into(),
                base + chrono::TimeDelta::seconds(i),
            );
            record.updated_at = base;
            record
        })
        .collect();
    for r in &records {
        store.save_import(r).await.unwrap();
    }
    let mut running = records[1].clone();
    running.state = ImportState::Running;
    running.processed_rows = 500;
    store.save_import(&running).await.unwrap();
    assert_eq!(store.get_import("import1").await.unwrap(), running);
    assert!(matches!(
        store.get_import("nope").await,
        Err(ShipmentError::ImportNotFound)
    ));
    let ids = |list: Vec<ImportRecord>| list.into_iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.list_imports(2, None).await.unwrap()),
        ["import2", "import1"]
    );
    assert_eq!(
        ids(store.list_imports(2, Some("import1")).await.unwrap()),
        ["import0"]
    );
}

/// What the tracking page's privacy keeps with a shipment: which remarks are public, and the
/// confirmation links already used (so a replay after a restart is still refused).
async fn public_remarks_and_used_confirmations_are_kept(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    let s = shipment("Ada Shipper", "Auckland");
    store.insert(&s, &Effects::default()).await.unwrap();
    let until = chrono::DateTime::from_timestamp_micros(1_900_000_000_123_456).unwrap();
    let edit: Edit = Arc::new(move |shipment: &mut shipments::domain::Shipment| {
        let patch = ShipmentPatch {
            status: Some(Status::InTransit),
            remarks: "Sorted".into(),
            remarks_public: true,
            ..ShipmentPatch::default()
        };
        shipment.apply(&patch, CLERK, shipments::domain::now());
        shipment
            .used_confirmations
            .push(shipments::domain::UsedConfirmation {
                nonce: "n1".into(),
                until,
            });
        Ok(Effects::default())
    });
    let saved = store.update(&s.id, edit).await.unwrap();
    let read = store.get(&s.id).await.unwrap();
    assert_eq!(read, saved);
    let last = read.shipment_history.last().unwrap();
    assert!(last.remarks_public && last.remarks == "Sorted");
    assert!(
        read.shipment_history[0].remarks_public,
        "the service's own first remark"
    );
    assert_eq!(read.used_confirmations.len(), 1);
    assert_eq!(
        (
            read.used_confirmations[0].nonce.as_str(),
            read.used_confirmations[0].until
        ),
        ("n1", until)
    );
}

async fn rate_cards_save_by_version_and_delete_with_their_audit_entry(
    store: Arc<dyn ShipmentStore>,
    log: Arc<dyn AuditLog>,
) {
    use shipments::rates::{RateCard, sample_public_card};
    assert_eq!(store.rate_card("public").await.unwrap(), None);
    let card = sample_public_card();
    let entry = AuditEntry::new(
        &clerk(),
        Action::RateCardUpdate,
        "public",
        "Public rate card",
    );
    assert!(store.save_rate_card(&card, 0, Some(&entry)).await.unwrap());
    // A second first version, or a save from version 0 again, is someone else's change lost.
    assert!(!store.save_rate_card(&card, 0, None).await.unwrap());
    let customer = RateCard {
        id: "c-1".into(),
        version: 1,
        discount_bp: 1_000,
        ..RateCard::default()
    };
    assert!(store.save_rate_card(&customer, 0, None).await.unwrap());
    let next = RateCard {
        version: 2,
        currency: "EUR".into(),
        ..card.clone()
    };
    assert!(store.save_rate_card(&next, 1, None).await.unwrap());
    assert!(
        !store
            .save_rate_card(
                &RateCard {
                    version: 2,
                    ..card.clone()
                },
                1,
                None
            )
            .await
            .unwrap()
    );
    assert_eq!(store.rate_card("public").await.unwrap(), Some(next.clone()));
    assert_eq!(
        store.rate_cards().await.unwrap(),
        vec![customer.clone(), next]
    );

    let removed = AuditEntry::new(&clerk(), Action::RateCardDelete, "c-1", "Acme");
    assert!(store.delete_rate_card("c-1", &removed).await.unwrap());
    assert!(!store.delete_rate_card("c-1", &removed).await.unwrap());
    assert_eq!(store.rate_card("c-1").await.unwrap(), None);
    assert_eq!(recorded(&log, Action::RateCardUpdate).await, vec![entry]);
    assert_eq!(recorded(&log, Action::RateCardDelete).await, vec![removed]);
}

/// The stalled shipments in the queue at `now` under `settings`, of those named.
async fn stalled(
    store: &Arc<dyn ShipmentStore>,
    settings: &shipments::exceptions::ExceptionSettings,
    now: chrono::DateTime<chrono::Utc>,
    of: &[&str],
) -> Vec<String> {
    use shipments::exceptions::{Assignee, ExceptionQuery, Kind, State};
    let query = ExceptionQuery {
        kind: Some(Kind::Stalled),
        state: State::Open,
        assignee: Assignee::Anyone,
        now,
        stalled_since: settings.stalled_since(now),
        page_size: 50,
        after: None,
    };
    store
        .list_exceptions(&query)
        .await
        .unwrap()
        .exceptions
        .into_iter()
        .map(|(e, _)| e.shipment_id)
        .filter(|id| of.contains(&id.as_str()))
        .collect()
}

async fn stalled_shipments_enter_the_queue_after_their_modes_hours(
    store: Arc<dyn ShipmentStore>,
    _log: Arc<dyn AuditLog>,
) {
    use shipments::details::ShipmentMode;
    use shipments::domain::{HistoryEntry, Shipment, TrackingNumber};
    let now = shipments::domain::now();
    let booked = |mode: ShipmentMode, hours_ago: i64| {
        let mut details = common::details("Quiet Trader", "Accra");
        details.shipment_mode = mode;
        Shipment::create(
            details,
            TrackingNumber::generate(),
            now - chrono::TimeDelta::hours(hours_ago),
            CLERK,
        )
    };
    let air = booked(ShipmentMode::AirShipping, 30);
    let fresh_air = booked(ShipmentMode::AirShipping, 1);
    let sea = booked(ShipmentMode::SeaShipping, 30);
    for s in [&air, &fresh_air, &sea] {
        store.insert(s, &Effects::default()).await.unwrap();
    }
    let ids = [air.id.as_str(), fresh_air.id.as_str(), sea.id.as_str()];
    let mut settings = shipments::exceptions::ExceptionSettings::default();
    // Air: 24 hours, sea: 168.
    assert_eq!(
        stalled(&store, &settings, now, &ids).await,
        vec![air.id.clone()]
    );
    settings.air_stalled_hours = 48;
    settings.sea_stalled_hours = 12;
    assert_eq!(
        stalled(&store, &settings, now, &ids).await,
        vec![sea.id.clone()]
    );

    // A history entry starts the clock again.
    let edit: Edit = Arc::new(move |s: &mut Shipment| {
        s.shipment_history.push(HistoryEntry::new(
            now,
            "Kotoka cargo terminal",
            Status::InTransit,
            CLERK,
            "",
        ));
        Ok(Effects::default())
    });
    store.update(&sea.id, edit).await.unwrap();
    assert!(stalled(&store, &settings, now, &ids).await.is_empty());
    let later = now + chrono::TimeDelta::hours(13);
    assert_eq!(
        stalled(&store, &settings, later, &ids).await,
        vec![sea.id.clone()]
    );
}

macro_rules! contract {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let (store, log, _dir) = crate::common::sqlite_store_and_audit();
                    super::$case(store, log).await;
                }
            )*
        }
        mod mongo {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    // Without TEST_MONGODB_URI this fails, unless SKIP_MONGO_TESTS=1.
                    if let Some((store, log)) = crate::common::mongo_store_and_audit().await {
                        super::$case(store, log).await;
                    }
                }
            )*
        }
    };
}

contract!(
    insert_then_read_back_by_id_and_tracking_number,
    duplicate_tracking_number_is_refused,
    list_is_newest_first_and_pages_cover_everything_once,
    search_is_case_insensitive_literal_substring_over_six_fields,
    search_ignores_case_and_accents_both_ways,
    status_filter_combines_with_search,
    broad_matches_are_counted_up_to_the_cap_and_still_page,
    update_is_atomic_and_refused_edits_write_nothing,
    delete_removes_records_a_snapshot_and_reports_missing,
    counters_count_within_their_window_only,
    email_rules_default_to_everyone_and_round_trip,
    statistics_count_by_status_lateness_and_day,
    lists_sort_by_expected_delivery_and_filter_by_dates_and_lateness,
    claims_are_unique_until_their_shipment_is_deleted,
    insert_each_keeps_every_shipment_whole_on_its_own,
    imports_are_kept_and_listed_newest_first,
    public_remarks_and_used_confirmations_are_kept,
    rate_cards_save_by_version_and_delete_with_their_audit_entry,
    stalled_shipments_enter_the_queue_after_their_modes_hours,
);

/// Shipments stored before the search folded accents are found by the folded search once the
/// store has migrated.
mod stored_before_folding {
    use super::found_by;
    use crate::common::shipment;
    use mongodb::bson::{Document, doc};
    use shipments::domain::Shipment;
    use shipments::store::{
        Effects, MongoShipmentStore, ShipmentStore, Shipments, SqliteShipmentStore,
    };
    use std::collections::BTreeSet;
    use std::sync::Arc;

    /// The search text as it was stored before: lower-cased only.
    fn lowercased(s: &Shipment) -> String {
        [
            s.tracking_number.as_str(),
            &s.details.shipper_name,
            &s.details.receiver_name,
            &s.details.origin,
            &s.details.destination,
            s.status.as_str(),
        ]
        .join("\n")
        .to_lowercase()
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shipments.sqlite3");
        let (muller, plain) = (shipment("Jürgen Müller", "Köln"), shipment("Ana", "Lima"));
        {
            let store = SqliteShipmentStore::open(&path).unwrap();
            for s in [&muller, &plain] {
                store.insert(s, &Effects::default()).await.unwrap();
            }
        }
        // Back to schema version 1 with its data: the migration must run again.
        let conn = r2d2_sqlite::rusqlite::Connection::open(&path).unwrap();
        for s in [&muller, &plain] {
            conn.execute(
                "UPDATE shipments SET search_text = ? WHERE id = ?",
                [lowercased(s), s.id.clone()],
            )
            .unwrap();
        }
        conn.execute("DELETE FROM shipments_schema_history WHERE version > 1", [])
            .unwrap();
        let indexed: i64 = conn
            .query_row(
                "SELECT count(*) FROM shipments_search WHERE shipments_search MATCH '\"muller\"'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(indexed, 0, "stored unfolded, as before");
        drop(conn);

        let store: Arc<dyn ShipmentStore> = Arc::new(SqliteShipmentStore::open(&path).unwrap());
        let want = BTreeSet::from([muller.id.clone()]);
        assert_eq!(found_by(&store, "muller").await, want);
        assert_eq!(found_by(&store, "KOLN").await, want);
        assert_eq!(found_by(&store, "Müller").await, want);
        assert_eq!(
            found_by(&store, "lima").await,
            BTreeSet::from([plain.id.clone()])
        );
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn mongo() {
        let Some((uri, database)) = test_servers::mongodb() else {
            return;
        };
        let (muller, plain) = (shipment("Jürgen Müller", "Köln"), shipment("Ana", "Lima"));
        let store = MongoShipmentStore::connect(&uri, &database).await.unwrap();
        for s in [&muller, &plain] {
            store.insert(s, &Effects::default()).await.unwrap();
        }
        // Back to schema version 1 with its data: the migration must run again.
        let db = service_common::mongo_client(&uri)
            .await
            .unwrap()
            .database(&database);
        db.collection::<Document>("shipments")
            .update_many(doc! {}, doc! { "$unset": { "searchText": "" } })
            .await
            .unwrap();
        db.collection::<Document>("schema_versions")
            .update_one(
                doc! { "_id": "shipments" },
                doc! { "$set": { "version": 1 } },
            )
            .await
            .unwrap();

        let store: Arc<dyn ShipmentStore> =
            Arc::new(MongoShipmentStore::connect(&uri, &database).await.unwrap());
        let want = BTreeSet::from([muller.id.clone()]);
        assert_eq!(found_by(&store, "muller").await, want);
        assert_eq!(found_by(&store, "KOLN").await, want);
        assert_eq!(found_by(&store, "Müller").await, want);
        assert_eq!(
            found_by(&store, "lima").await,
            BTreeSet::from([plain.id.clone()])
        );
    }
}
