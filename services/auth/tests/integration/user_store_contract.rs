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
        let page = store.list(None, 2, after.as_deref()).await.unwrap();
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

async fn staff_and_each_customers_users_list_apart(store: Arc<dyn UserStore>) {
    let staff = user("staff@example.com");
    store.insert(&staff).await.unwrap();
    let of = |email: &str, customer: &str| {
        let mut u = user(email);
        u.role = Role::CustomerUser;
        u.customer_id = Some(customer.to_owned());
        u
    };
    let (a, b) = (of("a@acme.example", "acme"), of("b@bolt.example", "bolt"));
    store.insert(&a).await.unwrap();
    store.insert(&b).await.unwrap();
    let ids =
        |page: auth::store::UserPage| page.users.into_iter().map(|u| u.id).collect::<Vec<_>>();
    assert_eq!(ids(store.list(None, 10, None).await.unwrap()), [staff.id]);
    assert_eq!(
        ids(store.list(Some("acme"), 10, None).await.unwrap()),
        std::slice::from_ref(&a.id)
    );
    assert_eq!(
        ids(store.list(Some("bolt"), 10, None).await.unwrap()),
        [b.id]
    );
    assert!(ids(store.list(Some("nobody"), 10, None).await.unwrap()).is_empty());
    assert_eq!(
        store.get(&a.id).await.unwrap().customer_id.as_deref(),
        Some("acme")
    );
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

contract!(
    insert_find_and_unique_email,
    replace_and_page_oldest_first,
    staff_and_each_customers_users_list_apart
);
