//! Webhooks in the shipments' SQLite file, so a change and its events share one transaction.

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

use super::{
    Attempt, ClaimedDelivery, Delivery, DeliveryPage, Endpoint, EndpointEdit, Event, WebhookStore,
    fan_out, owners, resendable,
};
use crate::store::sqlite::{SEQ_NEWEST_FIRST, seq_and_doc};
use crate::store::{lease_end, new_claim};
use crate::{OutboxError, Outcome, State};

pub const SCHEMA: Schema = Schema {
    store: "webhooks",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    enabled INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    endpoint_id TEXT NOT NULL,
    shipment_id TEXT NOT NULL,
    ord INTEGER NOT NULL,
    state TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    lease_until TEXT,
    claim TEXT,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_order ON webhook_deliveries (endpoint_id, shipment_id, ord);
CREATE INDEX IF NOT EXISTS webhook_deliveries_list ON webhook_deliveries (endpoint_id, seq);
",
    }, Step {
        name: "endpoint_customer",
        // A change reads the company's endpoints and its customer's, not every customer's.
        sql: "
CREATE INDEX IF NOT EXISTS webhook_endpoints_owner
    ON webhook_endpoints (coalesce(json_extract(doc, '$.customerId'), ''), enabled);
",
    }],
};

/// The due delivery to claim first: the first of each state from the due index, then the
/// earliest of those; one `IN` over the states with `OR` sorted every due delivery.
static DUE_DELIVERY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let first = |state: &str, due: &str| {
        format!(
            "SELECT * FROM (SELECT d.seq, d.next_attempt_at AS due FROM webhook_deliveries d \
             JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled = 1 \
             WHERE d.state = '{state}' AND {due} <= ?1 \
             AND (d.shipment_id = '' OR NOT EXISTS ( \
                 SELECT 1 FROM webhook_deliveries e \
                 WHERE e.endpoint_id = d.endpoint_id AND e.shipment_id = d.shipment_id \
                 AND e.ord < d.ord AND e.state IN ('queued', 'sending', 'retrying'))) \
             ORDER BY d.next_attempt_at LIMIT 1)"
        )
    };
    format!(
        "SELECT d.seq, d.doc FROM webhook_deliveries d WHERE d.seq = (SELECT seq FROM ({} UNION ALL {} UNION ALL {}) \
         ORDER BY due LIMIT 1)",
        first("queued", "d.next_attempt_at"),
        first("retrying", "d.next_attempt_at"),
        first("sending", "d.lease_until"),
    )
});

#[derive(Clone)]
pub struct SqliteWebhooks {
    db: Sqlite,
}

fn decode<T: serde::de::DeserializeOwned>(what: &str, doc: &str) -> Result<T, OutboxError> {
    Ok(json::decode(what, doc)?)
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, OutboxError> {
    Ok(json::encode(value)?)
}

/// An endpoint's owner as the owner index holds it: its customer, or empty for the company's.
const OWNER: &str = "coalesce(json_extract(doc, '$.customerId'), '')";

/// The enabled endpoints of these owners (the company's is empty).
fn enabled_endpoints(
    conn: &rusqlite::Connection,
    owners: &[String],
) -> Result<Vec<Endpoint>, StoreFault> {
    let marks = vec!["?"; owners.len()].join(", ");
    let docs = conn
        // Cached: run in every new shipment's transaction, with one or two owners.
        .prepare_cached(&format!(
            "SELECT doc FROM webhook_endpoints WHERE {OWNER} IN ({marks}) AND enabled = 1 \
             ORDER BY seq"
        ))?
        .query_map(rusqlite::params_from_iter(owners), |r| {
            r.get::<_, String>(0)
        })?
        .collect::<Result<Vec<_>, _>>()?;
    docs.iter().map(|d| json::decode("endpoint", d)).collect()
}

fn insert_deliveries(conn: &rusqlite::Connection, items: &[Delivery]) -> Result<(), StoreFault> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO webhook_deliveries (id, endpoint_id, shipment_id, ord, state, next_attempt_at, doc) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )?;
    for d in items {
        insert.execute(params![
            d.id,
            d.endpoint_id,
            d.shipment_id,
            d.order,
            d.state.as_str(),
            utc_micros::format(&d.next_attempt_at),
            json::encode(d)?
        ])?;
    }
    Ok(())
}

/// Writes `events`' deliveries, to the endpoints enabled now, inside the caller's transaction
/// (the shipment store's change).
pub fn publish(conn: &rusqlite::Connection, events: &[Event]) -> Result<(), StoreFault> {
    if events.is_empty() {
        return Ok(());
    }
    insert_deliveries(
        conn,
        &fan_out(&enabled_endpoints(conn, &owners(events))?, events),
    )
}

fn read_delivery(conn: &rusqlite::Connection, id: &str) -> Result<Delivery, OutboxError> {
    let doc: Option<String> = conn
        .query_row(
            "SELECT doc FROM webhook_deliveries WHERE id = ?",
            [id],
            |r| r.get(0),
        )
        .optional()
        .map_err(StoreFault::from)?;
    decode("delivery", &doc.ok_or(OutboxError::DeliveryNotFound)?)
}

fn write_delivery(conn: &rusqlite::Connection, d: &Delivery) -> Result<(), OutboxError> {
    conn.execute(
        "UPDATE webhook_deliveries SET state = ?, next_attempt_at = ?, claim = NULL, \
         lease_until = NULL, doc = ? WHERE id = ?",
        params![
            d.state.as_str(),
            utc_micros::format(&d.next_attempt_at),
            encode(d)?,
            d.id
        ],
    )
    .map_err(StoreFault::from)?;
    Ok(())
}

impl SqliteWebhooks {
    /// Opens the webhooks in `data_dir`'s shared file.
    pub fn open(data_dir: &Path) -> anyhow::Result<Self> {
        Ok(Self {
            // An endpoint's alert is queued in the e-mail outbox, whoever opened it first.
            db: Sqlite::open(
                &data_dir.join(crate::store::sqlite::FILE),
                4,
                &[&crate::store::sqlite::SCHEMA, &SCHEMA],
            )?,
        })
    }
}

#[async_trait]
impl WebhookStore for SqliteWebhooks {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> Result<(), OutboxError> {
        let endpoint = endpoint.clone();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let count: i64 = tx
                    .query_row(
                        &format!("SELECT count(*) FROM webhook_endpoints WHERE {OWNER} = ?"),
                        [&endpoint.customer_id],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                if count as usize >= endpoint.limit() {
                    return Err(OutboxError::TooManyEndpoints(endpoint.limit()));
                }
                tx.execute(
                    "INSERT INTO webhook_endpoints (id, enabled, doc) VALUES (?, ?, ?)",
                    params![endpoint.id, endpoint.enabled, encode(&endpoint)?],
                )
                .map_err(StoreFault::from)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn endpoints(&self) -> Result<Vec<Endpoint>, OutboxError> {
        self.db
            .run(|conn| {
                let docs = conn
                    .prepare_cached("SELECT doc FROM webhook_endpoints ORDER BY seq")
                    .and_then(|mut st| {
                        st.query_map([], |r| r.get::<_, String>(0))?
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(StoreFault::from)?;
                docs.iter().map(|d| decode("endpoint", d)).collect()
            })
            .await
    }

    async fn endpoint(&self, id: &str) -> Result<Endpoint, OutboxError> {
        let id = id.to_owned();
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row(
                        "SELECT doc FROM webhook_endpoints WHERE id = ?",
                        [&id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                decode("endpoint", &doc.ok_or(OutboxError::EndpointNotFound)?)
            })
            .await
    }

    async fn update_endpoint(&self, id: &str, edit: EndpointEdit) -> Result<Endpoint, OutboxError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let doc: Option<String> = tx
                    .query_row(
                        "SELECT doc FROM webhook_endpoints WHERE id = ?",
                        [&id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                let mut endpoint: Endpoint =
                    decode("endpoint", &doc.ok_or(OutboxError::EndpointNotFound)?)?;
                let emails = edit(&mut endpoint)?;
                tx.execute(
                    "UPDATE webhook_endpoints SET enabled = ?, doc = ? WHERE id = ?",
                    params![endpoint.enabled, encode(&endpoint)?, id],
                )
                .map_err(StoreFault::from)?;
                crate::store::sqlite::insert_all(&tx, &emails)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(endpoint)
            })
            .await
    }

    async fn delete_endpoint(&self, id: &str) -> Result<(), OutboxError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let deleted = tx
                    .execute("DELETE FROM webhook_endpoints WHERE id = ?", [&id])
                    .map_err(StoreFault::from)?;
                if deleted == 0 {
                    return Err(OutboxError::EndpointNotFound);
                }
                tx.execute(
                    "DELETE FROM webhook_deliveries WHERE endpoint_id = ?",
                    [&id],
                )
                .map_err(StoreFault::from)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn publish(&self, events: &[Event]) -> Result<(), OutboxError> {
        let events = events.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                publish(&tx, &events)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn enqueue(&self, deliveries: &[Delivery]) -> Result<(), OutboxError> {
        let deliveries = deliveries.to_vec();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                insert_deliveries(&tx, &deliveries)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await
    }

    async fn claim(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<ClaimedDelivery>, OutboxError> {
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let now_text = utc_micros::format(&now);
                let due: Option<(i64, String)> = tx
                    .prepare_cached(&DUE_DELIVERY)
                    .and_then(|mut st| {
                        st.query_row([&now_text], |r| Ok((r.get(0)?, r.get(1)?)))
                            .optional()
                    })
                    .map_err(StoreFault::from)?;
                let Some((seq, doc)) = due else {
                    return Ok(None);
                };
                let mut delivery: Delivery = decode("delivery", &doc)?;
                delivery.state = State::Sending;
                delivery.attempts += 1;
                delivery.updated_at = now;
                let claim = new_claim();
                tx.execute(
                    "UPDATE webhook_deliveries SET state = 'sending', claim = ?, lease_until = ?, doc = ? \
                     WHERE seq = ?",
                    params![
                        claim,
                        utc_micros::format(&lease_end(now, lease)),
                        encode(&delivery)?,
                        seq
                    ],
                )
                .map_err(StoreFault::from)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(Some(ClaimedDelivery { delivery, claim }))
            })
            .await
    }

    async fn settle(
        &self,
        id: &str,
        claim: &str,
        outcome: &Outcome,
        attempt: Attempt,
        now: DateTime<Utc>,
    ) -> Result<bool, OutboxError> {
        let (id, claim, outcome) = (id.to_owned(), claim.to_owned(), outcome.clone());
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let doc: Option<String> = tx
                    .query_row(
                        "SELECT doc FROM webhook_deliveries WHERE id = ? AND claim = ? AND state = 'sending'",
                        [&id, &claim],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                let Some(doc) = doc else { return Ok(false) };
                let mut delivery: Delivery = decode("delivery", &doc)?;
                delivery.settle(&outcome, attempt, now);
                write_delivery(&tx, &delivery)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(true)
            })
            .await
    }

    async fn deliveries(
        &self,
        endpoint_id: &str,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<DeliveryPage, OutboxError> {
        let page_token = page_token.map(str::to_owned);
        let values = vec![Value::Text(endpoint_id.to_owned())];
        self.db
            .run(move |conn| {
                let (rows, next) = sqlite::page::<String, OutboxError>(
                    conn,
                    "SELECT seq, doc FROM webhook_deliveries WHERE endpoint_id = ?",
                    values,
                    SEQ_NEWEST_FIRST,
                    page_token.as_deref(),
                    Keyset::new(page_size),
                    seq_and_doc,
                )?;
                let deliveries = rows
                    .iter()
                    .map(|doc| decode("delivery", doc))
                    .collect::<Result<_, _>>()?;
                Ok(DeliveryPage { deliveries, next })
            })
            .await
    }

    async fn delivery(&self, id: &str) -> Result<Delivery, OutboxError> {
        let id = id.to_owned();
        self.db.run(move |conn| read_delivery(conn, &id)).await
    }

    async fn resend(&self, id: &str, now: DateTime<Utc>) -> Result<Delivery, OutboxError> {
        let id = id.to_owned();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let mut delivery = read_delivery(&tx, &id)?;
                resendable(&delivery)?;
                delivery.requeue(now);
                write_delivery(&tx, &delivery)?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(delivery)
            })
            .await
    }
}
