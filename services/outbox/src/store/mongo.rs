//! The production outbox: the `outbox` collection beside `shipments`, so a shipment and its
//! e-mails are written in one transaction. A claim takes each e-mail with one atomic update.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::error::Error as MongoError;
use mongodb::options::ReturnDocument;
use mongodb::{ClientSession, Collection, Database, IndexModel};
use service_common::paging::Keyset;
use service_common::store::migrate::{self, MongoStep};
use service_common::store::{StoreFault, mongo};
use service_common::utc_micros;

use super::{Claimed, OutboxError, OutboxStore, Page, Settlement, lease_end, new_claim};
use crate::{Filter, Notification, State};

pub const COLLECTION: &str = "outbox";

#[derive(Clone)]
pub struct MongoOutbox {
    outbox: Collection<Document>,
}

fn to_document(n: &Notification) -> Result<Document, OutboxError> {
    Ok(mongo::to_document(n)?)
}

/// The order of notifications and webhook deliveries in a list.
pub(crate) const NEWEST_FIRST: mongo::Order = mongo::Order {
    field: "createdAt",
    descending: true,
};

fn from_document(d: Document) -> Result<Notification, OutboxError> {
    held_record("notification", d)
}

/// A stored e-mail or webhook delivery without its claim, which only the store reads.
pub(crate) fn held_record<T: serde::de::DeserializeOwned>(
    what: &str,
    mut d: Document,
) -> Result<T, OutboxError> {
    for internal in ["claim", "leaseUntil"] {
        d.remove(internal);
    }
    Ok(mongo::from_document(what, d)?)
}

/// Rewrites the e-mail or delivery `id` with `settle` applied and frees its claim, if `claim`
/// still holds it; false when its lease ran out and another worker took it.
pub(crate) async fn settle_held<T>(
    records: &Collection<Document>,
    what: &str,
    id: &str,
    claim: &str,
    settle: impl FnOnce(&mut T),
) -> Result<bool, OutboxError>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let held = doc! { "_id": id, "claim": claim, "state": State::Sending.as_str() };
    let Some(current) = records
        .find_one(held.clone())
        .await
        .map_err(StoreFault::from)?
    else {
        return Ok(false);
    };
    let mut record: T = held_record(what, current)?;
    settle(&mut record);
    let mut settled = mongo::to_document(&record)?;
    settled.remove("_id");
    let result = records
        .update_one(
            held,
            doc! { "$set": settled, "$unset": { "claim": "", "leaseUntil": "" } },
        )
        .await
        .map_err(StoreFault::from)?;
    Ok(result.modified_count == 1)
}

/// Part of the recipient's address or of the tracking number, any case; everything when unset.
fn text_matches(text: Option<&str>) -> Document {
    match text {
        None => Document::new(),
        Some(text) => {
            let pattern = mongo::regex_literal(text);
            doc! { "$or": [
                { "toEmail": { "$regex": &pattern, "$options": "i" } },
                { "trackingNumber": { "$regex": &pattern, "$options": "i" } },
            ] }
        }
    }
}

/// A failed notification queued again, due at `now`, with fresh attempts.
fn requeue(now: &str) -> Document {
    doc! {
        "$set": { "state": State::Queued.as_str(), "attempts": 0, "nextAttemptAt": now, "updatedAt": now },
        "$unset": { "failingSince": "" },
    }
}

/// Writes notifications inside the caller's transaction (the shipment store's insert).
pub async fn insert_all(
    outbox: &Collection<Document>,
    session: &mut ClientSession,
    items: &[Notification],
) -> Result<(), MongoError> {
    let docs = items
        .iter()
        .map(to_document)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| MongoError::custom(e.to_string()))?;
    if !docs.is_empty() {
        outbox.insert_many(docs).session(session).await?;
    }
    Ok(())
}

/// The outbox's schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 1] = [MongoStep {
    name: "initial",
    apply: initial,
}];

fn initial(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        db.collection::<Document>(COLLECTION)
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "state": 1, "nextAttemptAt": 1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "createdAt": -1, "_id": -1 })
                    .build(),
            ])
            .await
            .map(drop)
    })
}

impl MongoOutbox {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let client = service_common::mongo_client(uri).await?;
        Self::with_database(client.database(database)).await
    }

    pub async fn with_database(db: Database) -> anyhow::Result<Self> {
        migrate::mongo(&db, "outbox", &MIGRATIONS).await?;
        Ok(Self {
            outbox: db.collection(COLLECTION),
        })
    }

    /// Records one settlement, if its claim still holds the notification.
    async fn settle_one(&self, s: &Settlement, now: DateTime<Utc>) -> Result<bool, OutboxError> {
        settle_held(
            &self.outbox,
            "notification",
            &s.id,
            &s.claim,
            |n: &mut Notification| n.settle(&s.outcome, now),
        )
        .await
    }

    async fn find(&self, id: &str) -> Result<Notification, OutboxError> {
        let found = self
            .outbox
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        from_document(found.ok_or(OutboxError::NotFound)?)
    }
}

#[async_trait]
impl OutboxStore for MongoOutbox {
    async fn enqueue(&self, items: &[Notification]) -> Result<(), OutboxError> {
        let docs = items
            .iter()
            .map(to_document)
            .collect::<Result<Vec<_>, _>>()?;
        if !docs.is_empty() {
            self.outbox
                .insert_many(docs)
                .await
                .map_err(StoreFault::from)?;
        }
        Ok(())
    }

    async fn claim_batch(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<Claimed>, OutboxError> {
        let now_text = utc_micros::format(&now);
        let claim = new_claim();
        let due = doc! { "$or": [
            { "state": { "$in": [State::Queued.as_str(), State::Retrying.as_str()] }, "nextAttemptAt": { "$lte": &now_text } },
            { "state": State::Sending.as_str(), "leaseUntil": { "$lte": &now_text } },
        ] };
        let candidates: Vec<Document> = self
            .outbox
            .find(due.clone())
            .sort(doc! { "nextAttemptAt": 1 })
            .limit(i64::try_from(limit).unwrap_or(i64::MAX))
            .projection(doc! { "_id": 1 })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        let ids: Vec<_> = candidates
            .into_iter()
            .filter_map(|mut d| d.remove("_id"))
            .collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // Each document is updated atomically and only while still due: one another worker
        // took meanwhile is left out, never shared.
        let update = doc! {
            "$set": {
                "state": State::Sending.as_str(),
                "claim": &claim,
                "leaseUntil": utc_micros::format(&lease_end(now, lease)),
                "updatedAt": &now_text,
            },
            "$inc": { "attempts": 1 },
        };
        self.outbox
            .update_many(doc! { "$and": [{ "_id": { "$in": &ids } }, due] }, update)
            .await
            .map_err(StoreFault::from)?;
        let taken: Vec<Document> = self
            .outbox
            .find(doc! { "_id": { "$in": &ids }, "claim": &claim })
            .sort(doc! { "nextAttemptAt": 1 })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        taken
            .into_iter()
            .map(|d| {
                Ok(Claimed {
                    notification: from_document(d)?,
                    claim: claim.clone(),
                })
            })
            .collect()
    }

    async fn settle_batch(
        &self,
        settlements: &[Settlement],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>, OutboxError> {
        let mut settled = Vec::with_capacity(settlements.len());
        for s in settlements {
            settled.push(self.settle_one(s, now).await?);
        }
        Ok(settled)
    }

    async fn list(
        &self,
        filter: &Filter,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<Page, OutboxError> {
        let mut query = vec![text_matches(filter.text.as_deref())];
        if let Some(state) = filter.state {
            query.push(doc! { "state": state.as_str() });
        }
        let (notifications, next) = mongo::find_page(
            &self.outbox,
            doc! { "$and": query },
            NEWEST_FIRST,
            page_token,
            Keyset::new(page_size),
            from_document,
        )
        .await?;
        Ok(Page {
            notifications,
            next,
        })
    }

    async fn get(&self, id: &str) -> Result<Notification, OutboxError> {
        self.find(id).await
    }

    async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<Notification, OutboxError> {
        let now_text = utc_micros::format(&now);
        let requeued = self
            .outbox
            .find_one_and_update(
                doc! { "_id": id, "state": State::Failed.as_str() },
                requeue(&now_text),
            )
            .return_document(ReturnDocument::After)
            .await
            .map_err(StoreFault::from)?;
        match requeued {
            Some(d) => from_document(d),
            // Missing, or not failed: say which.
            None => Err(self
                .find(id)
                .await
                .map(|_| OutboxError::NotFailed)
                .unwrap_or_else(|e| e)),
        }
    }

    async fn retry_failed(
        &self,
        text: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<u64, OutboxError> {
        let failed = doc! { "$and": [{ "state": State::Failed.as_str() }, text_matches(text)] };
        let result = self
            .outbox
            .update_many(failed, requeue(&utc_micros::format(&now)))
            .await
            .map_err(StoreFault::from)?;
        Ok(result.modified_count)
    }

    async fn backlog(&self) -> Result<u64, OutboxError> {
        let states = [
            State::Queued.as_str(),
            State::Sending.as_str(),
            State::Retrying.as_str(),
        ];
        Ok(self
            .outbox
            .count_documents(doc! { "state": { "$in": states.to_vec() } })
            .await
            .map_err(StoreFault::from)?)
    }
}
