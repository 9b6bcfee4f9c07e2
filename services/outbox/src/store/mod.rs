//! Where the outbox lives: beside the shipments, in SQLite (embedded) or MongoDB.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::{Filter, Notification, Outcome};

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoOutbox;
pub use sqlite::SqliteOutbox;

use service_common::paging::BadPageToken;
use service_common::store::StoreFault;

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("Notification not found")]
    NotFound,
    #[error("Only a failed notification can be retried")]
    NotFailed,
    #[error("Webhook endpoint not found")]
    EndpointNotFound,
    #[error("Webhook delivery not found")]
    DeliveryNotFound,
    #[error("This delivery is still on its way; it can be sent again once it is sent or failed")]
    StillOnItsWay,
    #[error("There are already {0} webhook endpoints; delete one first")]
    TooManyEndpoints(usize),
    #[error("{}", BadPageToken)]
    BadPageToken,
    #[error("outbox store unavailable: {0}")]
    Unavailable(String),
    #[error("outbox store error: {0}")]
    Internal(String),
}

impl From<StoreFault> for OutboxError {
    fn from(fault: StoreFault) -> Self {
        match fault {
            StoreFault::Unavailable(cause) => Self::Unavailable(cause),
            StoreFault::Duplicate(_) | StoreFault::Internal(_) => Self::Internal(fault.to_string()),
        }
    }
}

impl From<BadPageToken> for OutboxError {
    fn from(_: BadPageToken) -> Self {
        Self::BadPageToken
    }
}

/// A notification one worker holds until `lease` ends; `claim` proves it is still that worker's.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub notification: Notification,
    pub claim: String,
}

impl Claimed {
    /// What its attempt came to, under its claim.
    pub fn settlement(&self, outcome: Outcome) -> Settlement {
        Settlement {
            id: self.notification.id.clone(),
            claim: self.claim.clone(),
            outcome,
        }
    }
}

/// What one claimed notification's attempt came to.
#[derive(Clone, Debug, PartialEq)]
pub struct Settlement {
    pub id: String,
    pub claim: String,
    pub outcome: Outcome,
}

pub struct Page {
    pub notifications: Vec<Notification>,
    /// Where the next page starts; None on the last page.
    pub next: Option<String>,
}

#[async_trait]
pub trait OutboxStore: Send + Sync + 'static {
    /// Writes notifications as they are (queued ones, or already settled test e-mails).
    async fn enqueue(&self, items: &[Notification]) -> Result<(), OutboxError>;

    /// Takes up to `limit` notifications due first (queued or retrying and due, or sending with
    /// an expired lease) for `lease`, counting an attempt on each. Atomic: no two callers get
    /// the same one.
    async fn claim_batch(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<Claimed>, OutboxError>;

    /// Records each settlement at once, where its claim still holds the notification; for each,
    /// whether it did (false: the lease ran out and another worker took it over).
    async fn settle_batch(
        &self,
        settlements: &[Settlement],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>, OutboxError>;

    /// For the local outbox, where delivering an e-mail is recording it as sent: marks up to
    /// `limit` of those `claim_batch` would take sent, counting an attempt on each, and returns
    /// them. One write where the store can; a claim and its settlement otherwise.
    async fn deliver_local(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Notification>, OutboxError> {
        // A lease long enough to settle in; nothing is sent in between.
        let claimed = self
            .claim_batch(now, Duration::from_secs(60), limit)
            .await?;
        let settlements: Vec<Settlement> = claimed
            .iter()
            .map(|c| c.settlement(Outcome::Sent))
            .collect();
        let settled = self.settle_batch(&settlements, now).await?;
        Ok(claimed
            .into_iter()
            .zip(settled)
            .filter(|(_, settled)| *settled)
            .map(|(c, _)| {
                let mut notification = c.notification;
                notification.settle(&Outcome::Sent, now);
                notification
            })
            .collect())
    }

    /// Takes the notification due first, as `claim_batch` does.
    async fn claim(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<Claimed>, OutboxError> {
        Ok(self.claim_batch(now, lease, 1).await?.pop())
    }

    /// Records an attempt's outcome, if `claim` still holds the notification; false otherwise
    /// (the lease ran out and another worker took it over).
    async fn settle(
        &self,
        id: &str,
        claim: &str,
        outcome: &Outcome,
        now: DateTime<Utc>,
    ) -> Result<bool, OutboxError> {
        let settlement = Settlement {
            id: id.to_owned(),
            claim: claim.to_owned(),
            outcome: outcome.clone(),
        };
        let settled = self.settle_batch(&[settlement], now).await?;
        Ok(settled.first().copied().unwrap_or(false))
    }

    /// Those `filter` covers, newest first, `page_size` at a time.
    async fn list(
        &self,
        filter: &Filter,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<Page, OutboxError>;

    async fn get(&self, id: &str) -> Result<Notification, OutboxError>;

    /// Queues a failed notification again with fresh attempts; NotFailed otherwise.
    async fn retry(&self, id: &str, now: DateTime<Utc>) -> Result<Notification, OutboxError>;

    /// Queues again, with fresh attempts, every failed notification that `text` matches (as in
    /// `Filter::text`); returns how many.
    async fn retry_failed(
        &self,
        text: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<u64, OutboxError>;

    /// How many are still to go out: queued, sending and retrying.
    async fn backlog(&self) -> Result<u64, OutboxError>;
}

/// A random claim token.
pub(crate) fn new_claim() -> String {
    use rand::Rng;
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn lease_end(now: DateTime<Utc>, lease: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::seconds(60))
}
