//! The embedded audit log: a table in the shipments' SQLite file. Triggers refuse every
//! UPDATE and DELETE, so not even a bug can rewrite history.

use std::path::Path;

use async_trait::async_trait;
use r2d2_sqlite::rusqlite::{self, TransactionBehavior, params, types::Value};
use service_common::paging::Keyset;
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault, json, sqlite};
use service_common::utc_micros;

use super::{AuditLog, AuditPage, AuditQuery, ListError, target_keys};
use crate::AuditEntry;

/// The file the audit log shares with the shipments and the outbox.
pub const FILE: &str = "shipments.sqlite3";

pub const SCHEMA: Schema = Schema {
    store: "audit",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    time TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    actor_email TEXT NOT NULL,
    action TEXT NOT NULL,
    target_id TEXT NOT NULL,
    target_name TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_actor_id ON audit (actor_id, seq);
CREATE INDEX IF NOT EXISTS audit_actor_email ON audit (actor_email, seq);
CREATE INDEX IF NOT EXISTS audit_action ON audit (action, seq);
CREATE INDEX IF NOT EXISTS audit_target_id ON audit (target_id, seq);
CREATE INDEX IF NOT EXISTS audit_target_name ON audit (target_name, seq);
CREATE INDEX IF NOT EXISTS audit_time ON audit (time);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
",
    }],
};

/// Writes entries inside the caller's transaction (a shipment change).
pub fn insert_all(conn: &rusqlite::Connection, entries: &[AuditEntry]) -> Result<(), StoreFault> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO audit (id, time, actor_id, actor_email, action, target_id, target_name, doc) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )?;
    for entry in entries {
        let (target_id, target_name) = target_keys(entry);
        insert.execute(params![
            entry.id,
            utc_micros::format(&entry.time),
            entry.actor_id,
            entry.actor_email.to_lowercase(),
            entry.action.as_str(),
            target_id,
            target_name,
            json::encode(entry)?
        ])?;
    }
    Ok(())
}

#[derive(Clone)]
pub struct SqliteAuditLog {
    db: Sqlite,
}

impl SqliteAuditLog {
    /// Opens the log in `data_dir`'s shared file.
    pub fn open(data_dir: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            db: Sqlite::open(&data_dir.join(FILE), 4, &[&SCHEMA])?,
        })
    }
}

#[async_trait]
impl AuditLog for SqliteAuditLog {
    async fn append(&self, entries: &[AuditEntry]) -> Result<(), StoreFault> {
        let entries = entries.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                insert_all(&tx, &entries)?;
                tx.commit()?;
                Ok(())
            })
            .await
    }

    async fn list(&self, query: &AuditQuery) -> Result<AuditPage, ListError> {
        let mut clauses = Vec::new();
        let mut values: Vec<Value> = Vec::new();
        if let Some(actor) = &query.actor {
            clauses.push("(actor_id = ? OR actor_email = ?)");
            values.push(Value::Text(actor.clone()));
            values.push(Value::Text(actor.to_lowercase()));
        }
        if let Some(action) = query.action {
            clauses.push("action = ?");
            values.push(Value::Text(action.as_str().into()));
        }
        if let Some(target) = &query.target {
            clauses.push("(target_id = ? OR target_name = ?)");
            values.push(Value::Text(target.to_lowercase()));
            values.push(Value::Text(target.to_lowercase()));
        }
        if let Some(from) = &query.from {
            clauses.push("time >= ?");
            values.push(Value::Text(utc_micros::format(from)));
        }
        if let Some(until) = &query.until {
            clauses.push("time < ?");
            values.push(Value::Text(utc_micros::format(until)));
        }
        let where_sql = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let select = format!("SELECT seq, doc FROM audit {where_sql}");
        let newest_first = sqlite::Order {
            by: None,
            key: "seq",
            integer_key: true,
            descending: true,
        };
        let (after, keyset) = (query.after.clone(), Keyset::new(query.page_size));
        self.db
            .run(move |conn| {
                let (rows, next) = sqlite::page::<String, ListError>(
                    conn,
                    &select,
                    values,
                    newest_first,
                    after.as_deref(),
                    keyset,
                    |r| Ok((r.get::<_, i64>(0)?.to_string(), r.get(1)?)),
                )?;
                let entries = rows
                    .into_iter()
                    .map(|doc| json::decode("audit entry", &doc))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(AuditPage { entries, next })
            })
            .await
    }
}
