//! Fixed-window rate limits, counted in this process or, in distributed mode, in Redis so
//! that every gateway replica counts together; those that must outlive a restart (the known
//! browsers) in SQLite in DATA_DIR when there is no Redis.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use redis::aio::ConnectionManager;
use service_common::store::{Sqlite, StoreFault};

use crate::redis_call::bounded;

#[derive(Debug, thiserror::Error)]
#[error("rate-limit store unavailable: {0}")]
pub struct LimitStoreDown(String);

impl From<StoreFault> for LimitStoreDown {
    fn from(fault: StoreFault) -> Self {
        Self(fault.to_string())
    }
}

#[derive(Clone)]
enum Counts {
    InProcess(moka::sync::Cache<String, Arc<AtomicU64>>),
    /// Rows of `rate_counts` in the sessions' file.
    Embedded(Sqlite),
    Redis(ConnectionManager),
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// At most `limit` hits per key in each `window`.
#[derive(Clone)]
pub struct RateLimit {
    name: &'static str,
    limit: u64,
    window: Duration,
    counts: Counts,
}

impl RateLimit {
    pub fn in_process(name: &'static str, limit: u64, window: Duration) -> Self {
        let cache = moka::sync::Cache::builder()
            .max_capacity(1_000_000)
            .time_to_live(window)
            .build();
        Self {
            name,
            limit,
            window,
            counts: Counts::InProcess(cache),
        }
    }

    /// Counted in `data_dir` (the sessions' file), so a restart keeps them; windows that ended
    /// while the gateway was down are removed.
    pub fn embedded(
        name: &'static str,
        limit: u64,
        window: Duration,
        data_dir: &Path,
    ) -> anyhow::Result<Self> {
        let db = Sqlite::open(
            &data_dir.join(crate::session::FILE),
            2,
            &[&crate::session::SCHEMA],
        )?;
        db.run_inline(|conn| {
            conn.execute(
                "DELETE FROM rate_counts WHERE name = ?1 AND window_ends_at <= ?2",
                params![name, now_ms()],
            )
            .map_err(StoreFault::from)
        })?;
        Ok(Self {
            name,
            limit,
            window,
            counts: Counts::Embedded(db),
        })
    }

    pub fn redis(
        name: &'static str,
        limit: u64,
        window: Duration,
        connection: ConnectionManager,
    ) -> Self {
        Self {
            name,
            limit,
            window,
            counts: Counts::Redis(connection),
        }
    }

    fn redis_key(&self, key: &str) -> String {
        format!("ratelimit:{}:{key}", self.name)
    }

    /// Counts one hit; whether it is within the limit.
    pub async fn hit(&self, key: &str) -> Result<bool, LimitStoreDown> {
        Ok(self.count_hit(key).await? <= self.limit)
    }

    /// Counts one hit; the hits of the key's window so far, this one included.
    pub async fn count_hit(&self, key: &str) -> Result<u64, LimitStoreDown> {
        let count = match &self.counts {
            Counts::InProcess(cache) => {
                cache
                    .get_with(key.to_owned(), || Arc::new(AtomicU64::new(0)))
                    .fetch_add(1, Ordering::Relaxed)
                    + 1
            }
            Counts::Embedded(db) => {
                let (name, key, now) = (self.name, key.to_owned(), now_ms());
                let ends = now + self.window.as_millis() as i64;
                let count: i64 = db
                    .write(move |conn| {
                        // A window that has ended starts again at this hit.
                        conn.query_row(
                            "INSERT INTO rate_counts (name, key, count, window_ends_at) \
                             VALUES (?1, ?2, 1, ?4) \
                             ON CONFLICT (name, key) DO UPDATE SET \
                             count = CASE WHEN window_ends_at <= ?3 THEN 1 ELSE count + 1 END, \
                             window_ends_at = CASE WHEN window_ends_at <= ?3 THEN ?4 ELSE window_ends_at END \
                             RETURNING count",
                            params![name, key, now, ends],
                            |row| row.get(0),
                        )
                        .map_err(StoreFault::from)
                    })
                    .await?;
                count as u64
            }
            Counts::Redis(connection) => {
                let key = self.redis_key(key);
                let mut connection = connection.clone();
                let (count,): (u64,) = bounded(
                    redis::pipe()
                        .incr(&key, 1u64)
                        .cmd("EXPIRE")
                        .arg(&key)
                        .arg(self.window.as_secs().max(1))
                        .arg("NX")
                        .ignore()
                        .query_async(&mut connection),
                )
                .await
                .map_err(LimitStoreDown)?;
                count
            }
        };
        Ok(count)
    }

    /// Whether the key has used up its hits, without counting one.
    pub async fn exhausted(&self, key: &str) -> Result<bool, LimitStoreDown> {
        Ok(self.count(key).await? >= self.limit)
    }

    /// The hits counted for the key in its current window.
    pub async fn count(&self, key: &str) -> Result<u64, LimitStoreDown> {
        Ok(match &self.counts {
            Counts::InProcess(cache) => cache.get(key).map_or(0, |c| c.load(Ordering::Relaxed)),
            Counts::Embedded(db) => {
                let count: Option<i64> = db.run_inline(|conn| {
                    conn.prepare_cached(
                        "SELECT count FROM rate_counts \
                         WHERE name = ?1 AND key = ?2 AND window_ends_at > ?3",
                    )?
                    .query_row(params![self.name, key, now_ms()], |row| row.get(0))
                    .optional()
                    .map_err(StoreFault::from)
                })?;
                count.unwrap_or(0) as u64
            }
            Counts::Redis(connection) => {
                let mut connection = connection.clone();
                let count: Option<u64> = bounded(
                    redis::cmd("GET")
                        .arg(self.redis_key(key))
                        .query_async(&mut connection),
                )
                .await
                .map_err(LimitStoreDown)?;
                count.unwrap_or(0)
            }
        })
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }
}
