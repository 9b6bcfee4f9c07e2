//! The shipment aggregate and its rules (its fields, statuses, history and computed totals),
//! free of gRPC and storage.

use chrono::{DateTime, Local, NaiveDate, Utc};
use rand::Rng;
use serde::{Deserialize, Serialize};

pub use crate::details::{
    DetailsPatch, MAX_PACKAGES, Package, PaymentMode, ShipmentDetails, ShipmentMode, ShipmentType,
};
use crate::error::FieldViolation;
pub use outbox::language::Language;

/// `PSE` followed by 9 digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TrackingNumber(String);

impl TrackingNumber {
    const PREFIX: &'static str = "PSE";

    /// Accepts what a visitor types or pastes: white space and dashes anywhere, punctuation
    /// around it and letter case are forgiven (`pse 3136 81562.` is `PSE313681562`); the
    /// front end's `normaliseTrackingNumber` does the same.
    pub fn parse(input: &str) -> Result<Self, FieldViolation> {
        let field = "tracking_number";
        let upper = Self::normalise(input);
        if upper.is_empty() {
            return Err(FieldViolation::new(
                field,
                "Please enter a tracking number.",
            ));
        }
        let digits = upper.strip_prefix(Self::PREFIX);
        match digits {
            Some(d) if d.len() == 9 && d.bytes().all(|b| b.is_ascii_digit()) => Ok(Self(upper)),
            _ => Err(FieldViolation::new(
                field,
                "must be PSE followed by 9 digits",
            )),
        }
    }

    fn normalise(input: &str) -> String {
        let compact: String = input
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        compact
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_ascii_uppercase()
    }

    /// A new random number; uniqueness is the store's unique index, with a retry on collision.
    pub fn generate() -> Self {
        let n: u32 = rand::rng().random_range(0..1_000_000_000);
        Self(format!("{}{n:09}", Self::PREFIX))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for TrackingNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InTransit,
    Delivered,
    Delayed,
    OnHold,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Pending,
        Status::InTransit,
        Status::Delivered,
        Status::Delayed,
        Status::OnHold,
    ];

    /// The status stored as `text`.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// The stored value, as the spec names it (`in_transit`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::InTransit => "in_transit",
            Self::Delivered => "delivered",
            Self::Delayed => "delayed",
            Self::OnHold => "on_hold",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    #[serde(with = "utc_micros")]
    pub timestamp: DateTime<Utc>,
    /// YYYY-MM-DD in the company's time zone.
    pub date: String,
    /// HH:MM:SS in the company's time zone.
    pub time: String,
    pub location: String,
    pub status: Status,
    pub updated_by: String,
    pub remarks: String,
    /// Staff marked the remarks public: the limited view shows them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remarks_public: bool,
    /// The entry records a delivery attempt that failed, for this reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_attempt: Option<AttemptFailure>,
    /// The id the caller made for the event (a courier's queued scan): it is applied once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
}

/// An id a caller made for one event, so that sending the event again changes nothing: 8 to 64
/// ASCII letters, digits, '-' or '_' (a UUID fits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestId(String);

impl RequestId {
    /// None for an empty value; an error names what an id looks like.
    pub fn parse(value: &str) -> Result<Option<Self>, &'static str> {
        if value.is_empty() {
            return Ok(None);
        }
        let fits = (8..=64).contains(&value.len())
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if fits {
            Ok(Some(Self(value.to_owned())))
        } else {
            Err("must be 8 to 64 letters, digits, '-' or '_'")
        }
    }
}

/// Why a delivery attempt failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptFailure {
    NobodyHome,
    Refused,
    AddressProblem,
}

impl AttemptFailure {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NobodyHome => "nobody_home",
            Self::Refused => "refused",
            Self::AddressProblem => "address_problem",
        }
    }
}

impl HistoryEntry {
    pub fn new(
        at: DateTime<Utc>,
        location: &str,
        status: Status,
        updated_by: &str,
        remarks: &str,
    ) -> Self {
        let local = at.with_timezone(&Local);
        Self {
            timestamp: at,
            date: local.format("%Y-%m-%d").to_string(),
            time: local.format("%H:%M:%S").to_string(),
            location: location.to_owned(),
            status,
            updated_by: updated_by.to_owned(),
            remarks: remarks.to_owned(),
            remarks_public: false,
            failed_attempt: None,
            request_id: None,
        }
    }
}

/// Totals computed from the packages: volumetric weight = L×W×H (cm) × quantity / 5000,
/// volume = the same product / 1,000,000 (m³), actual weight = weight × quantity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub total_volumetric_weight: f64,
    pub total_volume: f64,
    pub total_actual_weight: f64,
}

impl Totals {
    pub fn of(packages: &[Package]) -> Self {
        let mut cubic_cm = 0.0;
        let mut actual = 0.0;
        for p in packages {
            let quantity = f64::from(p.quantity);
            cubic_cm += p.length * p.width * p.height * quantity;
            actual += p.weight * quantity;
        }
        Self {
            total_volumetric_weight: round3(cubic_cm / 5000.0),
            total_volume: round6(cubic_cm / 1_000_000.0),
            total_actual_weight: round3(actual),
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The stored document: field names are the spec's (`trackingNumber`, `shipmentHistory`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shipment {
    pub id: String,
    pub tracking_number: TrackingNumber,
    pub status: Status,
    #[serde(flatten)]
    pub details: ShipmentDetails,
    pub current_location: String,
    pub shipment_history: Vec<HistoryEntry>,
    #[serde(flatten)]
    pub totals: Totals,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
    /// Visitors who confirmed they follow this shipment's updates; never shown to anyone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subscribers: Vec<Subscriber>,
    /// Confirmation links already opened, kept until they would have expired anyway, so
    /// none subscribes twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used_confirmations: Vec<UsedConfirmation>,
    /// When it was delivered (the delivered history entry's time), for the dashboard's
    /// daily counts; none while not delivered.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "service_common::optional_utc_micros"
    )]
    pub delivered_at: Option<DateTime<Utc>>,
    /// Another system's reference (an order number), set at creation; unique when not empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub external_reference: String,
    /// Who received it, once recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_of_delivery: Option<ProofOfDelivery>,
    /// The courier whose round of one day it is on; staff only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub courier_assignment: Option<CourierAssignment>,
}

/// A shipment given to a courier for one day's round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CourierAssignment {
    pub courier_id: String,
    pub courier_email: String,
    /// The round's day, `YYYY-MM-DD` as stored, so the stores can index it.
    pub date: NaiveDate,
    pub assigned_by: String,
    #[serde(with = "utc_micros")]
    pub assigned_at: DateTime<Utc>,
}

/// Who received a delivered shipment; the images live in the blob store under these names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProofOfDelivery {
    pub recipient_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<StoredImage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<StoredImage>,
    #[serde(with = "utc_micros")]
    pub recorded_at: DateTime<Utc>,
    pub recorded_by: String,
}

/// An image in the blob store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredImage {
    pub blob: String,
    pub content_type: String,
}

/// A confirmed follower of one shipment's status changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscriber {
    /// Lower case, as confirmed.
    pub email: String,
    /// The language of the page they subscribed from: their updates are written in it.
    #[serde(default, skip_serializing_if = "Language::is_english")]
    pub language: Language,
    #[serde(with = "utc_micros")]
    pub since: DateTime<Utc>,
}

/// A confirmation link that has been used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsedConfirmation {
    pub nonce: String,
    /// When the link expires in any case; the marker can go then.
    #[serde(with = "utc_micros")]
    pub until: DateTime<Utc>,
}

pub use service_common::{now, utc_micros};

impl Shipment {
    /// A new shipment: pending, at its origin, with its totals and the first history entry.
    /// `created_by` is the e-mail of the user who booked it, as its history entries name them.
    pub fn create(
        details: ShipmentDetails,
        tracking_number: TrackingNumber,
        now: DateTime<Utc>,
        created_by: &str,
    ) -> Self {
        let current_location = details.origin.clone();
        let status = Status::Pending;
        let first = HistoryEntry {
            // The service's own words, fit for anyone.
            remarks_public: true,
            ..HistoryEntry::new(
                now,
                &current_location,
                status,
                created_by,
                "Shipment created",
            )
        };
        Self {
            id: new_id(),
            tracking_number,
            status,
            totals: Totals::of(&details.packages),
            details,
            current_location,
            shipment_history: vec![first],
            created_at: now,
            updated_at: now,
            subscribers: Vec::new(),
            used_confirmations: Vec::new(),
            delivered_at: None,
            external_reference: String::new(),
            proof_of_delivery: None,
            courier_assignment: None,
        }
    }

    /// Whether the history already holds the event with this id.
    pub fn has_applied(&self, request_id: &RequestId) -> bool {
        self.shipment_history
            .iter()
            .any(|entry| entry.request_id.as_ref() == Some(request_id))
    }

    /// Applies one save: the patched details (totals follow the packages), and a new status
    /// or location which, when either changed, appends exactly one history entry.
    pub fn apply(&mut self, patch: &ShipmentPatch, updated_by: &str, now: DateTime<Utc>) {
        patch.details.apply_to(&mut self.details);
        self.details.follow_packages();
        if patch.details.packages.is_some() {
            self.totals = Totals::of(&self.details.packages);
        }
        let status = patch.status.unwrap_or(self.status);
        let location = patch
            .current_location
            .clone()
            .unwrap_or_else(|| self.current_location.clone());
        let moved = status != self.status || location != self.current_location;
        if moved || patch.history == HistoryRule::AlwaysRecord {
            self.shipment_history.push(HistoryEntry {
                remarks_public: patch.remarks_public,
                // A delivered shipment records no failed attempt.
                failed_attempt: patch.failed_attempt.filter(|_| status != Status::Delivered),
                request_id: patch.request_id.clone(),
                ..HistoryEntry::new(
                    patch.event_time.unwrap_or(now),
                    &location,
                    status,
                    updated_by,
                    &patch.remarks,
                )
            });
            if status != self.status {
                self.delivered_at =
                    (status == Status::Delivered).then(|| patch.event_time.unwrap_or(now));
            }
            self.status = status;
            self.current_location = location;
        }
        self.updated_at = now;
    }

    /// Folded text (`search::fold`) the admin search matches against: tracking number,
    /// shipper, receiver, origin, destination and status.
    pub fn search_text(&self) -> String {
        crate::search::fold(
            &[
                self.tracking_number.as_str(),
                &self.details.shipper_name,
                &self.details.receiver_name,
                &self.details.origin,
                &self.details.destination,
                self.status.as_str(),
            ]
            .join("\n"),
        )
    }
}

/// When a save appends a history entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HistoryRule {
    /// Only when the status or the location changed (an edit of the shipment).
    #[default]
    WhenMoved,
    /// Always: a tracking update records the admin's remark even when nothing moved.
    AlwaysRecord,
}

/// One save of a shipment, parsed and validated at the edge: each field is either left
/// alone (None) or set to a valid value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShipmentPatch {
    pub status: Option<Status>,
    pub current_location: Option<String>,
    pub details: DetailsPatch,
    /// The history entry's remarks, when the save appends one.
    pub remarks: String,
    /// Whether those remarks are public status text (else parties and staff only).
    pub remarks_public: bool,
    pub history: HistoryRule,
    /// When the recorded event happened, if before the save (a scan uploaded later); the
    /// history entry's time. The caller checks it is not before the last entry.
    pub event_time: Option<DateTime<Utc>>,
    /// The entry records a failed delivery attempt (never with the status delivered).
    pub failed_attempt: Option<AttemptFailure>,
    /// The caller's id for the event: a save whose id the history already holds changes nothing.
    pub request_id: Option<RequestId>,
}

pub use service_common::new_id;

#[cfg(test)]
mod tests {
    use super::TrackingNumber;

    #[test]
    fn a_pasted_tracking_number_is_forgiven_its_spaces_case_and_punctuation() {
        for pasted in [
            "pse 3136 81562.",
            " PSE-313-681-562 ",
            "\"PSE313681562\",",
            "Pse\u{a0}313681562!",
        ] {
            let parsed = TrackingNumber::parse(pasted).expect(pasted);
            assert_eq!(parsed.as_str(), "PSE313681562", "{pasted:?}");
        }
    }

    #[test]
    fn a_malformed_tracking_number_says_what_a_number_looks_like() {
        for bad in [
            "PSE12345678",
            "PSE1234567890",
            "PSX313681562",
            "PSE3136.81562",
        ] {
            let refused = TrackingNumber::parse(bad).expect_err(bad);
            assert_eq!(
                refused.description, "must be PSE followed by 9 digits",
                "{bad:?}"
            );
        }
        let empty = TrackingNumber::parse(" . ").expect_err("empty");
        assert_eq!(empty.description, "Please enter a tracking number.");
    }
}
