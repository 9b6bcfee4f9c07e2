//! Where API keys live: one trait, SQLite (the default, beside the users) and MongoDB.

use std::path::Path;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};
use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use service_common::paging::{self, Keyset};
use service_common::store::migrate::{self, MongoStep, Schema, Step};
use service_common::store::{Sqlite, StoreFault, json, mongo, sqlite};

use super::{ApiKey, Owner};
use crate::domain::utc_micros;
use crate::error::AuthError;

/// One page of keys, newest first; `next` is the cursor after the last one.
pub struct ApiKeyPage {
    pub keys: Vec<ApiKey>,
    pub next: Option<String>,
}

#[async_trait]
pub trait ApiKeyStore: Send + Sync + 'static {
    async fn insert(&self, key: &ApiKey) -> Result<(), AuthError>;
    /// Errors: ApiKeyNotFound.
    async fn get(&self, id: &str) -> Result<ApiKey, AuthError>;
    async fn find_by_hash(&self, secret_hash: &str) -> Result<Option<ApiKey>, AuthError>;
    /// The owner's keys, newest first; `after` is a cursor from a previous page.
    async fn list(
        &self,
        owner: &Owner,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<ApiKeyPage, AuthError>;
    /// How many of the owner's keys are not revoked.
    async fn count_unrevoked(&self, owner: &Owner) -> Result<u64, AuthError>;
    /// Marks the key revoked at `at` unless it already is; the key as stored after.
    async fn revoke(&self, id: &str, at: DateTime<Utc>) -> Result<ApiKey, AuthError>;
    /// Adds `calls` to the key's count for the day of `at`, and makes `at` its last use when
    /// later; days beyond the last 14 are dropped.
    async fn add_usage(&self, id: &str, calls: i64, at: DateTime<Utc>) -> Result<(), AuthError>;
}

/// The owner as one stored value: `customer:<id>` or `user:<id>`.
fn owner_key(owner: &Owner) -> String {
    match owner {
        Owner::Customer(id) => format!("customer:{id}"),
        Owner::Staff(id) => format!("user:{id}"),
    }
}

const SCHEMA: Schema = Schema {
    store: "api_keys",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    created_at TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS api_keys_newest ON api_keys (owner, created_at, id);
",
    }],
};

#[derive(Clone)]
pub struct SqliteApiKeyStore {
    db: Sqlite,
}

impl SqliteApiKeyStore {
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            db: Sqlite::open(path, 4, &[&SCHEMA])?,
        })
    }
}

fn decode(doc: String) -> Result<ApiKey, AuthError> {
    Ok(json::decode("API key", &doc)?)
}

fn read_doc(conn: &r2d2_sqlite::rusqlite::Connection, id: &str) -> Result<ApiKey, AuthError> {
    let doc: Option<String> = conn
        .query_row("SELECT doc FROM api_keys WHERE id = ?", [id], |r| r.get(0))
        .optional()
        .map_err(StoreFault::from)?;
    decode(doc.ok_or(AuthError::ApiKeyNotFound)?)
}

fn write_doc(conn: &r2d2_sqlite::rusqlite::Connection, key: &ApiKey) -> Result<(), AuthError> {
    conn.execute(
        "UPDATE api_keys SET doc = ? WHERE id = ?",
        params![json::encode(key)?, key.id],
    )
    .map_err(StoreFault::from)?;
    Ok(())
}

#[async_trait]
impl ApiKeyStore for SqliteApiKeyStore {
    async fn insert(&self, key: &ApiKey) -> Result<(), AuthError> {
        let row = (
            key.id.clone(),
            key.secret_hash.clone(),
            owner_key(&key.owner()),
            utc_micros::format(&key.created_at),
            json::encode(key)?,
        );
        self.db
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO api_keys (id, secret_hash, owner, created_at, doc) VALUES (?, ?, ?, ?, ?)",
                    params![row.0, row.1, row.2, row.3, row.4],
                )
                .map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get(&self, id: &str) -> Result<ApiKey, AuthError> {
        let id = id.to_owned();
        self.db.run(move |conn| read_doc(conn, &id)).await
    }

    async fn find_by_hash(&self, secret_hash: &str) -> Result<Option<ApiKey>, AuthError> {
        let hash = secret_hash.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row(
                        "SELECT doc FROM api_keys WHERE secret_hash = ?",
                        [hash],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                doc.map(decode).transpose()
            })
            .await
    }

    async fn list(
        &self,
        owner: &Owner,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<ApiKeyPage, AuthError> {
        let after = after.map(str::to_owned);
        let owner = owner_key(owner);
        let newest_first = sqlite::Order {
            by: Some("created_at"),
            key: "id",
            integer_key: false,
            descending: true,
        };
        self.db
            .run(move |conn| {
                let (docs, next) = sqlite::page::<String, AuthError>(
                    conn,
                    "SELECT created_at, id, doc FROM api_keys WHERE owner = ?",
                    vec![owner.into()],
                    newest_first,
                    after.as_deref(),
                    Keyset::new(page_size),
                    |r| {
                        let cursor = paging::cursor(r.get::<_, String>(0)?, r.get::<_, String>(1)?);
                        Ok((cursor, r.get(2)?))
                    },
                )?;
                let keys = docs.into_iter().map(decode).collect::<Result<_, _>>()?;
                Ok(ApiKeyPage { keys, next })
            })
            .await
    }

    async fn count_unrevoked(&self, owner: &Owner) -> Result<u64, AuthError> {
        let owner = owner_key(owner);
        self.db
            .run(move |conn| {
                let n = conn
                    .query_row(
                        "SELECT count(*) FROM api_keys WHERE owner = ? \
                         AND json_extract(doc, '$.revokedAt') IS NULL",
                        [owner],
                        |r| r.get::<_, i64>(0),
                    )
                    .map_err(StoreFault::from)?;
                Ok(n as u64)
            })
            .await
    }

    async fn revoke(&self, id: &str, at: DateTime<Utc>) -> Result<ApiKey, AuthError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let mut key = read_doc(conn, &id)?;
                if key.revoked_at.is_none() {
                    key.revoked_at = Some(at);
                    write_doc(conn, &key)?;
                }
                Ok(key)
            })
            .await
    }

    async fn add_usage(&self, id: &str, calls: i64, at: DateTime<Utc>) -> Result<(), AuthError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let mut key = read_doc(conn, &id)?;
                key.count_calls(calls, at);
                write_doc(conn, &key)
            })
            .await
    }
}

/// Keys in MongoDB (collection `api_keys`, unique index on the secret's hash).
#[derive(Clone)]
pub struct MongoApiKeyStore {
    keys: Collection<Document>,
}

impl MongoApiKeyStore {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let db = service_common::mongo_client(uri).await?.database(database);
        migrate::mongo(&db, "api_keys", &MIGRATIONS).await?;
        Ok(Self {
            keys: db.collection("api_keys"),
        })
    }

    async fn find(&self, filter: Document) -> Result<Option<ApiKey>, AuthError> {
        self.keys
            .find_one(filter)
            .await
            .map_err(StoreFault::from)?
            .map(|d| Ok(mongo::from_document("API key", d)?))
            .transpose()
    }
}

/// The keys' schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 1] = [MongoStep {
    name: "initial",
    apply: initial,
}];

fn initial(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        let unique = IndexOptions::builder()
            .unique(true)
            .name("secret_hash_unique".to_owned())
            .build();
        db.collection::<Document>("api_keys")
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "secretHash": 1 })
                    .options(unique)
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "owner": 1, "createdAt": -1, "_id": -1 })
                    .build(),
            ])
            .await
            .map(drop)
    })
}

/// The stored document: the key, and its owner as one field the list filters by.
fn to_document(key: &ApiKey) -> Result<Document, AuthError> {
    let mut document = mongo::to_document(key)?;
    document.insert("owner", owner_key(&key.owner()));
    Ok(document)
}

#[async_trait]
impl ApiKeyStore for MongoApiKeyStore {
    async fn insert(&self, key: &ApiKey) -> Result<(), AuthError> {
        self.keys
            .insert_one(to_document(key)?)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<ApiKey, AuthError> {
        self.find(doc! { "_id": id })
            .await?
            .ok_or(AuthError::ApiKeyNotFound)
    }

    async fn find_by_hash(&self, secret_hash: &str) -> Result<Option<ApiKey>, AuthError> {
        self.find(doc! { "secretHash": secret_hash }).await
    }

    async fn list(
        &self,
        owner: &Owner,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<ApiKeyPage, AuthError> {
        let newest_first = mongo::Order {
            field: "createdAt",
            descending: true,
        };
        let (keys, next) = mongo::find_page(
            &self.keys,
            doc! { "owner": owner_key(owner) },
            newest_first,
            after,
            Keyset::new(page_size),
            |d| -> Result<ApiKey, AuthError> { Ok(mongo::from_document("API key", d)?) },
        )
        .await?;
        Ok(ApiKeyPage { keys, next })
    }

    async fn count_unrevoked(&self, owner: &Owner) -> Result<u64, AuthError> {
        Ok(self
            .keys
            .count_documents(doc! { "owner": owner_key(owner), "revokedAt": { "$exists": false } })
            .await
            .map_err(StoreFault::from)?)
    }

    async fn revoke(&self, id: &str, at: DateTime<Utc>) -> Result<ApiKey, AuthError> {
        self.keys
            .update_one(
                doc! { "_id": id, "revokedAt": { "$exists": false } },
                doc! { "$set": { "revokedAt": utc_micros::format(&at) } },
            )
            .await
            .map_err(StoreFault::from)?;
        self.get(id).await
    }

    async fn add_usage(&self, id: &str, calls: i64, at: DateTime<Utc>) -> Result<(), AuthError> {
        // One atomic update, so replicas reporting at once lose no count; the stored time
        // strings order as the times do.
        let day = at.format("%Y-%m-%d").to_string();
        let updated = self
            .keys
            .find_one_and_update(
                doc! { "_id": id },
                doc! {
                    "$inc": { format!("usage.{day}"): calls, "usageVersion": 1_i64 },
                    "$max": { "lastUsedAt": utc_micros::format(&at) },
                },
            )
            .return_document(mongodb::options::ReturnDocument::After)
            .await
            .map_err(StoreFault::from)?
            .ok_or(AuthError::ApiKeyNotFound)?;
        let key: ApiKey = mongo::from_document("API key", updated)?;
        let stale: Vec<&String> = key.usage.keys().rev().skip(super::USAGE_DAYS).collect();
        if !stale.is_empty() {
            let unset: Document = stale
                .into_iter()
                .map(|day| (format!("usage.{day}"), mongodb::bson::Bson::from("")))
                .collect();
            self.keys
                .update_one(doc! { "_id": id }, doc! { "$unset": unset })
                .await
                .map_err(StoreFault::from)?;
        }
        Ok(())
    }
}
