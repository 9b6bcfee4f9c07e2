//! SQLite behind an r2d2 pool, with the blocking work run off the async runtime.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::Connection;

use super::StoreFault;
use super::migrate::Schema;

/// A pool of connections to one SQLite file, in WAL mode.
#[derive(Clone)]
pub struct Sqlite {
    pool: Pool<SqliteConnectionManager>,
    /// Taken by every write to this file from this process, in the order they asked.
    writes: Arc<tokio::sync::Mutex<()>>,
    /// Calls of `write` so far, when the WAL is checkpointed every so many.
    checkpoint: Option<Arc<Checkpoint>>,
}

/// One write queue per database file, shared by every pool open on it (the shipments, outbox
/// and audit stores share one file). SQLite's own busy wait polls and is not fair: a steady
/// writer (an import, the outbox worker) can keep another waiting past any busy timeout.
static WRITE_QUEUES: LazyLock<Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(Mutex::default);

fn write_queue(path: &Path) -> Arc<tokio::sync::Mutex<()>> {
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut queues = WRITE_QUEUES.lock().unwrap_or_else(|e| e.into_inner());
    queues.entry(key).or_default().clone()
}

struct Checkpoint {
    every: u64,
    calls: AtomicU64,
}

impl Sqlite {
    /// Opens (or creates) the file at `path` with up to `max_size` connections, in WAL mode,
    /// with each of `schemas` migrated to its latest version.
    pub fn open(path: &Path, max_size: u32, schemas: &[&Schema]) -> anyhow::Result<Self> {
        Ok(Self {
            pool: crate::sqlite_pool(path, max_size, schemas)?,
            writes: write_queue(path),
            checkpoint: None,
        })
    }

    /// Truncates the WAL after every `every` calls of [`Sqlite::write`]. Under steady concurrent
    /// writes SQLite's automatic checkpoints never get to reset the WAL, which then grows
    /// without bound.
    pub fn checkpoint_every(mut self, every: u64) -> Self {
        self.checkpoint = Some(Arc::new(Checkpoint {
            every: every.max(1),
            calls: AtomicU64::new(0),
        }));
        self
    }

    /// Runs `work`, which only reads, with a pooled connection on the blocking pool, off the
    /// async runtime. No free connection in time is `StoreFault::Unavailable`.
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreFault> + Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, E> + Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(StoreFault::from)?;
            work(&mut conn)
        })
        .await
        .map_err(|e| E::from(StoreFault::Internal(e.to_string())))?
    }

    /// Runs `work`, which writes, as [`Sqlite::run`] does, after the writes to this file asked
    /// for before it: writers take turns instead of racing for SQLite's lock.
    pub async fn write<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreFault> + Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, E> + Send + 'static,
    {
        let turn = self.writes.clone().lock_owned().await;
        let pool = self.pool.clone();
        let checkpoint = self
            .checkpoint
            .as_ref()
            .is_some_and(|c| c.calls.fetch_add(1, Ordering::Relaxed) % c.every == c.every - 1);
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
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
    use crate::store::migrate::Step;

    const SCHEMA: Schema = Schema {
        store: "t",
        steps: &[Step {
            name: "numbers",
            sql: "CREATE TABLE t (n INTEGER);",
        }],
    };

    #[tokio::test]
    async fn runs_work_and_checkpoints() {
        let dir = std::env::temp_dir().join(format!("store-sqlite-{}", std::process::id()));
        let db = Sqlite::open(&dir.join("t.sqlite3"), 2, &[&SCHEMA])
            .unwrap()
            .checkpoint_every(2);
        for n in 0..5 {
            db.write(move |conn| {
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

    #[tokio::test]
    async fn a_writer_waits_its_turn_longer_than_the_busy_timeout() {
        let dir = std::env::temp_dir().join(format!("store-sqlite-turns-{}", std::process::id()));
        let path = dir.join("t.sqlite3");
        // Two stores on one file, as the shipments and outbox stores are.
        let first = Sqlite::open(&path, 2, &[&SCHEMA]).unwrap();
        let second = Sqlite::open(&path, 2, &[&SCHEMA]).unwrap();
        let (started, holding) = tokio::sync::oneshot::channel();
        let long = tokio::spawn(async move {
            first
                .write(move |conn| {
                    let tx = conn.transaction().map_err(StoreFault::from)?;
                    tx.execute("INSERT INTO t VALUES (1)", [])
                        .map_err(StoreFault::from)?;
                    let _ = started.send(());
                    // Longer than the 5 s busy_timeout every connection has.
                    std::thread::sleep(std::time::Duration::from_millis(5_500));
                    tx.commit().map_err(StoreFault::from)
                })
                .await
        });
        holding.await.unwrap();
        let waited: Result<usize, StoreFault> = second
            .write(|conn| {
                conn.execute("INSERT INTO t VALUES (2)", [])
                    .map_err(StoreFault::from)
            })
            .await;
        assert_eq!(waited.unwrap(), 1);
        long.await.unwrap().unwrap();
        let count: i64 = second
            .run_inline(|conn| {
                conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0))
                    .map_err(StoreFault::from)
            })
            .unwrap();
        assert_eq!(count, 2);
        let _ = std::fs::remove_dir_all(dir);
    }
}
