//! The production store: MongoDB through the official driver. Updates are optimistic
//! (a revision number per document), so they are atomic on any deployment.

use async_trait::async_trait;
use chrono::NaiveDate;
use futures::TryStreamExt;
use futures::future::BoxFuture;
use mongodb::bson::{Document, doc};
use mongodb::options::IndexOptions;
use mongodb::{Client, ClientSession, Collection, IndexModel};

use mongodb::options::CountOptions;

use audit::AuditEntry;
use outbox::Notification;

use super::{
    Counters, Cursor, CustomerPage, Customers, DeleteRecord, Edit, Effects, ImportRecord, Imports,
    Journal, ListPage, ListQuery, MAX_COUNTED, OPEN_STATUSES, Rules, Shipments, Statistics,
    window_start,
};
use crate::account_requests::{AccountRequest, RequestQuery};
use crate::address_book::{Entry, EntryQuery};
use crate::customers::{Customer, CustomerQuery, Watcher};
use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::pickups::{Pickup, PickupQuery, PickupSettings};
use crate::rates::RateCard;
use crate::updates::EmailRules;
use service_common::paging::Keyset;
use service_common::store::migrate::{self, MongoStep};
use service_common::store::{StoreFault, mongo};

const REVISION: &str = "rev";
/// Longest a new shipment's transaction may take, retries included.
const INSERT_DEADLINE: std::time::Duration = std::time::Duration::from_secs(4);
/// The folded text the admin search matches (`Shipment::search_text`), stored with each
/// shipment.
const SEARCH_TEXT: &str = "searchText";

#[derive(Clone)]
pub struct MongoShipmentStore {
    client: Client,
    db: mongodb::Database,
    shipments: Collection<Document>,
    /// The e-mail outbox and the audit log, written in the same transaction as a change.
    outbox: Collection<Document>,
    /// Where a change's webhook events go, in the same transaction.
    webhooks: outbox::webhooks::MongoWebhooks,
    audit: Collection<Document>,
    settings: Collection<Document>,
    /// Fixed-window counters; MongoDB deletes each after its window (`expiresAt`).
    counters: Collection<Document>,
    /// The unique names shipments claim (`_id`), and the imports' records.
    claims: Collection<Document>,
    imports: Collection<Document>,
    customers: Collection<Document>,
    address_book: Collection<Document>,
    account_requests: Collection<Document>,
    pickups: Collection<Document>,
    watchers: Collection<Document>,
    /// Fed by the database's change stream: commits made through any replica.
    changes: crate::live::Changes,
}

/// The id of the e-mail rules in the settings collection.
const EMAIL_RULES: &str = "tracking_emails";

fn majority() -> mongodb::options::WriteConcern {
    mongodb::options::WriteConcern::builder()
        .w(mongodb::options::Acknowledgment::Majority)
        .journal(true)
        .build()
}

/// The shipments' schema versions, oldest first; a released step is never edited.
const MIGRATIONS: [MongoStep; 5] = [
    MongoStep {
        name: "initial",
        apply: initial,
    },
    MongoStep {
        name: "search_text",
        apply: add_search_text,
    },
    MongoStep {
        name: "customers",
        apply: customers,
    },
    MongoStep {
        name: "exceptions_and_notes",
        apply: super::mongo_queue::migration,
    },
    MongoStep {
        name: "courier_rounds",
        apply: courier_rounds,
    },
];

/// A courier's round of a day, newest first (the courier app's list).
fn courier_rounds(db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        db.collection::<Document>("shipments")
            .create_index(
                IndexModel::builder()
                    .keys(doc! {
                        "courierAssignment.courierId": 1,
                        "courierAssignment.date": 1,
                        "createdAt": -1,
                        "_id": -1,
                    })
                    .options(IndexOptions::builder().sparse(true).build())
                    .build(),
            )
            .await
            .map(drop)
    })
}

/// The customers by name and by account number, and each customer's shipments newest first.
fn customers(db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        db.collection::<Document>("customers")
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "accountNumber": 1 })
                    .options(IndexOptions::builder().unique(true).build())
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "nameKey": 1, "_id": 1 })
                    .build(),
            ])
            .await?;
        db.collection::<Document>("address_book")
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "customerId": 1, "nameKey": 1, "_id": 1 })
                    .build(),
            )
            .await?;
        db.collection::<Document>("customer_watchers")
            .create_index(IndexModel::builder().keys(doc! { "customerId": 1 }).build())
            .await?;
        db.collection::<Document>("account_requests")
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "createdAt": -1, "_id": -1 })
                    .build(),
            )
            .await?;
        db.collection::<Document>("pickups")
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "customerId": 1, "createdAt": -1, "_id": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "date": 1, "_id": 1 })
                    .build(),
            ])
            .await?;
        db.collection::<Document>("shipments")
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "customerId": 1, "createdAt": -1, "_id": -1 })
                    .build(),
            )
            .await
            .map(drop)
    })
}

fn initial(db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        let unique = IndexOptions::builder()
            .unique(true)
            .name("trackingNumber_unique".to_owned())
            .build();
        db.collection::<Document>("shipments")
            .create_indexes([
                IndexModel::builder()
                    .keys(doc! { "trackingNumber": 1 })
                    .options(unique)
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "createdAt": -1, "_id": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "status": 1, "createdAt": -1, "_id": -1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "expectedDeliveryDate": 1, "_id": 1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "status": 1, "expectedDeliveryDate": 1 })
                    .build(),
                IndexModel::builder()
                    .keys(doc! { "status": 1, "deliveredAt": 1 })
                    .build(),
            ])
            .await?;
        db.collection::<Document>("shipment_claims")
            .create_index(IndexModel::builder().keys(doc! { "shipmentId": 1 }).build())
            .await?;
        db.collection::<Document>("shipment_imports")
            .create_index(IndexModel::builder().keys(doc! { "seq": -1 }).build())
            .await?;
        db.collection::<Document>("counters")
            .create_index(
                IndexModel::builder()
                    .keys(doc! { "expiresAt": 1 })
                    .options(
                        IndexOptions::builder()
                            .expire_after(std::time::Duration::ZERO)
                            .build(),
                    )
                    .build(),
            )
            .await
            .map(drop)
    })
}

/// Stores the folded search text in each shipment stored without it. Safe to run again: a
/// shipment written meanwhile carries its own, which is left alone.
fn add_search_text(db: mongodb::Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
    Box::pin(async move {
        let shipments = db.collection::<Document>("shipments");
        let without = doc! { SEARCH_TEXT: { "$exists": false } };
        let mut stored = shipments.find(without.clone()).await?;
        while let Some(d) = stored.try_next().await? {
            let id = d.get("_id").cloned().unwrap_or_default();
            let text = from_document(d)
                .map_err(mongodb::error::Error::custom)?
                .0
                .search_text();
            let mut unchanged = without.clone();
            unchanged.insert("_id", id);
            shipments
                .update_one(unchanged, doc! { "$set": { SEARCH_TEXT: text } })
                .await?;
        }
        Ok(())
    })
}

impl MongoShipmentStore {
    /// Connects to `uri`, using `database`, and creates the indexes.
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let client = service_common::mongo_client(uri).await?;
        Self::with_database(client.database(database)).await
    }

    pub async fn with_database(db: mongodb::Database) -> anyhow::Result<Self> {
        migrate::mongo(&db, "shipments", &MIGRATIONS).await?;
        // The stores written in the shipments' transactions, migrated by whoever opens first
        // (the webhooks migrate the e-mail outbox they queue alerts in).
        audit::MongoAuditLog::with_database(db.clone()).await?;
        let webhooks = outbox::webhooks::MongoWebhooks::with_database(db.clone()).await?;
        let shipments = db.collection::<Document>("shipments");
        let claims = db.collection::<Document>("shipment_claims");
        let imports = db.collection::<Document>("shipment_imports");
        let counters = db.collection::<Document>("counters");
        let changes = crate::live::Changes::default();
        tokio::spawn(super::mongo_changes::follow(
            db.clone(),
            changes.downgrade(),
        ));
        Ok(Self {
            changes,
            client: db.client().clone(),
            db: db.clone(),
            shipments,
            outbox: db.collection(outbox::store::mongo::COLLECTION),
            webhooks,
            audit: db.collection(audit::store::mongo::COLLECTION),
            settings: db.collection("settings"),
            counters,
            claims,
            imports,
            customers: db.collection("customers"),
            address_book: db.collection("address_book"),
            account_requests: db.collection("account_requests"),
            pickups: db.collection("pickups"),
            watchers: db.collection("customer_watchers"),
        })
    }
}

/// Work inside one transaction: `Ok(Err(_))` is a refusal that aborts it, `Err(_)` a
/// database error (retried when MongoDB says the conflict is transient).
type InTransaction<'a, T> = std::pin::Pin<
    Box<
        dyn std::future::Future<Output = Result<Result<T, ShipmentError>, mongodb::error::Error>>
            + Send
            + 'a,
    >,
>;

impl MongoShipmentStore {
    /// The settings document `id` (its JSON text); the defaults until it is first saved.
    pub(super) async fn setting<T>(&self, id: &str, what: &'static str) -> Result<T, ShipmentError>
    where
        T: serde::de::DeserializeOwned + Default,
    {
        let found = self
            .settings
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        match found {
            Some(d) => {
                let text = d
                    .get_str("json")
                    .map_err(|e| ShipmentError::Internal(format!("stored {what}: {e}")))?;
                Ok(service_common::store::json::decode(what, text)?)
            }
            None => Ok(T::default()),
        }
    }

    /// Saves the settings document `id` and its audit entry in one transaction.
    pub(super) async fn set_setting<T: serde::Serialize>(
        &self,
        id: &str,
        value: &T,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let text = service_common::store::json::encode(value)?;
        self.in_transaction(|store, session| {
            let (id, text, audit_entry) = (id.to_owned(), text.clone(), audit_entry.clone());
            Box::pin(async move {
                store
                    .settings
                    .update_one(doc! { "_id": id }, doc! { "$set": { "json": text } })
                    .upsert(true)
                    .session(&mut *session)
                    .await?;
                audit::store::mongo::insert_all(&store.audit, session, &[audit_entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    pub(super) fn database(&self) -> &mongodb::Database {
        &self.db
    }

    pub(super) fn shipments_collection(&self) -> &Collection<Document> {
        &self.shipments
    }

    pub(super) fn audit_collection(&self) -> Collection<Document> {
        self.audit.clone()
    }

    /// Whether a shipment with this id is stored (ids are fresh, so it is this write's).
    async fn landed(&self, id: &str) -> Result<bool, ShipmentError> {
        let found = self
            .shipments
            .find_one(doc! { "_id": id })
            .projection(doc! { "_id": 1 })
            .await
            .map_err(StoreFault::from)?;
        Ok(found.is_some())
    }

    async fn write_effects(
        &self,
        session: &mut ClientSession,
        effects: &Effects,
    ) -> Result<(), mongodb::error::Error> {
        outbox::store::mongo::insert_all(&self.outbox, session, &effects.emails).await?;
        self.webhooks.publish_in(session, &effects.events).await?;
        audit::store::mongo::insert_all(&self.audit, session, &effects.audit).await
    }

    /// Writes every shipment with its claims and effects in one transaction, or none of them:
    /// a duplicate key anywhere is `AlreadyClaimed` for the batch as a whole.
    async fn insert_batch(&self, shipments: &[(Shipment, Effects)]) -> Result<(), ShipmentError> {
        if shipments.is_empty() {
            return Ok(());
        }
        let mut documents = Vec::with_capacity(shipments.len());
        let mut claims = Vec::new();
        let mut effects = Effects::default();
        let mut queued = Vec::new();
        for (shipment, of_one) in shipments {
            documents.push(to_document(shipment, 0)?);
            queued.extend(super::mongo_queue::new_documents(shipment)?);
            claims.extend(
                of_one
                    .claims
                    .iter()
                    .map(|claim| doc! { "_id": claim, "shipmentId": &shipment.id }),
            );
            effects.emails.extend_from_slice(&of_one.emails);
            effects.events.extend_from_slice(&of_one.events);
            effects.audit.extend_from_slice(&of_one.audit);
        }
        self.in_transaction(|store, session| {
            let (documents, claims, effects, queued) = (
                documents.clone(),
                claims.clone(),
                effects.clone(),
                queued.clone(),
            );
            Box::pin(async move {
                let written = async {
                    if !claims.is_empty() {
                        store
                            .claims
                            .insert_many(claims)
                            .session(&mut *session)
                            .await?;
                    }
                    store
                        .shipments
                        .insert_many(documents)
                        .session(&mut *session)
                        .await?;
                    if !queued.is_empty() {
                        store
                            .database()
                            .collection::<Document>(super::mongo_queue::EXCEPTIONS)
                            .insert_many(queued)
                            .session(&mut *session)
                            .await?;
                    }
                    store.write_effects(session, &effects).await
                }
                .await;
                match written {
                    Err(e) if mongo::is_duplicate_key(&e) => Ok(Err(
                        ShipmentError::AlreadyClaimed("a row of the batch".into()),
                    )),
                    other => other.map(Ok),
                }
            })
        })
        .await
    }

    /// Runs `work` in a transaction committed with a journaled majority.
    pub(super) async fn in_transaction<T>(
        &self,
        work: impl for<'a> Fn(&'a Self, &'a mut ClientSession) -> InTransaction<'a, T>,
    ) -> Result<T, ShipmentError> {
        let mut session = self
            .client
            .start_session()
            .await
            .map_err(StoreFault::from)?;
        for _ in 0..3 {
            session
                .start_transaction()
                .write_concern(majority())
                .await
                .map_err(StoreFault::from)?;
            let outcome = match work(self, &mut session).await {
                Ok(Ok(value)) => session.commit_transaction().await.map(|()| Ok(value)),
                other => other,
            };
            match outcome {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(refused)) => {
                    let _ = session.abort_transaction().await;
                    return Err(refused);
                }
                Err(e) => {
                    let _ = session.abort_transaction().await;
                    if !e.contains_label(mongodb::error::TRANSIENT_TRANSACTION_ERROR) {
                        return Err(StoreFault::from(e).into());
                    }
                }
            }
        }
        Err(ShipmentError::Unavailable(
            "too many conflicting transactions".into(),
        ))
    }
}

fn to_document(s: &Shipment, revision: i64) -> Result<Document, ShipmentError> {
    let mut d = mongo::to_document(s)?;
    d.insert(REVISION, revision);
    d.insert(SEARCH_TEXT, s.search_text());
    Ok(d)
}

pub(super) fn from_document(mut d: Document) -> Result<(Shipment, i64), ShipmentError> {
    let revision = d.remove(REVISION).and_then(|r| r.as_i64()).unwrap_or(0);
    d.remove(SEARCH_TEXT);
    Ok((mongo::from_document("shipment", d)?, revision))
}

fn filter(query: &ListQuery) -> Document {
    let mut filter = Document::new();
    if let Some(status) = query.status {
        filter.insert("status", status.as_str());
    }
    let mut created = Document::new();
    if let Some(from) = &query.created_from {
        created.insert("$gte", crate::domain::utc_micros::format(from));
    }
    if let Some(before) = &query.created_before {
        created.insert("$lt", crate::domain::utc_micros::format(before));
    }
    if !created.is_empty() {
        filter.insert("createdAt", created);
    }
    if let Some(customer) = &query.customer {
        filter.insert("customerId", customer);
    }
    if let Some((courier, day)) = &query.round {
        filter.insert("courierAssignment.courierId", courier);
        filter.insert("courierAssignment.date", day.to_string());
    }
    if let Some(today) = query.late_on {
        let open: Vec<&str> = OPEN_STATUSES.iter().map(|s| s.as_str()).collect();
        let status = match query.status {
            // Both must hold: the chosen status, and an open one.
            Some(chosen) if !OPEN_STATUSES.contains(&chosen) => vec![],
            Some(chosen) => vec![chosen.as_str()],
            None => open,
        };
        filter.insert("status", doc! { "$in": status });
        filter.insert("expectedDeliveryDate", doc! { "$lt": today.to_string() });
    }
    if let Some(text) = &query.text {
        // Both sides are folded already: a case-sensitive match, on one field.
        let mut any = vec![doc! { SEARCH_TEXT: { "$regex": mongo::regex_literal(text) } }];
        if !query.labelled.is_empty() {
            let names: Vec<&str> = query.labelled.iter().map(|s| s.as_str()).collect();
            any.push(doc! { "status": { "$in": names } });
        }
        filter.insert("$or", any);
    }
    filter
}

#[async_trait]
impl Shipments for MongoShipmentStore {
    async fn insert(&self, shipment: &Shipment, effects: &Effects) -> Result<(), ShipmentError> {
        let document = to_document(shipment, 0)?;
        let queued = super::mongo_queue::new_documents(shipment)?;
        let queue = self
            .db
            .collection::<Document>(super::mongo_queue::EXCEPTIONS);
        // One deadline for the whole write, so the caller never hears "unavailable" while a
        // retry could still commit behind its back.
        let write = async {
            let mut session = self
                .client
                .start_session()
                .await
                .map_err(StoreFault::from)?;
            for attempt in 1..=3 {
                // The commit waits for a journaled majority, like every other write.
                session
                    .start_transaction()
                    .write_concern(majority())
                    .await
                    .map_err(StoreFault::from)?;
                // Claims first: a duplicate key there is a claim taken, later the number.
                let mut claimed = 0;
                let written = async {
                    for claim in &effects.claims {
                        self.claims
                            .insert_one(doc! { "_id": claim, "shipmentId": &shipment.id })
                            .session(&mut session)
                            .await?;
                        claimed += 1;
                    }
                    self.shipments
                        .insert_one(document.clone())
                        .session(&mut session)
                        .await?;
                    if !queued.is_empty() {
                        queue
                            .insert_many(queued.clone())
                            .session(&mut session)
                            .await?;
                    }
                    self.write_effects(&mut session, effects).await?;
                    session.commit_transaction().await
                }
                .await;
                match written {
                    Ok(()) => return Ok(()),
                    Err(e) => {
                        let _ = session.abort_transaction().await;
                        if mongo::is_duplicate_key(&e) {
                            // A retried commit can meet its own earlier attempt, which did land.
                            if attempt > 1 && self.landed(&shipment.id).await? {
                                return Ok(());
                            }
                            return Err(match effects.claims.get(claimed) {
                                Some(claim) => ShipmentError::AlreadyClaimed(claim.clone()),
                                None => ShipmentError::DuplicateTrackingNumber,
                            });
                        }
                        // Only a conflict with another transaction is worth another try; a
                        // server that cannot be reached is reported at once.
                        let unreachable = service_common::mongo_unreachable(&e);
                        if attempt < 3
                            && !unreachable
                            && e.contains_label(mongodb::error::TRANSIENT_TRANSACTION_ERROR)
                        {
                            continue;
                        }
                        return Err(StoreFault::from(e).into());
                    }
                }
            }
            unreachable!("the last attempt returns")
        };
        tokio::time::timeout(INSERT_DEADLINE, write)
            .await
            .unwrap_or_else(|_| {
                Err(ShipmentError::Unavailable(
                    "no answer from MongoDB in time".into(),
                ))
            })
    }

    async fn insert_each(
        &self,
        shipments: Vec<(Shipment, Effects)>,
    ) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
        // One transaction and one insert_many per collection for the whole batch; a refused
        // shipment aborts it, and each is then written on its own.
        match self.insert_batch(&shipments).await {
            Ok(()) => Ok(shipments.iter().map(|_| Ok(())).collect()),
            Err(ShipmentError::Unavailable(cause)) => Err(ShipmentError::Unavailable(cause)),
            Err(_) => super::insert_one_by_one(self, &shipments).await,
        }
    }

    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError> {
        let found = self
            .shipments
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        Ok(from_document(found.ok_or(ShipmentError::NotFound)?)?.0)
    }

    async fn claim_holder(&self, claim: &str) -> Result<Option<String>, ShipmentError> {
        let found = self
            .claims
            .find_one(doc! { "_id": claim })
            .await
            .map_err(StoreFault::from)?;
        Ok(found.and_then(|d| d.get_str("shipmentId").ok().map(str::to_owned)))
    }

    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError> {
        let found = self
            .shipments
            .find_one(doc! { "trackingNumber": number.as_str() })
            .await
            .map_err(StoreFault::from)?;
        Ok(from_document(found.ok_or(ShipmentError::NotFound)?)?.0)
    }

    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError> {
        let base = filter(query);
        let counting = CountOptions::builder().limit(MAX_COUNTED + 1).build();
        let total = self
            .shipments
            .count_documents(base.clone())
            .with_options(counting)
            .await
            .map_err(StoreFault::from)?;
        let field = if query.order.by_expected_delivery() {
            "expectedDeliveryDate"
        } else {
            "createdAt"
        };
        let order = mongo::Order {
            field,
            descending: query.order.descending(),
        };
        let (shipments, next) = mongo::find_page(
            &self.shipments,
            base,
            order,
            query.after.as_ref().map(|c| c.0.as_str()),
            Keyset::new(query.page_size),
            |d| from_document(d).map(|(s, _)| s),
        )
        .await?;
        Ok(ListPage {
            shipments,
            next: next.map(Cursor),
            total,
        })
    }

    async fn statistics(&self, today: NaiveDate, days: u32) -> Result<Statistics, ShipmentError> {
        let count = |filter: Document| {
            let shipments = self.shipments.clone();
            async move {
                shipments
                    .count_documents(filter)
                    .await
                    .map_err(StoreFault::from)
            }
        };
        let mut by_status = Vec::new();
        for status in Status::ALL {
            let n = count(doc! { "status": status.as_str() }).await?;
            if n > 0 {
                by_status.push((status, n));
            }
        }
        let open: Vec<&str> = OPEN_STATUSES.iter().map(|s| s.as_str()).collect();
        let late = count(doc! {
            "status": { "$in": open },
            "expectedDeliveryDate": { "$lt": today.to_string() },
        })
        .await?;
        let first = today - chrono::Days::new(u64::from(days.max(1) - 1));
        let mut created = Vec::new();
        let mut delivered = Vec::new();
        for offset in 0..u64::from(days) {
            let day = first + chrono::Days::new(offset);
            // Whole timestamps as stored, so the comparison never rests on a prefix.
            let start = |d: NaiveDate| {
                crate::domain::utc_micros::format(&d.and_time(chrono::NaiveTime::MIN).and_utc())
            };
            let (from, until) = (start(day), start(day + chrono::Days::new(1)));
            created.push(count(doc! { "createdAt": { "$gte": &from, "$lt": &until } }).await?);
            delivered.push(
                count(doc! {
                    "status": "delivered",
                    "deliveredAt": { "$gte": &from, "$lt": &until },
                })
                .await?,
            );
        }
        Ok(Statistics {
            by_status,
            late,
            created,
            delivered,
        })
    }

    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError> {
        // Optimistic concurrency: retry when another writer bumped the revision first.
        for _ in 0..20 {
            let found = self
                .shipments
                .find_one(doc! { "_id": id })
                .await
                .map_err(StoreFault::from)?;
            let (mut shipment, revision) = from_document(found.ok_or(ShipmentError::NotFound)?)?;
            let effects = edit(&mut shipment)?;
            let filter = doc! { "_id": id, REVISION: revision };
            let replacement = to_document(&shipment, revision + 1)?;
            // The change, its e-mails and its audit entries commit together, or none does.
            let mut session = self
                .client
                .start_session()
                .await
                .map_err(StoreFault::from)?;
            session
                .start_transaction()
                .write_concern(majority())
                .await
                .map_err(StoreFault::from)?;
            let written = async {
                // The new records first, the shipment last: its document is then held for the
                // shortest time, so a writer killed mid-transaction leaves it locked (until the
                // database reaps the transaction) only if it died in that last moment.
                self.write_effects(&mut session, &effects).await?;
                super::mongo_queue::reconcile(
                    &self.db.collection(super::mongo_queue::EXCEPTIONS),
                    &mut session,
                    &shipment,
                )
                .await?;
                let replaced = self
                    .shipments
                    .replace_one(filter, replacement)
                    .session(&mut session)
                    .await?;
                if replaced.matched_count != 1 {
                    return Ok(false);
                }
                session.commit_transaction().await?;
                Ok::<_, mongodb::error::Error>(true)
            }
            .await;
            match written {
                Ok(true) => return Ok(shipment),
                Ok(false) => {
                    let _ = session.abort_transaction().await;
                }
                Err(e) => {
                    let _ = session.abort_transaction().await;
                    if !e.contains_label(mongodb::error::TRANSIENT_TRANSACTION_ERROR) {
                        return Err(StoreFault::from(e).into());
                    }
                }
            }
        }
        Err(ShipmentError::Unavailable(
            "too many concurrent updates of one shipment".into(),
        ))
    }

    async fn delete(&self, id: &str, record: DeleteRecord) -> Result<Shipment, ShipmentError> {
        let id = id.to_owned();
        self.in_transaction(|store, session| {
            let id = id.clone();
            let record = record.clone();
            Box::pin(async move {
                let deleted = store
                    .shipments
                    .find_one_and_delete(doc! { "_id": &id })
                    .session(&mut *session)
                    .await?;
                let Some(deleted) = deleted else {
                    return Ok(Err(ShipmentError::NotFound));
                };
                let shipment = match from_document(deleted) {
                    Ok((shipment, _)) => shipment,
                    Err(e) => return Ok(Err(e)),
                };
                store
                    .claims
                    .delete_many(doc! { "shipmentId": &shipment.id })
                    .session(&mut *session)
                    .await?;
                for forgotten in [super::mongo_queue::EXCEPTIONS, super::mongo_queue::NOTES] {
                    store
                        .db
                        .collection::<Document>(forgotten)
                        .delete_many(doc! { "shipmentId": &shipment.id })
                        .session(&mut *session)
                        .await?;
                }
                store.write_effects(session, &record(&shipment)).await?;
                Ok(Ok(shipment))
            })
        })
        .await
    }
    fn changes(&self) -> &crate::live::Changes {
        &self.changes
    }
}

#[async_trait]
impl Imports for MongoShipmentStore {
    async fn save_import(&self, record: &ImportRecord) -> Result<(), ShipmentError> {
        let mut document = mongodb::bson::to_document(record)
            .map_err(|e| ShipmentError::Internal(e.to_string()))?;
        document.insert("_id", &record.id);
        // Newest first by creation, then id: the creation time's microseconds order the list.
        document.insert("seq", record.created_at.timestamp_micros());
        self.imports
            .replace_one(doc! { "_id": &record.id }, document)
            .upsert(true)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn get_import(&self, id: &str) -> Result<ImportRecord, ShipmentError> {
        let found = self
            .imports
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?
            .ok_or(ShipmentError::ImportNotFound)?;
        import_from_document(found)
    }

    async fn list_imports(
        &self,
        limit: usize,
        before: Option<&str>,
    ) -> Result<Vec<ImportRecord>, ShipmentError> {
        let mut filter = doc! {};
        if let Some(before) = before {
            let Some(anchor) = self
                .imports
                .find_one(doc! { "_id": before })
                .await
                .map_err(StoreFault::from)?
            else {
                return Ok(Vec::new());
            };
            let seq = anchor.get_i64("seq").unwrap_or(0);
            filter = mongo::past_cursor("seq", seq, before, true);
        }
        let found: Vec<Document> = self
            .imports
            .find(filter)
            .sort(doc! { "seq": -1, "_id": -1 })
            .limit(limit as i64)
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        found.into_iter().map(import_from_document).collect()
    }
}

#[async_trait]
impl Journal for MongoShipmentStore {
    async fn record(&self, entries: &[AuditEntry]) -> Result<(), ShipmentError> {
        let mut session = self
            .client
            .start_session()
            .await
            .map_err(StoreFault::from)?;
        audit::store::mongo::insert_all(&self.audit, &mut session, entries)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn enqueue(&self, emails: &[Notification]) -> Result<(), ShipmentError> {
        let mut session = self
            .client
            .start_session()
            .await
            .map_err(StoreFault::from)?;
        outbox::store::mongo::insert_all(&self.outbox, &mut session, emails)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn enqueue_once(
        &self,
        claim: &str,
        emails: &[Notification],
    ) -> Result<bool, ShipmentError> {
        self.in_transaction(|store, session| {
            let (claim, emails) = (claim.to_owned(), emails.to_vec());
            Box::pin(async move {
                // Read first: a failed insert would abort the transaction. A replica racing
                // this one meets a duplicate key, and its write fails whole.
                let taken = store
                    .claims
                    .find_one(doc! { "_id": &claim })
                    .session(&mut *session)
                    .await?;
                if taken.is_some() {
                    return Ok(Ok(false));
                }
                store
                    .claims
                    .insert_one(doc! { "_id": &claim, "shipmentId": "" })
                    .session(&mut *session)
                    .await?;
                outbox::store::mongo::insert_all(&store.outbox, session, &emails).await?;
                Ok(Ok(true))
            })
        })
        .await
    }
}

#[async_trait]
impl Rules for MongoShipmentStore {
    async fn email_rules(&self) -> Result<EmailRules, ShipmentError> {
        self.setting(EMAIL_RULES, "e-mail rules").await
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
impl Counters for MongoShipmentStore {
    async fn hit(
        &self,
        key: &str,
        window: std::time::Duration,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<u64, ShipmentError> {
        let start = window_start(window, now);
        let expires =
            mongodb::bson::DateTime::from_millis((start + window.as_secs() as i64) * 1000);
        let counted = self
            .counters
            .find_one_and_update(
                doc! { "_id": format!("{key}@{start}") },
                doc! { "$inc": { "count": 1_i64 }, "$setOnInsert": { "expiresAt": expires } },
            )
            .upsert(true)
            .return_document(mongodb::options::ReturnDocument::After)
            .await
            .map_err(StoreFault::from)?;
        Ok(counted
            .and_then(|d| d.get_i64("count").ok())
            .unwrap_or(1)
            .max(1) as u64)
    }
}

fn import_from_document(mut document: Document) -> Result<ImportRecord, ShipmentError> {
    document.remove("_id");
    document.remove("seq");
    mongodb::bson::from_document(document).map_err(|e| ShipmentError::Internal(e.to_string()))
}

fn customer_to_document(c: &Customer) -> Result<Document, ShipmentError> {
    let mut d =
        mongodb::bson::to_document(c).map_err(|e| ShipmentError::Internal(e.to_string()))?;
    d.remove("id");
    d.insert("_id", &c.id);
    d.insert("nameKey", crate::search::fold(&c.name));
    d.insert("searchText", c.search_text());
    Ok(d)
}

fn customer_from_document(mut d: Document) -> Result<Customer, ShipmentError> {
    let id = d
        .get_str("_id")
        .map_err(|e| ShipmentError::Internal(e.to_string()))?
        .to_owned();
    d.insert("id", id);
    mongodb::bson::from_document(d).map_err(|e| ShipmentError::Internal(e.to_string()))
}

/// A write refused for a taken account number: a refusal, not a database fault.
fn taken(e: mongodb::error::Error) -> Result<Result<(), ShipmentError>, mongodb::error::Error> {
    match StoreFault::from(e.clone()) {
        StoreFault::Duplicate(_) => Ok(Err(ShipmentError::AccountNumberTaken)),
        _ => Err(e),
    }
}

#[async_trait]
impl Customers for MongoShipmentStore {
    async fn insert_customer(
        &self,
        customer: &Customer,
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let document = customer_to_document(customer)?;
        self.in_transaction(|store, session| {
            let (document, entry) = (document.clone(), entry.clone());
            Box::pin(async move {
                if let Err(e) = store
                    .customers
                    .insert_one(document)
                    .session(&mut *session)
                    .await
                {
                    return taken(e);
                }
                audit::store::mongo::insert_all(&store.audit, session, &[entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn get_customer(&self, id: &str) -> Result<Customer, ShipmentError> {
        let found = self
            .customers
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        customer_from_document(found.ok_or(ShipmentError::CustomerNotFound)?)
    }

    async fn list_customers(&self, query: &CustomerQuery) -> Result<CustomerPage, ShipmentError> {
        let mut filter = Document::new();
        if let Some(text) = &query.text {
            filter.insert("searchText", doc! { "$regex": mongo::regex_literal(text) });
        }
        if let Some(status) = query.status {
            filter.insert("status", status.as_str());
        }
        let (customers, next) = mongo::find_page(
            &self.customers,
            filter,
            mongo::Order {
                field: "nameKey",
                descending: false,
            },
            query.after.as_deref(),
            Keyset::new(query.page_size),
            customer_from_document,
        )
        .await?;
        Ok(CustomerPage { customers, next })
    }

    async fn replace_customer(
        &self,
        customer: &Customer,
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let document = customer_to_document(customer)?;
        let id = customer.id.clone();
        self.in_transaction(|store, session| {
            let (document, entry, id) = (document.clone(), entry.clone(), id.clone());
            Box::pin(async move {
                match store
                    .customers
                    .replace_one(doc! { "_id": &id }, document)
                    .session(&mut *session)
                    .await
                {
                    Ok(replaced) if replaced.matched_count == 0 => {
                        return Ok(Err(ShipmentError::CustomerNotFound));
                    }
                    Ok(_) => {}
                    Err(e) => return taken(e),
                }
                audit::store::mongo::insert_all(&store.audit, session, &[entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn count_entries(&self, customer_id: &str) -> Result<u64, ShipmentError> {
        Ok(self
            .address_book
            .count_documents(doc! { "customerId": customer_id })
            .await
            .map_err(StoreFault::from)?)
    }

    async fn insert_entries(
        &self,
        entries: &[Entry],
        entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let documents = entries
            .iter()
            .map(entry_to_document)
            .collect::<Result<Vec<_>, _>>()?;
        self.in_transaction(|store, session| {
            let (documents, entry) = (documents.clone(), entry.clone());
            Box::pin(async move {
                store
                    .address_book
                    .insert_many(documents)
                    .session(&mut *session)
                    .await?;
                audit::store::mongo::insert_all(&store.audit, session, &[entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn get_entry(&self, customer_id: &str, id: &str) -> Result<Entry, ShipmentError> {
        let found = self
            .address_book
            .find_one(doc! { "_id": id, "customerId": customer_id })
            .await
            .map_err(StoreFault::from)?;
        with_id(found.ok_or(ShipmentError::EntryNotFound)?)
    }

    async fn replace_entry(
        &self,
        entry: &Entry,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let document = entry_to_document(entry)?;
        let filter = doc! { "_id": &entry.id, "customerId": &entry.customer_id };
        self.in_transaction(|store, session| {
            let (document, audit_entry, filter) =
                (document.clone(), audit_entry.clone(), filter.clone());
            Box::pin(async move {
                let replaced = store
                    .address_book
                    .replace_one(filter, document)
                    .session(&mut *session)
                    .await?;
                if replaced.matched_count == 0 {
                    return Ok(Err(ShipmentError::EntryNotFound));
                }
                audit::store::mongo::insert_all(&store.audit, session, &[audit_entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn delete_entry(
        &self,
        entry: &Entry,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let filter = doc! { "_id": &entry.id, "customerId": &entry.customer_id };
        self.in_transaction(|store, session| {
            let (audit_entry, filter) = (audit_entry.clone(), filter.clone());
            Box::pin(async move {
                let deleted = store
                    .address_book
                    .delete_one(filter)
                    .session(&mut *session)
                    .await?;
                if deleted.deleted_count == 0 {
                    return Ok(Err(ShipmentError::EntryNotFound));
                }
                audit::store::mongo::insert_all(&store.audit, session, &[audit_entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn list_entries(
        &self,
        query: &EntryQuery,
    ) -> Result<(Vec<Entry>, Option<String>), ShipmentError> {
        let mut filter = doc! { "customerId": &query.customer_id };
        if let Some(kind) = query.kind {
            filter.insert("kind", kind.as_str());
        }
        if let Some(text) = &query.text {
            filter.insert("searchText", doc! { "$regex": mongo::regex_literal(text) });
        }
        mongo::find_page(
            &self.address_book,
            filter,
            mongo::Order {
                field: "nameKey",
                descending: false,
            },
            query.after.as_deref(),
            Keyset::new(query.page_size),
            with_id,
        )
        .await
    }

    async fn insert_request(&self, request: &AccountRequest) -> Result<(), ShipmentError> {
        self.account_requests
            .insert_one(to_document_with_id(request, &request.id)?)
            .await
            .map_err(StoreFault::from)?;
        Ok(())
    }

    async fn get_request(&self, id: &str) -> Result<AccountRequest, ShipmentError> {
        let found = self
            .account_requests
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        with_id(found.ok_or(ShipmentError::RequestNotFound)?)
    }

    async fn list_requests(
        &self,
        query: &RequestQuery,
    ) -> Result<(Vec<AccountRequest>, Option<String>), ShipmentError> {
        let mut filter = Document::new();
        if let Some(state) = query.state {
            filter.insert("state", state.as_str());
        }
        mongo::find_page(
            &self.account_requests,
            filter,
            mongo::Order {
                field: "createdAt",
                descending: true,
            },
            query.after.as_deref(),
            Keyset::new(query.page_size),
            with_id,
        )
        .await
    }

    async fn answer_request(
        &self,
        request: &AccountRequest,
        customer: Option<&Customer>,
        effects: &Effects,
    ) -> Result<(), ShipmentError> {
        let document = to_document_with_id(request, &request.id)?;
        let customer = customer.map(customer_to_document).transpose()?;
        let id = request.id.clone();
        self.in_transaction(|store, session| {
            let (document, customer, effects, id) = (
                document.clone(),
                customer.clone(),
                effects.clone(),
                id.clone(),
            );
            Box::pin(async move {
                let replaced = store
                    .account_requests
                    .replace_one(doc! { "_id": &id, "state": "pending" }, document)
                    .session(&mut *session)
                    .await?;
                if replaced.matched_count == 0 {
                    return Ok(Err(ShipmentError::Precondition(
                        "This request was already answered".into(),
                    )));
                }
                if let Some(customer) = customer
                    && let Err(e) = store
                        .customers
                        .insert_one(customer)
                        .session(&mut *session)
                        .await
                {
                    return taken(e);
                }
                outbox::store::mongo::insert_all(&store.outbox, session, &effects.emails).await?;
                audit::store::mongo::insert_all(&store.audit, session, &effects.audit).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn insert_pickup(
        &self,
        pickup: &Pickup,
        audit_entry: &AuditEntry,
    ) -> Result<(), ShipmentError> {
        let document = pickup_to_document(pickup)?;
        self.in_transaction(|store, session| {
            let (document, audit_entry) = (document.clone(), audit_entry.clone());
            Box::pin(async move {
                store
                    .pickups
                    .insert_one(document)
                    .session(&mut *session)
                    .await?;
                audit::store::mongo::insert_all(&store.audit, session, &[audit_entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn get_pickup(&self, id: &str) -> Result<Pickup, ShipmentError> {
        let found = self
            .pickups
            .find_one(doc! { "_id": id })
            .await
            .map_err(StoreFault::from)?;
        with_id(found.ok_or(ShipmentError::PickupNotFound)?)
    }

    async fn list_pickups(
        &self,
        query: &PickupQuery,
    ) -> Result<(Vec<Pickup>, Option<String>), ShipmentError> {
        let mut filter = Document::new();
        let order = match &query.customer_id {
            Some(customer) => {
                filter.insert("customerId", customer);
                mongo::Order {
                    field: "createdAt",
                    descending: true,
                }
            }
            None => mongo::Order {
                field: "date",
                descending: false,
            },
        };
        if let Some(state) = query.state {
            filter.insert("state", state.as_str());
        }
        if let Some(day) = query.date {
            filter.insert("date", day.to_string());
        }
        if let Some(area) = &query.area {
            filter.insert("areaKey", area);
        }
        if let Some(agent) = &query.agent {
            filter.insert("agentId", agent);
        }
        mongo::find_page(
            &self.pickups,
            filter,
            order,
            query.after.as_deref(),
            Keyset::new(query.page_size),
            with_id,
        )
        .await
    }

    async fn replace_pickup(
        &self,
        before: &Pickup,
        pickup: &Pickup,
        effects: &Effects,
    ) -> Result<(), ShipmentError> {
        let document = pickup_to_document(pickup)?;
        let filter = doc! { "_id": &before.id, "updatedAt": crate::domain::utc_micros::format(&before.updated_at) };
        self.in_transaction(|store, session| {
            let (document, filter, effects) = (document.clone(), filter.clone(), effects.clone());
            Box::pin(async move {
                let replaced = store
                    .pickups
                    .replace_one(filter, document)
                    .session(&mut *session)
                    .await?;
                if replaced.matched_count == 0 {
                    return Ok(Err(ShipmentError::Precondition(
                        "This pickup changed meanwhile: reload it".into(),
                    )));
                }
                outbox::store::mongo::insert_all(&store.outbox, session, &effects.emails).await?;
                audit::store::mongo::insert_all(&store.audit, session, &effects.audit).await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    async fn watchers(&self, customer_id: &str) -> Result<Vec<Watcher>, ShipmentError> {
        let documents: Vec<Document> = self
            .watchers
            .find(doc! { "customerId": customer_id })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        documents.into_iter().map(without_id).collect()
    }

    async fn watcher(
        &self,
        customer_id: &str,
        user_id: &str,
    ) -> Result<Option<Watcher>, ShipmentError> {
        let found = self
            .watchers
            .find_one(doc! { "_id": format!("{customer_id}:{user_id}") })
            .await
            .map_err(StoreFault::from)?;
        found.map(without_id).transpose()
    }

    async fn set_watcher(&self, watcher: &Watcher) -> Result<(), ShipmentError> {
        let id = format!("{}:{}", watcher.customer_id, watcher.user_id);
        if watcher.events.is_empty() {
            self.watchers
                .delete_one(doc! { "_id": &id })
                .await
                .map_err(StoreFault::from)?;
        } else {
            let mut document = mongodb::bson::to_document(watcher)
                .map_err(|e| ShipmentError::Internal(e.to_string()))?;
            document.insert("_id", &id);
            self.watchers
                .replace_one(doc! { "_id": &id }, document)
                .upsert(true)
                .await
                .map_err(StoreFault::from)?;
        }
        Ok(())
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
        self.in_transaction(|store, session| {
            let (email, entry) = (email.clone(), entry.clone());
            Box::pin(async move {
                outbox::store::mongo::insert_all(&store.outbox, session, &[email]).await?;
                audit::store::mongo::insert_all(&store.audit, session, &[entry]).await?;
                Ok(Ok(()))
            })
        })
        .await
    }
}

/// The id of the pickup settings in the settings collection.
const PICKUP_SETTINGS: &str = "pickups";

fn to_document_with_id<T: serde::Serialize>(
    value: &T,
    id: &str,
) -> Result<Document, ShipmentError> {
    let mut d =
        mongodb::bson::to_document(value).map_err(|e| ShipmentError::Internal(e.to_string()))?;
    d.remove("id");
    d.insert("_id", id);
    Ok(d)
}

/// A stored record back, its `_id` as its id.
fn with_id<T: serde::de::DeserializeOwned>(mut d: Document) -> Result<T, ShipmentError> {
    let id = d
        .get_str("_id")
        .map_err(|e| ShipmentError::Internal(e.to_string()))?
        .to_owned();
    d.insert("id", id);
    mongodb::bson::from_document(d).map_err(|e| ShipmentError::Internal(e.to_string()))
}

fn entry_to_document(e: &Entry) -> Result<Document, ShipmentError> {
    let mut d = to_document_with_id(e, &e.id)?;
    d.insert("nameKey", crate::search::fold(&e.name));
    d.insert("searchText", e.search_text());
    Ok(d)
}

fn pickup_to_document(p: &Pickup) -> Result<Document, ShipmentError> {
    let mut d = to_document_with_id(p, &p.id)?;
    d.insert("areaKey", p.area_key());
    Ok(d)
}

/// A stored record whose `_id` is not one of its fields.
fn without_id<T: serde::de::DeserializeOwned>(mut d: Document) -> Result<T, ShipmentError> {
    d.remove("_id");
    mongodb::bson::from_document(d).map_err(|e| ShipmentError::Internal(e.to_string()))
}

#[async_trait]
impl super::RateCards for MongoShipmentStore {
    async fn rate_cards(&self) -> Result<Vec<RateCard>, ShipmentError> {
        let prefix = super::RATE_CARD_PREFIX;
        let found: Vec<Document> = self
            .settings
            .find(doc! { "_id": { "$regex": format!("^{prefix}") } })
            .sort(doc! { "_id": 1 })
            .await
            .map_err(StoreFault::from)?
            .try_collect()
            .await
            .map_err(StoreFault::from)?;
        found.iter().map(rate_card_of).collect()
    }

    async fn rate_card(&self, id: &str) -> Result<Option<RateCard>, ShipmentError> {
        let found = self
            .settings
            .find_one(doc! { "_id": super::rate_card_key(id) })
            .await
            .map_err(StoreFault::from)?;
        found.as_ref().map(rate_card_of).transpose()
    }

    async fn save_rate_card(
        &self,
        card: &RateCard,
        read: u32,
        audit_entry: Option<&AuditEntry>,
    ) -> Result<bool, ShipmentError> {
        let text = service_common::store::json::encode(card)?;
        let key = super::rate_card_key(&card.id);
        self.in_transaction(|store, session| {
            let (text, key, audit_entry) = (text.clone(), key.clone(), audit_entry.cloned());
            Box::pin(async move {
                // The version read is the saved one, or no card is saved when it is 0.
                let filter = if read == 0 {
                    doc! { "_id": &key }
                } else {
                    doc! { "_id": &key, "version": read as i64 }
                };
                let saved = store
                    .settings
                    .find_one(filter)
                    .session(&mut *session)
                    .await?;
                if (read == 0) != saved.is_none() {
                    return Ok(Ok(false));
                }
                store
                    .settings
                    .update_one(
                        doc! { "_id": &key },
                        doc! { "$set": { "json": text, "version": read as i64 + 1 } },
                    )
                    .upsert(true)
                    .session(&mut *session)
                    .await?;
                if let Some(entry) = audit_entry {
                    audit::store::mongo::insert_all(&store.audit, session, &[entry]).await?;
                }
                Ok(Ok(true))
            })
        })
        .await
    }

    async fn delete_rate_card(
        &self,
        id: &str,
        audit_entry: &AuditEntry,
    ) -> Result<bool, ShipmentError> {
        let key = super::rate_card_key(id);
        self.in_transaction(|store, session| {
            let (key, audit_entry) = (key.clone(), audit_entry.clone());
            Box::pin(async move {
                let deleted = store
                    .settings
                    .delete_one(doc! { "_id": &key })
                    .session(&mut *session)
                    .await?;
                if deleted.deleted_count == 0 {
                    return Ok(Ok(false));
                }
                audit::store::mongo::insert_all(&store.audit, session, &[audit_entry]).await?;
                Ok(Ok(true))
            })
        })
        .await
    }
}

fn rate_card_of(found: &Document) -> Result<RateCard, ShipmentError> {
    let text = found
        .get_str("json")
        .map_err(|e| ShipmentError::Internal(format!("stored rate card: {e}")))?;
    Ok(service_common::store::json::decode("rate card", text)?)
}
