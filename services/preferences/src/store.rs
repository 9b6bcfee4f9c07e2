//! Where preferences live: one small trait, SQLite and MongoDB.

use std::path::Path;

use async_trait::async_trait;
use mongodb::bson::{Document, doc};
use mongodb::options::ReturnDocument;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::{OptionalExtension, params};

/// A user's preferences; None is "never chosen".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preferences {
    pub is_dark_mode: Option<bool>,
}

#[derive(Debug, thiserror::Error)]
#[error("preference store unavailable: {0}")]
pub struct StoreError(String);

#[async_trait]
pub trait PreferenceStore: Send + Sync + 'static {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError>;
    /// Sets the chosen (Some) fields of `change`, creating the record if needed; returns the result.
    async fn update(&self, user_id: &str, change: Preferences) -> Result<Preferences, StoreError>;
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS user_preferences (
    user_id TEXT PRIMARY KEY,
    is_dark_mode INTEGER
);
";

#[derive(Clone)]
pub struct SqlitePreferenceStore {
    pool: Pool<SqliteConnectionManager>,
}

impl SqlitePreferenceStore {
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            pool: service_common::sqlite_pool(path, 4, SCHEMA)?,
        })
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&r2d2_sqlite::rusqlite::Connection) -> r2d2_sqlite::rusqlite::Result<T>
        + Send
        + 'static,
    ) -> Result<T, StoreError> {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let conn = pool.get().map_err(|e| StoreError(e.to_string()))?;
            work(&conn).map_err(|e| StoreError(e.to_string()))
        })
        .await
        .map_err(|e| StoreError(e.to_string()))?
    }
}

fn read(
    conn: &r2d2_sqlite::rusqlite::Connection,
    user_id: &str,
) -> r2d2_sqlite::rusqlite::Result<Preferences> {
    let dark: Option<Option<bool>> = conn
        .query_row(
            "SELECT is_dark_mode FROM user_preferences WHERE user_id = ?",
            [user_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(Preferences {
        is_dark_mode: dark.flatten(),
    })
}

#[async_trait]
impl PreferenceStore for SqlitePreferenceStore {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError> {
        let user_id = user_id.to_owned();
        self.run(move |conn| read(conn, &user_id)).await
    }

    async fn update(&self, user_id: &str, change: Preferences) -> Result<Preferences, StoreError> {
        let user_id = user_id.to_owned();
        self.run(move |conn| {
            conn.execute(
                "INSERT INTO user_preferences (user_id, is_dark_mode) VALUES (?1, ?2)
                 ON CONFLICT (user_id) DO UPDATE SET is_dark_mode = coalesce(?2, is_dark_mode)",
                params![user_id, change.is_dark_mode],
            )?;
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
        let client = service_common::mongo_client(uri).await?;
        Ok(Self {
            preferences: client.database(database).collection("userPreferences"),
        })
    }
}

fn from_document(d: Option<Document>) -> Preferences {
    Preferences {
        is_dark_mode: d.and_then(|d| d.get_bool("isDarkMode").ok()),
    }
}

fn unavailable(e: mongodb::error::Error) -> StoreError {
    StoreError(e.to_string())
}

#[async_trait]
impl PreferenceStore for MongoPreferenceStore {
    async fn get(&self, user_id: &str) -> Result<Preferences, StoreError> {
        Ok(from_document(
            self.preferences
                .find_one(doc! { "_id": user_id })
                .await
                .map_err(unavailable)?,
        ))
    }

    async fn update(&self, user_id: &str, change: Preferences) -> Result<Preferences, StoreError> {
        let mut set = Document::new();
        if let Some(dark) = change.is_dark_mode {
            set.insert("isDarkMode", dark);
        }
        if set.is_empty() {
            return self.get(user_id).await;
        }
        let saved = self
            .preferences
            .find_one_and_update(doc! { "_id": user_id }, doc! { "$set": set })
            .upsert(true)
            .return_document(ReturnDocument::After)
            .await
            .map_err(unavailable)?;
        Ok(from_document(saved))
    }
}
