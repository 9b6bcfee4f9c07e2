//! Users in SQLite: one JSON document per user beside the columns the lookups use.

use std::path::Path;

use async_trait::async_trait;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::{self, OptionalExtension, params};

use super::{UserPage, UserStore, cursor, parse_cursor};
use crate::domain::{Email, User, utc_micros};
use crate::error::AuthError;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS users_oldest ON users (created_at, id);
";

#[derive(Clone)]
pub struct SqliteUserStore {
    pool: Pool<SqliteConnectionManager>,
}

impl SqliteUserStore {
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            pool: service_common::sqlite_pool(path, 4, SCHEMA)?,
        })
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&rusqlite::Connection) -> Result<T, AuthError> + Send + 'static,
    ) -> Result<T, AuthError> {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            work(
                &*pool
                    .get()
                    .map_err(|e| AuthError::Unavailable(e.to_string()))?,
            )
        })
        .await
        .map_err(|e| AuthError::Internal(e.to_string()))?
    }
}

fn db_error(e: rusqlite::Error) -> AuthError {
    AuthError::Internal(e.to_string())
}

fn decode(doc: String) -> Result<User, AuthError> {
    serde_json::from_str(&doc)
        .map_err(|e| AuthError::Internal(format!("stored user unreadable: {e}")))
}

fn encode(user: &User) -> Result<String, AuthError> {
    serde_json::to_string(user).map_err(|e| AuthError::Internal(e.to_string()))
}

#[async_trait]
impl UserStore for SqliteUserStore {
    async fn insert(&self, user: &User) -> Result<(), AuthError> {
        let row = (
            user.id.clone(),
            user.email.as_str().to_owned(),
            utc_micros::format(&user.created_at),
            encode(user)?,
        );
        self.run(move |conn| {
            match conn.execute(
                "INSERT INTO users (id, email, created_at, doc) VALUES (?, ?, ?, ?)",
                params![row.0, row.1, row.2, row.3],
            ) {
                Ok(_) => Ok(()),
                Err(rusqlite::Error::SqliteFailure(f, _))
                    if f.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    Err(AuthError::AlreadyExists)
                }
                Err(e) => Err(db_error(e)),
            }
        })
        .await
    }

    async fn get(&self, id: &str) -> Result<User, AuthError> {
        let id = id.to_owned();
        self.run(move |conn| {
            let doc: Option<String> = conn
                .query_row("SELECT doc FROM users WHERE id = ?", [id], |r| r.get(0))
                .optional()
                .map_err(db_error)?;
            decode(doc.ok_or(AuthError::NotFound)?)
        })
        .await
    }

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, AuthError> {
        let email = email.as_str().to_owned();
        self.run(move |conn| {
            let doc: Option<String> = conn
                .query_row("SELECT doc FROM users WHERE email = ?", [email], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(db_error)?;
            doc.map(decode).transpose()
        })
        .await
    }

    async fn count(&self) -> Result<u64, AuthError> {
        self.run(|conn| {
            conn.query_row("SELECT count(*) FROM users", [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(db_error)
        })
        .await
    }

    async fn list(&self, page_size: usize, after: Option<&str>) -> Result<UserPage, AuthError> {
        let after = after.map(parse_cursor).transpose()?;
        self.run(move |conn| {
            let (t, id) = after.unwrap_or_default();
            let mut statement = conn
                .prepare("SELECT doc FROM users WHERE (created_at > ?1 OR (created_at = ?1 AND id > ?2)) ORDER BY created_at, id LIMIT ?3")
                .map_err(db_error)?;
            let docs = statement
                .query_map(params![t, id, page_size as i64 + 1], |r| r.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(db_error)?;
            let mut users = docs.into_iter().map(decode).collect::<Result<Vec<_>, _>>()?;
            let more = users.len() > page_size;
            users.truncate(page_size);
            let next = if more { users.last().map(cursor) } else { None };
            Ok(UserPage { users, next })
        })
        .await
    }

    async fn replace(&self, user: &User) -> Result<User, AuthError> {
        let (id, doc, user) = (user.id.clone(), encode(user)?, user.clone());
        self.run(move |conn| {
            match conn
                .execute("UPDATE users SET doc = ? WHERE id = ?", params![doc, id])
                .map_err(db_error)?
            {
                0 => Err(AuthError::NotFound),
                _ => Ok(user),
            }
        })
        .await
    }
}
