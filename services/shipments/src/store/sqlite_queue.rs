//! The exceptions queue and the internal notes in the embedded store.

use async_trait::async_trait;
use r2d2_sqlite::rusqlite::{
    self, OptionalExtension, TransactionBehavior, params, params_from_iter, types::Value,
};
use service_common::paging::Keyset;
use service_common::store::{StoreFault, json};

use audit::AuditEntry;

use super::sqlite::{SqliteShipmentStore, decode, page_of};
use super::{Attention, ExceptionPage, MAX_COUNTED};
use crate::domain::Shipment;
use crate::error::ShipmentError;
use crate::exceptions::{
    self, Assignee, ExceptionQuery, ExceptionSettings, Kind, ShipmentException, State, mode_name,
};
use crate::notes::{MAX_NOTES, ShipmentNote};

/// The name of the exception settings in the settings table.
const EXCEPTION_SETTINGS: &str = "exceptions";

/// The columns of one stored exception, encoded before the write lock is taken.
pub(super) struct ExceptionRow([Value; 8]);

impl ExceptionRow {
    pub(super) fn of(e: &ShipmentException) -> Result<Self, ShipmentError> {
        Ok(Self([
            Value::Text(e.id()),
            Value::Text(e.shipment_id.clone()),
            Value::Text(e.kind.as_str().into()),
            Value::Text(mode_name(e.mode).into()),
            Value::Text(e.state.as_str().into()),
            Value::Integer(e.since.timestamp_micros()),
            Value::Text(e.assignee_id.clone()),
            Value::Text(json::encode(e)?),
        ]))
    }

    pub(super) fn write(&self, tx: &rusqlite::Connection) -> Result<(), StoreFault> {
        tx.prepare_cached(
            "INSERT INTO shipment_exceptions (id, shipment_id, kind, mode, state, since, assignee_id, doc) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, \
             state = excluded.state, since = excluded.since, assignee_id = excluded.assignee_id, doc = excluded.doc",
        )?
        .execute(params_from_iter(self.0.iter()))?;
        Ok(())
    }
}

/// The exception rows of a new shipment.
pub(super) fn new_rows(shipment: &Shipment) -> Result<Vec<ExceptionRow>, ShipmentError> {
    exceptions::reconcile(&[], shipment)
        .save
        .iter()
        .map(ExceptionRow::of)
        .collect()
}

/// Brings a changed shipment's exceptions in line with it, inside its transaction.
pub(super) fn reconcile(
    tx: &rusqlite::Connection,
    shipment: &Shipment,
) -> Result<(), ShipmentError> {
    let stored = tx
        .prepare_cached("SELECT doc FROM shipment_exceptions WHERE shipment_id = ?")
        .and_then(|mut st| {
            st.query_map([&shipment.id], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(StoreFault::from)?
        .iter()
        .map(|doc| Ok(json::decode("exception", doc)?))
        .collect::<Result<Vec<ShipmentException>, ShipmentError>>()?;
    let changes = exceptions::reconcile(&stored, shipment);
    for e in &changes.save {
        ExceptionRow::of(e)?.write(tx)?;
    }
    for kind in changes.drop {
        tx.execute(
            "DELETE FROM shipment_exceptions WHERE id = ?",
            [exceptions::exception_id(&shipment.id, kind)],
        )
        .map_err(StoreFault::from)?;
    }
    Ok(())
}

/// Forgets a deleted shipment's exceptions and notes, inside its transaction.
pub(super) fn forget(tx: &rusqlite::Connection, shipment_id: &str) -> Result<(), StoreFault> {
    tx.execute(
        "DELETE FROM shipment_exceptions WHERE shipment_id = ?",
        [shipment_id],
    )?;
    tx.execute(
        "DELETE FROM shipment_notes WHERE shipment_id = ?",
        [shipment_id],
    )?;
    Ok(())
}

/// The WHERE clause of a query's exceptions (`e.`), with its parameters: open ones due at
/// its time, one range of the queue index per kind and mode, or resolved ones.
fn matching(query: &ExceptionQuery) -> (String, Vec<Value>) {
    let mut values = Vec::new();
    let mut clauses = Vec::new();
    let kinds: Vec<Kind> = query.kind.map_or(Kind::ALL.to_vec(), |k| vec![k]);
    let state = query.state.as_str();
    for kind in kinds {
        if query.state == State::Resolved {
            clauses.push("(e.state = ? AND e.kind = ?)".to_owned());
            values.extend([Value::Text(state.into()), Value::Text(kind.as_str().into())]);
        } else if kind == Kind::Stalled {
            for (mode, latest) in &query.stalled_since {
                clauses.push("(e.state = ? AND e.kind = ? AND e.mode = ? AND e.since <= ?)".into());
                values.extend([
                    Value::Text(state.into()),
                    Value::Text(kind.as_str().into()),
                    Value::Text((*mode).into()),
                    Value::Integer(latest.timestamp_micros()),
                ]);
            }
        } else {
            clauses.push("(e.state = ? AND e.kind = ? AND e.since <= ?)".into());
            values.extend([
                Value::Text(state.into()),
                Value::Text(kind.as_str().into()),
                Value::Integer(query.now.timestamp_micros()),
            ]);
        }
    }
    let mut sql = format!("({})", clauses.join(" OR "));
    match &query.assignee {
        Assignee::Anyone => {}
        Assignee::Nobody => sql.push_str(" AND e.assignee_id = ''"),
        Assignee::User(id) => {
            sql.push_str(" AND e.assignee_id = ?");
            values.push(Value::Text(id.clone()));
        }
    }
    (sql, values)
}

#[async_trait]
impl Attention for SqliteShipmentStore {
    async fn list_exceptions(
        &self,
        query: &ExceptionQuery,
    ) -> Result<ExceptionPage, ShipmentError> {
        let query = query.clone();
        self.db
            .run(move |conn| {
                let (filter, mut values) = matching(&query);
                let total: i64 = conn
                    .prepare_cached(&format!(
                        "SELECT count(*) FROM (SELECT 1 FROM shipment_exceptions e WHERE {filter} LIMIT ?)"
                    ))
                    .and_then(|mut st| {
                        let mut counted = values.clone();
                        counted.push(Value::Integer(MAX_COUNTED as i64 + 1));
                        st.query_row(params_from_iter(counted), |r| r.get(0))
                    })
                    .map_err(StoreFault::from)?;
                let mut sql = format!(
                    "SELECT e.doc, s.doc FROM shipment_exceptions e \
                     LEFT JOIN shipments s ON s.id = e.shipment_id WHERE {filter}"
                );
                if let Some((since, id)) = &query.after {
                    sql.push_str(" AND (e.since > ? OR (e.since = ? AND e.id > ?))");
                    values.extend([
                        Value::Integer(*since),
                        Value::Integer(*since),
                        Value::Text(id.clone()),
                    ]);
                }
                let keyset = Keyset::new(query.page_size);
                sql.push_str(" ORDER BY e.since, e.id LIMIT ?");
                values.push(Value::Integer(keyset.limit()));
                let rows = conn
                    .prepare_cached(&sql)
                    .and_then(|mut st| {
                        st.query_map(params_from_iter(values), |r| {
                            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
                        })?
                        .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(StoreFault::from)?;
                let mut found = Vec::with_capacity(rows.len());
                for (exception, shipment) in rows {
                    let exception: ShipmentException = json::decode("exception", &exception)?;
                    found.push((exception, shipment.map(decode).transpose()?));
                }
                let (exceptions, next) =
                    keyset.page(found, |(e, _)| exceptions::cursor_of(e));
                Ok(ExceptionPage {
                    exceptions,
                    next,
                    total: total as u64,
                })
            })
            .await
    }

    async fn count_exceptions(
        &self,
        query: &ExceptionQuery,
        user: &str,
    ) -> Result<(Vec<(Kind, u64)>, u64), ShipmentError> {
        let (query, user) = (query.clone(), user.to_owned());
        self.db
            .run(move |conn| {
                let count = |query: &ExceptionQuery| -> Result<u64, StoreFault> {
                    let (filter, mut values) = matching(query);
                    values.push(Value::Integer(MAX_COUNTED as i64 + 1));
                    let counted: i64 = conn
                        .prepare_cached(&format!(
                            "SELECT count(*) FROM (SELECT 1 FROM shipment_exceptions e WHERE {filter} LIMIT ?)"
                        ))?
                        .query_row(params_from_iter(values), |r| r.get(0))?;
                    Ok(counted as u64)
                };
                let mut by_kind = Vec::new();
                for kind in Kind::ALL {
                    by_kind.push((
                        kind,
                        count(&ExceptionQuery {
                            kind: Some(kind),
                            ..query.clone()
                        })?,
                    ));
                }
                let mine = count(&ExceptionQuery {
                    kind: None,
                    assignee: Assignee::User(user),
                    ..query.clone()
                })?;
                Ok((by_kind, mine))
            })
            .await
    }

    async fn get_exception(
        &self,
        shipment_id: &str,
        kind: Kind,
    ) -> Result<Option<ShipmentException>, ShipmentError> {
        let id = exceptions::exception_id(shipment_id, kind);
        self.db
            .run(move |conn| {
                let doc: Option<String> = conn
                    .query_row(
                        "SELECT doc FROM shipment_exceptions WHERE id = ?",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(StoreFault::from)?;
                Ok(doc.map(|doc| json::decode("exception", &doc)).transpose()?)
            })
            .await
    }

    async fn replace_exception(
        &self,
        before: &ShipmentException,
        after: &ShipmentException,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let read = json::encode(before)?;
        let row = ExceptionRow::of(after)?;
        let audit_entry = audit_entry.clone();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let unchanged: bool = tx
                    .query_row(
                        "SELECT count(*) > 0 FROM shipment_exceptions WHERE id = ? AND doc = ?",
                        params![row.0[0], read],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                if !unchanged {
                    return Err(ShipmentError::Precondition(
                        "This exception changed meanwhile: reload it".into(),
                    ));
                }
                row.write(&tx)?;
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await?;
        self.changes.publish(&after.shipment_id);
        Ok(())
    }

    async fn exception_settings(&self) -> Result<ExceptionSettings, ShipmentError> {
        self.setting(EXCEPTION_SETTINGS, "exception settings").await
    }

    async fn set_exception_settings(
        &self,
        settings: &ExceptionSettings,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        self.set_setting(EXCEPTION_SETTINGS, settings, audit_entry)
            .await
    }

    async fn insert_note(
        &self,
        note: &ShipmentNote,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let row = params_of(note)?;
        let audit_entry = audit_entry.clone();
        let shipment_id = note.shipment_id.clone();
        self.db
            .write(move |conn| {
                let tx = conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)
                    .map_err(StoreFault::from)?;
                let exists: bool = tx
                    .query_row(
                        "SELECT count(*) > 0 FROM shipments WHERE id = ?",
                        [&shipment_id],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                if !exists {
                    return Err(ShipmentError::NotFound);
                }
                let held: i64 = tx
                    .query_row(
                        "SELECT count(*) FROM shipment_notes WHERE shipment_id = ?",
                        [&shipment_id],
                        |r| r.get(0),
                    )
                    .map_err(StoreFault::from)?;
                if held as u64 >= MAX_NOTES {
                    return Err(crate::notes::too_many());
                }
                tx.execute(
                    "INSERT INTO shipment_notes (id, shipment_id, created_at, doc) VALUES (?, ?, ?, ?)",
                    params_from_iter(row.iter()),
                )
                .map_err(StoreFault::from)?;
                audit::store::sqlite::insert_all(&tx, std::slice::from_ref(&audit_entry))?;
                tx.commit().map_err(StoreFault::from)?;
                Ok(())
            })
            .await?;
        self.changes.publish(&note.shipment_id);
        Ok(())
    }

    async fn list_notes(
        &self,
        shipment_id: &str,
        page_size: usize,
        after: Option<String>,
    ) -> Result<(Vec<ShipmentNote>, Option<String>), ShipmentError> {
        let shipment_id = shipment_id.to_owned();
        self.db
            .run(move |conn| {
                page_of(
                    conn,
                    "SELECT created_at, id, doc FROM shipment_notes WHERE shipment_id = ?",
                    vec![Value::Text(shipment_id)],
                    service_common::store::sqlite::Order {
                        by: Some("created_at"),
                        key: "id",
                        integer_key: false,
                        descending: true,
                    },
                    after.as_deref(),
                    page_size,
                    "note",
                )
            })
            .await
    }
}

fn params_of(note: &ShipmentNote) -> Result<[Value; 4], ShipmentError> {
    Ok([
        Value::Text(note.id.clone()),
        Value::Text(note.shipment_id.clone()),
        Value::Text(service_common::utc_micros::format(&note.created_at)),
        Value::Text(json::encode(note)?),
    ])
}
