//! The exceptions queue and the internal notes in MongoDB.

use async_trait::async_trait;
use futures::TryStreamExt;
use futures::future::BoxFuture;
use mongodb::bson::{Bson, Document, doc};
use mongodb::{ClientSession, Collection, IndexModel};
use service_common::paging::Keyset;
use service_common::store::{StoreFault, json, mongo};

use audit::AuditEntry;

use super::mongo::{MongoShipmentStore, from_document};
use super::{Attention, ExceptionPage, MAX_COUNTED};
use crate::domain::Shipment;
use crate::error::ShipmentError;
use crate::exceptions::{
    self, Assignee, ExceptionQuery, ExceptionSettings, Kind, ShipmentException, State, mode_name,
};
use crate::notes::{MAX_NOTES, ShipmentNote};

pub(super) const EXCEPTIONS: &str = "shipment_exceptions";
pub(super) const NOTES: &str = "shipment_notes";
/// The id of the exception settings in the settings collection.
const EXCEPTION_SETTINGS: &str = "exceptions";

/// One stored exception: the fields the queue filters and orders by, and the whole as JSON.
pub(super) fn exception_document(e: &ShipmentException) -> Result<Document, ShipmentError> {
    Ok(doc! {
        "_id": e.id(),
        "shipmentId": &e.shipment_id,
        "kind": e.kind.as_str(),
        "mode": mode_name(e.mode),
        "state": e.state.as_str(),
        "since": e.since.timestamp_micros(),
        "assigneeId": &e.assignee_id,
        "json": json::encode(e)?,
    })
}

fn exception_of(d: &Document) -> Result<ShipmentException, ShipmentError> {
    let text = d
        .get_str("json")
        .map_err(|e| ShipmentError::Internal(format!("stored exception: {e}")))?;
    Ok(json::decode("exception", text)?)
}

/// The exception documents of a new shipment.
pub(super) fn new_documents(shipment: &Shipment) -> Result<Vec<Document>, ShipmentError> {
    exceptions::reconcile(&[], shipment)
        .save
        .iter()
        .map(exception_document)
        .collect()
}

/// Brings a changed shipment's exceptions in line with it, inside its transaction.
pub(super) async fn reconcile(
    collection: &Collection<Document>,
    session: &mut ClientSession,
    shipment: &Shipment,
) -> mongodb::error::Result<()> {
    let stored: Vec<Document> = collection
        .find(doc! { "shipmentId": &shipment.id })
        .session(&mut *session)
        .await?
        .stream(&mut *session)
        .try_collect()
        .await?;
    let stored = stored
        .iter()
        .map(exception_of)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| mongodb::error::Error::custom(e.to_string()))?;
    let changes = exceptions::reconcile(&stored, shipment);
    for e in &changes.save {
        let document =
            exception_document(e).map_err(|e| mongodb::error::Error::custom(e.to_string()))?;
        collection
            .replace_one(doc! { "_id": e.id() }, document)
            .upsert(true)
            .session(&mut *session)
            .await?;
    }
    if !changes.drop.is_empty() {
        let ids: Vec<String> = changes
            .drop
            .iter()
            .map(|kind| exceptions::exception_id(&shipment.id, *kind))
            .collect();
        collection
            .delete_many(doc! { "_id": { "$in": ids } })
            .session(&mut *session)
            .await?;
    }
    Ok(())
}

/// The queue's index and the notes' index, and the exceptions of the shipments stored
/// before there were any.
pub(super) fn migration(db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        let queue = db.collection::<Document>(EXCEPTIONS);
        queue
            .create_indexes([
                IndexModel::builder().keys(doc! { "shipmentId": 1 }).build(),
                IndexModel::builder()
                    .keys(doc! { "state": 1, "kind": 1, "mode": 1, "since": 1, "_id": 1 })
                    .build(),
            ])
            .await?;
        db.collection::<Document>(NOTES)
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "shipmentId": 1, "createdAt": -1, "_id": -1 })
                    .build(),
            )
            .await?;
        let mut shipments = db.collection::<Document>("shipments").find(doc! {}).await?;
        let mut batch = Vec::new();
        while let Some(found) = shipments.try_next().await? {
            let written = from_document(found)
                .and_then(|(shipment, _)| new_documents(&shipment))
                .map_err(|e| mongodb::error::Error::custom(e.to_string()))?;
            batch.extend(written);
            if batch.len() >= 1000 {
                backfill(&queue, std::mem::take(&mut batch)).await?;
            }
        }
        backfill(&queue, batch).await
    })
}

/// Writes a backfill batch; a migration run again (after a failed start) finds some written.
async fn backfill(
    queue: &Collection<Document>,
    batch: Vec<Document>,
) -> mongodb::error::Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    match queue.insert_many(batch).ordered(false).await {
        Err(e) if !mongo::is_duplicate_key(&e) => Err(e),
        _ => Ok(()),
    }
}

/// The filter of a query's exceptions: open ones due at its time, one range of the queue
/// index per kind and mode, or resolved ones.
fn matching(query: &ExceptionQuery) -> Document {
    let kinds: Vec<Kind> = query.kind.map_or(Kind::ALL.to_vec(), |k| vec![k]);
    let state = query.state.as_str();
    let mut any = Vec::new();
    for kind in kinds {
        if query.state == State::Resolved {
            any.push(doc! { "state": state, "kind": kind.as_str() });
        } else if kind == Kind::Stalled {
            for (mode, latest) in &query.stalled_since {
                any.push(doc! {
                    "state": state,
                    "kind": kind.as_str(),
                    "mode": *mode,
                    "since": { "$lte": latest.timestamp_micros() },
                });
            }
        } else {
            any.push(doc! {
                "state": state,
                "kind": kind.as_str(),
                "since": { "$lte": query.now.timestamp_micros() },
            });
        }
    }
    let mut filter = doc! { "$or": any };
    match &query.assignee {
        Assignee::Anyone => {}
        Assignee::Nobody => {
            filter.insert("assigneeId", "");
        }
        Assignee::User(id) => {
            filter.insert("assigneeId", id);
        }
    }
    filter
}

impl MongoShipmentStore {
    fn queue(&self) -> Collection<Document> {
        self.database().collection(EXCEPTIONS)
    }

    fn notes(&self) -> Collection<Document> {
        self.database().collection(NOTES)
    }

    async fn count_matching(&self, query: &ExceptionQuery) -> Result<u64, ShipmentError> {
        Ok(self
            .queue()
            .count_documents(matching(query))
            .limit(MAX_COUNTED + 1)
            .await
            .map_err(StoreFault::from)?)
    }
}

#[async_trait]
impl Attention for MongoShipmentStore {
    async fn list_exceptions(
        &self,
        query: &ExceptionQuery,
    ) -> Result<ExceptionPage, ShipmentError> {
        let total = self.count_matching(query).await?;
        let mut filter = matching(query);
        if let Some((since, id)) = &query.after {
            filter = doc! { "$and": [filter, { "$or": [
                { "since": { "$gt": since } },
                { "since": since, "_id": { "$gt": id } },
            ] }] };
        }
        let keyset = Keyset::new(query.page_size);
        let found: Vec<Document> = self
            .queue()
            .find(filter)
            .sort(doc! { "since": 1, "_id": 1 })
            .limit(keyset.limit())
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        let found = found
            .iter()
            .map(exception_of)
            .collect::<Result<Vec<_>, _>>()?;
        let (page, next) = keyset.page(found, exceptions::cursor_of);
        let ids: Vec<Bson> = page
            .iter()
            .map(|e| Bson::String(e.shipment_id.clone()))
            .collect();
        let mut shipments: Vec<Shipment> = Vec::new();
        let mut cursor = self
            .shipments_collection()
            .find(doc! { "_id": { "$in": ids } })
            .await
            .map_err(StoreFault::from)?;
        while let Some(d) = cursor.try_next().await.map_err(StoreFault::from)? {
            shipments.push(from_document(d)?.0);
        }
        let exceptions = page
            .into_iter()
            .map(|e| {
                let shipment = shipments.iter().find(|s| s.id == e.shipment_id).cloned();
                (e, shipment)
            })
            .collect();
        Ok(ExceptionPage {
            exceptions,
            next,
            total,
        })
    }

    async fn count_exceptions(
        &self,
        query: &ExceptionQuery,
        user: &str,
    ) -> Result<(Vec<(Kind, u64)>, u64), ShipmentError> {
        let mut by_kind = Vec::new();
        for kind in Kind::ALL {
            let of_kind = ExceptionQuery {
                kind: Some(kind),
                ..query.clone()
            };
            by_kind.push((kind, self.count_matching(&of_kind).await?));
        }
        let mine = self
            .count_matching(&ExceptionQuery {
                kind: None,
                assignee: Assignee::User(user.to_owned()),
                ..query.clone()
            })
            .await?;
        Ok((by_kind, mine))
    }

    async fn get_exception(
        &self,
        shipment_id: &str,
        kind: Kind,
    ) -> Result<Option<ShipmentException>, ShipmentError> {
        let found = self
            .queue()
            .find_one(doc! { "_id": exceptions::exception_id(shipment_id, kind) })
            .await
            .map_err(StoreFault::from)?;
        found.as_ref().map(exception_of).transpose()
    }

    async fn replace_exception(
        &self,
        before: &ShipmentException,
        after: &ShipmentException,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let filter = doc! { "_id": before.id(), "json": json::encode(before)? };
        let document = exception_document(after)?;
        self.in_transaction(|store, session| {
            let (filter, document, audit_entry) =
                (filter.clone(), document.clone(), audit_entry.clone());
            Box::pin(async move {
                let replaced = store
                    .queue()
                    .replace_one(filter, document)
                    .session(&mut *session)
                    .await?;
                if replaced.matched_count == 0 {
                    return Ok(Err(ShipmentError::Precondition(
                        "This exception changed meanwhile: reload it".into(),
                    )));
                }
                audit::store::mongo::insert_all(&store.audit_collection(), session, &[audit_entry])
                    .await?;
                Ok(Ok(()))
            })
        })
        .await
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
        let mut document =
            mongodb::bson::to_document(note).map_err(|e| ShipmentError::Internal(e.to_string()))?;
        document.remove("id");
        document.insert("_id", &note.id);
        let shipment_id = note.shipment_id.clone();
        self.in_transaction(|store, session| {
            let (document, audit_entry, shipment_id) =
                (document.clone(), audit_entry.clone(), shipment_id.clone());
            Box::pin(async move {
                // Read in the transaction: a delete of the shipment meanwhile conflicts with it.
                let exists = store
                    .shipments_collection()
                    .find_one(doc! { "_id": &shipment_id })
                    .projection(doc! { "_id": 1 })
                    .session(&mut *session)
                    .await?
                    .is_some();
                if !exists {
                    return Ok(Err(ShipmentError::NotFound));
                }
                let held = store
                    .notes()
                    .count_documents(doc! { "shipmentId": &shipment_id })
                    .session(&mut *session)
                    .await?;
                if held >= MAX_NOTES {
                    return Ok(Err(crate::notes::too_many()));
                }
                store
                    .notes()
                    .insert_one(document)
                    .session(&mut *session)
                    .await?;
                audit::store::mongo::insert_all(&store.audit_collection(), session, &[audit_entry])
                    .await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn list_notes(
        &self,
        shipment_id: &str,
        page_size: usize,
        after: Option<String>,
    ) -> Result<(Vec<ShipmentNote>, Option<String>), ShipmentError> {
        mongo::find_page(
            &self.notes(),
            doc! { "shipmentId": shipment_id },
            mongo::Order {
                field: "createdAt",
                descending: true,
            },
            after.as_deref(),
            Keyset::new(page_size),
            |mut d: Document| {
                let id = d
                    .get_str("_id")
                    .map_err(|e| ShipmentError::Internal(e.to_string()))?
                    .to_owned();
                d.insert("id", id);
                mongodb::bson::from_document(d).map_err(|e| ShipmentError::Internal(e.to_string()))
            },
        )
        .await
    }
}
