//! Where preferences live: one small trait, SQLite and MongoDB.

use std::path::Path;

use async_trait::async_trait;
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::options::ReturnDocument;
use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use service_common::store::migrate::{self, MongoStep, Schema, Step};
use service_common::store::{Sqlite, StoreFault};

/// A user's preferences; None is "never chosen".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preferences {
    pub is_dark_mode: Option<bool>,
}

/// What an update changes: None leaves a field alone, Some(None) forgets the choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PreferenceChange {
    pub is_dark_mode: Option<Option<bool>>,
}

#[derive(Debug, thiserror::Error)]
#[error("preference store unavailable: {0}")]
pub struct StoreError(String);

impl From<StoreFault> for StoreError {
    fn from(fault: StoreFault) -> Self {
        Self(fault.to_string())
    }
}

#[async_trait]
pub trait PreferenceStore: Send + Sync + 'static {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError>;
    /// Applies the named (Some) fields of `change`, creating the record if needed; returns the
    /// result.
    async fn update(
        &self,
        user_id: &str,
        change: PreferenceChange,
    ) -> Result<Preferences, StoreError>;
}

const SCHEMA: Schema = Schema {
    store: "preferences",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS user_preferences (
    user_id TEXT PRIMARY KEY,
    is_dark_mode INTEGER
);
",
    }],
};

#[derive(Clone)]
pub struct SqlitePreferenceStore {
    db: Sqlite,
}

impl SqlitePreferenceStore {
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            db: Sqlite::open(path, 4, &[&SCHEMA])?,
        })
    }
}

fn read(
    conn: &r2d2_sqlite::rusqlite::Connection,
    user_id: &str,
) -> Result<Preferences, StoreError> {
    let dark: Option<Option<bool>> = conn
        .query_row(
            "SELECT is_dark_mode FROM user_preferences WHERE user_id = ?",
            [user_id],
            |r| r.get(0),
        )
        .optional()
        .map_err(StoreFault::from)?;
    Ok(Preferences {
        is_dark_mode: dark.flatten(),
    })
}

#[async_trait]
impl PreferenceStore for SqlitePreferenceStore {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError> {
        let user_id = user_id.to_owned();
        self.db.run(move |conn| read(conn, &user_id)).await
    }

    async fn update(
        &self,
        user_id: &str,
        change: PreferenceChange,
    ) -> Result<Preferences, StoreError> {
        let user_id = user_id.to_owned();
        self.db
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO user_preferences (user_id, is_dark_mode) VALUES (?1, ?2)
                 ON CONFLICT (user_id) DO UPDATE
                 SET is_dark_mode = CASE WHEN ?3 THEN ?2 ELSE is_dark_mode END",
                    params![
                        user_id,
                        change.is_dark_mode.flatten(),
                        change.is_dark_mode.is_some()
                    ],
                )
                .map_err(StoreFault::from)?;
                read(conn, &user_id)
            })
            .await
    }
}

#[derive(Clone)]
pub struct MongoPreferenceStore {
    preferences: mongodb::Collection<Document>,
}

impl MongoPreferenceStore {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let db = service_common::mongo_client(uri).await?.database(database);
        migrate::mongo(&db, "preferences", &MIGRATIONS).await?;
        Ok(Self {
            preferences: db.collection("userPreferences"),
        })
    }
}

/// The preferences' schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 1] = [MongoStep {
    name: "initial",
    apply: initial,
}];

/// Documents keyed by user id need no index: version 1 is the base later steps build on.
fn initial(_db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async { Ok(()) })
}

fn from_document(d: Option<Document>) -> Preferences {
    Preferences {
        is_dark_mode: d.and_then(|d| d.get_bool("isDarkMode").ok()),
    }
}

#[async_trait]
impl PreferenceStore for MongoPreferenceStore {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError> {
        Ok(from_document(
            self.preferences
                .find_one(doc! { "_id": user_id })
                .await
                .map_err(StoreFault::from)?,
        ))
    }

    async fn update(
        &self,
        user_id: &str,
        change: PreferenceChange,
    ) -> Result<Preferences, StoreError> {
        let mut set = Document::new();
        let mut unset = Document::new();
        match change.is_dark_mode {
            Some(Some(dark)) => set.insert("isDarkMode", dark),
            Some(None) => unset.insert("isDarkMode", ""),
            None => None,
        };
        if set.is_empty() && unset.is_empty() {
            return self.get(user_id).await;
        }
        let mut update = Document::new();
        if !set.is_empty() {
            update.insert("$set", set);
        }
        if !unset.is_empty() {
            update.insert("$unset", unset);
        }
        let saved = self
            .preferences
            .find_one_and_update(doc! { "_id": user_id }, update)
            .upsert(true)
            .return_document(ReturnDocument::After)
            .await
            .map_err(StoreFault::from)?;
        Ok(from_document(saved))
    }
}
