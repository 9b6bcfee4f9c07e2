//! Users in SQLite: one JSON document per user beside the columns the lookups use.

use std::path::Path;

use async_trait::async_trait;
use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use service_common::paging::{self, Keyset};
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault, json, sqlite};

use super::{UserPage, UserStore};
use crate::domain::{Email, User, utc_micros};
use crate::error::AuthError;

const SCHEMA: Schema = Schema {
    store: "users",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS users_oldest ON users (created_at, id);
",
    }],
};

#[derive(Clone)]
pub struct SqliteUserStore {
    db: Sqlite,
}

impl SqliteUserStore {
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            db: Sqlite::open(path, 4, &[&SCHEMA])?,
        })
    }
}

fn decode(doc: String) -> Result<User, AuthError> {
    Ok(json::decode("user", &doc)?)
}

#[async_trait]
impl UserStore for SqliteUserStore {
    async fn insert(&self, user: &User) -> Result<(), AuthError> {
        let row = (
            user.id.clone(),
            user.email.as_str().to_owned(),
            utc_micros::format(&user.created_at),
            json::encode(user)?,
        );
        self.db
            .write(move |conn| {
                // A taken e-mail (or id) is a Duplicate: AlreadyExists.
                conn.execute(
                    "INSERT INTO users (id, email, created_at, doc) VALUES (?, ?, ?, ?)",
                    params![row.0, row.1, row.2, row.3],
                )
                .map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get(&self, id: &str) -> Result<User, AuthError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM users WHERE id = ?", [id], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                decode(doc.ok_or(AuthError::NotFound)?)
            })
            .await
    }

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, AuthError> {
        let email = email.as_str().to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM users WHERE email = ?", [email], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(StoreFault::from)?;
                doc.map(decode).transpose()
            })
            .await
    }

    async fn count(&self) -> Result<u64, AuthError> {
        self.db
            .run(|conn| {
                let n = conn
                    .query_row("SELECT count(*) FROM users", [], |r| r.get::<_, i64>(0))
                    .map_err(StoreFault::from)?;
                Ok(n as u64)
            })
            .await
    }

    async fn list(
        &self,
        customer: Option<&str>,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<UserPage, AuthError> {
        let after = after.map(str::to_owned);
        // Staff have no customer: '' selects them. Users are few, a scan is fine.
        let customer = customer.unwrap_or_default().to_owned();
        let oldest_first = sqlite::Order {
            by: Some("created_at"),
            key: "id",
            integer_key: false,
            descending: false,
        };
        self.db
            .run(move |conn| {
                let (docs, next) = sqlite::page::<String, AuthError>(
                    conn,
                    "SELECT created_at, id, doc FROM users \
                     WHERE coalesce(json_extract(doc, '$.customerId'), '') = ?",
                    vec![customer.into()],
                    oldest_first,
                    after.as_deref(),
                    Keyset::new(page_size),
                    |r| {
                        let cursor = paging::cursor(r.get::<_, String>(0)?, r.get::<_, String>(1)?);
                        Ok((cursor, r.get(2)?))
                    },
                )?;
                let users = docs
                    .into_iter()
                    .map(decode)
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(UserPage { users, next })
            })
            .await
    }

    async fn replace(&self, user: &User) -> Result<User, AuthError> {
        let (id, doc, user) = (user.id.clone(), json::encode(user)?, user.clone());
        self.db
            .write(move |conn| {
                match conn
                    .execute("UPDATE users SET doc = ? WHERE id = ?", params![doc, id])
                    .map_err(StoreFault::from)?
                {
                    0 => Err(AuthError::NotFound),
                    _ => Ok(user),
                }
            })
            .await
    }
}
