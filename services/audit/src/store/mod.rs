//! Where the audit log lives: beside the shipments (SQLite file or MongoDB database), so
//! shipment changes and their entries share one transaction.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use service_common::paging::BadPageToken;
use service_common::store::StoreFault;

use crate::{Action, AuditEntry};

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoAuditLog;
pub use sqlite::SqliteAuditLog;

/// Which entries to list; every filter given must match.
#[derive(Clone, Debug, Default)]
pub struct AuditQuery {
    /// A user's id or e-mail (lower case).
    pub actor: Option<String>,
    pub action: Option<Action>,
    /// An id, tracking number or e-mail, compared in lower case with the target's id and name.
    pub target: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
    pub page_size: usize,
    /// The cursor of the previous page.
    pub after: Option<String>,
}

#[derive(Clone, Debug)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    pub next: Option<String>,
}

/// A cursor the store did not hand out, or the store's fault.
#[derive(Debug, PartialEq, Eq)]
pub enum ListError {
    BadCursor,
    Store(StoreFault),
}

impl From<BadPageToken> for ListError {
    fn from(_: BadPageToken) -> Self {
        Self::BadCursor
    }
}

impl From<StoreFault> for ListError {
    fn from(e: StoreFault) -> Self {
        Self::Store(e)
    }
}

/// The audit log: append and read; there is deliberately no way to change an entry.
#[async_trait]
pub trait AuditLog: Send + Sync + 'static {
    /// Writes entries that belong to no change in this database (a user's change, a sign-in).
    async fn append(&self, entries: &[AuditEntry]) -> Result<(), StoreFault>;
    /// Newest first.
    async fn list(&self, query: &AuditQuery) -> Result<AuditPage, ListError>;
}

/// The lower-case key a target is found by.
pub(crate) fn target_keys(entry: &AuditEntry) -> (String, String) {
    (
        entry.target_id.to_lowercase(),
        entry.target_name.to_lowercase(),
    )
}
