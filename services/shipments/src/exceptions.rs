//! The queue of shipments that need attention. Each exception is one condition of one
//! shipment: it opens by itself when the condition holds, closes when the condition goes, and
//! opens again when it returns (a new hold, a new failed attempt, a new stall).

use chrono::{DateTime, NaiveTime, TimeDelta, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::{paging, timestamp};

use crate::convert::{TimeChecks, attempt_failure_to_proto, status_to_proto};
use crate::details::{ShipmentMode, date};
use crate::domain::{AttemptFailure, Shipment, Status};
use crate::error::{FieldViolation, ShipmentError, Violations};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Late,
    Stalled,
    OnHold,
    FailedAttempt,
    MissingProof,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Late,
        Kind::Stalled,
        Kind::OnHold,
        Kind::FailedAttempt,
        Kind::MissingProof,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Late => "late",
            Self::Stalled => "stalled",
            Self::OnHold => "on_hold",
            Self::FailedAttempt => "failed_attempt",
            Self::MissingProof => "missing_proof",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// How the digest and the audit log name it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Late => "Late",
            Self::Stalled => "Stalled",
            Self::OnHold => "On hold",
            Self::FailedAttempt => "Failed delivery attempt",
            Self::MissingProof => "Missing proof of delivery",
        }
    }

    pub fn to_proto(self) -> pb::ShipmentExceptionKind {
        match self {
            Self::Late => pb::ShipmentExceptionKind::Late,
            Self::Stalled => pb::ShipmentExceptionKind::Stalled,
            Self::OnHold => pb::ShipmentExceptionKind::OnHold,
            Self::FailedAttempt => pb::ShipmentExceptionKind::FailedDeliveryAttempt,
            Self::MissingProof => pb::ShipmentExceptionKind::MissingProofOfDelivery,
        }
    }

    fn from_proto(field: &str, value: i32, v: &mut Violations) -> Option<Self> {
        match pb::ShipmentExceptionKind::try_from(value) {
            Ok(pb::ShipmentExceptionKind::Unspecified) => None,
            Ok(pb::ShipmentExceptionKind::Late) => Some(Self::Late),
            Ok(pb::ShipmentExceptionKind::Stalled) => Some(Self::Stalled),
            Ok(pb::ShipmentExceptionKind::OnHold) => Some(Self::OnHold),
            Ok(pb::ShipmentExceptionKind::FailedDeliveryAttempt) => Some(Self::FailedAttempt),
            Ok(pb::ShipmentExceptionKind::MissingProofOfDelivery) => Some(Self::MissingProof),
            Err(_) => {
                v.add(
                    field,
                    "must be LATE, STALLED, ON_HOLD, FAILED_DELIVERY_ATTEMPT or MISSING_PROOF_OF_DELIVERY",
                );
                None
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Open,
    Resolved,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Resolved => "resolved",
        }
    }
}

/// One exception: which occurrence of its condition it is, and what staff did about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShipmentException {
    pub shipment_id: String,
    pub kind: Kind,
    /// Names this occurrence of the condition (the hold's start, the attempt's time, the
    /// expected date): a different one is the condition returning.
    pub occurrence: String,
    /// When the condition began (a late shipment's: the end of its expected delivery date).
    #[serde(with = "service_common::utc_micros")]
    pub since: DateTime<Utc>,
    /// Its shipment's mode, which sets when a shipment is stalled.
    pub mode: ShipmentMode,
    pub state: State,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_attempt: Option<AttemptFailure>,
    #[serde(default)]
    pub assignee_id: String,
    #[serde(default)]
    pub assignee_email: String,
    #[serde(default)]
    pub resolution: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "service_common::optional_utc_micros"
    )]
    pub resolved_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub resolved_by: String,
}

impl ShipmentException {
    /// "<shipment id>.<kind>": one per shipment and kind.
    pub fn id(&self) -> String {
        exception_id(&self.shipment_id, self.kind)
    }

    /// As the queue shows it, beside its shipment.
    pub fn to_proto(&self, shipment: Option<&Shipment>) -> pb::ShipmentException {
        let mut answer = pb::ShipmentException {
            id: self.id(),
            shipment_id: self.shipment_id.clone(),
            kind: self.kind.to_proto().into(),
            state: match self.state {
                State::Open => pb::ShipmentExceptionState::Open,
                State::Resolved => pb::ShipmentExceptionState::Resolved,
            }
            .into(),
            since_time: Some(timestamp::to_proto(self.since)),
            failed_attempt: attempt_failure_to_proto(self.failed_attempt).into(),
            assignee_id: self.assignee_id.clone(),
            assignee_email: self.assignee_email.clone(),
            resolution: self.resolution.clone(),
            resolve_time: self.resolved_at.map(timestamp::to_proto),
            resolved_by: self.resolved_by.clone(),
            ..pb::ShipmentException::default()
        };
        if let Some(s) = shipment {
            answer.tracking_number = s.tracking_number.to_string();
            answer.status = status_to_proto(s.status).into();
            answer.current_location = s.current_location.clone();
            answer.expected_delivery_date = Some(date(s.details.expected_delivery_date));
            answer.receiver_name = s.details.receiver_name.clone();
            answer.shipper_name = s.details.shipper_name.clone();
        }
        answer
    }
}

pub fn exception_id(shipment_id: &str, kind: Kind) -> String {
    format!("{shipment_id}.{}", kind.as_str())
}

/// The shipment id and kind of an exception id; None for anything else.
pub fn parse_id(id: &str) -> Option<(String, Kind)> {
    let (shipment_id, kind) = id.rsplit_once('.')?;
    let shipment_id = crate::service::id("id", shipment_id).ok()?;
    Some((shipment_id, Kind::parse(kind)?))
}

/// The mode's stored name (`air_shipping`), as the stores keep it beside an exception.
pub fn mode_name(mode: ShipmentMode) -> &'static str {
    match mode {
        ShipmentMode::LandShipping => "land_shipping",
        ShipmentMode::AirShipping => "air_shipping",
        ShipmentMode::SeaShipping => "sea_shipping",
    }
}

/// The conditions a shipment is in, whatever the time: each one's kind, occurrence, start
/// and failed attempt. Late and stalled are listed before they are due; the queue shows
/// them from their start (stalled: from its start plus the mode's hours).
pub fn conditions(s: &Shipment) -> Vec<(Kind, String, DateTime<Utc>, Option<AttemptFailure>)> {
    let mut found = Vec::new();
    if s.status == Status::Delivered {
        if s.proof_of_delivery.is_none() {
            let at = s.delivered_at.unwrap_or(s.updated_at);
            found.push((Kind::MissingProof, micros(at), at, None));
        }
        return found;
    }
    let last = s.shipment_history.last();
    let last_at = last.map_or(s.created_at, |h| h.timestamp);
    let end_of_expected = s
        .details
        .expected_delivery_date
        .succ_opt()
        .unwrap_or(s.details.expected_delivery_date)
        .and_time(NaiveTime::MIN)
        .and_utc();
    found.push((
        Kind::Late,
        s.details.expected_delivery_date.to_string(),
        end_of_expected,
        None,
    ));
    if s.status == Status::OnHold {
        // The hold began at the first entry of the last run of on-hold entries.
        let held_at = s
            .shipment_history
            .iter()
            .rev()
            .take_while(|h| h.status == Status::OnHold)
            .last()
            .map_or(last_at, |h| h.timestamp);
        found.push((Kind::OnHold, micros(held_at), held_at, None));
    } else {
        found.push((Kind::Stalled, micros(last_at), last_at, None));
    }
    if let Some(failure) = last.and_then(|h| h.failed_attempt) {
        found.push((Kind::FailedAttempt, micros(last_at), last_at, Some(failure)));
    }
    found
}

fn micros(at: DateTime<Utc>) -> String {
    at.timestamp_micros().to_string()
}

/// What a change of a shipment writes beside it: the exceptions that are new or changed, and
/// the kinds whose condition went.
#[derive(Debug, Default, PartialEq)]
pub struct Reconciled {
    pub save: Vec<ShipmentException>,
    pub drop: Vec<Kind>,
}

/// Brings a shipment's stored exceptions in line with its conditions: the same occurrence
/// keeps its state and assignee; another one opens again (still assigned). A condition gone
/// drops an open exception, but a resolved one stays, to open again if the condition returns.
pub fn reconcile(stored: &[ShipmentException], s: &Shipment) -> Reconciled {
    let mut out = Reconciled::default();
    let now = conditions(s);
    for (kind, occurrence, since, failed_attempt) in &now {
        let mode = s.details.shipment_mode;
        match stored.iter().find(|e| e.kind == *kind) {
            Some(e) if e.occurrence == *occurrence => {
                if e.since != *since || e.mode != mode || e.failed_attempt != *failed_attempt {
                    out.save.push(ShipmentException {
                        since: *since,
                        mode,
                        failed_attempt: *failed_attempt,
                        ..e.clone()
                    });
                }
            }
            other => out.save.push(ShipmentException {
                shipment_id: s.id.clone(),
                kind: *kind,
                occurrence: occurrence.clone(),
                since: *since,
                mode,
                state: State::Open,
                failed_attempt: *failed_attempt,
                assignee_id: other.map(|e| e.assignee_id.clone()).unwrap_or_default(),
                assignee_email: other.map(|e| e.assignee_email.clone()).unwrap_or_default(),
                resolution: String::new(),
                resolved_at: None,
                resolved_by: String::new(),
            }),
        }
    }
    out.drop = stored
        .iter()
        .filter(|e| e.state == State::Open)
        .map(|e| e.kind)
        .filter(|kind| !now.iter().any(|(k, ..)| k == kind))
        .collect();
    out
}

/// When shipments count as stalled, and where the daily digest goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionSettings {
    pub land_stalled_hours: u32,
    pub air_stalled_hours: u32,
    pub sea_stalled_hours: u32,
    #[serde(default)]
    pub operations_email: String,
    #[serde(default)]
    pub digest_language: outbox::language::Language,
    pub digest_hour: u32,
}

impl Default for ExceptionSettings {
    fn default() -> Self {
        Self {
            land_stalled_hours: 48,
            air_stalled_hours: 24,
            sea_stalled_hours: 168,
            operations_email: String::new(),
            digest_language: outbox::language::Language::default(),
            digest_hour: 7,
        }
    }
}

pub const MAX_STALLED_HOURS: u32 = 720;

impl ExceptionSettings {
    /// How long a shipment of `mode` may go without a history entry.
    pub fn stalled_after(&self, mode: ShipmentMode) -> TimeDelta {
        let hours = match mode {
            ShipmentMode::LandShipping => self.land_stalled_hours,
            ShipmentMode::AirShipping => self.air_stalled_hours,
            ShipmentMode::SeaShipping => self.sea_stalled_hours,
        };
        TimeDelta::hours(i64::from(hours))
    }

    /// Each mode with the latest start of a stall that is due at `now`.
    pub fn stalled_since(&self, now: DateTime<Utc>) -> Vec<(&'static str, DateTime<Utc>)> {
        [
            ShipmentMode::LandShipping,
            ShipmentMode::AirShipping,
            ShipmentMode::SeaShipping,
        ]
        .into_iter()
        .map(|mode| (mode_name(mode), now - self.stalled_after(mode)))
        .collect()
    }

    pub fn to_proto(&self) -> pb::ExceptionSettings {
        pb::ExceptionSettings {
            land_stalled_hours: self.land_stalled_hours as i32,
            air_stalled_hours: self.air_stalled_hours as i32,
            sea_stalled_hours: self.sea_stalled_hours as i32,
            operations_email: self.operations_email.clone(),
            digest_language_code: self.digest_language.code().to_owned(),
            digest_hour: self.digest_hour as i32,
        }
    }

    pub fn from_proto(input: &pb::ExceptionSettings) -> Result<Self, ShipmentError> {
        let mut v = Violations::default();
        let mut hours = |field: &str, value: i32| match u32::try_from(value) {
            Ok(h) if (1..=MAX_STALLED_HOURS).contains(&h) => h,
            _ => {
                v.add(
                    field,
                    format!("must be from 1 to {MAX_STALLED_HOURS} hours"),
                );
                1
            }
        };
        let land = hours("land_stalled_hours", input.land_stalled_hours);
        let air = hours("air_stalled_hours", input.air_stalled_hours);
        let sea = hours("sea_stalled_hours", input.sea_stalled_hours);
        let email = input.operations_email.trim().to_lowercase();
        if !email.is_empty() && (email.len() > 254 || !service_common::is_email(&email)) {
            v.add("operations_email", "Invalid email address format");
        }
        let language = outbox::language::Language::parse(&input.digest_language_code)
            .unwrap_or_else(|problem| {
                v.add("digest_language_code", problem);
                Default::default()
            });
        let hour = match u32::try_from(input.digest_hour) {
            Ok(h) if h < 24 => h,
            _ => {
                v.add("digest_hour", "must be from 0 to 23");
                0
            }
        };
        v.into_result(Self {
            land_stalled_hours: land,
            air_stalled_hours: air,
            sea_stalled_hours: sea,
            operations_email: email,
            digest_language: language,
            digest_hour: hour,
        })
        .map_err(ShipmentError::Invalid)
    }
}

/// Whose exceptions a list shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assignee {
    Anyone,
    Nobody,
    User(String),
}

/// A page of the queue: open ones due at `now` (or resolved ones), the longest-standing first.
#[derive(Clone, Debug)]
pub struct ExceptionQuery {
    pub kind: Option<Kind>,
    pub state: State,
    pub assignee: Assignee,
    pub now: DateTime<Utc>,
    /// Each mode with the latest start of a due stall.
    pub stalled_since: Vec<(&'static str, DateTime<Utc>)>,
    pub page_size: usize,
    /// The last row's start (micros) and id.
    pub after: Option<(i64, String)>,
}

impl ExceptionQuery {
    pub fn of(
        request: &pb::ListShipmentExceptionsRequest,
        caller_id: &str,
        settings: &ExceptionSettings,
        now: DateTime<Utc>,
    ) -> Result<Self, ShipmentError> {
        let mut v = Violations::default();
        let page_size = v.page_size(request.page_size);
        let kind = Kind::from_proto("kind", request.kind, &mut v);
        let state = match pb::ShipmentExceptionState::try_from(request.state) {
            Ok(pb::ShipmentExceptionState::Unspecified | pb::ShipmentExceptionState::Open) => {
                State::Open
            }
            Ok(pb::ShipmentExceptionState::Resolved) => State::Resolved,
            Err(_) => {
                v.add("state", "must be OPEN or RESOLVED");
                State::Open
            }
        };
        let assignee = match request.assignee_id.as_str() {
            "" => Assignee::Anyone,
            "none" => Assignee::Nobody,
            "me" => Assignee::User(caller_id.to_owned()),
            other => match crate::service::id("assignee_id", other) {
                Ok(id) => Assignee::User(id),
                Err(_) => {
                    v.add("assignee_id", "must be me, none or a user id");
                    Assignee::Anyone
                }
            },
        };
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let after = match paging::decode(&request.page_token)? {
            None => None,
            Some(cursor) => {
                let (since, id) = paging::split(&cursor)?;
                Some((
                    since.parse().map_err(|_| paging::BadPageToken)?,
                    id.to_owned(),
                ))
            }
        };
        Ok(Self {
            kind,
            state,
            assignee,
            now,
            stalled_since: settings.stalled_since(now),
            page_size,
            after,
        })
    }
}

/// The cursor after `e` in the queue's order.
pub fn cursor_of(e: &ShipmentException) -> String {
    paging::cursor(e.since.timestamp_micros(), e.id())
}

/// Whether `e` is in the queue at `now`: open ones once due; resolved ones always.
pub fn due(e: &ShipmentException, settings: &ExceptionSettings, now: DateTime<Utc>) -> bool {
    match e.kind {
        Kind::Stalled => e.since + settings.stalled_after(e.mode) <= now,
        _ => e.since <= now,
    }
}

/// A resolution's reason, checked.
pub fn reason(text: &str) -> Result<String, FieldViolation> {
    service_common::text::TextRule::paragraph(500)
        .check(text)
        .map_err(|description| FieldViolation::new("reason", description))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{HistoryEntry, ShipmentPatch};

    fn shipment(at: DateTime<Utc>) -> Shipment {
        let mut details = crate::details::ShipmentDetails::blank();
        details.expected_delivery_date = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
        Shipment::create(
            details,
            crate::domain::TrackingNumber::parse("PSE313681562").unwrap(),
            at,
            "admin",
        )
    }

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    fn kinds(r: &Reconciled) -> Vec<Kind> {
        r.save.iter().map(|e| e.kind).collect()
    }

    #[test]
    fn a_new_shipment_is_watched_for_lateness_and_stalling_only() {
        let s = shipment(at("2026-11-27T10:00:00Z"));
        let r = reconcile(&[], &s);
        assert_eq!(kinds(&r), [Kind::Late, Kind::Stalled]);
        assert_eq!(r.save[0].since, at("2026-12-01T00:00:00Z"));
        assert_eq!(r.save[1].since, at("2026-11-27T10:00:00Z"));
    }

    #[test]
    fn a_resolved_hold_stays_resolved_until_a_new_hold_begins() {
        let mut s = shipment(at("2026-11-27T10:00:00Z"));
        let hold = |s: &mut Shipment, status: Status, when: &str| {
            let patch = ShipmentPatch {
                status: Some(status),
                current_location: Some("Hub".into()),
                history: crate::domain::HistoryRule::AlwaysRecord,
                ..ShipmentPatch::default()
            };
            s.apply(&patch, "admin", at(when));
        };
        hold(&mut s, Status::OnHold, "2026-11-27T11:00:00Z");
        let first = reconcile(&[], &s);
        let mut stored = first.save.clone();
        let held = stored.iter_mut().find(|e| e.kind == Kind::OnHold).unwrap();
        assert_eq!(held.since, at("2026-11-27T11:00:00Z"));
        held.state = State::Resolved;
        held.assignee_id = "u1".into();
        // Another on-hold entry: the same hold, still resolved.
        hold(&mut s, Status::OnHold, "2026-11-27T12:00:00Z");
        let r = reconcile(&stored, &s);
        assert!(r.save.iter().all(|e| e.kind != Kind::OnHold), "{r:?}");
        // Released, it stays resolved; held again, it opens again, still assigned.
        hold(&mut s, Status::InTransit, "2026-11-27T13:00:00Z");
        let released = reconcile(&stored, &s);
        assert!(released.drop.is_empty(), "{released:?}");
        hold(&mut s, Status::OnHold, "2026-11-27T14:00:00Z");
        let again = reconcile(&stored, &s);
        let reopened = again.save.iter().find(|e| e.kind == Kind::OnHold).unwrap();
        assert_eq!(reopened.state, State::Open);
        assert_eq!(reopened.assignee_id, "u1");
        assert_eq!(reopened.since, at("2026-11-27T14:00:00Z"));
        // An open exception whose condition goes is dropped.
        let open: Vec<_> = again.save.clone();
        hold(&mut s, Status::InTransit, "2026-11-27T15:00:00Z");
        assert_eq!(reconcile(&open, &s).drop, [Kind::OnHold]);
    }

    #[test]
    fn a_failed_attempt_is_an_exception_until_the_next_entry() {
        let mut s = shipment(at("2026-11-27T10:00:00Z"));
        s.shipment_history.push(HistoryEntry {
            failed_attempt: Some(AttemptFailure::NobodyHome),
            ..HistoryEntry::new(
                at("2026-11-27T15:00:00Z"),
                "Rotterdam",
                Status::InTransit,
                "c",
                "",
            )
        });
        let r = reconcile(&[], &s);
        let failed = r
            .save
            .iter()
            .find(|e| e.kind == Kind::FailedAttempt)
            .unwrap();
        assert_eq!(failed.failed_attempt, Some(AttemptFailure::NobodyHome));
        let mut stored = r.save.clone();
        stored.iter_mut().for_each(|e| e.state = State::Resolved);
        s.shipment_history.push(HistoryEntry::new(
            at("2026-11-28T09:00:00Z"),
            "Rotterdam",
            Status::InTransit,
            "c",
            "",
        ));
        let next = reconcile(&stored, &s);
        // Resolved, it stays so (for a next failed attempt to open again).
        assert!(next.drop.is_empty());
        assert!(next.save.iter().all(|e| e.kind != Kind::FailedAttempt));
        // The stall's occurrence moved on: it is open again.
        let stall = next.save.iter().find(|e| e.kind == Kind::Stalled).unwrap();
        assert_eq!(stall.state, State::Open);
    }

    #[test]
    fn delivered_without_proof_is_the_only_exception_of_a_delivered_shipment() {
        let mut s = shipment(at("2026-11-27T10:00:00Z"));
        let patch = ShipmentPatch {
            status: Some(Status::Delivered),
            ..ShipmentPatch::default()
        };
        s.apply(&patch, "admin", at("2026-11-28T10:00:00Z"));
        let stored = reconcile(&[], &shipment(at("2026-11-27T10:00:00Z"))).save;
        let r = reconcile(&stored, &s);
        assert_eq!(kinds(&r), [Kind::MissingProof]);
        assert_eq!(r.drop, [Kind::Late, Kind::Stalled]);
    }

    #[test]
    fn stalls_are_due_after_their_modes_hours() {
        let settings = ExceptionSettings::default();
        let s = shipment(at("2026-11-27T10:00:00Z"));
        let stall = reconcile(&[], &s)
            .save
            .into_iter()
            .find(|e| e.kind == Kind::Stalled)
            .unwrap();
        assert_eq!(s.details.shipment_mode, ShipmentMode::AirShipping);
        assert!(!due(&stall, &settings, at("2026-11-28T09:59:59Z")));
        assert!(due(&stall, &settings, at("2026-11-28T10:00:00Z")));
    }

    #[test]
    fn ids_round_trip_and_refuse_anything_else() {
        assert_eq!(
            parse_id("abc123.on_hold"),
            Some(("abc123".into(), Kind::OnHold))
        );
        assert_eq!(parse_id("abc123.nothing"), None);
        assert_eq!(parse_id("on_hold"), None);
    }
}
