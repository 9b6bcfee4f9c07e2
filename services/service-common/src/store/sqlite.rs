//! SQLite behind an r2d2 pool, with the blocking work run off the async runtime.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::Connection;

use super::StoreFault;

/// A pool of connections to one SQLite file, in WAL mode.
#[derive(Clone)]
pub struct Sqlite {
    pool: Pool<SqliteConnectionManager>,
    /// Calls of `run` so far, when the WAL is checkpointed every so many.
    checkpoint: Option<Arc<Checkpoint>>,
}

struct Checkpoint {
    every: u64,
    calls: AtomicU64,
}

impl Sqlite {
    /// Opens (or creates) the file at `path` with up to `max_size` connections, in WAL mode,
    /// with `schema` applied.
    pub fn open(path: &Path, max_size: u32, schema: &str) -> anyhow::Result<Self> {
        Ok(Self {
            pool: crate::sqlite_pool(path, max_size, schema)?,
            checkpoint: None,
        })
    }

    /// Truncates the WAL after every `every` calls of [`Sqlite::run`]. Under steady concurrent
    /// writes SQLite's automatic checkpoints never get to reset the WAL, which then grows
    /// without bound.
    pub fn checkpoint_every(mut self, every: u64) -> Self {
        self.checkpoint = Some(Arc::new(Checkpoint {
            every: every.max(1),
            calls: AtomicU64::new(0),
        }));
        self
    }

    /// Runs `work` with a pooled connection on the blocking pool, off the async runtime. No
    /// free connection in time is `StoreFault::Unavailable`.
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreFault> + Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, E> + Send + 'static,
    {
        let pool = self.pool.clone();
        let checkpoint = self
            .checkpoint
            .as_ref()
            .is_some_and(|c| c.calls.fetch_add(1, Ordering::Relaxed) % c.every == c.every - 1);
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(StoreFault::from)?;
            let result = work(&mut conn);
            if checkpoint {
                // Best effort: a busy database is checkpointed next time.
                let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            }
            result
        })
        .await
        .map_err(|e| E::from(StoreFault::Internal(e.to_string())))?
    }

    /// Runs `work` on the calling thread: for a point read (one row by a unique index,
    /// microseconds with a warm cache), where the blocking pool costs more than the read.
    pub fn run_inline<T, E>(&self, work: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreFault>,
    {
        let conn = self.pool.get().map_err(StoreFault::from)?;
        work(&conn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_work_and_checkpoints() {
        let dir = std::env::temp_dir().join(format!("store-sqlite-{}", std::process::id()));
        let db = Sqlite::open(
            &dir.join("t.sqlite3"),
            2,
            "CREATE TABLE IF NOT EXISTS t (n INTEGER);",
        )
        .unwrap()
        .checkpoint_every(2);
        for n in 0..5 {
            db.run(move |conn| {
                conn.execute("INSERT INTO t VALUES (?)", [n])
                    .map_err(StoreFault::from)
            })
            .await
            .unwrap();
        }
        let count: i64 = db
            .run_inline(|conn| {
                conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0))
                    .map_err(StoreFault::from)
            })
            .unwrap();
        assert_eq!(count, 5);
        let _ = std::fs::remove_dir_all(dir);
    }
}
