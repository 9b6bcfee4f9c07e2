//! Webhook endpoints and their deliveries. A shipment's events are fanned out to the endpoints
//! that want them in the same transaction as the change, then claimed and sent like e-mails,
//! in order per shipment and endpoint.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use async_trait::async_trait;
use base64::Engine as _;
use chrono::{DateTime, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};
use service_common::{optional_utc_micros, utc_micros};

use crate::{OutboxError, Outcome, State};

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoWebhooks;
pub use sqlite::SqliteWebhooks;

/// At most this many endpoints of the company's own: each event is written once per endpoint
/// in its change's transaction.
pub const MAX_ENDPOINTS: usize = 50;
/// At most this many endpoints of one customer (who hear of that customer's shipments only).
pub const MAX_CUSTOMER_ENDPOINTS: usize = 10;
/// A delivery keeps its latest attempts, no more.
pub const MAX_LOG: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventType {
    #[serde(rename = "shipment.created")]
    ShipmentCreated,
    /// Status or current location changed.
    #[serde(rename = "shipment.status_changed")]
    ShipmentStatusChanged,
    #[serde(rename = "shipment.delivered")]
    ShipmentDelivered,
    /// Any other field changed.
    #[serde(rename = "shipment.updated")]
    ShipmentUpdated,
    #[serde(rename = "shipment.deleted")]
    ShipmentDeleted,
    /// Sent on an admin's request only.
    #[serde(rename = "webhook.test")]
    Test,
}

impl EventType {
    /// What an endpoint can subscribe to.
    pub const SUBSCRIBABLE: [EventType; 5] = [
        EventType::ShipmentCreated,
        EventType::ShipmentStatusChanged,
        EventType::ShipmentDelivered,
        EventType::ShipmentUpdated,
        EventType::ShipmentDeleted,
    ];

    /// The payload's `type`, e.g. `shipment.created`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::ShipmentCreated => "shipment.created",
            EventType::ShipmentStatusChanged => "shipment.status_changed",
            EventType::ShipmentDelivered => "shipment.delivered",
            EventType::ShipmentUpdated => "shipment.updated",
            EventType::ShipmentDeleted => "shipment.deleted",
            EventType::Test => "webhook.test",
        }
    }
}

/// Orders the events of one process even within one microsecond.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// Something that happened to a shipment, as its receivers will read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The `webhook-id`: the same on every attempt and resend.
    pub id: String,
    pub event_type: EventType,
    /// Deliveries of one shipment to one endpoint go out in this order; empty for a test.
    pub shipment_id: String,
    pub tracking_number: String,
    /// The JSON body: `{"type", "timestamp", "data"}`.
    pub payload: Payload,
    pub order: i64,
    pub at: DateTime<Utc>,
    /// The customer whose shipment it is, whose own endpoints hear of it too; empty for none.
    pub customer_id: String,
}

type MakePayload = Box<dyn FnOnce() -> String + Send>;

/// An event's JSON body, made the first time a delivery needs it: most changes have no
/// endpoint that wants them, and a shipment's snapshot costs more than the rest of its write.
#[derive(Clone)]
pub struct Payload(Arc<LazyLock<String, MakePayload>>);

impl Payload {
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Event {
    pub fn new(
        event_type: EventType,
        shipment_id: &str,
        tracking_number: &str,
        data: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Self {
        Self::with_data(event_type, shipment_id, tracking_number, now, move || data)
    }

    /// An event whose `data` is made only if an endpoint wants it.
    pub fn with_data(
        event_type: EventType,
        shipment_id: &str,
        tracking_number: &str,
        now: DateTime<Utc>,
        data: impl FnOnce() -> serde_json::Value + Send + 'static,
    ) -> Self {
        let make: MakePayload = Box::new(move || {
            serde_json::json!({
                "type": event_type.as_str(),
                "timestamp": now.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
                "data": data(),
            })
            .to_string()
        });
        let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed) % 1000;
        Self {
            id: format!("msg_{}", service_common::new_id()),
            event_type,
            shipment_id: shipment_id.to_owned(),
            tracking_number: tracking_number.to_owned(),
            payload: Payload(Arc::new(LazyLock::new(make))),
            order: now.timestamp_micros().saturating_mul(1000) + sequence as i64,
            at: now,
            customer_id: String::new(),
        }
    }

    /// The event of a shipment of `customer_id` (empty for none).
    pub fn of_customer(mut self, customer_id: &str) -> Self {
        self.customer_id = customer_id.to_owned();
        self
    }
}

/// A signing secret: `whsec_` and the base64 of 32 random bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    pub key: String,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    /// When a rotated-out secret stops signing.
    #[serde(default, with = "optional_utc_micros")]
    pub expires_at: Option<DateTime<Utc>>,
}

impl Secret {
    pub fn generate(now: DateTime<Utc>) -> Self {
        let bytes: [u8; 32] = rand::rng().random();
        Self {
            key: format!(
                "whsec_{}",
                base64::engine::general_purpose::STANDARD.encode(bytes)
            ),
            created_at: now,
            expires_at: None,
        }
    }

    pub fn active(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_none_or(|end| now < end)
    }
}

/// Where a company's other system wants to be told.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub id: String,
    pub url: String,
    pub description: String,
    pub events: Vec<EventType>,
    /// The newest last.
    pub secrets: Vec<Secret>,
    pub enabled: bool,
    pub disabled_reason: String,
    #[serde(default, with = "optional_utc_micros")]
    pub failing_since: Option<DateTime<Utc>>,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
    /// The customer whose endpoint it is, which hears of that customer's shipments only;
    /// empty for the company's own, which hear of every shipment.
    #[serde(default)]
    pub customer_id: String,
    /// Who is told when a customer's endpoint is disabled: the customer admin who added it
    /// (the company's alert addresses hear of the company's own).
    #[serde(default)]
    pub added_by: String,
}

impl Endpoint {
    /// A new enabled endpoint of `customer_id` (empty: the company's) and its secret's key, to
    /// be shown once.
    pub fn new(
        url: &str,
        events: Vec<EventType>,
        description: &str,
        customer_id: &str,
        now: DateTime<Utc>,
    ) -> (Self, String) {
        let secret = Secret::generate(now);
        let key = secret.key.clone();
        let endpoint = Self {
            id: format!("ep_{}", service_common::new_id()),
            url: url.to_owned(),
            description: description.to_owned(),
            events,
            secrets: vec![secret],
            enabled: true,
            disabled_reason: String::new(),
            failing_since: None,
            created_at: now,
            updated_at: now,
            customer_id: customer_id.to_owned(),
            added_by: String::new(),
        };
        (endpoint, key)
    }

    pub fn wants(&self, event_type: EventType) -> bool {
        event_type == EventType::Test || self.events.contains(&event_type)
    }

    /// The company's endpoints hear of every shipment, a customer's of its own only.
    pub fn hears_of(&self, event: &Event) -> bool {
        self.customer_id.is_empty() || self.customer_id == event.customer_id
    }

    /// How many endpoints its owner may have.
    pub fn limit(&self) -> usize {
        if self.customer_id.is_empty() {
            MAX_ENDPOINTS
        } else {
            MAX_CUSTOMER_ENDPOINTS
        }
    }

    /// The keys that sign a delivery sent at `now`: the newest, and any still overlapping.
    pub fn signing_keys(&self, now: DateTime<Utc>) -> Vec<&str> {
        self.secrets
            .iter()
            .filter(|s| s.active(now))
            .map(|s| s.key.as_str())
            .collect()
    }

    /// A new secret; the current ones keep signing for `overlap`, expired ones are dropped.
    /// Returns the new key, to be shown once.
    pub fn rotate(&mut self, overlap: Duration, now: DateTime<Utc>) -> String {
        let end = now + chrono::Duration::from_std(overlap).unwrap_or(chrono::Duration::zero());
        self.secrets.retain(|s| s.active(now) && now < end);
        for s in &mut self.secrets {
            s.expires_at = Some(s.expires_at.map_or(end, |e| e.min(end)));
        }
        let secret = Secret::generate(now);
        let key = secret.key.clone();
        self.secrets.push(secret);
        self.updated_at = now;
        key
    }

    /// When the previous secret stops signing, during an overlap.
    pub fn previous_secret_expires_at(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.secrets
            .iter()
            .filter(|s| s.active(now))
            .filter_map(|s| s.expires_at)
            .max()
    }

    /// Records an attempt's answer: a success ends the run of failures; a failure that has
    /// lasted `window` disables the endpoint. True when this call disabled it.
    pub fn record_result(&mut self, ok: bool, window: Duration, now: DateTime<Utc>) -> bool {
        if ok {
            self.failing_since = None;
            return false;
        }
        let since = *self.failing_since.get_or_insert(now);
        let window = chrono::Duration::from_std(window).unwrap_or(chrono::Duration::MAX);
        if self.enabled && now - since >= window {
            self.enabled = false;
            self.disabled_reason = format!(
                "Disabled on {} after failing since {}",
                now.format("%Y-%m-%d %H:%M UTC"),
                since.format("%Y-%m-%d %H:%M UTC")
            );
            self.updated_at = now;
            return true;
        }
        false
    }
}

/// One send attempt, as the Webhooks screen shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    #[serde(with = "utc_micros")]
    pub at: DateTime<Utc>,
    /// 0 when there was no answer.
    pub status_code: u16,
    pub excerpt: String,
    pub error: String,
    pub duration_ms: u32,
}

/// One event on its way to one endpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: EventType,
    pub shipment_id: String,
    pub tracking_number: String,
    pub payload: String,
    pub order: i64,
    pub state: State,
    pub attempts: u32,
    pub last_error: String,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub next_attempt_at: DateTime<Utc>,
    #[serde(default, with = "optional_utc_micros")]
    pub sent_at: Option<DateTime<Utc>>,
    #[serde(default, with = "optional_utc_micros")]
    pub failing_since: Option<DateTime<Utc>>,
    /// The latest first.
    pub log: Vec<Attempt>,
}

impl Delivery {
    /// `event` queued for `endpoint`, due now.
    pub fn new(endpoint_id: &str, event: &Event) -> Self {
        Self {
            id: format!("dlv_{}", service_common::new_id()),
            endpoint_id: endpoint_id.to_owned(),
            event_id: event.id.clone(),
            event_type: event.event_type,
            shipment_id: event.shipment_id.clone(),
            tracking_number: event.tracking_number.clone(),
            payload: event.payload.as_str().to_owned(),
            order: event.order,
            state: State::Queued,
            attempts: 0,
            last_error: String::new(),
            created_at: event.at,
            updated_at: event.at,
            next_attempt_at: event.at,
            sent_at: None,
            failing_since: None,
            log: Vec::new(),
        }
    }

    /// Applies what the last attempt came to, keeping it in the log.
    pub fn settle(&mut self, outcome: &Outcome, attempt: Attempt, now: DateTime<Utc>) {
        self.updated_at = now;
        self.log.insert(0, attempt);
        self.log.truncate(MAX_LOG);
        match outcome {
            Outcome::Sent => {
                self.state = State::Sent;
                self.sent_at = Some(now);
                self.failing_since = None;
                self.last_error.clear();
            }
            Outcome::Retry { at, error } => {
                self.state = State::Retrying;
                self.failing_since.get_or_insert(now);
                self.next_attempt_at = *at;
                self.last_error = error.clone();
            }
            Outcome::Failed { error } => {
                self.state = State::Failed;
                self.last_error = error.clone();
            }
        }
    }

    /// Queued again with fresh attempts; its log stays.
    pub fn requeue(&mut self, now: DateTime<Utc>) {
        self.state = State::Queued;
        self.attempts = 0;
        self.failing_since = None;
        self.next_attempt_at = now;
        self.updated_at = now;
    }
}

/// Whose endpoints `events` may reach: the company's (empty) and each event's customer, so a
/// change reads only those endpoints, however many customers have their own.
pub fn owners(events: &[Event]) -> Vec<String> {
    let mut owners = vec![String::new()];
    for e in events {
        if !owners.contains(&e.customer_id) {
            owners.push(e.customer_id.clone());
        }
    }
    owners
}

/// The deliveries `events` make for the enabled `endpoints` that want them.
pub fn fan_out(endpoints: &[Endpoint], events: &[Event]) -> Vec<Delivery> {
    events
        .iter()
        .flat_map(|event| {
            endpoints
                .iter()
                .filter(|e| e.enabled && e.wants(event.event_type) && e.hears_of(event))
                .map(|e| Delivery::new(&e.id, event))
        })
        .collect()
}

/// A delivery one worker holds until its lease ends.
#[derive(Clone, Debug)]
pub struct ClaimedDelivery {
    pub delivery: Delivery,
    pub claim: String,
}

pub struct DeliveryPage {
    pub deliveries: Vec<Delivery>,
    pub next: Option<String>,
}

/// A change to one stored endpoint, run inside the store's atomic read-modify-write; the
/// e-mails it returns (an alert that it was disabled) are queued in that same write.
/// `Fn`, not `FnOnce`: an optimistic store may run it again after a conflicting write.
pub type EndpointEdit = std::sync::Arc<
    dyn Fn(&mut Endpoint) -> Result<Vec<crate::Notification>, OutboxError> + Send + Sync,
>;

#[async_trait]
pub trait WebhookStore: Send + Sync + 'static {
    /// Errors: TooManyEndpoints once its owner has `endpoint.limit()`.
    async fn create_endpoint(&self, endpoint: &Endpoint) -> Result<(), OutboxError>;
    /// Every owner's, oldest first.
    async fn endpoints(&self) -> Result<Vec<Endpoint>, OutboxError>;
    async fn endpoint(&self, id: &str) -> Result<Endpoint, OutboxError>;
    /// Reads, edits and writes one endpoint, and queues the edit's e-mails, atomically.
    async fn update_endpoint(&self, id: &str, edit: EndpointEdit) -> Result<Endpoint, OutboxError>;
    /// Removes it and its deliveries.
    async fn delete_endpoint(&self, id: &str) -> Result<(), OutboxError>;
    /// Fans events out to the endpoints that want them (outside a shipment's change).
    async fn publish(&self, events: &[Event]) -> Result<(), OutboxError>;
    async fn enqueue(&self, deliveries: &[Delivery]) -> Result<(), OutboxError>;
    /// Takes the delivery due first, of an enabled endpoint, whose shipment has no earlier
    /// delivery to that endpoint still on its way; counts an attempt.
    async fn claim(
        &self,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<Option<ClaimedDelivery>, OutboxError>;
    /// Records an attempt, if `claim` still holds the delivery.
    async fn settle(
        &self,
        id: &str,
        claim: &str,
        outcome: &Outcome,
        attempt: Attempt,
        now: DateTime<Utc>,
    ) -> Result<bool, OutboxError>;
    /// An endpoint's deliveries, newest first.
    async fn deliveries(
        &self,
        endpoint_id: &str,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<DeliveryPage, OutboxError>;
    async fn delivery(&self, id: &str) -> Result<Delivery, OutboxError>;
    /// Queues a sent or failed delivery again; StillOnItsWay otherwise.
    async fn resend(&self, id: &str, now: DateTime<Utc>) -> Result<Delivery, OutboxError>;
}

/// A delivery may be sent again once it has settled.
fn resendable(d: &Delivery) -> Result<(), OutboxError> {
    match d.state {
        State::Sent | State::Failed => Ok(()),
        _ => Err(OutboxError::StillOnItsWay),
    }
}
