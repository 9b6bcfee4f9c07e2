//! The production audit log: the `audit` collection beside `shipments`, so a shipment
//! change and its entry commit in one transaction.

use async_trait::async_trait;
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::error::Error as MongoError;
use mongodb::{ClientSession, Collection, Database, IndexModel};
use service_common::paging::{self, Keyset};
use service_common::store::migrate::{self, MongoStep};
use service_common::store::{StoreFault, mongo};
use service_common::utc_micros;

use super::{AuditLog, AuditPage, AuditQuery, ListError, target_keys};
use crate::AuditEntry;

pub const COLLECTION: &str = "audit";

fn to_document(entry: &AuditEntry) -> Result<Document, StoreFault> {
    let mut d = mongo::to_document(entry)?;
    // Lower-case keys the filters match on, beside the entry as written.
    let (target_id, target_name) = target_keys(entry);
    d.insert("targetKeys", vec![target_id, target_name]);
    d.insert(
        "actorKeys",
        vec![entry.actor_id.clone(), entry.actor_email.to_lowercase()],
    );
    Ok(d)
}

fn from_document(mut d: Document) -> Result<AuditEntry, StoreFault> {
    d.remove("targetKeys");
    d.remove("actorKeys");
    mongo::from_document("audit entry", d)
}

/// Writes entries inside the caller's transaction (a shipment change).
pub async fn insert_all(
    audit: &Collection<Document>,
    session: &mut ClientSession,
    entries: &[AuditEntry],
) -> Result<(), MongoError> {
    let docs = entries
        .iter()
        .map(to_document)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| MongoError::custom(e.to_string()))?;
    if !docs.is_empty() {
        audit.insert_many(docs).session(session).await?;
    }
    Ok(())
}

#[derive(Clone)]
pub struct MongoAuditLog {
    audit: Collection<Document>,
}

impl MongoAuditLog {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let client = service_common::mongo_client(uri).await?;
        Self::with_database(client.database(database)).await
    }

    pub async fn with_database(db: Database) -> anyhow::Result<Self> {
        migrate::mongo(&db, "audit", &MIGRATIONS).await?;
        Ok(Self {
            audit: db.collection(COLLECTION),
        })
    }
}

/// The audit log's schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 1] = [MongoStep {
    name: "initial",
    apply: initial,
}];

fn initial(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        db.collection::<Document>(COLLECTION)
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "time": -1, "_id": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "actorKeys": 1, "time": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "targetKeys": 1, "time": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "action": 1, "time": -1 })
                    .build(),
            ])
            .await
            .map(drop)
    })
}

#[async_trait]
impl AuditLog for MongoAuditLog {
    async fn append(&self, entries: &[AuditEntry]) -> Result<(), StoreFault> {
        let docs = entries
            .iter()
            .map(to_document)
            .collect::<Result<Vec<_>, _>>()?;
        if !docs.is_empty() {
            self.audit.insert_many(docs).await?;
        }
        Ok(())
    }

    async fn list(&self, query: &AuditQuery) -> Result<AuditPage, ListError> {
        let mut filter = Document::new();
        if let Some(actor) = &query.actor {
            filter.insert(
                "actorKeys",
                doc! { "$in": [actor.clone(), actor.to_lowercase()] },
            );
        }
        if let Some(action) = query.action {
            filter.insert("action", action.as_str());
        }
        if let Some(target) = &query.target {
            filter.insert("targetKeys", target.to_lowercase());
        }
        let mut time = Document::new();
        if let Some(from) = &query.from {
            time.insert("$gte", utc_micros::format(from));
        }
        if let Some(until) = &query.until {
            time.insert("$lt", utc_micros::format(until));
        }
        if !time.is_empty() {
            filter.insert("time", time);
        }
        if let Some(cursor) = &query.after {
            let (time, _) = paging::split(cursor)?;
            if chrono::DateTime::parse_from_rfc3339(time).is_err() {
                return Err(ListError::BadCursor);
            }
        }
        let newest_first = mongo::Order {
            field: "time",
            descending: true,
        };
        let (entries, next) = mongo::find_page(
            &self.audit,
            filter,
            newest_first,
            query.after.as_deref(),
            Keyset::new(query.page_size),
            |d| Ok::<_, ListError>(from_document(d)?),
        )
        .await?;
        Ok(AuditPage { entries, next })
    }
}
