//! Webhooks in MongoDB, beside the shipments, so a change and its events share one
//! transaction. A claim is one conditional findOneAndUpdate.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use futures::future::BoxFuture;
use mongodb::bson::{Bson, Document, doc};
use mongodb::error::Error as MongoError;
use mongodb::options::ReturnDocument;
use mongodb::{ClientSession, Collection, Database, IndexModel};
use service_common::paging::Keyset;
use service_common::store::migrate::{self, MongoStep};
use service_common::store::{StoreFault, mongo};
use service_common::utc_micros;

use super::{
    Attempt, ClaimedDelivery, Delivery, DeliveryPage, Endpoint, EndpointEdit, Event, WebhookStore,
    fan_out, owners, resendable,
};
use crate::store::mongo::{held_record, settle_held};
use crate::store::{lease_end, new_claim};
use crate::{OutboxError, Outcome, State};

pub const ENDPOINTS: &str = "webhook_endpoints";
pub const DELIVERIES: &str = "webhook_deliveries";

const ON_ITS_WAY: [&str; 3] = ["queued", "sending", "retrying"];

/// Both collections: what a shipment store needs to publish inside its transactions.
#[derive(Clone)]
pub struct MongoWebhooks {
    client: mongodb::Client,
    endpoints: Collection<Document>,
    deliveries: Collection<Document>,
    /// The e-mail outbox, which an endpoint's alert is queued in with its change.
    outbox: Collection<Document>,
}

fn to_document<T: serde::Serialize>(value: &T) -> Result<Document, OutboxError> {
    Ok(mongo::to_document(value)?)
}

fn endpoint_of(d: Document) -> Result<Endpoint, OutboxError> {
    Ok(mongo::from_document("endpoint", d)?)
}

fn delivery_of(d: Document) -> Result<Delivery, OutboxError> {
    held_record("delivery", d)
}

fn internal(e: OutboxError) -> MongoError {
    MongoError::custom(e.to_string())
}

/// The webhooks' schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 2] = [
    MongoStep {
        name: "initial",
        apply: initial,
    },
    MongoStep {
        name: "endpoint_owner",
        apply: endpoint_owner,
    },
];

/// A change reads the company's endpoints and its customer's, not every customer's.
fn endpoint_owner(db: Database) -> BoxFuture<'static, Result<(), MongoError>> {
    Box::pin(async move {
        db.collection::<Document>(ENDPOINTS)
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "customerId": 1, "enabled": 1 })
                    .build(),
            )
            .await
            .map(drop)
    })
}

fn initial(db: Database) -> BoxFuture<'static, Result<(), MongoError>> {
    Box::pin(async move {
        db.collection::<Document>(DELIVERIES)
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "state": 1, "nextAttemptAt": 1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "endpointId": 1, "shipmentId": 1, "order": 1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "endpointId": 1, "createdAt": -1, "_id": -1 })
                    .build(),
            ])
            .await
            .map(drop)
    })
}

impl MongoWebhooks {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let client = service_common::mongo_client(uri).await?;
        Self::with_database(client.database(database)).await
    }

    pub async fn with_database(db: Database) -> anyhow::Result<Self> {
        migrate::mongo(&db, "webhooks", &MIGRATIONS).await?;
        // An endpoint's alert is queued in the e-mail outbox, whoever opened it first.
        crate::MongoOutbox::with_database(db.clone()).await?;
        Ok(Self {
            client: db.client().clone(),
            endpoints: db.collection(ENDPOINTS),
            deliveries: db.collection(DELIVERIES),
            outbox: db.collection(crate::store::mongo::COLLECTION),
        })
    }

    /// Writes an endpoint's change over the version `before` and queues `emails`, in one
    /// transaction; false when the endpoint had changed meanwhile (nothing written).
    async fn update_with_emails(
        &self,
        before: Document,
        change: Document,
        emails: &[crate::Notification],
    ) -> Result<bool, MongoError> {
        let mut session = self.client.start_session().await?;
        session.start_transaction().await?;
        let written = self
            .endpoints
            .update_one(before, change)
            .session(&mut session)
            .await?;
        if written.matched_count != 1 {
            session.abort_transaction().await?;
            return Ok(false);
        }
        crate::store::mongo::insert_all(&self.outbox, &mut session, emails).await?;
        session.commit_transaction().await?;
        Ok(true)
    }

    /// Writes `events`' deliveries, to the endpoints enabled now, inside the caller's
    /// transaction (the shipment store's change).
    pub async fn publish_in(
        &self,
        session: &mut ClientSession,
        events: &[Event],
    ) -> Result<(), MongoError> {
        if events.is_empty() {
            return Ok(());
        }
        // The company's endpoints stored before customers had their own have no customerId.
        let mut owners: Vec<Bson> = owners(events).into_iter().map(Bson::String).collect();
        owners.push(Bson::Null);
        let endpoints: Vec<Endpoint> = self
            .endpoints
            .find(doc! { "enabled": true, "customerId": { "$in": owners } })
            .session(&mut *session)
            .await?
            .stream(&mut *session)
            .try_collect::<Vec<_>>()
            .await?
            .into_iter()
            .map(endpoint_of)
            .collect::<Result<_, _>>()
            .map_err(internal)?;
        let docs = fan_out(&endpoints, events)
            .iter()
            .map(to_document)
            .collect::<Result<Vec<_>, _>>()
            .map_err(internal)?;
        if !docs.is_empty() {
            self.deliveries.insert_many(docs).session(session).await?;
        }
        Ok(())
    }

    async fn enabled_ids(&self) -> Result<Vec<String>, OutboxError> {
        let docs: Vec<Document> = self
            .endpoints
            .find(doc! { "enabled": true })
            .projection(doc! { "_id": 1 })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        Ok(docs
            .iter()
            .filter_map(|d| d.get_str("_id").ok().map(str::to_owned))
            .collect())
    }

    /// Whether an earlier delivery of the same shipment to the same endpoint is on its way.
    async fn waits_its_turn(&self, d: &Delivery) -> Result<bool, OutboxError> {
        if d.shipment_id.is_empty() {
            return Ok(false);
        }
        let earlier = self
            .deliveries
            .find_one(doc! {
                "endpointId": &d.endpoint_id,
                "shipmentId": &d.shipment_id,
                "order": { "$lt": d.order },
                "state": { "$in": ON_ITS_WAY.to_vec() },
            })
            .projection(doc! { "_id": 1 })
            .await
            .map_err(StoreFault::from)?;
        Ok(earlier.is_some())
    }
}

#[async_trait]
impl WebhookStore for MongoWebhooks {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> Result<(), OutboxError> {
        // The company's endpoints stored before customers had their own have no customerId.
        let owner = if endpoint.customer_id.is_empty() {
            doc! { "customerId": { "$in": ["", null] } }
        } else {
            doc! { "customerId": &endpoint.customer_id }
        };
        let count = self
            .endpoints
            .count_documents(owner)
            .await
            .map_err(StoreFault::from)?;
        if count as usize >= endpoint.limit() {
            return Err(OutboxError::TooManyEndpoints(endpoint.limit()));
        }
        let mut document = to_document(endpoint)?;
        document.insert("seq", endpoint.created_at.timestamp_micros());
        self.endpoints
            .insert_one(document)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn endpoints(&self) -> Result<Vec<Endpoint>, OutboxError> {
        let docs: Vec<Document> = self
            .endpoints
            .find(doc! {})
            .sort(doc! { "seq": 1, "_id": 1 })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        docs.into_iter()
            .map(|mut d| {
                d.remove("seq");
                endpoint_of(d)
            })
            .collect()
    }

    async fn endpoint(&self, id: &str) -> Result<Endpoint, OutboxError> {
        let found = self
            .endpoints
            .find_one(doc! { "_id": id })
            .projection(doc! { "seq": 0 })
            .await
            .map_err(StoreFault::from)?;
        endpoint_of(found.ok_or(OutboxError::EndpointNotFound)?)
    }

    async fn update_endpoint(&self, id: &str, edit: EndpointEdit) -> Result<Endpoint, OutboxError> {
        // Optimistic: written only over the very version read, tried again after a conflict.
        for _ in 0..5 {
            let mut endpoint = self.endpoint(id).await?;
            let before = to_document(&endpoint)?;
            let emails = edit(&mut endpoint)?;
            let mut after = to_document(&endpoint)?;
            after.remove("_id");
            let change = doc! { "$set": after };
            let written = if emails.is_empty() {
                self.endpoints
                    .update_one(before, change)
                    .await
                    .map(|w| w.matched_count == 1)
            } else {
                self.update_with_emails(before, change, &emails).await
            };
            match written {
                Ok(true) => return Ok(endpoint),
                Ok(false) => {}
                Err(e) if e.contains_label(mongodb::error::TRANSIENT_TRANSACTION_ERROR) => {}
                Err(e) => return Err(StoreFault::from(e).into()),
            }
        }
        Err(OutboxError::Unavailable(
            "the endpoint kept changing; try again".into(),
        ))
    }

    async fn delete_endpoint(&self, id: &str) -> Result<(), OutboxError> {
        let deleted = self
            .endpoints
            .delete_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        if deleted.deleted_count == 0 {
            return Err(OutboxError::EndpointNotFound);
        }
        self.deliveries
            .delete_many(doc! { "endpointId": id })
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn publish(&self, events: &[Event]) -> Result<(), OutboxError> {
        let endpoints: Vec<Endpoint> = self
            .endpoints()
            .await?
            .into_iter()
            .filter(|e| e.enabled)
            .collect();
        self.enqueue(&fan_out(&endpoints, events)).await
    }

    async fn enqueue(&self, deliveries: &[Delivery]) -> Result<(), OutboxError> {
        let docs = deliveries
            .iter()
            .map(to_document)
            .collect::<Result<Vec<_>, _>>()?;
        if !docs.is_empty() {
            self.deliveries
                .insert_many(docs)
                .await
                .map_err(StoreFault::from)?;
        }
        Ok(())
    }

    async fn claim(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<ClaimedDelivery>, OutboxError> {
        let enabled = self.enabled_ids().await?;
        if enabled.is_empty() {
            return Ok(None);
        }
        let now_text = utc_micros::format(&now);
        let due = doc! {
            "endpointId": { "$in": &enabled },
            "$or": [
                { "state": { "$in": [State::Queued.as_str(), State::Retrying.as_str()] }, "nextAttemptAt": { "$lte": &now_text } },
                { "state": State::Sending.as_str(), "leaseUntil": { "$lte": &now_text } },
            ],
        };
        let candidates: Vec<Document> = self
            .deliveries
            .find(due)
            .sort(doc! { "nextAttemptAt": 1 })
            .limit(50)
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        for candidate in candidates {
            let seen = (
                candidate.get("updatedAt").cloned(),
                candidate.get("state").cloned(),
            );
            let delivery = delivery_of(candidate)?;
            if self.waits_its_turn(&delivery).await? {
                continue;
            }
            let claim = new_claim();
            let taken = self
                .deliveries
                .find_one_and_update(
                    doc! { "_id": &delivery.id, "updatedAt": seen.0, "state": seen.1 },
                    doc! {
                        "$set": {
                            "state": State::Sending.as_str(),
                            "claim": &claim,
                            "leaseUntil": utc_micros::format(&lease_end(now, lease)),
                            "updatedAt": &now_text,
                        },
                        "$inc": { "attempts": 1 },
                    },
                )
                .return_document(ReturnDocument::After)
                .await
                .map_err(StoreFault::from)?;
            if let Some(taken) = taken {
                return Ok(Some(ClaimedDelivery {
                    delivery: delivery_of(taken)?,
                    claim,
                }));
            }
        }
        Ok(None)
    }

    async fn settle(
        &self,
        id: &str,
        claim: &str,
        outcome: &Outcome,
        attempt: Attempt,
        now: DateTime<Utc>,
    ) -> Result<bool, OutboxError> {
        settle_held(
            &self.deliveries,
            "delivery",
            id,
            claim,
            |d: &mut Delivery| d.settle(outcome, attempt, now),
        )
        .await
    }

    async fn deliveries(
        &self,
        endpoint_id: &str,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<DeliveryPage, OutboxError> {
        let (deliveries, next) = mongo::find_page(
            &self.deliveries,
            doc! { "endpointId": endpoint_id },
            crate::store::mongo::NEWEST_FIRST,
            page_token,
            Keyset::new(page_size),
            delivery_of,
        )
        .await?;
        Ok(DeliveryPage { deliveries, next })
    }

    async fn delivery(&self, id: &str) -> Result<Delivery, OutboxError> {
        let found = self
            .deliveries
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        delivery_of(found.ok_or(OutboxError::DeliveryNotFound)?)
    }

    async fn resend(&self, id: &str, now: DateTime<Utc>) -> Result<Delivery, OutboxError> {
        let mut delivery = self.delivery(id).await?;
        resendable(&delivery)?;
        let seen = (
            delivery.state.as_str(),
            utc_micros::format(&delivery.updated_at),
        );
        delivery.requeue(now);
        let mut requeued = to_document(&delivery)?;
        requeued.remove("_id");
        let written = self
            .deliveries
            .update_one(
                doc! { "_id": id, "state": seen.0, "updatedAt": seen.1 },
                doc! { "$set": requeued },
            )
            .await
            .map_err(StoreFault::from)?;
        if written.matched_count == 0 {
            return Err(OutboxError::StillOnItsWay);
        }
        Ok(delivery)
    }
}
