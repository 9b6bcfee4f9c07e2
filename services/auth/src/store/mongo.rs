//! Users in MongoDB (collection `users`, unique index on `email`).

use async_trait::async_trait;
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};

use super::{UserPage, UserStore};
use crate::domain::{Email, User};
use crate::error::AuthError;
use service_common::paging::Keyset;
use service_common::store::migrate::{self, MongoStep};
use service_common::store::{StoreFault, mongo};

#[derive(Clone)]
pub struct MongoUserStore {
    users: Collection<Document>,
}

impl MongoUserStore {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let db = service_common::mongo_client(uri).await?.database(database);
        migrate::mongo(&db, "users", &MIGRATIONS).await?;
        Ok(Self {
            users: db.collection("users"),
        })
    }
}

/// The users' schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 1] = [MongoStep {
    name: "initial",
    apply: initial,
}];

fn initial(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        let unique = IndexOptions::builder()
            .unique(true)
            .name("email_unique".to_owned())
            .build();
        db.collection::<Document>("users")
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "email": 1 })
                    .options(unique)
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "createdAt": 1, "_id": 1 })
                    .build(),
            ])
            .await
            .map(drop)
    })
}

fn to_document(user: &User) -> Result<Document, AuthError> {
    Ok(mongo::to_document(user)?)
}

fn from_document(d: Document) -> Result<User, AuthError> {
    Ok(mongo::from_document("user", d)?)
}

#[async_trait]
impl UserStore for MongoUserStore {
    async fn insert(&self, user: &User) -> Result<(), AuthError> {
        // A taken e-mail (the unique index) is a Duplicate: AlreadyExists.
        self.users
            .insert_one(to_document(user)?)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<User, AuthError> {
        from_document(
            self.users
                .find_one(doc! { "_id": id })
                .await
                .map_err(StoreFault::from)?
                .ok_or(AuthError::NotFound)?,
        )
    }

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, AuthError> {
        self.users
            .find_one(doc! { "email": email.as_str() })
            .await
            .map_err(StoreFault::from)?
            .map(from_document)
            .transpose()
    }

    async fn count(&self) -> Result<u64, AuthError> {
        Ok(self
            .users
            .count_documents(doc! {})
            .await
            .map_err(StoreFault::from)?)
    }

    async fn list(
        &self,
        customer: Option<&str>,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<UserPage, AuthError> {
        // Staff have no customerId field at all.
        let filter = match customer {
            Some(customer) => doc! { "customerId": customer },
            None => doc! { "customerId": { "$exists": false } },
        };
        let oldest_first = mongo::Order {
            field: "createdAt",
            descending: false,
        };
        let (users, next) = mongo::find_page(
            &self.users,
            filter,
            oldest_first,
            after,
            Keyset::new(page_size),
            from_document,
        )
        .await?;
        Ok(UserPage { users, next })
    }

    async fn replace(&self, user: &User) -> Result<User, AuthError> {
        let replaced = self
            .users
            .replace_one(doc! { "_id": &user.id }, to_document(user)?)
            .await
            .map_err(StoreFault::from)?;
        if replaced.matched_count == 0 {
            Err(AuthError::NotFound)
        } else {
            Ok(user.clone())
        }
    }
}
