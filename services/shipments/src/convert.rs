//! The edge between the wire and the domain: proto messages are validated into domain
//! values here, so handlers only ever see valid ones.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use logistics_proto::v1 as pb;
use prost_types::FieldMask;
use service_common::mask::Mask;
use service_common::timestamp::{self, to_proto};

use crate::details::{Date, DetailsPatch, Kind, PATHS};
use crate::domain::{
    AttemptFailure, HistoryEntry, Shipment, ShipmentDetails, ShipmentPatch, Status,
};
use crate::error::Violations;
use crate::updates::{EmailRule, EmailRules, Event};
use service_common::text::TextRule;

/// The shipment checks of a request's times and page size, beside the shared text rule.
pub trait TimeChecks {
    /// A list request's `page_size`: 1..100, 0 meaning 50 (50 after a violation).
    fn page_size(&mut self, value: i32) -> usize;
    fn optional_date(&mut self, field: &str, value: Option<&pb::Date>) -> Option<NaiveDate>;
    fn optional_time(
        &mut self,
        field: &str,
        value: Option<&pb::TimeOfDay>,
    ) -> Option<chrono::NaiveTime>;
    fn past_time(
        &mut self,
        field: &str,
        value: Option<&prost_types::Timestamp>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>>;
}

impl TimeChecks for Violations {
    /// An optional date: None when unset.
    fn optional_date(&mut self, field: &str, value: Option<&pb::Date>) -> Option<NaiveDate> {
        value.map(|d| Date.check(field, &Some(*d), self))
    }

    fn page_size(&mut self, value: i32) -> usize {
        service_common::paging::page_size_of("page_size", value, 50, 100).unwrap_or_else(|bad| {
            self.add(bad.field, bad.description);
            50
        })
    }

    /// An optional time of day: None when unset.
    fn optional_time(
        &mut self,
        field: &str,
        value: Option<&pb::TimeOfDay>,
    ) -> Option<chrono::NaiveTime> {
        value.map(|t| crate::details::Time.check(field, &Some(*t), self))
    }

    /// An optional instant in the past (2000 to `now`), for events recorded after the fact; a
    /// phone's clock may run up to five minutes fast, and such a time is taken as now.
    fn past_time(
        &mut self,
        field: &str,
        value: Option<&prost_types::Timestamp>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let value = value?;
        let parsed = (value.nanos >= 0)
            .then(|| timestamp::from_proto(value))
            .flatten()
            .filter(|t| t.year() >= 2000 && *t <= now + chrono::Duration::minutes(5))
            .map(|t| t.min(now));
        if parsed.is_none() {
            self.add(field, "must be a time between 2000 and now");
        }
        parsed
    }
}

pub fn status_from_proto(field: &str, value: i32, violations: &mut Violations) -> Status {
    match pb::ShipmentStatus::try_from(value) {
        Ok(pb::ShipmentStatus::Pending) => Status::Pending,
        Ok(pb::ShipmentStatus::InTransit) => Status::InTransit,
        Ok(pb::ShipmentStatus::Delivered) => Status::Delivered,
        Ok(pb::ShipmentStatus::Delayed) => Status::Delayed,
        Ok(pb::ShipmentStatus::OnHold) => Status::OnHold,
        _ => {
            violations.add(
                field,
                "must be one of pending, in_transit, delivered, delayed, on_hold",
            );
            Status::Pending
        }
    }
}

pub fn status_to_proto(status: Status) -> pb::ShipmentStatus {
    match status {
        Status::Pending => pb::ShipmentStatus::Pending,
        Status::InTransit => pb::ShipmentStatus::InTransit,
        Status::Delivered => pb::ShipmentStatus::Delivered,
        Status::Delayed => pb::ShipmentStatus::Delayed,
        Status::OnHold => pb::ShipmentStatus::OnHold,
    }
}

/// Validates everything an admin types about a new shipment.
pub fn details_from_proto(s: &pb::Shipment) -> Result<ShipmentDetails, Violations> {
    let mut v = Violations::default();
    let mut patch = DetailsPatch::default();
    for path in PATHS {
        patch.parse(path, s, &mut v);
    }
    v.into_result(())?;
    let mut details = patch.complete().expect("every detail path was parsed");
    details.follow_packages();
    Ok(details)
}

/// An UpdateShipment request parsed at the edge: the fields its mask names, each validated as
/// on create; unknown and output-only paths are refused.
pub fn patch_from_proto(
    mask: Option<&FieldMask>,
    s: &pb::Shipment,
    remarks: &str,
) -> Result<ShipmentPatch, Violations> {
    let mut v = Violations::default();
    let mut patch = ShipmentPatch {
        remarks: v.text("remarks", remarks, TextRule::line(500).optional()),
        ..ShipmentPatch::default()
    };
    for path in Mask::read(mask, &UPDATABLE, &mut v).paths() {
        parse_field(path, s, &mut v, &mut patch);
    }
    v.into_result(patch)
}

/// The update-mask paths of a shipment: its moving fields, each detail, and each party (which
/// names each of its fields).
static UPDATABLE: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut paths = vec!["status", "current_location"];
    paths.extend(PATHS);
    for path in PATHS {
        if let Some((party, _)) = path.split_once('.')
            && !paths.contains(&party)
        {
            paths.push(party);
        }
    }
    paths
});

/// Parses the field at `path`, one of `UPDATABLE`, of `s` into `patch`.
fn parse_field(path: &str, s: &pb::Shipment, v: &mut Violations, patch: &mut ShipmentPatch) {
    match path {
        "status" => patch.status = Some(status_from_proto("status", s.status, v)),
        "current_location" => {
            patch.current_location =
                Some(v.text("current_location", &s.current_location, TextRule::line(200)))
        }
        _ if patch.details.parse(path, s, v) => {}
        party => {
            for field in PATHS.iter().filter(|p| {
                p.strip_prefix(party)
                    .is_some_and(|rest| rest.starts_with('.'))
            }) {
                patch.details.parse(field, s, v);
            }
        }
    }
}

fn history_to_proto(h: &HistoryEntry) -> pb::HistoryEntry {
    pb::HistoryEntry {
        time: Some(to_proto(h.timestamp)),
        local_date: h.date.clone(),
        local_time: h.time.clone(),
        location: h.location.clone(),
        status: status_to_proto(h.status).into(),
        updated_by: h.updated_by.clone(),
        remarks: h.remarks.clone(),
        remarks_public: h.remarks_public,
        failed_attempt: attempt_failure_to_proto(h.failed_attempt).into(),
    }
}

pub fn attempt_failure_to_proto(failure: Option<AttemptFailure>) -> pb::DeliveryAttemptFailure {
    match failure {
        None => pb::DeliveryAttemptFailure::Unspecified,
        Some(AttemptFailure::NobodyHome) => pb::DeliveryAttemptFailure::NobodyHome,
        Some(AttemptFailure::Refused) => pb::DeliveryAttemptFailure::Refused,
        Some(AttemptFailure::AddressProblem) => pb::DeliveryAttemptFailure::AddressProblem,
    }
}

/// A failed attempt's reason; UNSPECIFIED is none.
pub fn attempt_failure_from_proto(
    field: &str,
    value: i32,
    violations: &mut Violations,
) -> Option<AttemptFailure> {
    match pb::DeliveryAttemptFailure::try_from(value) {
        Ok(pb::DeliveryAttemptFailure::Unspecified) => None,
        Ok(pb::DeliveryAttemptFailure::NobodyHome) => Some(AttemptFailure::NobodyHome),
        Ok(pb::DeliveryAttemptFailure::Refused) => Some(AttemptFailure::Refused),
        Ok(pb::DeliveryAttemptFailure::AddressProblem) => Some(AttemptFailure::AddressProblem),
        Err(_) => {
            violations.add(field, "must be NOBODY_HOME, REFUSED or ADDRESS_PROBLEM");
            None
        }
    }
}

pub fn shipment_to_proto(s: &Shipment) -> pb::Shipment {
    pb::Shipment {
        id: s.id.clone(),
        tracking_number: s.tracking_number.to_string(),
        status: status_to_proto(s.status).into(),
        current_location: s.current_location.clone(),
        history: s.shipment_history.iter().map(history_to_proto).collect(),
        total_volumetric_weight_kg: s.totals.total_volumetric_weight,
        total_volume_cubic_metres: s.totals.total_volume,
        total_actual_weight_kg: s.totals.total_actual_weight,
        create_time: Some(to_proto(s.created_at)),
        update_time: Some(to_proto(s.updated_at)),
        view: pb::ShipmentView::Full.into(),
        external_reference: s.external_reference.clone(),
        proof_of_delivery: s.proof_of_delivery.as_ref().map(|p| pb::ProofOfDelivery {
            recipient_name: p.recipient_name.clone(),
            has_signature: p.signature.is_some(),
            has_photo: p.photo.is_some(),
            record_time: Some(to_proto(p.recorded_at)),
            recorded_by: p.recorded_by.clone(),
        }),
        ..s.details.to_proto()
    }
}

/// A shipment as staff read it: every field, and the courier round it is on.
pub fn staff_shipment_to_proto(s: &Shipment) -> pb::Shipment {
    pb::Shipment {
        courier_assignment: s
            .courier_assignment
            .as_ref()
            .map(|a| pb::CourierAssignment {
                courier_id: a.courier_id.clone(),
                courier_email: a.courier_email.clone(),
                date: Some(crate::details::date(a.date)),
                assigned_by: a.assigned_by.clone(),
                assign_time: Some(to_proto(a.assigned_at)),
            }),
        ..shipment_to_proto(s)
    }
}

fn from_timestamp(t: Option<&prost_types::Timestamp>) -> DateTime<Utc> {
    t.and_then(timestamp::from_proto).unwrap_or_default()
}

/// Reads a whole shipment as the service returned it (for tools such as the demo loader).
pub fn shipment_from_proto(s: &pb::Shipment) -> Result<Shipment, Violations> {
    let details = details_from_proto(s)?;
    let mut v = Violations::default();
    let status = status_from_proto("status", s.status, &mut v);
    let history = s
        .history
        .iter()
        .map(|h| HistoryEntry {
            timestamp: from_timestamp(h.time.as_ref()),
            date: h.local_date.clone(),
            time: h.local_time.clone(),
            location: h.location.clone(),
            status: status_from_proto("history.status", h.status, &mut v),
            updated_by: h.updated_by.clone(),
            remarks: h.remarks.clone(),
            remarks_public: h.remarks_public,
            failed_attempt: attempt_failure_from_proto(
                "history.failed_attempt",
                h.failed_attempt,
                &mut v,
            ),
            request_id: None,
        })
        .collect();
    let tracking_number =
        crate::domain::TrackingNumber::parse(&s.tracking_number).map_err(|e| vec![e])?;
    v.into_result(Shipment {
        id: s.id.clone(),
        tracking_number,
        status,
        details,
        current_location: s.current_location.clone(),
        shipment_history: history,
        totals: crate::domain::Totals {
            total_volumetric_weight: s.total_volumetric_weight_kg,
            total_volume: s.total_volume_cubic_metres,
            total_actual_weight: s.total_actual_weight_kg,
        },
        created_at: from_timestamp(s.create_time.as_ref()),
        updated_at: from_timestamp(s.update_time.as_ref()),
        subscribers: Vec::new(),
        used_confirmations: Vec::new(),
        external_reference: s.external_reference.clone(),
        // Its images are not part of the message.
        proof_of_delivery: None,
        courier_assignment: None,
        // The last delivered entry, as `apply` would have set it.
        delivered_at: (status == Status::Delivered)
            .then(|| {
                s.history
                    .iter()
                    .rev()
                    .find(|h| h.status == pb::ShipmentStatus::Delivered as i32)
                    .map(|h| from_timestamp(h.time.as_ref()))
            })
            .flatten(),
    })
}

pub(crate) fn event_to_proto(event: Event) -> pb::TrackingEvent {
    match event {
        Event::Created => pb::TrackingEvent::Created,
        Event::InTransit => pb::TrackingEvent::InTransit,
        Event::Delayed => pb::TrackingEvent::Delayed,
        Event::OnHold => pb::TrackingEvent::OnHold,
        Event::Delivered => pb::TrackingEvent::Delivered,
    }
}

/// Every event's rule, in the order of the events.
pub fn email_rules_to_proto(rules: &EmailRules) -> pb::TrackingEmailSettings {
    pb::TrackingEmailSettings {
        rules: Event::ALL
            .iter()
            .map(|&event| {
                let rule = rules.rule(event);
                pb::TrackingEmailRule {
                    event: event_to_proto(event).into(),
                    shipper: rule.shipper,
                    receiver: rule.receiver,
                    subscribers: rule.subscribers && event != Event::Created,
                }
            })
            .collect(),
    }
}

/// Sets the rules the request names; each event at most once.
pub fn apply_email_rules(
    input: &pb::TrackingEmailSettings,
    rules: &mut EmailRules,
) -> Result<(), Violations> {
    let mut v = Violations::default();
    let mut seen = Vec::new();
    for (i, rule) in input.rules.iter().enumerate() {
        let event = Event::ALL
            .into_iter()
            .find(|&e| event_to_proto(e) as i32 == rule.event);
        let Some(event) = event else {
            v.add(
                format!("settings.rules[{i}].event"),
                "must be one of created, in_transit, delayed, on_hold, delivered",
            );
            continue;
        };
        if seen.contains(&event) {
            v.add(format!("settings.rules[{i}].event"), "is listed twice");
            continue;
        }
        seen.push(event);
        rules.0.insert(
            event,
            EmailRule {
                shipper: rule.shipper,
                receiver: rule.receiver,
                subscribers: rule.subscribers && event != Event::Created,
            },
        );
    }
    v.into_result(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> FieldMask {
        FieldMask {
            paths: names.iter().map(|n| n.to_string()).collect(),
        }
    }

    #[test]
    fn an_update_becomes_a_patch_of_exactly_the_named_fields() {
        let input = pb::Shipment {
            shipper: Some(pb::Party {
                phone: "+234 801 234 5678".into(),
                name: "ignored: not in the mask".into(),
                ..Default::default()
            }),
            origin: "  Lagos  ".into(),
            ..Default::default()
        };
        let patch =
            patch_from_proto(Some(&paths(&["shipper.phone", "origin"])), &input, "ok").unwrap();
        assert_eq!(
            patch,
            ShipmentPatch {
                details: DetailsPatch {
                    shipper_phone: Some("+234 801 234 5678".into()),
                    origin: Some("Lagos".into()),
                    ..Default::default()
                },
                remarks: "ok".into(),
                ..Default::default()
            }
        );
    }

    #[test]
    fn an_emptied_optional_field_in_the_mask_is_cleared() {
        let patch =
            patch_from_proto(Some(&paths(&["comments"])), &pb::Shipment::default(), "").unwrap();
        assert_eq!(patch.details.comments.as_deref(), Some(""));
    }

    #[test]
    fn bad_updates_name_every_bad_field() {
        let fields = |paths_named: &[&str], input: &pb::Shipment| -> Vec<String> {
            patch_from_proto(Some(&paths(paths_named)), input, "")
                .unwrap_err()
                .into_iter()
                .map(|v| v.field)
                .collect()
        };
        assert_eq!(fields(&[], &pb::Shipment::default()), ["update_mask"]);
        assert_eq!(
            fields(
                &["id", "tracking_number", "shipper.fax"],
                &pb::Shipment::default()
            ),
            ["update_mask", "update_mask", "update_mask"]
        );
        let refused =
            patch_from_proto(Some(&paths(&["shipper.fax"])), &pb::Shipment::default(), "")
                .unwrap_err()
                .into_iter()
                .next()
                .unwrap();
        assert!(
            refused
                .description
                .starts_with("\"shipper.fax\" cannot be changed ("),
            "{refused:?}"
        );
        assert_eq!(
            patch_from_proto(None, &pb::Shipment::default(), "")
                .unwrap_err()
                .into_iter()
                .map(|v| v.field)
                .collect::<Vec<_>>(),
            ["update_mask"]
        );
        assert_eq!(
            fields(&["receiver", "packages"], &pb::Shipment::default()),
            [
                "receiver.name",
                "receiver.address",
                "receiver.phone",
                "receiver.email",
                "packages"
            ]
        );
    }
}
