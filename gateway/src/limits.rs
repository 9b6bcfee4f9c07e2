//! Fixed-window rate limits, counted in this process or, in distributed mode, in Redis so
//! that every gateway replica counts together.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use redis::aio::ConnectionManager;

use crate::redis_call::bounded;

#[derive(Debug, thiserror::Error)]
#[error("rate-limit store unavailable: {0}")]
pub struct LimitStoreDown(String);

#[derive(Clone)]
enum Counts {
    InProcess(moka::sync::Cache<String, Arc<AtomicU64>>),
    Redis(ConnectionManager),
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
        let count = match &self.counts {
            Counts::InProcess(cache) => {
                cache
                    .get_with(key.to_owned(), || Arc::new(AtomicU64::new(0)))
                    .fetch_add(1, Ordering::Relaxed)
                    + 1
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
        Ok(count <= self.limit)
    }

    /// Whether the key has used up its hits, without counting one.
    pub async fn exhausted(&self, key: &str) -> Result<bool, LimitStoreDown> {
        Ok(self.count(key).await? >= self.limit)
    }

    /// The hits counted for the key in its current window.
    pub async fn count(&self, key: &str) -> Result<u64, LimitStoreDown> {
        Ok(match &self.counts {
            Counts::InProcess(cache) => cache.get(key).map_or(0, |c| c.load(Ordering::Relaxed)),
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
