//! SQLite behind an r2d2 pool, with the blocking work run off the async runtime.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::types::Value;
use r2d2_sqlite::rusqlite::{self, Connection, Row, params_from_iter};

use super::StoreFault;
use super::migrate::Schema;
use crate::paging::{self, BadPageToken, Keyset};

/// A pool of connections to one SQLite file, in WAL mode.
#[derive(Clone)]
pub struct Sqlite {
    pool: Pool<SqliteConnectionManager>,
    /// Taken by every write to this file from this process, in the order they asked.
    writes: Arc<tokio::sync::Mutex<()>>,
    /// Calls of `write` so far, when the WAL is checkpointed every so many.
    checkpoint: Option<Arc<Checkpoint>>,
    /// Wakes this pool's checkpointer after a write.
    checkpointer: SyncSender<()>,
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
            pool: pool(path, max_size, schemas)?,
            writes: write_queue(path),
            checkpoint: None,
            checkpointer: checkpointer(path)?,
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
        let checkpointer = self.checkpointer.clone();
        let checkpoint = self
            .checkpoint
            .as_ref()
            .is_some_and(|c| c.calls.fetch_add(1, Ordering::Relaxed) % c.every == c.every - 1);
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let mut conn = pool.get().map_err(StoreFault::from)?;
            let result = work(&mut conn);
            // Full means a wake-up is already pending.
            let _ = checkpointer.try_send(());
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

/// A pool of connections to `path`, in WAL mode, with each of `schemas` migrated to its
/// latest version. Its connections leave checkpoints to the pool's `checkpointer`.
fn pool(
    path: &Path,
    max_size: u32,
    schemas: &[&Schema],
) -> anyhow::Result<Pool<SqliteConnectionManager>> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // WAL is a property of the file: set once, by one connection, before the pool opens
    // several at once (which would race for the lock the switch needs).
    Connection::open(path)?
        .execute_batch("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;")?;
    // Every connection waits for a busy lock rather than failing: set before anything else.
    // Statement journals (a statement's undo within a transaction) stay in memory.
    let manager = SqliteConnectionManager::file(path).with_init(|c| {
        c.execute_batch(
            "PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; \
             PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY;",
        )
    });
    let pool = Pool::builder()
        .max_size(max_size)
        .test_on_check_out(false)
        .build(manager)?;
    let mut conn = pool.get()?;
    for schema in schemas {
        super::migrate::sqlite(&mut conn, path, schema)?;
    }
    drop(conn);
    Ok(pool)
}

/// The least time between two checkpoints.
const CHECKPOINT_GAP: Duration = Duration::from_millis(500);

/// How often the checkpointer looks without being woken (writes made outside `write`).
const CHECKPOINT_IDLE: Duration = Duration::from_secs(1);

/// Starts a thread that copies committed pages from the WAL into the database file after each
/// write, so the writer's commit does not pay for it (an import's batch commits twice as fast).
/// It ends when the pool, holding the returned waker, is dropped.
fn checkpointer(path: &Path) -> anyhow::Result<SyncSender<()>> {
    let conn = Connection::open(path)?;
    let (wake, woken) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("sqlite-checkpoint".into())
        .spawn(move || {
            // Woken after a write, or a second since; ends once every waker is dropped.
            while let Ok(()) | Err(RecvTimeoutError::Timeout) = woken.recv_timeout(CHECKPOINT_IDLE)
            {
                // PASSIVE: never waits for, nor blocks, readers and writers.
                let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                // Each checkpoint ends in an fsync: a burst of writes is copied in a few.
                std::thread::sleep(CHECKPOINT_GAP);
            }
        })?;
    Ok(wake)
}

/// A keyset order of a table: by `by` (a text column or expression) when set, ties broken by
/// the unique `key`, else by `key` alone.
#[derive(Clone, Copy, Debug)]
pub struct Order<'a> {
    pub by: Option<&'a str>,
    pub key: &'a str,
    /// Whether `key` holds integers (a sequence number) rather than text.
    pub integer_key: bool,
    pub descending: bool,
}

impl Order<'_> {
    /// `select` (with or without a WHERE) narrowed to the rows past `after` (a cursor of this
    /// order), ordered, and limited to `keyset.limit()` rows; its parameters go onto `values`.
    pub fn narrow(
        &self,
        select: &str,
        values: &mut Vec<Value>,
        after: Option<&str>,
        keyset: Keyset,
    ) -> Result<String, BadPageToken> {
        let (direction, past) = if self.descending {
            ("DESC", "<")
        } else {
            ("ASC", ">")
        };
        let key = self.key;
        let mut sql = select.to_owned();
        if let Some(cursor) = after {
            sql.push_str(if select.contains(" WHERE ") {
                " AND "
            } else {
                " WHERE "
            });
            match self.by {
                Some(by) => {
                    let (value, at) = paging::split(cursor)?;
                    sql.push_str(&format!("({by} {past} ? OR ({by} = ? AND {key} {past} ?))"));
                    values.extend([Value::Text(value.into()), Value::Text(value.into())]);
                    values.push(self.key_value(at)?);
                }
                None => {
                    sql.push_str(&format!("{key} {past} ?"));
                    values.push(self.key_value(cursor)?);
                }
            }
        }
        match self.by {
            Some(by) => sql.push_str(&format!(" ORDER BY {by} {direction}, {key} {direction}")),
            None => sql.push_str(&format!(" ORDER BY {key} {direction}")),
        }
        sql.push_str(" LIMIT ?");
        values.push(Value::Integer(keyset.limit()));
        Ok(sql)
    }

    fn key_value(&self, key: &str) -> Result<Value, BadPageToken> {
        Ok(if self.integer_key {
            Value::Integer(paging::sequence(key)?)
        } else {
            Value::Text(key.into())
        })
    }
}

/// Reads one keyset page with `sql` (from [`Order::narrow`]): `read` gives each row's cursor and
/// value; returns the page's values and the cursor of its last row when more follow.
pub fn read_page<T>(
    conn: &Connection,
    sql: &str,
    values: &[Value],
    keyset: Keyset,
    mut read: impl FnMut(&Row) -> rusqlite::Result<(String, T)>,
) -> Result<(Vec<T>, Option<String>), StoreFault> {
    let rows = conn
        .prepare_cached(sql)?
        .query_map(params_from_iter(values), |r| read(r))?
        .collect::<Result<Vec<_>, _>>()?;
    let (rows, next) = keyset.page(rows, |(cursor, _)| cursor.clone());
    Ok((rows.into_iter().map(|(_, row)| row).collect(), next))
}

/// One keyset page of `select` (with or without a WHERE, its parameters in `values`) past
/// `after` in `order`: [`Order::narrow`] then [`read_page`].
pub fn page<T, E>(
    conn: &Connection,
    select: &str,
    mut values: Vec<Value>,
    order: Order<'_>,
    after: Option<&str>,
    keyset: Keyset,
    read: impl FnMut(&Row) -> rusqlite::Result<(String, T)>,
) -> Result<(Vec<T>, Option<String>), E>
where
    E: From<StoreFault> + From<BadPageToken>,
{
    let sql = order.narrow(select, &mut values, after, keyset)?;
    Ok(read_page(conn, &sql, &values, keyset, read)?)
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
    async fn a_write_reaches_the_database_file_without_waiting_for_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let db = Sqlite::open(&path, 2, &[&SCHEMA]).unwrap();
        db.write(|conn| {
            conn.execute("INSERT INTO t VALUES (7)", [])
                .map_err(StoreFault::from)
        })
        .await
        .unwrap();
        // Read the file alone, as a copy of it would be: `immutable` ignores the WAL.
        let in_file = || {
            let uri = format!("file:{}?immutable=1", path.display());
            let flags =
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
            Connection::open_with_flags(uri, flags)
                .and_then(|c| c.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0)))
                .unwrap_or(0)
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while in_file() == 0 && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            in_file(),
            1,
            "the checkpointer copied the write into the file"
        );
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
