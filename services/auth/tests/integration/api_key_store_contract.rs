//! One contract for both API key stores: SQLite and MongoDB.

use std::collections::BTreeMap;
use std::sync::Arc;

use auth::api_keys::{ApiKey, ApiKeyStore, MongoApiKeyStore, Owner, SqliteApiKeyStore};
use auth::domain;
use auth::error::AuthError;
use chrono::Duration;

fn key(name: &str, customer: Option<&str>, creator: &str) -> ApiKey {
    ApiKey {
        id: service_common::new_id(),
        display_name: name.into(),
        scopes: vec!["shipments.read".into()],
        secret_hash: service_auth::api_key_hash(&format!("lk_{name}")),
        secret_prefix: "lk_abcdef".into(),
        creator_id: creator.into(),
        creator_email: format!("{creator}@example.com"),
        customer_id: customer.map(str::to_owned),
        created_at: domain::now(),
        expires_at: None,
        revoked_at: None,
        last_used_at: None,
        usage: BTreeMap::new(),
        usage_version: 0,
    }
}

async fn keys_are_found_by_hash_and_listed_per_owner(store: Arc<dyn ApiKeyStore>) {
    let first = key("erp", Some("acme"), "ann");
    let second = ApiKey {
        created_at: first.created_at + Duration::milliseconds(5),
        ..key("crm", Some("acme"), "bob")
    };
    let staff = key("reports", None, "cat");
    for k in [&first, &second, &staff] {
        store.insert(k).await.unwrap();
    }
    assert_eq!(
        store.find_by_hash(&first.secret_hash).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(store.find_by_hash("0000").await.unwrap(), None);
    assert!(matches!(
        store.get("missing").await,
        Err(AuthError::ApiKeyNotFound)
    ));
    let acme = Owner::Customer("acme".into());
    let page = store.list(&acme, 1, None).await.unwrap();
    assert_eq!(page.keys, vec![second.clone()], "newest first");
    let rest = store.list(&acme, 1, page.next.as_deref()).await.unwrap();
    assert_eq!((rest.keys, rest.next), (vec![first.clone()], None));
    let cats = store
        .list(&Owner::Staff("cat".into()), 10, None)
        .await
        .unwrap();
    assert_eq!(
        cats.keys,
        vec![staff.clone()],
        "a staff user's own keys only"
    );
    assert_eq!(store.count_unrevoked(&acme).await.unwrap(), 2);

    let at = domain::now();
    let revoked = store.revoke(&first.id, at).await.unwrap();
    assert!(revoked.revoked_at.is_some());
    let again = store
        .revoke(&first.id, at + Duration::seconds(9))
        .await
        .unwrap();
    assert_eq!(again.revoked_at, revoked.revoked_at, "revoked once");
    assert_eq!(store.count_unrevoked(&acme).await.unwrap(), 1);
}

async fn usage_adds_up_across_writers(store: Arc<dyn ApiKeyStore>) {
    let k = key("erp", Some("acme"), "ann");
    store.insert(&k).await.unwrap();
    let at = domain::now();
    let writers: Vec<_> = (0..8)
        .map(|i| {
            let (store, id) = (store.clone(), k.id.clone());
            tokio::spawn(async move {
                store
                    .add_usage(&id, 5, at + Duration::milliseconds(i))
                    .await
                    .unwrap()
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    let stored = store.get(&k.id).await.unwrap();
    assert_eq!(stored.usage.values().sum::<i64>(), 40, "no count lost");
    assert_eq!(stored.last_used_at, Some(at + Duration::milliseconds(7)));
    // Fifteen earlier days: the last fourteen days that had calls are kept.
    for day in 1..=15 {
        store
            .add_usage(&k.id, 1, at - Duration::days(day))
            .await
            .unwrap();
    }
    let stored = store.get(&k.id).await.unwrap();
    assert_eq!(stored.usage.len(), 14);
    assert_eq!(
        stored.usage.values().sum::<i64>(),
        40 + 13,
        "today's and the 13 days before it"
    );
    assert_eq!(
        stored.last_used_at,
        Some(at + Duration::milliseconds(7)),
        "the latest use stays"
    );
}

macro_rules! contract {
    ($($case:ident),*) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                let dir = tempfile::tempdir().unwrap();
                super::$case(std::sync::Arc::new(super::SqliteApiKeyStore::open(&dir.path().join("k.sqlite3")).unwrap())).await;
            }
        )* }
        mod mongo { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                let Some((uri, db)) = test_servers::mongodb() else { return };
                super::$case(std::sync::Arc::new(super::MongoApiKeyStore::connect(&uri, &db).await.unwrap())).await;
            }
        )* }
    };
}

contract!(
    keys_are_found_by_hash_and_listed_per_owner,
    usage_adds_up_across_writers
);
