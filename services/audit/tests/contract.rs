//! One contract for both audit logs: the embedded SQLite one and MongoDB.

use std::sync::Arc;

use audit::{Action, Actor, AuditEntry, AuditLog, AuditQuery, Change};
use chrono::Duration;

fn actor(email: &str) -> Actor {
    Actor {
        id: format!("id-{email}"),
        email: email.into(),
        client_ip: "203.0.113.7".into(),
        request_id: "req-1".into(),
        api_key: String::new(),
    }
}

fn query(page_size: usize) -> AuditQuery {
    AuditQuery {
        page_size,
        ..Default::default()
    }
}

async fn entries_come_back_as_written_newest_first(log: Arc<dyn AuditLog>) {
    let first = AuditEntry::new(
        &actor("ada@example.com"),
        Action::ShipmentCreate,
        "s1",
        "PSE1",
    )
    .with_summary("created");
    let second = AuditEntry::new(
        &actor("bob@example.com"),
        Action::ShipmentUpdate,
        "s1",
        "PSE1",
    )
    .with_changes(vec![Change {
        field: "receiver.phone".into(),
        before: "\"1\"".into(),
        after: "\"2\"".into(),
    }]);
    log.append(std::slice::from_ref(&first)).await.unwrap();
    log.append(std::slice::from_ref(&second)).await.unwrap();
    let page = log.list(&query(10)).await.unwrap();
    assert_eq!(page.entries, vec![second, first]);
    assert!(page.next.is_none());
}

async fn every_filter_narrows_the_list(log: Arc<dyn AuditLog>) {
    let ada = actor("ada@example.com");
    let bob = actor("bob@example.com");
    let mut old = AuditEntry::new(&ada, Action::ShipmentDelete, "s2", "PSE2");
    old.time -= Duration::days(3);
    let entries = vec![
        old.clone(),
        AuditEntry::new(&ada, Action::ShipmentCreate, "s1", "PSE1"),
        AuditEntry::new(&bob, Action::ShipmentStatusChange, "s1", "PSE1"),
        AuditEntry::new(&bob, Action::UserCreate, "u9", "Carl@Example.com"),
    ];
    log.append(&entries).await.unwrap();
    let count = |q: AuditQuery| {
        let log = log.clone();
        async move { log.list(&q).await.unwrap().entries.len() }
    };
    assert_eq!(
        count(AuditQuery {
            actor: Some("ADA@example.com".into()),
            ..query(10)
        })
        .await,
        2
    );
    assert_eq!(
        count(AuditQuery {
            actor: Some("id-bob@example.com".into()),
            ..query(10)
        })
        .await,
        2
    );
    assert_eq!(
        count(AuditQuery {
            action: Some(Action::UserCreate),
            ..query(10)
        })
        .await,
        1
    );
    assert_eq!(
        count(AuditQuery {
            target: Some("pse1".into()),
            ..query(10)
        })
        .await,
        2,
        "by tracking number, any case"
    );
    assert_eq!(
        count(AuditQuery {
            target: Some("s1".into()),
            ..query(10)
        })
        .await,
        2,
        "by id"
    );
    assert_eq!(
        count(AuditQuery {
            target: Some("carl@example.com".into()),
            ..query(10)
        })
        .await,
        1
    );
    let since = old.time + Duration::days(1);
    assert_eq!(
        count(AuditQuery {
            from: Some(since),
            ..query(10)
        })
        .await,
        3
    );
    assert_eq!(
        count(AuditQuery {
            until: Some(since),
            ..query(10)
        })
        .await,
        1
    );
    assert_eq!(
        count(AuditQuery {
            actor: Some("bob@example.com".into()),
            action: Some(Action::UserCreate),
            ..query(10)
        })
        .await,
        1,
        "filters combine"
    );
}

async fn pages_cover_every_entry_once(log: Arc<dyn AuditLog>) {
    let ada = actor("ada@example.com");
    let mut written = Vec::new();
    for i in 0..7 {
        let entry = AuditEntry::new(
            &ada,
            Action::ShipmentUpdate,
            format!("s{i}"),
            format!("PSE{i}"),
        );
        log.append(std::slice::from_ref(&entry)).await.unwrap();
        written.push(entry.id);
    }
    written.reverse();
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = log
            .list(&AuditQuery {
                after: after.clone(),
                ..query(3)
            })
            .await
            .unwrap();
        seen.extend(page.entries.into_iter().map(|e| e.id));
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, written);
    assert!(
        log.list(&AuditQuery {
            after: Some("nonsense".into()),
            ..query(3)
        })
        .await
        .is_err()
    );
}

async fn a_snapshot_is_kept_whole(log: Arc<dyn AuditLog>) {
    let snapshot = serde_json::json!({"trackingNumber": "PSE9", "receiver": {"name": "Rita"}});
    let entry = AuditEntry::new(
        &actor("ada@example.com"),
        Action::ShipmentDelete,
        "s9",
        "PSE9",
    )
    .with_snapshot(&snapshot);
    log.append(&[entry]).await.unwrap();
    let stored = &log.list(&query(1)).await.unwrap().entries[0];
    let back: serde_json::Value =
        serde_json::from_str(stored.snapshot.as_deref().unwrap()).unwrap();
    assert_eq!(back, snapshot);
}

#[tokio::test]
async fn the_embedded_log_refuses_to_change_or_delete_an_entry() {
    let dir = tempfile::tempdir().unwrap();
    let log = audit::SqliteAuditLog::open(dir.path()).unwrap();
    log.append(&[AuditEntry::new(
        &actor("ada@example.com"),
        Action::SignIn,
        "u1",
        "ada@example.com",
    )])
    .await
    .unwrap();
    let conn = r2d2_sqlite::rusqlite::Connection::open(dir.path().join(audit::store::sqlite::FILE))
        .unwrap();
    for sql in ["UPDATE audit SET actor_email = 'x'", "DELETE FROM audit"] {
        let refused = conn.execute(sql, []).unwrap_err();
        assert!(
            refused.to_string().contains("append-only"),
            "{sql}: {refused}"
        );
    }
    assert_eq!(log.list(&query(10)).await.unwrap().entries.len(), 1);
}

macro_rules! contract {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$case(std::sync::Arc::new(audit::SqliteAuditLog::open(dir.path()).unwrap())).await;
                }
            )*
        }
        mod mongo {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let Some((uri, database)) = test_servers::mongodb() else { return };
                    super::$case(std::sync::Arc::new(audit::MongoAuditLog::connect(&uri, &database).await.unwrap())).await;
                }
            )*
        }
    };
}

contract!(
    entries_come_back_as_written_newest_first,
    every_filter_narrows_the_list,
    pages_cover_every_entry_once,
    a_snapshot_is_kept_whole,
);
