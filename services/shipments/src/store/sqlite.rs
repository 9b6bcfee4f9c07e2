//! The embedded store: SQLite in WAL mode, one JSON document per shipment beside the
//! columns that the lookup, list, filter and search use.

use std::path::Path;

use async_trait::async_trait;
use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use r2d2_sqlite::rusqlite::{
    self, OptionalExtension, TransactionBehavior, params, params_from_iter, types::Value,
};

use outbox::Notification;

use super::{Cursor, Edit, ListPage, ListQuery, MAX_COUNTED, ShipmentStore};
use crate::domain::{Shipment, TrackingNumber, utc_micros};
use crate::error::ShipmentError;

/// `shipments_search` is a trigram full-text index of `search_text`, so the admin's
/// substring search does not scan every row; triggers keep it in step in the same transaction.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS shipments (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    tracking_number TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    search_text TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS shipments_status_newest ON shipments (status, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS shipments_search USING fts5(search_text, tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS shipments_search_insert AFTER INSERT ON shipments BEGIN
    INSERT INTO shipments_search (rowid, search_text) VALUES (new.seq, new.search_text);
END;
CREATE TRIGGER IF NOT EXISTS shipments_search_update AFTER UPDATE OF search_text ON shipments BEGIN
    DELETE FROM shipments_search WHERE rowid = old.seq;
    INSERT INTO shipments_search (rowid, search_text) VALUES (new.seq, new.search_text);
END;
CREATE TRIGGER IF NOT EXISTS shipments_search_delete AFTER DELETE ON shipments BEGIN
    DELETE FROM shipments_search WHERE rowid = old.seq;
END;
";

/// The trigram index answers queries of three characters or more.
const TRIGRAM: usize = 3;

#[derive(Clone)]
pub struct SqliteShipmentStore {
    pool: Pool<SqliteConnectionManager>,
    /// Calls run on the blocking pool, to checkpoint the WAL every `CHECKPOINT_EVERY`.
    calls: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// Under steady concurrent writes SQLite's automatic checkpoints never get to reset the
/// WAL, which then grows without bound (19 GB while seeding a million shipments); a
/// TRUNCATE checkpoint every so many writes keeps it small.
const CHECKPOINT_EVERY: u64 = 2000;

impl SqliteShipmentStore {
    /// Opens (or creates) the database file and its schema.
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            pool: service_common::sqlite_pool(
                path,
                8,
                &format!("{SCHEMA}{}", outbox::store::sqlite::SCHEMA),
            )?,
            calls: Default::default(),
        })
    }

    /// Runs a point read (one row by a unique index, microseconds with a warm cache) on the
    /// calling thread: handing it to the blocking pool costs more than the read itself.
    fn read_inline<T>(
        &self,
        work: impl FnOnce(&rusqlite::Connection) -> Result<T, ShipmentError>,
    ) -> Result<T, ShipmentError> {
        let conn = self
            .pool
            .get()
            .map_err(|e| ShipmentError::Unavailable(e.to_string()))?;
        work(&conn)
    }

    /// Runs writes and scans on the blocking pool, off the async runtime.
    async fn run<T, F>(&self, work: F) -> Result<T, ShipmentError>
    where
        T: Send + 'static,
        F: FnOnce(&mut rusqlite::Connection) -> Result<T, ShipmentError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let checkpoint = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            % CHECKPOINT_EVERY
            == CHECKPOINT_EVERY - 1;
        tokio::task::spawn_blocking(move || {
            let mut conn = pool
                .get()
                .map_err(|e| ShipmentError::Unavailable(e.to_string()))?;
            let result = work(&mut conn);
            if checkpoint {
                // Best effort: a busy database is checkpointed next time.
                let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            }
            result
        })
        .await
        .map_err(|e| ShipmentError::Internal(e.to_string()))?
    }
}

fn db_error(e: rusqlite::Error) -> ShipmentError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ) =>
        {
            ShipmentError::Unavailable(e.to_string())
        }
        other => ShipmentError::Internal(other.to_string()),
    }
}

fn decode(doc: String) -> Result<Shipment, ShipmentError> {
    serde_json::from_str(&doc)
        .map_err(|e| ShipmentError::Internal(format!("stored shipment unreadable: {e}")))
}

fn encode(s: &Shipment) -> Result<String, ShipmentError> {
    serde_json::to_string(s).map_err(|e| ShipmentError::Internal(e.to_string()))
}

/// The matching sequence numbers of a list query: `SELECT {key} FROM ... WHERE ...` (without
/// the cursor), its parameters and the key column. Newest first is `seq` descending (insertion
/// order), which the status index and the full-text index both walk backwards without sorting.
/// Only indexes are read: with a search, the status is checked by probing the covering
/// (status, seq) index rather than the wide shipment rows (12 ms instead of 180 ms to count
/// 10,000 matches among a million).
struct Filter {
    sql: String,
    values: Vec<Value>,
    key: &'static str,
}

fn filter(query: &ListQuery) -> Filter {
    let mut from = "shipments s";
    let mut key = "s.seq";
    let mut clauses = Vec::new();
    let mut values = Vec::new();
    if let Some(text) = &query.text {
        if text.chars().count() >= TRIGRAM {
            // A quoted FTS5 phrase is literal text (quotes doubled): a substring match.
            from = "shipments_search f";
            key = "f.rowid";
            clauses.push("shipments_search MATCH ?");
            values.push(Value::Text(format!("\"{}\"", text.replace('"', "\"\""))));
        } else {
            // instr() compares literally: no pattern characters to escape.
            clauses.push("instr(s.search_text, ?) > 0");
            values.push(Value::Text(text.clone()));
        }
    }
    if let Some(status) = query.status {
        clauses.push(if key == "s.seq" {
            "s.status = ?"
        } else {
            "EXISTS (SELECT 1 FROM shipments t INDEXED BY shipments_status_newest WHERE t.status = ? AND t.seq = f.rowid)"
        });
        values.push(Value::Text(status.as_str().to_owned()));
    }
    let where_sql = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    Filter {
        sql: format!("SELECT {key} AS seq FROM {from}{where_sql}"),
        values,
        key,
    }
}

fn parse_cursor(cursor: &Cursor) -> Result<i64, ShipmentError> {
    cursor.0.parse().map_err(|_| {
        crate::error::FieldViolation::new("page_token", "is not a token from a previous page")
            .into()
    })
}

#[async_trait]
impl ShipmentStore for SqliteShipmentStore {
    async fn insert(
        &self,
        shipment: &Shipment,
        emails: &[Notification],
    ) -> Result<(), ShipmentError> {
        let row = (
            shipment.id.clone(),
            shipment.tracking_number.to_string(),
            shipment.status.as_str(),
            utc_micros::format(&shipment.created_at),
            shipment.search_text(),
            encode(shipment)?,
        );
        let emails = emails.to_vec();
        self.run(move |conn| {
            // IMMEDIATE: take the write lock up front, waiting (busy_timeout) rather than failing.
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db_error)?;
            let inserted = tx.execute(
                "INSERT INTO shipments (id, tracking_number, status, created_at, search_text, doc) VALUES (?, ?, ?, ?, ?, ?)",
                params![row.0, row.1, row.2, row.3, row.4, row.5],
            );
            match inserted {
                Ok(_) => {}
                Err(rusqlite::Error::SqliteFailure(f, Some(msg)))
                    if f.code == rusqlite::ErrorCode::ConstraintViolation && msg.contains("tracking_number") =>
                {
                    return Err(ShipmentError::DuplicateTrackingNumber);
                }
                Err(e) => return Err(db_error(e)),
            }
            outbox::store::sqlite::insert_all(&tx, &emails).map_err(db_error)?;
            tx.commit().map_err(db_error)
        })
        .await
    }

    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError> {
        self.read_inline(|conn| {
            let doc: Option<String> = conn
                .prepare_cached("SELECT doc FROM shipments WHERE id = ?")
                .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
                .map_err(db_error)?;
            decode(doc.ok_or(ShipmentError::NotFound)?)
        })
    }

    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError> {
        self.read_inline(|conn| {
            let doc: Option<String> = conn
                .prepare_cached("SELECT doc FROM shipments WHERE tracking_number = ?")
                .and_then(|mut st| st.query_row([number.as_str()], |r| r.get(0)).optional())
                .map_err(db_error)?;
            decode(doc.ok_or(ShipmentError::NotFound)?)
        })
    }

    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError> {
        let query = query.clone();
        let after = query.after.as_ref().map(parse_cursor).transpose()?;
        self.run(move |conn| {
            let Filter { sql: matches, mut values, key } = filter(&query);
            let count_sql = format!("SELECT count(*) FROM ({matches} LIMIT {})", MAX_COUNTED + 1);
            let total: i64 = conn.prepare_cached(&count_sql)
                .and_then(|mut st| st.query_row(params_from_iter(&values), |r| r.get(0)))
                .map_err(db_error)?;
            let mut page = matches;
            if let Some(seq) = after {
                page.push_str(&format!("{} {key} < ?", if page.contains(" WHERE ") { " AND" } else { " WHERE" }));
                values.push(Value::Integer(seq));
            }
            // The page's sequence numbers first (indexes only), then just those documents.
            let sql = format!(
                "SELECT s.seq, s.doc FROM ({page} ORDER BY {key} DESC LIMIT ?) p JOIN shipments s ON s.seq = p.seq ORDER BY s.seq DESC"
            );
            values.push(Value::Integer(query.page_size as i64 + 1));
            let mut statement = conn.prepare_cached(&sql).map_err(db_error)?;
            let mut rows = statement
                .query_map(params_from_iter(&values), |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(db_error)?;
            let more = rows.len() > query.page_size;
            rows.truncate(query.page_size);
            let next = if more { rows.last().map(|(seq, _)| Cursor(seq.to_string())) } else { None };
            let shipments = rows.into_iter().map(|(_, doc)| decode(doc)).collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { shipments, next, total: total as u64 })
        })
        .await
    }

    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError> {
        let id = id.to_owned();
        self.run(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db_error)?;
            let doc: Option<String> = tx
                .query_row("SELECT doc FROM shipments WHERE id = ?", [&id], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(db_error)?;
            let mut shipment = decode(doc.ok_or(ShipmentError::NotFound)?)?;
            edit(&mut shipment)?;
            tx.execute(
                "UPDATE shipments SET status = ?, search_text = ?, doc = ? WHERE id = ?",
                params![
                    shipment.status.as_str(),
                    shipment.search_text(),
                    encode(&shipment)?,
                    id
                ],
            )
            .map_err(db_error)?;
            tx.commit().map_err(db_error)?;
            Ok(shipment)
        })
        .await
    }

    async fn delete(&self, id: &str) -> Result<Shipment, ShipmentError> {
        let id = id.to_owned();
        self.run(move |conn| {
            let doc: Option<String> = conn
                .query_row(
                    "DELETE FROM shipments WHERE id = ? RETURNING doc",
                    [id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_error)?;
            decode(doc.ok_or(ShipmentError::NotFound)?)
        })
        .await
    }
}
