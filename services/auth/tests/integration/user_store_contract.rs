//! One contract for both user stores: SQLite and MongoDB.

use std::sync::Arc;

use auth::domain::{self, Email, Role, User};
use auth::error::AuthError;
use auth::store::{MongoUserStore, SqliteUserStore, UserStore};

fn user(email: &str) -> User {
    User::new(
        Email::parse(email).unwrap(),
        "",
        Role::User,
        "hash".into(),
        false,
        domain::now(),
    )
}

async fn insert_find_and_unique_email(store: Arc<dyn UserStore>) {
    assert_eq!(store.count().await.unwrap(), 0);
    let ada = user("ada@example.com");
    store.insert(&ada).await.unwrap();
    assert_eq!(store.get(&ada.id).await.unwrap(), ada);
    assert_eq!(
        store
            .find_by_email(&Email::parse("ADA@example.com").unwrap())
            .await
            .unwrap(),
        Some(ada.clone())
    );
    assert_eq!(
        store
            .find_by_email(&Email::parse("bob@example.com").unwrap())
            .await
            .unwrap(),
        None
    );
    assert!(matches!(
        store.insert(&user("ada@example.com")).await,
        Err(AuthError::AlreadyExists)
    ));
    assert_eq!(store.count().await.unwrap(), 1);
    assert!(matches!(
        store.get("missing").await,
        Err(AuthError::NotFound)
    ));
}

async fn replace_and_page_oldest_first(store: Arc<dyn UserStore>) {
    let mut all = Vec::new();
    for i in 0..5 {
        let u = user(&format!("user{i}@example.com"));
        store.insert(&u).await.unwrap();
        all.push(u);
    }
    all.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = store.list(2, after.as_deref()).await.unwrap();
        seen.extend(page.users.iter().map(|u| u.id.clone()));
        match page.next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    assert_eq!(seen, all.iter().map(|u| u.id.clone()).collect::<Vec<_>>());
    let mut changed = all[0].clone();
    changed.disabled = true;
    assert_eq!(store.replace(&changed).await.unwrap(), changed);
    assert!(store.get(&changed.id).await.unwrap().disabled);
    assert!(matches!(
        store.replace(&user("ghost@example.com")).await,
        Err(AuthError::NotFound)
    ));
}

macro_rules! contract {
    ($($case:ident),*) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                let dir = tempfile::tempdir().unwrap();
                super::$case(std::sync::Arc::new(super::SqliteUserStore::open(&dir.path().join("u.sqlite3")).unwrap())).await;
            }
        )* }
        mod mongo { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                let Some((uri, db)) = test_servers::mongodb() else { return };
                super::$case(std::sync::Arc::new(super::MongoUserStore::connect(&uri, &db).await.unwrap())).await;
            }
        )* }
    };
}

contract!(insert_find_and_unique_email, replace_and_page_oldest_first);
