//! The embedded outbox: a table in the shipments' SQLite file, so a shipment and its e-mails
//! are written in one transaction.

use std::path::Path;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use r2d2_sqlite::rusqlite::types::Value;
use r2d2_sqlite::rusqlite::{self, OptionalExtension, TransactionBehavior, params};
use service_common::paging::Keyset;
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault, json, sqlite};
use service_common::utc_micros;

use super::{Claimed, OutboxError, OutboxStore, Page, Settlement, lease_end, new_claim};
use crate::{Filter, Notification, Outcome, State};

/// The file the outbox shares with the shipments.
pub const FILE: &str = "shipments.sqlite3";

pub const SCHEMA: Schema = Schema {
    store: "outbox",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    claim TEXT,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, next_attempt_at);
",
    }],
};

/// `?3`, when set, is part of the recipient's address or of the tracking number, any case.
const TEXT_MATCHES: &str = "(?3 IS NULL \
     OR instr(lower(json_extract(doc, '$.toEmail')), lower(?3)) > 0 \
     OR instr(lower(json_extract(doc, '$.trackingNumber')), lower(?3)) > 0)";

/// The order of notifications and webhook deliveries in a list: newest first.
pub(crate) const SEQ_NEWEST_FIRST: sqlite::Order = sqlite::Order {
    by: None,
    key: "seq",
    integer_key: true,
    descending: true,
};

/// A listed row's cursor (its sequence number) and document.
pub(crate) fn seq_and_doc(r: &rusqlite::Row) -> rusqlite::Result<(String, String)> {
    Ok((r.get::<_, i64>(0)?.to_string(), r.get(1)?))
}

#[derive(Clone)]
pub struct SqliteOutbox {
    db: Sqlite,
}

fn decode(doc: &str) -> Result<Notification, OutboxError> {
    Ok(json::decode("notification", doc)?)
}

fn encode(n: &Notification) -> Result<String, OutboxError> {
    Ok(json::encode(n)?)
}

/// Writes notifications inside the caller's transaction (the shipment store's insert).
pub fn insert_all(conn: &rusqlite::Connection, items: &[Notification]) -> Result<(), StoreFault> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO outbox (id, state, next_attempt_at, doc) VALUES (?, ?, ?, ?)",
    )?;
    for n in items {
        insert.execute(params![
            n.id,
            n.state.as_str(),
            utc_micros::format(&n.next_attempt_at),
            json::encode(n)?
        ])?;
    }
    Ok(())
}

impl SqliteOutbox {
    /// Opens the outbox in `data_dir`'s shared file.
    pub fn open(data_dir: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            db: Sqlite::open(&data_dir.join(FILE), 4, &[&SCHEMA])?,
        })
    }
}

/// Up to `limit` e-mails due first at `now` (queued or retrying and due, or sending with an
/// expired lease), with their documents.
fn due(
    tx: &rusqlite::Transaction,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<(i64, String)>, OutboxError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    Ok(tx
        .prepare_cached(
            // The first due of each state from the index, then the earliest of those: one
            // IN over both states sorted every due e-mail (7 ms a claim with 38,000 queued).
            "SELECT o.seq, o.doc FROM (
                 SELECT * FROM (SELECT seq, next_attempt_at AS due FROM outbox
                     WHERE state = 'queued' AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?2)
                 UNION ALL
                 SELECT * FROM (SELECT seq, next_attempt_at AS due FROM outbox
                     WHERE state = 'retrying' AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?2)
                 UNION ALL
                 SELECT * FROM (SELECT seq, lease_until AS due FROM outbox
                     WHERE state = 'sending' AND lease_until <= ?1 ORDER BY lease_until LIMIT ?2)
             ) d JOIN outbox o ON o.seq = d.seq ORDER BY d.due LIMIT ?2",
        )
        .and_then(|mut st| {
            st.query_map(params![utc_micros::format(&now), limit], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()
        })
        .map_err(StoreFault::from)?)
}

#[async_trait]
impl OutboxStore for SqliteOutbox {
    async fn enqueue(&self, items: &[Notification]) -> Result<(), OutboxError> {
        let items = items.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                insert_all(&tx, &items)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn claim_batch(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<Claimed>, OutboxError> {
        self.db.write(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
            let due = due(&tx, now, limit)?;
            if due.is_empty() {
                return Ok(Vec::new());
            }
            // One token for the batch: a settlement names the e-mail and the token.
            let claim = new_claim();
            let lease_until = utc_micros::format(&lease_end(now, lease));
            let mut take = tx
                .prepare_cached("UPDATE outbox SET state = 'sending', claim = ?, lease_until = ?, doc = ? WHERE seq = ?")
                .map_err(StoreFault::from)?;
            let mut claimed = Vec::with_capacity(due.len());
            for (seq, doc) in due {
                let mut notification = decode(&doc)?;
                notification.state = State::Sending;
                notification.attempts += 1;
                notification.updated_at = now;
                take.execute(params![claim, lease_until, encode(&notification)?, seq])
                    .map_err(StoreFault::from)?;
                claimed.push(Claimed { notification, claim: claim.clone() });
            }
            drop(take);
            tx.commit().map_err(StoreFault::from)?;
            Ok(claimed)
        })
        .await
    }

    async fn settle_batch(
        &self,
        settlements: &[Settlement],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>, OutboxError> {
        let settlements = settlements.to_vec();
        self.db.write(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
            let mut held = tx
                .prepare_cached("SELECT doc FROM outbox WHERE id = ? AND claim = ? AND state = 'sending'")
                .map_err(StoreFault::from)?;
            let mut record = tx
                .prepare_cached("UPDATE outbox SET state = ?, next_attempt_at = ?, claim = NULL, lease_until = NULL, doc = ? WHERE id = ?")
                .map_err(StoreFault::from)?;
            let mut settled = Vec::with_capacity(settlements.len());
            for s in &settlements {
                let doc: Option<String> = held
                    .query_row([&s.id, &s.claim], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                let Some(doc) = doc else {
                    settled.push(false);
                    continue;
                };
                let mut notification = decode(&doc)?;
                notification.settle(&s.outcome, now);
                record
                    .execute(params![
                        notification.state.as_str(),
                        utc_micros::format(&notification.next_attempt_at),
                        encode(&notification)?,
                        s.id
                    ])
                    .map_err(StoreFault::from)?;
                settled.push(true);
            }
            drop((held, record));
            tx.commit().map_err(StoreFault::from)?;
            Ok(settled)
        })
        .await
    }

    async fn deliver_local(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Notification>, OutboxError> {
        self.db.write(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(StoreFault::from)?;
            let mut record = tx
                .prepare_cached("UPDATE outbox SET state = ?, next_attempt_at = ?, claim = NULL, lease_until = NULL, doc = ? WHERE seq = ?")
                .map_err(StoreFault::from)?;
            let mut delivered = Vec::new();
            for (seq, doc) in due(&tx, now, limit)? {
                let mut notification = decode(&doc)?;
                notification.attempts += 1;
                notification.settle(&Outcome::Sent, now);
                record
                    .execute(params![
                        notification.state.as_str(),
                        utc_micros::format(&notification.next_attempt_at),
                        encode(&notification)?,
                        seq
                    ])
                    .map_err(StoreFault::from)?;
                delivered.push(notification);
            }
            drop(record);
            tx.commit().map_err(StoreFault::from)?;
            Ok(delivered)
        })
        .await
    }

    async fn list(
        &self,
        filter: &Filter,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<Page, OutboxError> {
        let page_token = page_token.map(str::to_owned);
        // ?1 is unused: TEXT_MATCHES is ?3.
        let values = vec![
            Value::Null,
            filter
                .state
                .map_or(Value::Null, |s| Value::Text(s.as_str().into())),
            filter.text.clone().map_or(Value::Null, Value::Text),
        ];
        self.db
            .run(move |conn| {
                let (rows, next) = sqlite::page::<String, OutboxError>(
                    conn,
                    &format!(
                        "SELECT seq, doc FROM outbox WHERE (?2 IS NULL OR state = ?2) \
                         AND {TEXT_MATCHES}"
                    ),
                    values,
                    SEQ_NEWEST_FIRST,
                    page_token.as_deref(),
                    Keyset::new(page_size),
                    seq_and_doc,
                )?;
                let notifications = rows
                    .iter()
                    .map(|doc| decode(doc))
                    .collect::<Result<_, _>>()?;
                Ok(Page {
                    notifications,
                    next,
                })
            })
            .await
    }

    async fn get(&self, id: &str) -> Result<Notification, OutboxError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row("SELECT doc FROM outbox WHERE id = ?", [&id], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                decode(&doc.ok_or(OutboxError::NotFound)?)
            })
            .await
    }

    async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<Notification, OutboxError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let doc: Option<String> = tx
                    .query_row("SELECT doc FROM outbox WHERE id = ?", [&id], |r| r.get(0))
                    .optional()
                    .map_err(StoreFault::from)?;
                let mut notification = decode(&doc.ok_or(OutboxError::NotFound)?)?;
                if notification.state != State::Failed {
                    return Err(OutboxError::NotFailed);
                }
                notification.state = State::Queued;
                notification.attempts = 0;
                notification.failing_since = None;
                notification.next_attempt_at = now;
                notification.updated_at = now;
                tx.execute(
                    "UPDATE outbox SET state = 'queued', next_attempt_at = ?, doc = ? WHERE id = ?",
                    params![utc_micros::format(&now), encode(&notification)?, id],
                )
                .map_err(StoreFault::from)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(notification)
            })
            .await
    }

    async fn retry_failed(
        &self,
        text: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<u64, OutboxError> {
        let (text, now) = (text.map(str::to_owned), utc_micros::format(&now));
        self.db
            .write(move |conn| {
                let queued = conn
                    .execute(
                        &format!(
                            "UPDATE outbox SET state = 'queued', next_attempt_at = ?1, \
                             doc = json_remove(json_set(doc, '$.state', 'queued', '$.attempts', 0, \
                             '$.nextAttemptAt', ?1, '$.updatedAt', ?1), '$.failingSince') \
                             WHERE state = 'failed' AND {TEXT_MATCHES}"
                        ),
                        params![now, Option::<String>::None, text],
                    )
                    .map_err(StoreFault::from)?;
                Ok(queued as u64)
            })
            .await
    }

    async fn backlog(&self) -> Result<u64, OutboxError> {
        self.db
            .run(|conn| {
                conn.query_row(
                    "SELECT count(*) FROM outbox WHERE state IN ('queued', 'sending', 'retrying')",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map(|n| n as u64)
                .map_err(|e| StoreFault::from(e).into())
            })
            .await
    }
}
