//! Where shipments live: one trait, an embedded SQLite store (the default) and a MongoDB store.

use std::sync::Arc;

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use outbox::Notification;

use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::updates::EmailRules;

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoShipmentStore;
pub use sqlite::SqliteShipmentStore;

/// A change to one stored shipment, run inside the store's atomic read-modify-write; the
/// e-mails it returns are written to the outbox in the same transaction.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type Edit =
    Arc<dyn Fn(&mut Shipment) -> Result<Vec<Notification>, ShipmentError> + Send + Sync>;

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
    /// Writes the shipment and its e-mails to the outbox in one transaction: both or neither.
    /// Errors: DuplicateTrackingNumber when the number is taken, Unavailable.
    async fn insert(
        &self,
        shipment: &Shipment,
        emails: &[Notification],
    ) -> Result<(), ShipmentError>;
    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError>;
    async fn find_by_tracking_number(
        &self,
        number: &TrackingNumber,
    ) -> Result<Shipment, ShipmentError>;
    /// Newest first.
    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError>;
    /// Reads, edits and writes one shipment atomically; NotFound when it is missing.
    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError>;
    /// Deletes and returns the shipment; NotFound when it is missing.
    async fn delete(&self, id: &str) -> Result<Shipment, ShipmentError>;
    /// Writes e-mails that belong to no shipment change (a subscription's confirmation).
    async fn enqueue(&self, emails: &[Notification]) -> Result<(), ShipmentError>;
    /// The admin's e-mail rules; the defaults until they are first saved.
    async fn email_rules(&self) -> Result<EmailRules, ShipmentError>;
    async fn set_email_rules(&self, rules: &EmailRules) -> Result<(), ShipmentError>;
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
