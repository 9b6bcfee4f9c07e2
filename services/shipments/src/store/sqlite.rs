//! The embedded store: SQLite in WAL mode, one JSON document per shipment beside the
//! columns that the lookup, list, filter and search use.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};

use async_trait::async_trait;
use r2d2_sqlite::rusqlite::{
    self, OptionalExtension, TransactionBehavior, params, params_from_iter, types::Value,
};
use service_common::paging::{self, BadPageToken, Keyset};
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault, json};

use audit::AuditEntry;
use outbox::Notification;

use super::{
    Counters, Cursor, CustomerPage, Customers, DeleteRecord, Edit, Effects, ImportRecord, Imports,
    Journal, ListPage, ListQuery, MAX_COUNTED, OPEN_STATUSES, Order, Rules, Shipments, Statistics,
    window_start,
};
use crate::account_requests::{AccountRequest, RequestQuery};
use crate::address_book::{Entry, EntryQuery};
use crate::customers::{Customer, CustomerQuery, Watcher};
use crate::domain::{Shipment, Status, TrackingNumber, utc_micros};
use crate::error::ShipmentError;
use crate::pickups::{Pickup, PickupQuery, PickupSettings};
use crate::rates::RateCard;
use crate::updates::EmailRules;

/// `shipments_search` is a trigram full-text index of `search_text`, so the admin's
/// substring search does not scan every row; an insert writes its row (`index_search`) and
/// triggers keep it in step on update and delete, in the same transaction.
const SCHEMA: Schema = Schema {
    store: "shipments",
    steps: &[Step {
        name: "initial",
        sql: "
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
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (
    key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS shipments_search_delete AFTER DELETE ON shipments BEGIN
    DELETE FROM shipments_search WHERE rowid = old.seq;
END;
CREATE INDEX IF NOT EXISTS shipments_created ON shipments (created_at);
CREATE TABLE IF NOT EXISTS shipment_claims (
    claim TEXT PRIMARY KEY,
    shipment_id TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS shipment_claims_shipment ON shipment_claims (shipment_id);
CREATE TABLE IF NOT EXISTS imports (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS shipments_expected
    ON shipments (json_extract(doc, '$.expectedDeliveryDate'), seq);
CREATE INDEX IF NOT EXISTS shipments_late
    ON shipments (status, json_extract(doc, '$.expectedDeliveryDate'));
DROP INDEX IF EXISTS shipments_delivered;
CREATE TABLE IF NOT EXISTS shipment_counts (status TEXT PRIMARY KEY, count INTEGER NOT NULL);
INSERT INTO shipment_counts (status, count)
    SELECT status, count(*) FROM shipments
    WHERE NOT EXISTS (SELECT 1 FROM shipment_counts) GROUP BY status;
CREATE TRIGGER IF NOT EXISTS shipments_count_insert AFTER INSERT ON shipments BEGIN
    INSERT INTO shipment_counts (status, count) VALUES (new.status, 1)
        ON CONFLICT (status) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER IF NOT EXISTS shipments_count_delete AFTER DELETE ON shipments BEGIN
    UPDATE shipment_counts SET count = count - 1 WHERE status = old.status;
END;
CREATE TRIGGER IF NOT EXISTS shipments_count_update AFTER UPDATE OF status ON shipments
    WHEN old.status != new.status BEGIN
    UPDATE shipment_counts SET count = count - 1 WHERE status = old.status;
    INSERT INTO shipment_counts (status, count) VALUES (new.status, 1)
        ON CONFLICT (status) DO UPDATE SET count = count + 1;
END;
CREATE TABLE IF NOT EXISTS shipment_days (
    kind TEXT NOT NULL,
    day TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (kind, day)
) WITHOUT ROWID;
INSERT INTO shipment_days (kind, day, count)
    SELECT kind, day, n FROM (
        SELECT 'created' AS kind, substr(created_at, 1, 10) AS day, count(*) AS n
            FROM shipments GROUP BY 2
        UNION ALL
        SELECT 'delivered', substr(json_extract(doc, '$.deliveredAt'), 1, 10), count(*)
            FROM shipments WHERE status = 'delivered' AND json_extract(doc, '$.deliveredAt') IS NOT NULL
            GROUP BY 2
        UNION ALL
        SELECT 'due', json_extract(doc, '$.expectedDeliveryDate'), count(*)
            FROM shipments WHERE status != 'delivered' GROUP BY 2
    ) WHERE NOT EXISTS (SELECT 1 FROM shipment_days);
CREATE TRIGGER IF NOT EXISTS shipments_days_insert AFTER INSERT ON shipments BEGIN
    INSERT INTO shipment_days (kind, day, count)
        SELECT 'created', substr(new.created_at, 1, 10), 1 WHERE 1
        ON CONFLICT (kind, day) DO UPDATE SET count = count + 1;
    INSERT INTO shipment_days (kind, day, count)
        SELECT 'delivered', substr(json_extract(new.doc, '$.deliveredAt'), 1, 10), 1
        WHERE new.status = 'delivered' AND json_extract(new.doc, '$.deliveredAt') IS NOT NULL
        ON CONFLICT (kind, day) DO UPDATE SET count = count + 1;
    INSERT INTO shipment_days (kind, day, count)
        SELECT 'due', json_extract(new.doc, '$.expectedDeliveryDate'), 1
        WHERE new.status != 'delivered'
        ON CONFLICT (kind, day) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER IF NOT EXISTS shipments_days_delete AFTER DELETE ON shipments BEGIN
    UPDATE shipment_days SET count = count - 1
        WHERE kind = 'created' AND day = substr(old.created_at, 1, 10);
    UPDATE shipment_days SET count = count - 1
        WHERE kind = 'delivered' AND old.status = 'delivered'
        AND day = substr(json_extract(old.doc, '$.deliveredAt'), 1, 10);
    UPDATE shipment_days SET count = count - 1
        WHERE kind = 'due' AND old.status != 'delivered'
        AND day = json_extract(old.doc, '$.expectedDeliveryDate');
END;
CREATE TRIGGER IF NOT EXISTS shipments_days_update AFTER UPDATE OF doc ON shipments BEGIN
    UPDATE shipment_days SET count = count - 1
        WHERE kind = 'delivered' AND old.status = 'delivered'
        AND day = substr(json_extract(old.doc, '$.deliveredAt'), 1, 10);
    UPDATE shipment_days SET count = count - 1
        WHERE kind = 'due' AND old.status != 'delivered'
        AND day = json_extract(old.doc, '$.expectedDeliveryDate');
    INSERT INTO shipment_days (kind, day, count)
        SELECT 'delivered', substr(json_extract(new.doc, '$.deliveredAt'), 1, 10), 1
        WHERE new.status = 'delivered' AND json_extract(new.doc, '$.deliveredAt') IS NOT NULL
        ON CONFLICT (kind, day) DO UPDATE SET count = count + 1;
    INSERT INTO shipment_days (kind, day, count)
        SELECT 'due', json_extract(new.doc, '$.expectedDeliveryDate'), 1
        WHERE new.status != 'delivered'
        ON CONFLICT (kind, day) DO UPDATE SET count = count + 1;
END;
",
    }, Step {
        name: "fold_search_text",
        // The search now folds accents away (search::fold); ASCII text was already folded
        // by lower-casing, so only rows with other characters are queued for `fold_queued`.
        sql: "
CREATE TABLE IF NOT EXISTS shipments_unfolded (seq INTEGER PRIMARY KEY);
INSERT INTO shipments_unfolded (seq)
    SELECT seq FROM shipments WHERE length(search_text) != length(CAST(search_text AS BLOB));
",
    }, Step {
        name: "search_rows_after_inserts",
        // Every later statement of a transaction that wrote the search index makes it flush
        // its pending terms to disk: an import's batch writes its search rows last, at once.
        sql: "DROP TRIGGER IF EXISTS shipments_search_insert;",
    }, Step {
        name: "customers",
        // A customer's shipments, newest first, from an index (the portal's list).
        sql: "
CREATE TABLE IF NOT EXISTS customers (
    id TEXT PRIMARY KEY,
    account_number TEXT NOT NULL UNIQUE,
    name_key TEXT NOT NULL,
    status TEXT NOT NULL,
    search_text TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS customers_by_name ON customers (name_key, id);
CREATE INDEX IF NOT EXISTS shipments_customer ON shipments (json_extract(doc, '$.customerId'), seq);
CREATE INDEX IF NOT EXISTS shipments_customer_status
    ON shipments (json_extract(doc, '$.customerId'), status, seq);
CREATE TABLE IF NOT EXISTS address_book (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    name_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    search_text TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS address_book_by_name ON address_book (customer_id, name_key, id);
CREATE TABLE IF NOT EXISTS account_requests (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS account_requests_newest ON account_requests (created_at, id);
CREATE TABLE IF NOT EXISTS pickups (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    day TEXT NOT NULL,
    area_key TEXT NOT NULL,
    state TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pickups_customer ON pickups (customer_id, created_at, id);
CREATE INDEX IF NOT EXISTS pickups_by_day ON pickups (day, id);
CREATE TABLE IF NOT EXISTS customer_watchers (
    customer_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (customer_id, user_id)
) WITHOUT ROWID;
",
    }, Step {
        name: "exceptions_and_notes",
        // One row per shipment and condition, written with each change (`sqlite_queue`); the
        // queue reads one index range per kind and mode. Existing shipments are queued for
        // `reconcile_queued`.
        sql: "
CREATE TABLE IF NOT EXISTS shipment_exceptions (
    id TEXT PRIMARY KEY,
    shipment_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    mode TEXT NOT NULL,
    state TEXT NOT NULL,
    since INTEGER NOT NULL,
    assignee_id TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS shipment_exceptions_of ON shipment_exceptions (shipment_id);
CREATE INDEX IF NOT EXISTS shipment_exceptions_queue
    ON shipment_exceptions (state, kind, mode, since, id);
CREATE TABLE IF NOT EXISTS shipment_notes (
    id TEXT PRIMARY KEY,
    shipment_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS shipment_notes_of ON shipment_notes (shipment_id, created_at, id);
CREATE TABLE IF NOT EXISTS shipments_unreconciled (seq INTEGER PRIMARY KEY);
INSERT INTO shipments_unreconciled (seq) SELECT seq FROM shipments;
",
    }, Step {
        name: "courier_rounds",
        // A courier's round of a day, newest first, from an index (the courier app's list).
        sql: "
CREATE INDEX IF NOT EXISTS shipments_round ON shipments (
    json_extract(doc, '$.courierAssignment.courierId'),
    json_extract(doc, '$.courierAssignment.date'),
    seq
) WHERE json_extract(doc, '$.courierAssignment.courierId') IS NOT NULL;
",
    }, Step {
        name: "count_inserts_per_write",
        // An insert's own triggers made it keep a statement journal: every page it touched
        // copied once more. A write counts its new shipments at once (`count_inserted`).
        sql: "
DROP TRIGGER IF EXISTS shipments_count_insert;
DROP TRIGGER IF EXISTS shipments_days_insert;
",
    }],
};

/// The expected delivery date inside a stored shipment (`YYYY-MM-DD`), as its indexes name it.
const EXPECTED: &str = "json_extract(s.doc, '$.expectedDeliveryDate')";

/// The customer of a stored shipment, as its indexes name it.
const CUSTOMER: &str = "json_extract(s.doc, '$.customerId')";

/// The courier a stored shipment is assigned to, as the round index names it.
const COURIER: &str = "json_extract(s.doc, '$.courierAssignment.courierId')";

/// The trigram index answers queries of three characters or more.
const TRIGRAM: usize = 3;

/// The name of the e-mail rules in the settings table.
const EMAIL_RULES: &str = "tracking_emails";

#[derive(Clone)]
pub struct SqliteShipmentStore {
    pub(super) db: Sqlite,
    /// Published after each commit: this process is the store's only writer.
    pub(super) changes: crate::live::Changes,
}

/// Under steady concurrent writes SQLite's automatic checkpoints never get to reset the
/// WAL, which then grows without bound (19 GB while seeding a million shipments); a
/// TRUNCATE checkpoint every so many writes keeps it small.
const CHECKPOINT_EVERY: u64 = 2000;

impl SqliteShipmentStore {
    /// The settings document `name`; the defaults until it is first saved.
    pub(super) async fn setting<T>(
        &self,
        name: &'static str,
        what: &'static str,
    ) -> Result<T, ShipmentError>
    where
        T: serde::de::DeserializeOwned + Default + Send + 'static,
    {
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM settings WHERE name = ?", [name], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(match doc {
                    Some(doc) => json::decode(what, &doc)?,
                    None => T::default(),
                })
            })
            .await
    }

    /// Saves the settings document `name` and its audit entry in one transaction.
    pub(super) async fn set_setting<T: serde::Serialize>(
        &self,
        name: &'static str,
        value: &T,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let doc = json::encode(value)?;
        let audit_entry = audit_entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                tx.execute(
                    "INSERT INTO settings (name, doc) VALUES (?, ?) \
                     ON CONFLICT (name) DO UPDATE SET doc = excluded.doc",
                    params![name, doc],
                )
                .map_err(StoreFault::from)?;
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }
}

impl SqliteShipmentStore {
    /// Opens (or creates) the database file and its schema.
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        let store = Self {
            changes: crate::live::Changes::default(),
            db: Sqlite::open(
                path,
                8,
                // The outbox, webhooks and audit tables are written in the shipments' transactions.
                &[
                    &SCHEMA,
                    &outbox::store::sqlite::SCHEMA,
                    &outbox::webhooks::sqlite::SCHEMA,
                    &audit::store::sqlite::SCHEMA,
                ],
            )?
            .checkpoint_every(CHECKPOINT_EVERY),
        };
        store.db.run_inline(fold_queued)?;
        store.db.run_inline(reconcile_queued)?;
        Ok(store)
    }
}

/// Works through `queue`, a table of shipments' row numbers a migration step filled: a batch
/// per transaction, `each` given every queued shipment still stored; then drops the emptied
/// queue, running `last` in the same transaction. False when there was no queue.
fn drain(
    conn: &rusqlite::Connection,
    queue: &str,
    last: &str,
    mut each: impl FnMut(&rusqlite::Transaction, i64, Shipment) -> anyhow::Result<()>,
) -> anyhow::Result<bool> {
    let queued: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = ?",
        [queue],
        |row| row.get(0),
    )?;
    if !queued {
        return Ok(false);
    }
    loop {
        let tx = rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
        // A shipment deleted since has no document: its queue entry just goes.
        let rows = tx
            .prepare(&format!(
                "SELECT u.seq, s.doc FROM {queue} u LEFT JOIN shipments s ON s.seq = u.seq \
                 ORDER BY u.seq LIMIT 1000"
            ))?
            .query_map([], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, Option<String>>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let Some(&(end, _)) = rows.last() else {
            tx.execute_batch(&format!("DROP TABLE {queue}; {last}"))?;
            tx.commit()?;
            return Ok(true);
        };
        for (seq, doc) in rows {
            if let Some(doc) = doc {
                each(&tx, seq, decode(doc)?)?;
            }
        }
        tx.execute(&format!("DELETE FROM {queue} WHERE seq <= ?"), [end])?;
        tx.commit()?;
    }
}

/// Folds the search text of the rows stored before the search folded accents (queued by the
/// `fold_search_text` step), then merges the search index.
fn fold_queued(conn: &rusqlite::Connection) -> anyhow::Result<()> {
    // Merged again, the index answers as fast as before the rewrite (about 30% slower
    // without, on 100,000 shipments with 12% of them refolded).
    let optimize = "INSERT INTO shipments_search (shipments_search) VALUES ('optimize');";
    let drained = drain(conn, "shipments_unfolded", optimize, |tx, seq, shipment| {
        tx.execute(
            "UPDATE shipments SET search_text = ?1 WHERE seq = ?2 AND search_text != ?1",
            params![shipment.search_text(), seq],
        )?;
        Ok(())
    })?;
    if drained {
        // Best effort, as after other writes: a busy database is checkpointed later.
        let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }
    Ok(())
}

/// Writes the exceptions of the shipments stored before there were any (queued by the
/// `exceptions_and_notes` step).
fn reconcile_queued(conn: &rusqlite::Connection) -> anyhow::Result<()> {
    drain(conn, "shipments_unreconciled", "", |tx, _, shipment| {
        Ok(super::sqlite_queue::reconcile(tx, &shipment)?)
    })?;
    Ok(())
}

pub(super) fn decode(doc: String) -> Result<Shipment, ShipmentError> {
    Ok(json::decode("shipment", &doc)?)
}

fn encode(s: &Shipment) -> Result<String, ShipmentError> {
    Ok(json::encode(s)?)
}

/// The matching sequence numbers of a list query: `SELECT {key} AS seq[, sort] FROM ...
/// WHERE ...` (without the cursor), its parameters and the key column. Newest first is `seq`
/// descending (insertion order), which the status index and the full-text index both walk
/// backwards without sorting. Only indexes are read where they can be: with a search, the
/// status is checked by probing the covering (status, seq) index rather than the wide
/// shipment rows (12 ms instead of 180 ms to count 10,000 matches among a million).
struct Filter {
    sql: String,
    values: Vec<Value>,
    key: &'static str,
}

/// Within one customer's shipments, a search term the whole store holds fewer times than this
/// is looked up in the search index; a commoner one is found faster by reading the customer's
/// own rows newest first.
const RARE_IN_STORE: i64 = 5_000;

/// How a search within one customer's shipments is answered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CustomerSearch {
    /// Through the search index: the term is rare.
    Indexed,
    /// By reading the customer's rows: the term is common.
    Scanned,
}

/// Whether the search index holds `text` rarely enough to answer a customer's search from it.
fn customer_search(conn: &rusqlite::Connection, text: &str) -> Result<CustomerSearch, StoreFault> {
    let held: i64 = conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM (SELECT rowid FROM shipments_search WHERE shipments_search MATCH ? LIMIT {RARE_IN_STORE})"
        ))?
        .query_row([phrase(text)], |r| r.get(0))?;
    Ok(if held < RARE_IN_STORE {
        CustomerSearch::Indexed
    } else {
        CustomerSearch::Scanned
    })
}

/// A quoted FTS5 phrase is literal text (quotes doubled): a substring match.
fn phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

fn filter(query: &ListQuery, customer_search: Option<CustomerSearch>) -> Filter {
    let mut from = "shipments s";
    let mut key = "s.seq";
    let mut clauses: Vec<String> = Vec::new();
    let mut values = Vec::new();
    if let Some(text) = &query.text
        && !query.labelled.is_empty()
    {
        // Rare (the text names a status as its badge shows it): a scan is fine.
        let marks = vec!["?"; query.labelled.len()].join(", ");
        clauses.push(format!(
            "(instr(s.search_text, ?) > 0 OR s.status IN ({marks}))"
        ));
        values.push(Value::Text(text.clone()));
        values.extend(
            query
                .labelled
                .iter()
                .map(|st| Value::Text(st.as_str().to_owned())),
        );
    } else if let (Some(text), Some(how)) = (&query.text, customer_search) {
        // The customer's index gives the order; the term narrows it either way.
        match how {
            CustomerSearch::Indexed => {
                clauses.push(
                    "s.seq IN (SELECT rowid FROM shipments_search WHERE shipments_search MATCH ?)"
                        .into(),
                );
                values.push(Value::Text(phrase(text)));
            }
            CustomerSearch::Scanned => {
                clauses.push("instr(s.search_text, ?) > 0".into());
                values.push(Value::Text(text.clone()));
            }
        }
    } else if let Some(text) = &query.text {
        if text.chars().count() >= TRIGRAM {
            // A quoted FTS5 phrase is literal text (quotes doubled): a substring match.
            from = "shipments_search f";
            key = "f.rowid";
            clauses.push("shipments_search MATCH ?".into());
            values.push(Value::Text(format!("\"{}\"", text.replace('"', "\"\""))));
        } else {
            // instr() compares literally: no pattern characters to escape.
            clauses.push("instr(s.search_text, ?) > 0".into());
            values.push(Value::Text(text.clone()));
        }
    }
    if let Some(status) = query.status {
        clauses.push(if key == "s.seq" {
            "s.status = ?".into()
        } else {
            "EXISTS (SELECT 1 FROM shipments t INDEXED BY shipments_status_newest WHERE t.status = ? AND t.seq = f.rowid)".into()
        });
        values.push(Value::Text(status.as_str().to_owned()));
    }
    // These read the shipment row: a search joins it.
    let mut row_clauses = Vec::new();
    if let Some(from) = &query.created_from {
        row_clauses.push("s.created_at >= ?".to_owned());
        values.push(Value::Text(utc_micros::format(from)));
    }
    if let Some(before) = &query.created_before {
        row_clauses.push("s.created_at < ?".to_owned());
        values.push(Value::Text(utc_micros::format(before)));
    }
    if let Some(customer) = &query.customer {
        row_clauses.push(format!("{CUSTOMER} = ?"));
        values.push(Value::Text(customer.clone()));
    }
    if let Some((courier, day)) = &query.round {
        row_clauses.push(format!(
            "{COURIER} = ? AND json_extract(s.doc, '$.courierAssignment.date') = ? AND {COURIER} IS NOT NULL"
        ));
        values.push(Value::Text(courier.clone()));
        values.push(Value::Text(day.to_string()));
    }
    if let Some(today) = query.late_on {
        let open = vec!["?"; OPEN_STATUSES.len()].join(", ");
        row_clauses.push(format!("s.status IN ({open}) AND {EXPECTED} < ?"));
        values.extend(
            OPEN_STATUSES
                .iter()
                .map(|s| Value::Text(s.as_str().to_owned())),
        );
        values.push(Value::Text(today.to_string()));
    }
    if key == "f.rowid" && (!row_clauses.is_empty() || query.order.by_expected_delivery()) {
        from = "shipments_search f JOIN shipments s ON s.seq = f.rowid";
    }
    clauses.extend(row_clauses);
    let sort = if query.order.by_expected_delivery() {
        format!(", {EXPECTED} AS sort")
    } else {
        String::new()
    };
    let where_sql = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    Filter {
        sql: format!("SELECT {key} AS seq{sort} FROM {from}{where_sql}"),
        values,
        key,
    }
}

/// A page's position: the last shipment's sort value (for the expected-delivery orders) and
/// sequence number.
fn parse_cursor(cursor: &Cursor, order: Order) -> Result<(Option<String>, i64), BadPageToken> {
    if order.by_expected_delivery() {
        let (sort, seq) = paging::split(&cursor.0)?;
        Ok((Some(sort.to_owned()), paging::sequence(seq)?))
    } else {
        Ok((None, paging::sequence(&cursor.0)?))
    }
}

/// Counts by day (`YYYY-MM-DD`) laid out over the `days` days from `first`.
pub(crate) fn per_day(first: NaiveDate, days: u32, counts: &[(String, i64)]) -> Vec<u64> {
    (0..u64::from(days))
        .map(|offset| {
            let day = (first + chrono::Days::new(offset)).to_string();
            counts
                .iter()
                .find(|(d, _)| *d == day)
                .map_or(0, |(_, n)| *n as u64)
        })
        .collect()
}

/// Writes a change's e-mails and audit entries inside its transaction.
fn write_effects(tx: &rusqlite::Connection, effects: &Effects) -> Result<(), StoreFault> {
    outbox::store::sqlite::insert_all(tx, &effects.emails)?;
    outbox::webhooks::sqlite::publish(tx, &effects.events)?;
    audit::store::sqlite::insert_all(tx, &effects.audit)
}

/// A shipment's insert, encoded before the write lock is taken.
struct InsertRow {
    id: String,
    tracking_number: String,
    status: &'static str,
    created_at: String,
    search_text: String,
    doc: String,
    effects: Effects,
    exceptions: Vec<super::sqlite_queue::ExceptionRow>,
}

impl InsertRow {
    fn of(shipment: &Shipment, effects: Effects) -> Result<Self, ShipmentError> {
        Ok(Self {
            id: shipment.id.clone(),
            tracking_number: shipment.tracking_number.to_string(),
            status: shipment.status.as_str(),
            created_at: utc_micros::format(&shipment.created_at),
            search_text: shipment.search_text(),
            doc: encode(shipment)?,
            effects,
            exceptions: super::sqlite_queue::new_rows(shipment)?,
        })
    }

    /// Writes the shipment and its effects; returns its row number, which its search row
    /// takes (`index_search`).
    fn write(&self, tx: &rusqlite::Connection) -> Result<i64, ShipmentError> {
        for claim in &self.effects.claims {
            let claimed = tx
                .prepare_cached(
                    "INSERT INTO shipment_claims (claim, shipment_id) VALUES (?, ?) \
                     ON CONFLICT (claim) DO NOTHING",
                )
                .and_then(|mut st| st.execute(params![claim, self.id]))
                .map_err(StoreFault::from)?;
            if claimed == 0 {
                return Err(ShipmentError::AlreadyClaimed(claim.clone()));
            }
        }
        let inserted = tx
            .prepare_cached(
                "INSERT INTO shipments (id, tracking_number, status, created_at, search_text, doc) \
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    self.id,
                    self.tracking_number,
                    self.status,
                    self.created_at,
                    self.search_text,
                    self.doc
                ])
            });
        match inserted.map_err(StoreFault::from) {
            Ok(_) => {}
            Err(StoreFault::Duplicate(index)) if index.contains("tracking_number") => {
                return Err(ShipmentError::DuplicateTrackingNumber);
            }
            Err(fault) => return Err(fault.into()),
        }
        let seq = tx.last_insert_rowid();
        for row in &self.exceptions {
            row.write(tx)?;
        }
        write_effects(tx, &self.effects)?;
        Ok(seq)
    }
}

/// Counts the shipments inserted from row `first` on (a write holds the lock, so every later
/// row is its own) by status and by day, as the dashboard's figures read them.
fn count_inserted(tx: &rusqlite::Connection, first: i64) -> Result<(), StoreFault> {
    tx.prepare_cached(
        "INSERT INTO shipment_counts (status, count) \
         SELECT status, count(*) FROM shipments WHERE seq >= ?1 GROUP BY status \
         ON CONFLICT (status) DO UPDATE SET count = count + excluded.count",
    )?
    .execute([first])?;
    tx.prepare_cached(
        "INSERT INTO shipment_days (kind, day, count) \
         SELECT kind, day, count(*) FROM ( \
             SELECT 'created' AS kind, substr(created_at, 1, 10) AS day \
                 FROM shipments WHERE seq >= ?1 \
             UNION ALL \
             SELECT 'delivered', substr(json_extract(doc, '$.deliveredAt'), 1, 10) \
                 FROM shipments WHERE seq >= ?1 AND status = 'delivered' \
                 AND json_extract(doc, '$.deliveredAt') IS NOT NULL \
             UNION ALL \
             SELECT 'due', json_extract(doc, '$.expectedDeliveryDate') \
                 FROM shipments WHERE seq >= ?1 AND status != 'delivered' \
         ) GROUP BY kind, day \
         ON CONFLICT (kind, day) DO UPDATE SET count = count + excluded.count",
    )?
    .execute([first])?;
    Ok(())
}

/// What a write's new shipments add, the last statements before its commit: their counts and
/// their search rows (`inserted` in insertion order).
fn after_inserts(tx: &rusqlite::Connection, inserted: &[(i64, &str)]) -> Result<(), StoreFault> {
    if let Some((first, _)) = inserted.first() {
        count_inserted(tx, *first)?;
    }
    index_search(tx, inserted)
}

/// Writes the search rows of the shipments just inserted.
fn index_search(tx: &rusqlite::Connection, inserted: &[(i64, &str)]) -> Result<(), StoreFault> {
    let mut insert =
        tx.prepare_cached("INSERT INTO shipments_search (rowid, search_text) VALUES (?, ?)")?;
    for (seq, text) in inserted {
        insert.execute(params![seq, text])?;
    }
    Ok(())
}

/// Writes `rows` in one transaction, each all or nothing: a refused one (its claim or tracking
/// number taken) leaves nothing behind and does not stop the others.
fn insert_batch(
    conn: &mut rusqlite::Connection,
    rows: &[InsertRow],
) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
    // Without savepoints first: they cost a journal each. A refusal rolls the batch
    // back and it runs again, a savepoint each.
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(StoreFault::from)?;
    let mut indexed = Vec::with_capacity(rows.len());
    let mut refused = false;
    for row in rows {
        match row.write(&tx) {
            Ok(seq) => indexed.push((seq, row.search_text.as_str())),
            Err(ShipmentError::Unavailable(cause)) => {
                return Err(ShipmentError::Unavailable(cause));
            }
            Err(_) => {
                refused = true;
                break;
            }
        }
    }
    if !refused {
        after_inserts(&tx, &indexed)?;
        tx.commit().map_err(StoreFault::from)?;
        return Ok(rows.iter().map(|_| Ok(())).collect());
    }
    drop(tx);
    indexed.clear();
    // One commit for all, a savepoint each: a refused shipment leaves nothing behind.
    let mut tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(StoreFault::from)?;
    let mut outcomes = Vec::with_capacity(rows.len());
    for row in rows {
        let savepoint = tx.savepoint().map_err(StoreFault::from)?;
        let outcome = row.write(&savepoint);
        match outcome {
            Ok(seq) => {
                savepoint.commit().map_err(StoreFault::from)?;
                indexed.push((seq, row.search_text.as_str()));
            }
            Err(ShipmentError::Unavailable(cause)) => {
                return Err(ShipmentError::Unavailable(cause));
            }
            Err(_) => drop(savepoint),
        }
        outcomes.push(outcome.map(|_| ()));
    }
    after_inserts(&tx, &indexed)?;
    tx.commit().map_err(StoreFault::from)?;
    Ok(outcomes)
}

#[async_trait]
impl Shipments for SqliteShipmentStore {
    async fn insert(&self, shipment: &Shipment, effects: &Effects) -> Result<(), ShipmentError> {
        let row = InsertRow::of(shipment, effects.clone())?;
        self.db
            .write(move |conn| {
                // IMMEDIATE: take the write lock up front, waiting (busy_timeout) rather than failing.
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let seq = row.write(&tx)?;
                after_inserts(&tx, &[(seq, &row.search_text)])?;
                tx.commit().map_err(StoreFault::from)?;
                Ok::<_, ShipmentError>(())
            })
            .await?;
        self.changes.publish(&shipment.id);
        Ok(())
    }

    async fn insert_each(
        &self,
        shipments: Vec<(Shipment, Effects)>,
    ) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
        let rows = shipments
            .into_iter()
            .map(|(shipment, effects)| InsertRow::of(&shipment, effects))
            .collect::<Result<Vec<_>, _>>()?;
        let (written, rows) = self
            .db
            .write(move |conn| {
                // Room for a batch's pages until its commit (64 MB), so they are not spilled
                // to the WAL and written again; the connection's usual cache afterwards.
                let default_cache: i64 = conn
                    .query_row("PRAGMA cache_size", [], |r| r.get(0))
                    .map_err(StoreFault::from)?;
                conn.execute_batch("PRAGMA cache_size = -65536")
                    .map_err(StoreFault::from)?;
                let written = insert_batch(conn, &rows);
                conn.execute_batch(&format!("PRAGMA cache_size = {default_cache}"))
                    .map_err(StoreFault::from)?;
                Ok::<_, ShipmentError>((written?, rows))
            })
            .await?;
        for (row, outcome) in rows.iter().zip(&written) {
            if outcome.is_ok() {
                self.changes.publish(&row.id);
            }
        }
        // Freed beside the next writes rather than in this one's turn: tens of megabytes.
        tokio::task::spawn_blocking(move || drop(rows));
        Ok(written)
    }

    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError> {
        self.db.run_inline(|conn| {
            let doc: Option<String> = conn
                .prepare_cached("SELECT doc FROM shipments WHERE id = ?")
                .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
                .map_err(StoreFault::from)?;
            decode(doc.ok_or(ShipmentError::NotFound)?)
        })
    }

    async fn claim_holder(&self, claim: &str) -> Result<Option<String>, ShipmentError> {
        self.db.run_inline(|conn| {
            Ok(conn
                .prepare_cached("SELECT shipment_id FROM shipment_claims WHERE claim = ?")
                .and_then(|mut st| st.query_row([claim], |r| r.get(0)).optional())
                .map_err(StoreFault::from)?)
        })
    }

    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError> {
        self.db.run_inline(|conn| {
            let doc: Option<String> = conn
                .prepare_cached("SELECT doc FROM shipments WHERE tracking_number = ?")
                .and_then(|mut st| st.query_row([number.as_str()], |r| r.get(0)).optional())
                .map_err(StoreFault::from)?;
            decode(doc.ok_or(ShipmentError::NotFound)?)
        })
    }

    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError> {
        let query = query.clone();
        let after = query
            .after
            .as_ref()
            .map(|c| parse_cursor(c, query.order))
            .transpose()?;
        self.db.run(move |conn| {
            let how = match (&query.customer, &query.text) {
                (Some(_), Some(text)) if query.labelled.is_empty() && text.chars().count() >= TRIGRAM => {
                    Some(customer_search(conn, text)?)
                }
                (Some(_), Some(_)) if query.labelled.is_empty() => Some(CustomerSearch::Scanned),
                _ => None,
            };
            let Filter { sql: matches, mut values, key } = filter(&query, how);
            let count_sql = format!("SELECT count(*) FROM ({matches} LIMIT {})", MAX_COUNTED + 1);
            let total: i64 = conn.prepare_cached(&count_sql)
                .and_then(|mut st| st.query_row(params_from_iter(&values), |r| r.get(0)))
                .map_err(StoreFault::from)?;
            let (direction, past) = if query.order.descending() { ("DESC", "<") } else { ("ASC", ">") };
            let sorted = query.order.by_expected_delivery();
            let mut page = matches;
            if let Some((sort, seq)) = after {
                let and = if page.contains(" WHERE ") { " AND" } else { " WHERE" };
                match sort {
                    Some(sort) => {
                        page.push_str(&format!("{and} ({EXPECTED} {past} ? OR ({EXPECTED} = ? AND {key} {past} ?))"));
                        values.extend([Value::Text(sort.clone()), Value::Text(sort), Value::Integer(seq)]);
                    }
                    None => {
                        page.push_str(&format!("{and} {key} {past} ?"));
                        values.push(Value::Integer(seq));
                    }
                }
            }
            let order = if sorted { format!("sort {direction}, seq {direction}") } else { format!("seq {direction}") };
            // The page's sequence numbers first (indexes only where possible), then just those
            // documents.
            let sql = format!(
                "SELECT p.seq, s.doc, {} FROM ({page} ORDER BY {order} LIMIT ?) p JOIN shipments s ON s.seq = p.seq ORDER BY {}",
                if sorted { "p.sort" } else { "NULL" },
                if sorted { format!("p.sort {direction}, p.seq {direction}") } else { format!("p.seq {direction}") },
            );
            let keyset = Keyset::new(query.page_size);
            values.push(Value::Integer(keyset.limit()));
            let mut statement = conn.prepare_cached(&sql).map_err(StoreFault::from)?;
            let rows = statement
                .query_map(params_from_iter(&values), |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<String>>(2)?))
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(StoreFault::from)?;
            let (rows, next) = keyset.page(rows, |(seq, _, sort)| match sort {
                Some(sort) => Cursor(paging::cursor(sort, seq)),
                None => Cursor(seq.to_string()),
            });
            let shipments = rows.into_iter().map(|(_, doc, _)| decode(doc)).collect::<Result<Vec<_>, _>>()?;
            Ok(ListPage { shipments, next, total: total as u64 })
        })
        .await
    }

    async fn statistics(&self, today: NaiveDate, days: u32) -> Result<Statistics, ShipmentError> {
        self.db
            .run(move |conn| {
                let counted = |sql: &str, values: Vec<Value>| -> Result<Vec<(String, i64)>, StoreFault> {
                    let mut statement = conn.prepare_cached(sql)?;
                    let rows = statement
                        .query_map(params_from_iter(&values), |r| Ok((r.get(0)?, r.get(1)?)))?
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(rows)
                };
                let by_status = counted("SELECT status, count FROM shipment_counts WHERE count > 0", Vec::new())?
                    .into_iter()
                    .filter_map(|(status, n)| Some((Status::parse(&status)?, n.max(0) as u64)))
                    .collect();
                // Counters the triggers keep per day: a few hundred rows, whatever the total.
                let late = counted(
                    "SELECT '', coalesce(sum(count), 0) FROM shipment_days WHERE kind = 'due' AND day < ?",
                    vec![Value::Text(today.to_string())],
                )?
                .first()
                .map_or(0, |(_, n)| (*n).max(0) as u64);
                let first = today - chrono::Days::new(u64::from(days.max(1) - 1));
                let per_kind = |kind: &str| {
                    counted(
                        "SELECT day, count FROM shipment_days WHERE kind = ? AND day >= ?",
                        vec![Value::Text(kind.to_owned()), Value::Text(first.to_string())],
                    )
                };
                let created = per_kind("created")?;
                let delivered = per_kind("delivered")?;
                Ok(Statistics {
                    by_status,
                    late,
                    created: per_day(first, days, &created),
                    delivered: per_day(first, days, &delivered),
                })
            })
            .await
    }

    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let doc: Option<String> = tx
                    .query_row("SELECT doc FROM shipments WHERE id = ?", [&id], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(StoreFault::from)?;
                let mut shipment = decode(doc.ok_or(ShipmentError::NotFound)?)?;
                let effects = edit(&mut shipment)?;
                tx.execute(
                    "UPDATE shipments SET status = ?, search_text = ?, doc = ? WHERE id = ?",
                    params![
                        shipment.status.as_str(),
                        shipment.search_text(),
                        encode(&shipment)?,
                        id
                    ],
                )
                .map_err(StoreFault::from)?;
                super::sqlite_queue::reconcile(&tx, &shipment)?;
                write_effects(&tx, &effects)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(shipment)
            })
            .await
            .inspect(|shipment| self.changes.publish(&shipment.id))
    }

    async fn delete(&self, id: &str, record: DeleteRecord) -> Result<Shipment, ShipmentError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let doc: Option<String> = tx
                    .query_row(
                        "DELETE FROM shipments WHERE id = ? RETURNING doc",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                let shipment = decode(doc.ok_or(ShipmentError::NotFound)?)?;
                tx.execute(
                    "DELETE FROM shipment_claims WHERE shipment_id = ?",
                    [&shipment.id],
                )
                .map_err(StoreFault::from)?;
                super::sqlite_queue::forget(&tx, &shipment.id)?;
                write_effects(&tx, &record(&shipment))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(shipment)
            })
            .await
            .inspect(|shipment| self.changes.publish(&shipment.id))
    }

    fn changes(&self) -> &crate::live::Changes {
        &self.changes
    }
}

#[async_trait]
impl Imports for SqliteShipmentStore {
    async fn save_import(&self, record: &ImportRecord) -> Result<(), ShipmentError> {
        let id = record.id.clone();
        let doc = json::encode(record)?;
        self.db
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO imports (id, doc) VALUES (?, ?) \
                     ON CONFLICT (id) DO UPDATE SET doc = excluded.doc",
                    params![id, doc],
                )
                .map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get_import(&self, id: &str) -> Result<ImportRecord, ShipmentError> {
        self.db.run_inline(|conn| {
            let doc: Option<String> = conn
                .query_row("SELECT doc FROM imports WHERE id = ?", [id], |r| r.get(0))
                .optional()
                .map_err(StoreFault::from)?;
            Ok(json::decode(
                "import",
                &doc.ok_or(ShipmentError::ImportNotFound)?,
            )?)
        })
    }

    async fn list_imports(
        &self,
        limit: usize,
        before: Option<&str>,
    ) -> Result<Vec<ImportRecord>, ShipmentError> {
        self.db.run_inline(|conn| {
            let mut st = conn
                // Past an import no longer there is nothing, as in MongoDB, not the first page again.
                .prepare(
                    "SELECT doc FROM imports WHERE ?1 IS NULL \
                     OR seq < (SELECT seq FROM imports WHERE id = ?1) \
                     ORDER BY seq DESC LIMIT ?2",
                )
                .map_err(StoreFault::from)?;
            let docs = st
                .query_map(params![before, limit as i64], |r| r.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(StoreFault::from)?;
            docs.iter()
                .map(|doc| Ok(json::decode("import", doc)?))
                .collect()
        })
    }
}

#[async_trait]
impl Journal for SqliteShipmentStore {
    async fn record(&self, entries: &[AuditEntry]) -> Result<(), ShipmentError> {
        let entries = entries.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                audit::store::sqlite::insert_all(&tx, &entries)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn enqueue(&self, emails: &[Notification]) -> Result<(), ShipmentError> {
        let emails = emails.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                outbox::store::sqlite::insert_all(&tx, &emails)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn enqueue_once(
        &self,
        claim: &str,
        emails: &[Notification],
    ) -> Result<bool, ShipmentError> {
        let (claim, emails) = (claim.to_owned(), emails.to_vec());
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let claimed = tx
                    .execute(
                        "INSERT INTO shipment_claims (claim, shipment_id) VALUES (?, '') \
                         ON CONFLICT (claim) DO NOTHING",
                        [&claim],
                    )
                    .map_err(StoreFault::from)?;
                if claimed == 0 {
                    return Ok(false);
                }
                outbox::store::sqlite::insert_all(&tx, &emails)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(true)
            })
            .await
    }
}

#[async_trait]
impl Rules for SqliteShipmentStore {
    async fn email_rules(&self) -> Result<EmailRules, ShipmentError> {
        // Read on the caller's thread, unlike `setting`: every change of status reads them.
        self.db.run_inline(|conn| {
            let doc: Option<String> = conn
                .prepare_cached("SELECT doc FROM settings WHERE name = ?")
                .and_then(|mut st| st.query_row([EMAIL_RULES], |r| r.get(0)).optional())
                .map_err(StoreFault::from)?;
            Ok(match doc {
                Some(doc) => json::decode("e-mail rules", &doc)?,
                None => EmailRules::default(),
            })
        })
    }

    async fn set_email_rules(
        &self,
        rules: &EmailRules,
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        self.set_setting(EMAIL_RULES, rules, entry).await
    }
}

#[async_trait]
impl Counters for SqliteShipmentStore {
    async fn hit(
        &self,
        key: &str,
        window: Duration,
        now: DateTime<Utc>,
    ) -> Result<u64, ShipmentError> {
        let key = key.to_owned();
        let start = window_start(window, now);
        self.db
            .write(move |conn| {
                // SET reads the old row: a new window starts the count again.
                let count: i64 = conn
                    .query_row(
                        "INSERT INTO counters (key, window_start, count) VALUES (?1, ?2, 1)
                         ON CONFLICT(key) DO UPDATE SET
                             count = CASE WHEN window_start = ?2 THEN count + 1 ELSE 1 END,
                             window_start = ?2
                         RETURNING count",
                        params![key, start],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                if count == 1 {
                    // Now and then, forget the windows that are over.
                    conn.execute(
                        "DELETE FROM counters WHERE window_start < ?",
                        [start - 2 * 24 * 3600],
                    )
                    .map_err(StoreFault::from)?;
                }
                Ok(count as u64)
            })
            .await
    }
}

/// A customer's row: its columns beside the document.
fn customer_row(c: &Customer) -> Result<[Value; 6], ShipmentError> {
    Ok([
        Value::Text(c.id.clone()),
        Value::Text(c.account_number.clone()),
        Value::Text(crate::search::fold(&c.name)),
        Value::Text(c.status.as_str().to_owned()),
        Value::Text(c.search_text()),
        Value::Text(json::encode(c)?),
    ])
}

/// The write of a customer and its audit entry; a taken account number refuses it.
fn write_customer(
    conn: &mut rusqlite::Connection,
    sql: &str,
    row: &[Value; 6],
    entry: &AuditEntry,
) -> Result<bool, ShipmentError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(StoreFault::from)?;
    let written = match tx
        .execute(sql, params_from_iter(row))
        .map_err(StoreFault::from)
    {
        Ok(n) => n,
        Err(StoreFault::Duplicate(_)) => return Err(ShipmentError::AccountNumberTaken),
        Err(e) => return Err(e.into()),
    };
    if written == 0 {
        return Ok(false);
    }
    audit::store::sqlite::insert_all(&tx, std::slice::from_ref(entry))?;
    tx.commit().map_err(StoreFault::from)?;
    Ok(true)
}

#[async_trait]
impl Customers for SqliteShipmentStore {
    async fn insert_customer(
        &self,
        customer: &Customer,
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let (row, entry) = (customer_row(customer)?, entry.clone());
        self.db
            .write(move |conn| {
                write_customer(
                    conn,
                    "INSERT INTO customers (id, account_number, name_key, status, search_text, doc) VALUES (?, ?, ?, ?, ?, ?)",
                    &row,
                    &entry,
                )
                .map(drop)
            })
            .await
    }

    async fn get_customer(&self, id: &str) -> Result<Customer, ShipmentError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM customers WHERE id = ?", [id], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(json::decode(
                    "customer",
                    &doc.ok_or(ShipmentError::CustomerNotFound)?,
                )?)
            })
            .await
    }

    async fn list_customers(&self, query: &CustomerQuery) -> Result<CustomerPage, ShipmentError> {
        let query = query.clone();
        let by_name = service_common::store::sqlite::Order {
            by: Some("name_key"),
            key: "id",
            integer_key: false,
            descending: false,
        };
        self.db
            .run(move |conn| {
                let mut clauses = Vec::new();
                let mut values = Vec::new();
                if let Some(text) = &query.text {
                    clauses.push("instr(search_text, ?) > 0");
                    values.push(Value::Text(text.clone()));
                }
                if let Some(status) = query.status {
                    clauses.push("status = ?");
                    values.push(Value::Text(status.as_str().to_owned()));
                }
                let mut select = "SELECT name_key, id, doc FROM customers".to_owned();
                if !clauses.is_empty() {
                    select.push_str(&format!(" WHERE {}", clauses.join(" AND ")));
                }
                let (docs, next) = service_common::store::sqlite::page::<String, ShipmentError>(
                    conn,
                    &select,
                    values,
                    by_name,
                    query.after.as_deref(),
                    Keyset::new(query.page_size),
                    |r| {
                        let cursor = paging::cursor(r.get::<_, String>(0)?, r.get::<_, String>(1)?);
                        Ok((cursor, r.get(2)?))
                    },
                )?;
                let customers = docs
                    .iter()
                    .map(|doc| Ok(json::decode("customer", doc)?))
                    .collect::<Result<Vec<_>, ShipmentError>>()?;
                Ok(CustomerPage { customers, next })
            })
            .await
    }

    async fn replace_customer(
        &self,
        customer: &Customer,
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let (row, entry) = (customer_row(customer)?, entry.clone());
        self.db
            .write(move |conn| {
                // The same columns, the id last for the WHERE.
                let [id, account, name, status, search, doc] = row.clone();
                let row = [account, name, status, search, doc, id];
                match write_customer(
                    conn,
                    "UPDATE customers SET account_number = ?, name_key = ?, status = ?, search_text = ?, doc = ? WHERE id = ?",
                    &row,
                    &entry,
                )? {
                    true => Ok(()),
                    false => Err(ShipmentError::CustomerNotFound),
                }
            })
            .await
    }

    async fn count_entries(&self, customer_id: &str) -> Result<u64, ShipmentError> {
        let customer_id = customer_id.to_owned();
        self.db
            .run(move |conn| {
                let n: i64 = conn
                    .query_row(
                        "SELECT count(*) FROM address_book WHERE customer_id = ?",
                        [customer_id],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                Ok(n as u64)
            })
            .await
    }

    async fn insert_entries(
        &self,
        entries: &[Entry],
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let rows = entries
            .iter()
            .map(entry_row)
            .collect::<Result<Vec<_>, _>>()?;
        let entry = entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                for row in &rows {
                    tx.execute(
                        "INSERT INTO address_book (id, customer_id, name_key, kind, search_text, doc) VALUES (?, ?, ?, ?, ?, ?)",
                        params_from_iter(row),
                    )
                    .map_err(StoreFault::from)?;
                }
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get_entry(&self, customer_id: &str, id: &str) -> Result<Entry, ShipmentError> {
        let (customer_id, id) = (customer_id.to_owned(), id.to_owned());
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row(
                        "SELECT doc FROM address_book WHERE id = ? AND customer_id = ?",
                        [id, customer_id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(json::decode(
                    "address book entry",
                    &doc.ok_or(ShipmentError::EntryNotFound)?,
                )?)
            })
            .await
    }

    async fn replace_entry(
        &self,
        entry: &Entry,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let [id, customer, name, kind, search, doc] = entry_row(entry)?;
        let audit_entry = audit_entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                let n = tx
                    .execute(
                        "UPDATE address_book SET name_key = ?, kind = ?, search_text = ?, doc = ? WHERE id = ? AND customer_id = ?",
                        params_from_iter([name, kind, search, doc, id, customer]),
                    )
                    .map_err(StoreFault::from)?;
                if n == 0 {
                    return Err(ShipmentError::EntryNotFound);
                }
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn delete_entry(
        &self,
        entry: &Entry,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let (id, customer) = (entry.id.clone(), entry.customer_id.clone());
        let audit_entry = audit_entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let n = tx
                    .execute(
                        "DELETE FROM address_book WHERE id = ? AND customer_id = ?",
                        params![id, customer],
                    )
                    .map_err(StoreFault::from)?;
                if n == 0 {
                    return Err(ShipmentError::EntryNotFound);
                }
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn list_entries(
        &self,
        query: &EntryQuery,
    ) -> Result<(Vec<Entry>, Option<String>), ShipmentError> {
        let query = query.clone();
        self.db
            .run(move |conn| {
                let mut select =
                    "SELECT name_key, id, doc FROM address_book WHERE customer_id = ?".to_owned();
                let mut values = vec![Value::Text(query.customer_id.clone())];
                if let Some(kind) = query.kind {
                    select.push_str(" AND kind = ?");
                    values.push(Value::Text(kind.as_str().to_owned()));
                }
                if let Some(text) = &query.text {
                    select.push_str(" AND instr(search_text, ?) > 0");
                    values.push(Value::Text(text.clone()));
                }
                let by_name = service_common::store::sqlite::Order {
                    by: Some("name_key"),
                    key: "id",
                    integer_key: false,
                    descending: false,
                };
                page_of(
                    conn,
                    &select,
                    values,
                    by_name,
                    query.after.as_deref(),
                    query.page_size,
                    "address book entry",
                )
            })
            .await
    }

    async fn insert_request(&self, request: &AccountRequest) -> Result<(), ShipmentError> {
        let row = (
            request.id.clone(),
            utc_micros::format(&request.created_at),
            request.state.as_str(),
            json::encode(request)?,
        );
        self.db
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO account_requests (id, created_at, state, doc) VALUES (?, ?, ?, ?)",
                    params![row.0, row.1, row.2, row.3],
                )
                .map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get_request(&self, id: &str) -> Result<AccountRequest, ShipmentError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM account_requests WHERE id = ?", [id], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(json::decode(
                    "account request",
                    &doc.ok_or(ShipmentError::RequestNotFound)?,
                )?)
            })
            .await
    }

    async fn list_requests(
        &self,
        query: &RequestQuery,
    ) -> Result<(Vec<AccountRequest>, Option<String>), ShipmentError> {
        let query = query.clone();
        self.db
            .run(move |conn| {
                let mut select = "SELECT created_at, id, doc FROM account_requests".to_owned();
                let mut values = Vec::new();
                if let Some(state) = query.state {
                    select.push_str(" WHERE state = ?");
                    values.push(Value::Text(state.as_str().to_owned()));
                }
                let newest = service_common::store::sqlite::Order {
                    by: Some("created_at"),
                    key: "id",
                    integer_key: false,
                    descending: true,
                };
                page_of(
                    conn,
                    &select,
                    values,
                    newest,
                    query.after.as_deref(),
                    query.page_size,
                    "account request",
                )
            })
            .await
    }

    async fn answer_request(
        &self,
        request: &AccountRequest,
        customer: Option<&Customer>,
        effects: &Effects,
    ) -> Result<(), ShipmentError> {
        let (id, state, doc) = (
            request.id.clone(),
            request.state.as_str(),
            json::encode(request)?,
        );
        let customer = customer.map(customer_row).transpose()?;
        let effects = effects.clone();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                let n = tx
                    .execute(
                        "UPDATE account_requests SET state = ?, doc = ? WHERE id = ? AND state = 'pending'",
                        params![state, doc, id],
                    )
                    .map_err(StoreFault::from)?;
                if n == 0 {
                    return Err(ShipmentError::Precondition("This request was already answered".into()));
                }
                if let Some(row) = &customer {
                    match tx.execute(
                        "INSERT INTO customers (id, account_number, name_key, status, search_text, doc) VALUES (?, ?, ?, ?, ?, ?)",
                        params_from_iter(row),
                    ) {
                        Ok(_) => {}
                        Err(e) => {
                            return Err(match StoreFault::from(e) {
                                StoreFault::Duplicate(_) => ShipmentError::AccountNumberTaken,
                                fault => fault.into(),
                            });
                        }
                    }
                }
                write_effects(&tx, &effects)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn insert_pickup(
        &self,
        pickup: &Pickup,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let row = pickup_row(pickup)?;
        let audit_entry = audit_entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                tx.execute(
                    "INSERT INTO pickups (id, customer_id, created_at, day, area_key, state, doc) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    params_from_iter(&row),
                )
                .map_err(StoreFault::from)?;
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn get_pickup(&self, id: &str) -> Result<Pickup, ShipmentError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM pickups WHERE id = ?", [id], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(json::decode(
                    "pickup",
                    &doc.ok_or(ShipmentError::PickupNotFound)?,
                )?)
            })
            .await
    }

    async fn list_pickups(
        &self,
        query: &PickupQuery,
    ) -> Result<(Vec<Pickup>, Option<String>), ShipmentError> {
        let query = query.clone();
        self.db
            .run(move |conn| {
                let mut clauses = Vec::new();
                let mut values = Vec::new();
                let order = match &query.customer_id {
                    Some(customer) => {
                        clauses.push("customer_id = ?");
                        values.push(Value::Text(customer.clone()));
                        service_common::store::sqlite::Order {
                            by: Some("created_at"),
                            key: "id",
                            integer_key: false,
                            descending: true,
                        }
                    }
                    None => service_common::store::sqlite::Order {
                        by: Some("day"),
                        key: "id",
                        integer_key: false,
                        descending: false,
                    },
                };
                if let Some(state) = query.state {
                    clauses.push("state = ?");
                    values.push(Value::Text(state.as_str().to_owned()));
                }
                if let Some(day) = query.date {
                    clauses.push("day = ?");
                    values.push(Value::Text(day.to_string()));
                }
                if let Some(area) = &query.area {
                    clauses.push("area_key = ?");
                    values.push(Value::Text(area.clone()));
                }
                if let Some(agent) = &query.agent {
                    // Within a day (its index): a courier's share of that day's pickups.
                    clauses.push("json_extract(doc, '$.agentId') = ?");
                    values.push(Value::Text(agent.clone()));
                }
                let by = order.by.unwrap_or("id");
                let mut select = format!("SELECT {by}, id, doc FROM pickups");
                if !clauses.is_empty() {
                    select.push_str(&format!(" WHERE {}", clauses.join(" AND ")));
                }
                page_of(
                    conn,
                    &select,
                    values,
                    order,
                    query.after.as_deref(),
                    query.page_size,
                    "pickup",
                )
            })
            .await
    }

    async fn replace_pickup(
        &self,
        before: &Pickup,
        pickup: &Pickup,
        effects: &Effects,
    ) -> Result<(), ShipmentError> {
        let expected = json::encode(before)?;
        let row = pickup_row(pickup)?;
        let effects = effects.clone();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                let [id, _, _, day, area, state, doc] = row.clone();
                let n = tx
                    .execute(
                        "UPDATE pickups SET day = ?, area_key = ?, state = ?, doc = ? WHERE id = ? AND doc = ?",
                        params_from_iter([day, area, state, doc, id, Value::Text(expected.clone())]),
                    )
                    .map_err(StoreFault::from)?;
                if n == 0 {
                    return Err(ShipmentError::Precondition("This pickup changed meanwhile: reload it".into()));
                }
                write_effects(&tx, &effects)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn watchers(&self, customer_id: &str) -> Result<Vec<Watcher>, ShipmentError> {
        let customer_id = customer_id.to_owned();
        self.db
            .run(move |conn| {
                let mut st = conn
                    .prepare_cached("SELECT doc FROM customer_watchers WHERE customer_id = ?")
                    .map_err(StoreFault::from)?;
                let docs = st
                    .query_map([customer_id], |r| r.get::<_, String>(0))
                    .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                    .map_err(StoreFault::from)?;
                docs.iter()
                    .map(|d| Ok(json::decode("watcher", d)?))
                    .collect()
            })
            .await
    }

    async fn watcher(
        &self,
        customer_id: &str,
        user_id: &str,
    ) -> Result<Option<Watcher>, ShipmentError> {
        let (customer_id, user_id) = (customer_id.to_owned(), user_id.to_owned());
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row(
                        "SELECT doc FROM customer_watchers WHERE customer_id = ? AND user_id = ?",
                        [customer_id, user_id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                doc.map(|d| Ok(json::decode("watcher", &d)?)).transpose()
            })
            .await
    }

    async fn set_watcher(&self, watcher: &Watcher) -> Result<(), ShipmentError> {
        let (customer_id, user_id, empty) = (
            watcher.customer_id.clone(),
            watcher.user_id.clone(),
            watcher.events.is_empty(),
        );
        let doc = json::encode(watcher)?;
        self.db
            .write(move |conn| {
                if empty {
                    conn.execute("DELETE FROM customer_watchers WHERE customer_id = ? AND user_id = ?", params![customer_id, user_id])
                } else {
                    conn.execute(
                        "INSERT INTO customer_watchers (customer_id, user_id, doc) VALUES (?, ?, ?) ON CONFLICT (customer_id, user_id) DO UPDATE SET doc = excluded.doc",
                        params![customer_id, user_id, doc],
                    )
                }
                .map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn pickup_settings(&self) -> Result<PickupSettings, ShipmentError> {
        self.setting(PICKUP_SETTINGS, "pickup settings").await
    }

    async fn set_pickup_settings(
        &self,
        settings: &PickupSettings,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        self.set_setting(PICKUP_SETTINGS, settings, audit_entry)
            .await
    }

    async fn invite(&self, email: &Notification, entry: &AuditEntry) -> Result<(), ShipmentError> {
        let (email, entry) = (email.clone(), entry.clone());
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                outbox::store::sqlite::insert_all(&tx, std::slice::from_ref(&email))?;
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }
}

/// The name of the pickup settings in the settings table.
const PICKUP_SETTINGS: &str = "pickups";

fn entry_row(e: &Entry) -> Result<[Value; 6], ShipmentError> {
    Ok([
        Value::Text(e.id.clone()),
        Value::Text(e.customer_id.clone()),
        Value::Text(crate::search::fold(&e.name)),
        Value::Text(e.kind.as_str().to_owned()),
        Value::Text(e.search_text()),
        Value::Text(json::encode(e)?),
    ])
}

fn pickup_row(p: &Pickup) -> Result<[Value; 7], ShipmentError> {
    Ok([
        Value::Text(p.id.clone()),
        Value::Text(p.customer_id.clone()),
        Value::Text(utc_micros::format(&p.created_at)),
        Value::Text(p.date.to_string()),
        Value::Text(p.area_key()),
        Value::Text(p.state.as_str().to_owned()),
        Value::Text(json::encode(p)?),
    ])
}

/// One keyset page of documents: `select` names the order column, the id and the document.
pub(super) fn page_of<T: serde::de::DeserializeOwned>(
    conn: &rusqlite::Connection,
    select: &str,
    values: Vec<Value>,
    order: service_common::store::sqlite::Order<'_>,
    after: Option<&str>,
    page_size: usize,
    what: &'static str,
) -> Result<(Vec<T>, Option<String>), ShipmentError> {
    let (docs, next) = service_common::store::sqlite::page::<String, ShipmentError>(
        conn,
        select,
        values,
        order,
        after,
        Keyset::new(page_size),
        |r| {
            let cursor = paging::cursor(r.get::<_, String>(0)?, r.get::<_, String>(1)?);
            Ok((cursor, r.get(2)?))
        },
    )?;
    let items = docs
        .iter()
        .map(|doc| Ok(json::decode(what, doc)?))
        .collect::<Result<Vec<T>, ShipmentError>>()?;
    Ok((items, next))
}

#[async_trait]
impl super::RateCards for SqliteShipmentStore {
    async fn rate_cards(&self) -> Result<Vec<RateCard>, ShipmentError> {
        self.db
            .run(|conn| {
                let mut statement = conn
                    .prepare("SELECT doc FROM settings WHERE name >= ? AND name < ? ORDER BY name")
                    .map_err(StoreFault::from)?;
                let docs = statement
                    .query_map(rate_card_range(), |r| r.get::<_, String>(0))
                    .map_err(StoreFault::from)?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(StoreFault::from)?;
                docs.iter()
                    .map(|doc| Ok(json::decode("rate card", doc)?))
                    .collect()
            })
            .await
    }

    async fn rate_card(&self, id: &str) -> Result<Option<RateCard>, ShipmentError> {
        let key = super::rate_card_key(id);
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM settings WHERE name = ?", [&key], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(doc.map(|doc| json::decode("rate card", &doc)).transpose()?)
            })
            .await
    }

    async fn save_rate_card(
        &self,
        card: &RateCard,
        read: u32,
        audit_entry: Option<&AuditEntry>,
    ) -> Result<bool, ShipmentError> {
        let (key, doc) = (super::rate_card_key(&card.id), json::encode(card)?);
        let audit_entry = audit_entry.cloned();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
                let saved: Option<String> = tx
                    .query_row("SELECT doc FROM settings WHERE name = ?", [&key], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                let saved_version = match saved {
                    Some(doc) => json::decode::<RateCard>("rate card", &doc)?.version,
                    None => 0,
                };
                if saved_version != read {
                    return Ok(false);
                }
                tx.execute(
                    "INSERT INTO settings (name, doc) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET doc = excluded.doc",
                    params![key, doc],
                )
                .map_err(StoreFault::from)?;
                if let Some(entry) = &audit_entry {
                    audit::store::sqlite::insert_all(&tx, std::slice::from_ref(entry))?;
                }
                tx.commit().map_err(StoreFault::from)?;
                Ok(true)
            })
            .await
    }

    async fn delete_rate_card(
        &self,
        id: &str,
        audit_entry: &AuditEntry,
    ) -> Result<bool, ShipmentError> {
        let (key, audit_entry) = (super::rate_card_key(id), audit_entry.clone());
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let deleted = tx
                    .execute("DELETE FROM settings WHERE name = ?", [&key])
                    .map_err(StoreFault::from)?;
                if deleted == 0 {
                    return Ok(false);
                }
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(true)
            })
            .await
    }
}

/// The settings names of the rate cards: from the prefix up to the next string after it.
fn rate_card_range() -> [String; 2] {
    let prefix = super::RATE_CARD_PREFIX;
    let end = format!(
        "{}{}",
        &prefix[..prefix.len() - 1],
        char::from(prefix.as_bytes()[prefix.len() - 1] + 1)
    );
    [prefix.to_owned(), end]
}
