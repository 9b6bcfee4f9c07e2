//! Where shipments live: one trait per aggregate, an embedded SQLite store (the default) and a
//! MongoDB store.

use std::sync::Arc;

use std::time::Duration;

use async_trait::async_trait;

use crate::rates::RateCard;
use chrono::{DateTime, NaiveDate, Utc};

use audit::AuditEntry;
use outbox::Notification;

use crate::account_requests::{AccountRequest, RequestQuery};
use crate::address_book::{Entry, EntryQuery};
use crate::customers::{Customer, CustomerQuery, Watcher};
use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::exceptions::{ExceptionQuery, ExceptionSettings, Kind, ShipmentException};
use crate::notes::ShipmentNote;
use crate::pickups::{Pickup, PickupQuery, PickupSettings};
use crate::updates::EmailRules;

pub mod imports;
pub mod mongo;
mod mongo_changes;
mod mongo_queue;
pub mod sqlite;
mod sqlite_queue;

pub use imports::{CellError, ImportRecord, ImportState, Imports, RowPreview};

pub use mongo::MongoShipmentStore;
pub use sqlite::SqliteShipmentStore;

/// What a change writes beside the shipment, in the same transaction: its e-mails and
/// webhook events to the outbox and its entries to the audit log.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    pub emails: Vec<Notification>,
    pub events: Vec<outbox::webhooks::Event>,
    pub audit: Vec<AuditEntry>,
    /// Names a new shipment takes for itself, unique across shipments (its external reference,
    /// the import row it came from): an insert claiming a taken one is refused with
    /// `AlreadyClaimed`. A delete frees them.
    pub claims: Vec<String>,
}

/// A change to one stored shipment, run inside the store's atomic read-modify-write; what
/// it returns is written in the same transaction.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type Edit = Arc<dyn Fn(&mut Shipment) -> Result<Effects, ShipmentError> + Send + Sync>;

/// What a delete writes beside it (its audit entry, its event), made from the shipment as it was.
pub type DeleteRecord = Arc<dyn Fn(&Shipment) -> Effects + Send + Sync>;

/// The position after the last shipment of a page, in newest-first order; each store
/// writes and reads its own form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor(pub String);

/// Matches are counted up to this many; past it a list says `MAX_COUNTED + 1` ("1,000+"),
/// so a broad search over millions of shipments stays fast.
pub const MAX_COUNTED: u64 = 1_000;

/// The order of a list; every order ends with the insertion order, so pages never overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    #[default]
    NewestFirst,
    OldestFirst,
    ExpectedDelivery,
    ExpectedDeliveryLastFirst,
}

impl Order {
    /// Whether the list runs from the largest key down.
    pub fn descending(self) -> bool {
        matches!(self, Self::NewestFirst | Self::ExpectedDeliveryLastFirst)
    }

    pub fn by_expected_delivery(self) -> bool {
        matches!(
            self,
            Self::ExpectedDelivery | Self::ExpectedDeliveryLastFirst
        )
    }
}

#[derive(Clone, Debug, Default)]
pub struct ListQuery {
    pub status: Option<Status>,
    /// Literal text folded by `search::fold`, matched as a substring of the six searchable
    /// fields folded the same way.
    pub text: Option<String>,
    /// Statuses whose display label holds the text but whose stored name does not ("in
    /// transit" for `in_transit`): they match too, as the admin reads the badges.
    pub labelled: Vec<Status>,
    /// Created at or after this moment, and before `created_before`.
    pub created_from: Option<DateTime<Utc>>,
    pub created_before: Option<DateTime<Utc>>,
    /// Only late shipments: not delivered, expected before this day.
    pub late_on: Option<NaiveDate>,
    /// Only this customer's shipments.
    pub customer: Option<String>,
    /// Only the shipments on this courier's round of this day.
    pub round: Option<(String, NaiveDate)>,
    pub order: Order,
    pub page_size: usize,
    pub after: Option<Cursor>,
}

#[derive(Clone, Debug)]
pub struct ListPage {
    pub shipments: Vec<Shipment>,
    pub next: Option<Cursor>,
    /// Matches on all pages, up to `MAX_COUNTED + 1`.
    pub total: u64,
}

/// The dashboard's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Each status with at least one shipment.
    pub by_status: Vec<(Status, u64)>,
    /// Not delivered, expected before `today`.
    pub late: u64,
    /// Created and delivered per day, from `today - days + 1` to `today` (UTC days).
    pub created: Vec<u64>,
    pub delivered: Vec<u64>,
}

/// The statuses a shipment is still on its way in.
pub const OPEN_STATUSES: [Status; 4] = [
    Status::Pending,
    Status::InTransit,
    Status::Delayed,
    Status::OnHold,
];

/// Everything the service keeps, one trait per aggregate; each store implements them all.
pub trait ShipmentStore:
    Shipments + Imports + Journal + Rules + Counters + Customers + RateCards + Attention
{
}

impl<T: Shipments + Imports + Journal + Rules + Counters + Customers + RateCards + Attention>
    ShipmentStore for T
{
}

/// One page of the exceptions queue, each with its shipment.
pub struct ExceptionPage {
    pub exceptions: Vec<(ShipmentException, Option<Shipment>)>,
    pub next: Option<String>,
    /// Matches on all pages, up to `MAX_COUNTED + 1`.
    pub total: u64,
}

/// What needs staff's attention: the exceptions (written by every shipment change, in its
/// transaction, from `exceptions::reconcile`) and the internal notes.
#[async_trait]
pub trait Attention: Send + Sync + 'static {
    async fn list_exceptions(&self, query: &ExceptionQuery)
    -> Result<ExceptionPage, ShipmentError>;
    /// Open exceptions due at `now` per kind (each up to `MAX_COUNTED + 1`), and how many of
    /// them are assigned to `user`.
    async fn count_exceptions(
        &self,
        query: &ExceptionQuery,
        user: &str,
    ) -> Result<(Vec<(Kind, u64)>, u64), ShipmentError>;
    async fn get_exception(
        &self,
        shipment_id: &str,
        kind: Kind,
    ) -> Result<Option<ShipmentException>, ShipmentError>;
    /// Saves `after` with its audit entry, unless the stored one is no longer `before`
    /// (Precondition).
    async fn replace_exception(
        &self,
        before: &ShipmentException,
        after: &ShipmentException,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
    /// The defaults until saved.
    async fn exception_settings(&self) -> Result<ExceptionSettings, ShipmentError>;
    async fn set_exception_settings(
        &self,
        settings: &ExceptionSettings,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;

    /// Adds a note with its audit entry, unless its shipment is gone (NotFound) or holds
    /// `notes::MAX_NOTES` already (Exhausted).
    async fn insert_note(
        &self,
        note: &ShipmentNote,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
    /// Newest first.
    async fn list_notes(
        &self,
        shipment_id: &str,
        page_size: usize,
        after: Option<String>,
    ) -> Result<(Vec<ShipmentNote>, Option<String>), ShipmentError>;
}

/// Where a rate card is kept among the settings documents.
pub fn rate_card_key(id: &str) -> String {
    format!("{RATE_CARD_PREFIX}{id}")
}

pub const RATE_CARD_PREFIX: &str = "rate_card:";

/// The rate cards, each one whole document; a change is written with its audit entry.
#[async_trait]
pub trait RateCards: Send + Sync + 'static {
    async fn rate_cards(&self) -> Result<Vec<RateCard>, ShipmentError>;
    async fn rate_card(&self, id: &str) -> Result<Option<RateCard>, ShipmentError>;
    /// Saves `card` if the saved one's version is `read` (0: none is saved); false if not, and
    /// nothing is written.
    async fn save_rate_card(
        &self,
        card: &RateCard,
        read: u32,
        audit: Option<&AuditEntry>,
    ) -> Result<bool, ShipmentError>;
    /// False when there is no such card.
    async fn delete_rate_card(&self, id: &str, audit: &AuditEntry) -> Result<bool, ShipmentError>;
}

/// One page of customers, by name; `next` is the cursor after the last one.
pub struct CustomerPage {
    pub customers: Vec<Customer>,
    pub next: Option<String>,
}

/// The customers, each change written with its audit entry in one transaction.
#[async_trait]
pub trait Customers: Send + Sync + 'static {
    /// Errors: AccountNumberTaken.
    async fn insert_customer(
        &self,
        customer: &Customer,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
    /// Errors: CustomerNotFound.
    async fn get_customer(&self, id: &str) -> Result<Customer, ShipmentError>;
    async fn list_customers(&self, query: &CustomerQuery) -> Result<CustomerPage, ShipmentError>;
    /// Replaces a stored customer (same id). Errors: CustomerNotFound, AccountNumberTaken.
    async fn replace_customer(
        &self,
        customer: &Customer,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
    /// Writes an invitation's e-mail and its audit entry in one transaction.
    async fn invite(&self, email: &Notification, audit: &AuditEntry) -> Result<(), ShipmentError>;

    /// How many entries a customer's address book holds.
    async fn count_entries(&self, customer_id: &str) -> Result<u64, ShipmentError>;
    /// Writes all the entries and their audit entry, or none.
    async fn insert_entries(
        &self,
        entries: &[Entry],
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
    /// The customer's entry; another customer's is EntryNotFound.
    async fn get_entry(&self, customer_id: &str, id: &str) -> Result<Entry, ShipmentError>;
    async fn replace_entry(&self, entry: &Entry, audit: &AuditEntry) -> Result<(), ShipmentError>;
    async fn delete_entry(&self, entry: &Entry, audit: &AuditEntry) -> Result<(), ShipmentError>;
    /// By name.
    async fn list_entries(
        &self,
        query: &EntryQuery,
    ) -> Result<(Vec<Entry>, Option<String>), ShipmentError>;

    async fn insert_request(&self, request: &AccountRequest) -> Result<(), ShipmentError>;
    /// Errors: RequestNotFound.
    async fn get_request(&self, id: &str) -> Result<AccountRequest, ShipmentError>;
    /// Newest first.
    async fn list_requests(
        &self,
        query: &RequestQuery,
    ) -> Result<(Vec<AccountRequest>, Option<String>), ShipmentError>;
    /// Saves an answered request, the customer an approval made, its e-mails and audit
    /// entries in one transaction; a request answered meanwhile is refused (Precondition).
    async fn answer_request(
        &self,
        request: &AccountRequest,
        customer: Option<&Customer>,
        effects: &Effects,
    ) -> Result<(), ShipmentError>;

    async fn insert_pickup(&self, pickup: &Pickup, audit: &AuditEntry)
    -> Result<(), ShipmentError>;
    /// Errors: PickupNotFound.
    async fn get_pickup(&self, id: &str) -> Result<Pickup, ShipmentError>;
    /// One customer's newest first, or (no customer) the staff queue by day.
    async fn list_pickups(
        &self,
        query: &PickupQuery,
    ) -> Result<(Vec<Pickup>, Option<String>), ShipmentError>;
    /// Saves a changed pickup with its e-mails and audit entries in one transaction, unless it
    /// changed since `before` was read (Precondition).
    async fn replace_pickup(
        &self,
        before: &Pickup,
        pickup: &Pickup,
        effects: &Effects,
    ) -> Result<(), ShipmentError>;
    /// The customer's users who chose e-mails about its shipments.
    async fn watchers(&self, customer_id: &str) -> Result<Vec<Watcher>, ShipmentError>;
    /// One user's choices; None until saved.
    async fn watcher(
        &self,
        customer_id: &str,
        user_id: &str,
    ) -> Result<Option<Watcher>, ShipmentError>;
    /// Saves a user's choices (no events: forgets them).
    async fn set_watcher(&self, watcher: &Watcher) -> Result<(), ShipmentError>;
    /// The defaults until saved.
    async fn pickup_settings(&self) -> Result<PickupSettings, ShipmentError>;
    async fn set_pickup_settings(
        &self,
        settings: &PickupSettings,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
}

/// The shipments, with what each change writes beside it.
#[async_trait]
pub trait Shipments: Send + Sync + 'static {
    /// Writes the shipment, its e-mails and audit entries in one transaction: all or none.
    /// Errors: DuplicateTrackingNumber when the number is taken, Unavailable.
    async fn insert(&self, shipment: &Shipment, effects: &Effects) -> Result<(), ShipmentError>;
    /// Inserts each shipment as `insert` would, each on its own (all or nothing per shipment),
    /// and answers each one's outcome in order; a store may share one commit between them.
    /// Takes them whole, so a batch is not held twice while it is written.
    async fn insert_each(
        &self,
        shipments: Vec<(Shipment, Effects)>,
    ) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
        insert_one_by_one(self, &shipments).await
    }
    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError>;
    /// The id of the shipment holding `claim`; None when no shipment holds it.
    async fn claim_holder(&self, claim: &str) -> Result<Option<String>, ShipmentError>;
    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError>;
    /// Newest first.
    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError>;
    /// Counts by status, late shipments, and per day over the `days` days up to `today`; from
    /// indexes and counters, never a scan of every shipment.
    async fn statistics(&self, today: NaiveDate, days: u32) -> Result<Statistics, ShipmentError>;
    /// Reads, edits and writes one shipment atomically; NotFound when it is missing.
    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError>;
    /// Deletes and returns the shipment, writing `record`'s effects in the same
    /// transaction; NotFound when it is missing.
    async fn delete(&self, id: &str, record: DeleteRecord) -> Result<Shipment, ShipmentError>;
    /// The changes this store committed (a shipment, its notes or exceptions), as they are
    /// committed: in this process, or on any replica for a store several share.
    fn changes(&self) -> &crate::live::Changes;
}

/// `insert` of each shipment in turn, each outcome in order; Unavailable stops them all.
pub async fn insert_one_by_one<S: Shipments + ?Sized>(
    store: &S,
    shipments: &[(Shipment, Effects)],
) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
    let mut outcomes = Vec::with_capacity(shipments.len());
    for (shipment, effects) in shipments {
        match store.insert(shipment, effects).await {
            Err(ShipmentError::Unavailable(cause)) => {
                return Err(ShipmentError::Unavailable(cause));
            }
            outcome => outcomes.push(outcome),
        }
    }
    Ok(outcomes)
}

/// Writes that belong to no single shipment change.
#[async_trait]
pub trait Journal: Send + Sync + 'static {
    /// Writes audit entries that belong to no single change (a batch's own entry).
    async fn record(&self, entries: &[AuditEntry]) -> Result<(), ShipmentError>;
    /// Writes e-mails that belong to no shipment change (a subscription's confirmation).
    async fn enqueue(&self, emails: &[Notification]) -> Result<(), ShipmentError>;
    /// Writes the e-mails with `claim` taken in the same transaction, unless it is taken
    /// already (false, nothing written): once across every replica (a day's digest).
    async fn enqueue_once(
        &self,
        claim: &str,
        emails: &[Notification],
    ) -> Result<bool, ShipmentError>;
}

/// The admin's settings of the shipment e-mails.
#[async_trait]
pub trait Rules: Send + Sync + 'static {
    /// The admin's e-mail rules; the defaults until they are first saved.
    async fn email_rules(&self) -> Result<EmailRules, ShipmentError>;
    /// Saves the rules and their audit entry in one transaction.
    async fn set_email_rules(
        &self,
        rules: &EmailRules,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
}

/// Fixed-window counters of the rate limits.
#[async_trait]
pub trait Counters: Send + Sync + 'static {
    /// Counts one more hit of `key` in the current fixed window of `window` and returns the
    /// window's count so far, shared by every replica of the service.
    async fn hit(
        &self,
        key: &str,
        window: Duration,
        now: DateTime<Utc>,
    ) -> Result<u64, ShipmentError>;
}

/// The start of the fixed window `now` falls in, in Unix seconds.
pub fn window_start(window: Duration, now: DateTime<Utc>) -> i64 {
    let length = window.as_secs().max(1) as i64;
    now.timestamp().div_euclid(length) * length
}
