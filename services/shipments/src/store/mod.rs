//! Where shipments live: one trait, an embedded SQLite store (the default) and a MongoDB store.

use std::sync::Arc;

use async_trait::async_trait;

use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoShipmentStore;
pub use sqlite::SqliteShipmentStore;

/// A change to one stored shipment, run inside the store's atomic read-modify-write.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type Edit = Arc<dyn Fn(&mut Shipment) -> Result<(), ShipmentError> + Send + Sync>;

/// The position after the last shipment of a page, in newest-first order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// `createdAt` as stored (fixed-width RFC 3339, so text order is time order).
    pub created_at: String,
    pub id: String,
}

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
    /// Matches on all pages.
    pub total: u64,
}

#[async_trait]
pub trait ShipmentStore: Send + Sync + 'static {
    /// Errors: DuplicateTrackingNumber when the number is taken, Unavailable.
    async fn insert(&self, shipment: &Shipment) -> Result<(), ShipmentError>;
    async fn get(&self, id: &str) -> Result<Shipment, ShipmentError>;
    async fn find_by_tracking_number(&self, number: &TrackingNumber) -> Result<Shipment, ShipmentError>;
    /// Newest first (createdAt, then id, descending).
    async fn list(&self, query: &ListQuery) -> Result<ListPage, ShipmentError>;
    /// Reads, edits and writes one shipment atomically; NotFound when it is missing.
    async fn update(&self, id: &str, edit: Edit) -> Result<Shipment, ShipmentError>;
    /// Deletes and returns the shipment; NotFound when it is missing.
    async fn delete(&self, id: &str) -> Result<Shipment, ShipmentError>;
}

pub(crate) fn next_cursor(shipments: &[Shipment]) -> Option<Cursor> {
    shipments.last().map(|s| Cursor { created_at: crate::domain::utc_micros::format(&s.created_at), id: s.id.clone() })
}
