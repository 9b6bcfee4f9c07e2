//! Where shipments live: one trait, an embedded SQLite store (the default) and a MongoDB store.

use std::sync::Arc;

use async_trait::async_trait;

use outbox::Notification;

use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoShipmentStore;
pub use sqlite::SqliteShipmentStore;

/// A change to one stored shipment, run inside the store's atomic read-modify-write.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type Edit = Arc<dyn Fn(&mut Shipment) -> Result<(), ShipmentError> + Send + Sync>;

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
}
