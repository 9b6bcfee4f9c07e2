//! Where shipments live: one trait, an embedded SQLite store (the default) and a MongoDB store.

use std::sync::Arc;

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use audit::AuditEntry;
use outbox::Notification;

use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::updates::EmailRules;

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoShipmentStore;
pub use sqlite::SqliteShipmentStore;

/// What a change writes beside the shipment, in the same transaction: its e-mails to the
/// outbox and its entries to the audit log.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    pub emails: Vec<Notification>,
    pub audit: Vec<AuditEntry>,
}

/// A change to one stored shipment, run inside the store's atomic read-modify-write; what
/// it returns is written in the same transaction.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type Edit = Arc<dyn Fn(&mut Shipment) -> Result<Effects, ShipmentError> + Send + Sync>;

/// The audit entry of a delete, made from the shipment as it was.
pub type DeleteRecord = Arc<dyn Fn(&Shipment) -> AuditEntry + Send + Sync>;

/// The position after the last shipment of a page, in newest-first order; each store
/// writes and reads its own form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor(pub String);

/// Matches are counted up to this many; past it a list says `MAX_COUNTED + 1` ("1,000+"),
/// so a broad search over millions of shipments stays fast.
pub const MAX_COUNTED: u64 = 1_000;

#[derive(Clone, Debug, Default)]
pub struct ListQuery {
    pub status: Option<Status>,
    /// Lower-case literal text, matched as a substring of the six searchable fields.
    pub text: Option<String>,
    /// Statuses whose display label holds the text but whose stored name does not ("in
    /// transit" for `in_transit`): they match too, as the admin reads the badges.
    pub labelled: Vec<Status>,
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

#[async_trait]
pub trait ShipmentStore: Send + Sync + 'static {
    /// Writes the shipment, its e-mails and audit entries in one transaction: all or none.
    /// Errors: DuplicateTrackingNumber when the number is taken, Unavailable.
    async fn insert(&self, shipment: &Shipment, effects: &Effects) -> Result<(), ShipmentError>;
    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError>;
    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError>;
    /// Newest first.
    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError>;
    /// Reads, edits and writes one shipment atomically; NotFound when it is missing.
    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError>;
    /// Deletes and returns the shipment, writing `record`'s audit entry in the same
    /// transaction; NotFound when it is missing.
    async fn delete(&self, id: &str, record: DeleteRecord) -> Result<Shipment, ShipmentError>;
    /// Writes e-mails that belong to no shipment change (a subscription's confirmation).
    async fn enqueue(&self, emails: &[Notification]) -> Result<(), ShipmentError>;
    /// The admin's e-mail rules; the defaults until they are first saved.
    async fn email_rules(&self) -> Result<EmailRules, ShipmentError>;
    /// Saves the rules and their audit entry in one transaction.
    async fn set_email_rules(
        &self,
        rules: &EmailRules,
        audit: &AuditEntry,
    ) -> Result<(), ShipmentError>;
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
