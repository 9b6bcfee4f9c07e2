//! Users in MongoDB (collection `users`, unique index on `email`).

use async_trait::async_trait;
use futures::TryStreamExt;
use mongodb::bson::{self, Bson, Document, doc};
use mongodb::error::{Error as MongoError, ErrorKind, WriteFailure};
use mongodb::options::IndexOptions;
use mongodb::{Collection, IndexModel};

use super::{UserPage, UserStore, cursor, parse_cursor};
use crate::domain::{Email, User};
use crate::error::AuthError;

#[derive(Clone)]
pub struct MongoUserStore {
    users: Collection<Document>,
}

impl MongoUserStore {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let db = service_common::mongo_client(uri).await?.database(database);
        let users = db.collection::<Document>("users");
        let unique = IndexOptions::builder()
            .unique(true)
            .name("email_unique".to_owned())
            .build();
        users
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "email": 1 })
                    .options(unique)
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "createdAt": 1, "_id": 1 })
                    .build(),
            ])
            .await?;
        Ok(Self { users })
    }
}

fn to_document(user: &User) -> Result<Document, AuthError> {
    let mut d = bson::to_document(user).map_err(|e| AuthError::Internal(e.to_string()))?;
    let id = d.remove("id").unwrap_or(Bson::Null);
    d.insert("_id", id);
    Ok(d)
}

fn from_document(mut d: Document) -> Result<User, AuthError> {
    if let Some(id) = d.remove("_id") {
        d.insert("id", id);
    }
    bson::from_document(d).map_err(|e| AuthError::Internal(format!("stored user unreadable: {e}")))
}

fn db_error(e: MongoError) -> AuthError {
    if service_common::mongo_unreachable(&e) {
        AuthError::Unavailable(e.to_string())
    } else {
        AuthError::Internal(e.to_string())
    }
}

#[async_trait]
impl UserStore for MongoUserStore {
    async fn insert(&self, user: &User) -> Result<(), AuthError> {
        match self.users.insert_one(to_document(user)?).await {
            Ok(_) => Ok(()),
            Err(e) if matches!(&*e.kind, ErrorKind::Write(WriteFailure::WriteError(w)) if w.code == 11000) => {
                Err(AuthError::AlreadyExists)
            }
            Err(e) => Err(db_error(e)),
        }
    }

    async fn get(&self, id: &str) -> Result<User, AuthError> {
        from_document(
            self.users
                .find_one(doc! { "_id": id })
                .await
                .map_err(db_error)?
                .ok_or(AuthError::NotFound)?,
        )
    }

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, AuthError> {
        self.users
            .find_one(doc! { "email": email.as_str() })
            .await
            .map_err(db_error)?
            .map(from_document)
            .transpose()
    }

    async fn count(&self) -> Result<u64, AuthError> {
        self.users.count_documents(doc! {}).await.map_err(db_error)
    }

    async fn list(&self, page_size: usize, after: Option<&str>) -> Result<UserPage, AuthError> {
        let filter = match after.map(parse_cursor).transpose()? {
            Some((t, id)) => {
                doc! { "$or": [ { "createdAt": { "$gt": &t } }, { "createdAt": &t, "_id": { "$gt": id } } ] }
            }
            None => doc! {},
        };
        let docs: Vec<Document> = self
            .users
            .find(filter)
            .sort(doc! { "createdAt": 1, "_id": 1 })
            .limit(page_size as i64 + 1)
            .await
            .map_err(db_error)?
            .try_collect()
            .await
            .map_err(db_error)?;
        let mut users = docs
            .into_iter()
            .map(from_document)
            .collect::<Result<Vec<_>, _>>()?;
        let more = users.len() > page_size;
        users.truncate(page_size);
        let next = if more { users.last().map(cursor) } else { None };
        Ok(UserPage { users, next })
    }

    async fn replace(&self, user: &User) -> Result<User, AuthError> {
        let replaced = self
            .users
            .replace_one(doc! { "_id": &user.id }, to_document(user)?)
            .await
            .map_err(db_error)?;
        if replaced.matched_count == 0 {
            Err(AuthError::NotFound)
        } else {
            Ok(user.clone())
        }
    }
}
