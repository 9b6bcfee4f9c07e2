//! `Idempotency-Key` on the JSON API's creating methods: the first call with a key runs, and
//! a retry with the same key and body gets the first answer again instead of running twice
//! (a retried booking never makes two shipments). Answers are kept 24 hours, in Redis or in
//! the sessions' file, so a retry after a restart is answered too.

use std::path::Path;
use std::time::Duration;

use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault};
use sha2::{Digest, Sha256};

use crate::redis_call::bounded;

/// How long an answer is kept for a retry.
const KEPT: Duration = Duration::from_secs(24 * 3600);
/// How long a call in progress holds its key (a retry meanwhile is told to wait).
const HELD: Duration = Duration::from_secs(60);
/// The longest key taken.
pub const MAX_KEY_CHARS: usize = 255;

const SCHEMA: Schema = Schema {
    store: "idempotency",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE idempotency (
    key TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX idempotency_by_expiry ON idempotency (expires_at);
",
    }],
};

/// What a key holds: the request it was first used with and, once done, the answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Record {
    fingerprint: String,
    answer: Option<Answer>,
}

/// An answer as it went out.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// What a key says about a call.
#[derive(Debug, PartialEq)]
pub enum Claim {
    /// First use: run it, then `finish` (or `release` to let a retry run it).
    New,
    /// Answered before: send this again.
    Done(Answer),
    /// Still running under this key.
    InProgress,
    /// The key was used with another request.
    Mismatch,
}

#[derive(Clone)]
enum Backend {
    Embedded(Sqlite),
    Redis(ConnectionManager),
}

#[derive(Clone)]
pub struct Idempotency {
    backend: Backend,
}

/// The store's key of a caller's key for a method: hashed, so its length is fixed.
pub fn store_key(caller: &str, path: &str, key: &str) -> String {
    let digest = Sha256::digest(format!("{caller}\n{path}\n{key}"));
    format!("idempotency:{}", hex(&digest))
}

/// The fingerprint of a request's body.
pub fn fingerprint(body: &[u8]) -> String {
    hex(&Sha256::digest(body))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn judge(record: Record, fingerprint: &str) -> Claim {
    if record.fingerprint != fingerprint {
        return Claim::Mismatch;
    }
    match record.answer {
        Some(answer) => Claim::Done(answer),
        None => Claim::InProgress,
    }
}

impl Idempotency {
    /// The keys kept in the sessions' file in `data_dir`.
    pub fn embedded(data_dir: &Path) -> anyhow::Result<Self> {
        let db = Sqlite::open(&data_dir.join(crate::session::FILE), 2, &[&SCHEMA])?;
        Ok(Self {
            backend: Backend::Embedded(db),
        })
    }

    pub fn redis(connection: ConnectionManager) -> Self {
        Self {
            backend: Backend::Redis(connection),
        }
    }

    /// Claims `key` for a request with `fingerprint`, unless it was used already.
    pub async fn claim(&self, key: &str, fingerprint: &str) -> Result<Claim, String> {
        let pending = Record {
            fingerprint: fingerprint.to_owned(),
            answer: None,
        };
        let doc = serde_json::to_string(&pending).map_err(|e| e.to_string())?;
        match &self.backend {
            Backend::Embedded(db) => {
                let (key, fingerprint) = (key.to_owned(), fingerprint.to_owned());
                db.write(move |conn| {
                    let tx = conn.transaction()?;
                    let now = now_ms();
                    tx.execute("DELETE FROM idempotency WHERE expires_at <= ?1", [now])?;
                    let found: Option<String> = tx
                        .query_row(
                            "SELECT doc FROM idempotency WHERE key = ?1",
                            [&key],
                            |row| row.get(0),
                        )
                        .optional()?;
                    let claim = match found {
                        Some(doc) => judge(
                            serde_json::from_str(&doc)
                                .map_err(|e| StoreFault::Internal(e.to_string()))?,
                            &fingerprint,
                        ),
                        None => {
                            tx.execute(
                                "INSERT INTO idempotency (key, doc, expires_at) VALUES (?1, ?2, ?3)",
                                params![key, doc, now + HELD.as_millis() as i64],
                            )?;
                            Claim::New
                        }
                    };
                    tx.commit()?;
                    Ok::<_, StoreFault>(claim)
                })
                .await
                .map_err(|e| e.to_string())
            }
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                let set: Option<String> = bounded(
                    redis::cmd("SET")
                        .arg(key)
                        .arg(&doc)
                        .arg("NX")
                        .arg("EX")
                        .arg(HELD.as_secs())
                        .query_async(&mut connection),
                )
                .await?;
                if set.is_some() {
                    return Ok(Claim::New);
                }
                let found: Option<String> =
                    bounded(redis::cmd("GET").arg(key).query_async(&mut connection)).await?;
                match found {
                    Some(doc) => Ok(judge(
                        serde_json::from_str(&doc).map_err(|e| e.to_string())?,
                        fingerprint,
                    )),
                    // Expired between the two calls: as held by another.
                    None => Ok(Claim::InProgress),
                }
            }
        }
    }

    /// Keeps `answer` for the retries of the claimed `key`.
    pub async fn finish(&self, key: &str, fingerprint: &str, answer: Answer) -> Result<(), String> {
        let doc = serde_json::to_string(&Record {
            fingerprint: fingerprint.to_owned(),
            answer: Some(answer),
        })
        .map_err(|e| e.to_string())?;
        match &self.backend {
            Backend::Embedded(db) => {
                let key = key.to_owned();
                db.write(move |conn| {
                    conn.execute(
                        "INSERT OR REPLACE INTO idempotency (key, doc, expires_at) VALUES (?1, ?2, ?3)",
                        params![key, doc, now_ms() + KEPT.as_millis() as i64],
                    )?;
                    Ok::<_, StoreFault>(())
                })
                .await
                .map_err(|e| e.to_string())
            }
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                bounded(
                    redis::cmd("SET")
                        .arg(key)
                        .arg(doc)
                        .arg("EX")
                        .arg(KEPT.as_secs())
                        .query_async::<()>(&mut connection),
                )
                .await
            }
        }
    }

    /// Lets a retry run the claimed `key` again (the call failed in a way worth retrying).
    pub async fn release(&self, key: &str) -> Result<(), String> {
        match &self.backend {
            Backend::Embedded(db) => {
                let key = key.to_owned();
                db.write(move |conn| {
                    conn.execute("DELETE FROM idempotency WHERE key = ?1", [key])?;
                    Ok::<_, StoreFault>(())
                })
                .await
                .map_err(|e| e.to_string())
            }
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                bounded(
                    redis::cmd("DEL")
                        .arg(key)
                        .query_async::<()>(&mut connection),
                )
                .await
            }
        }
    }
}
