//! The edge between the wire and the domain: proto messages are validated into domain
//! values here, so handlers only ever see valid ones.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Timelike, Utc};
use logistics_proto::v1 as pb;

use crate::domain::{
    HistoryEntry, MAX_PACKAGES, Package, PartyPatch, PaymentMode, Shipment, ShipmentDetails,
    ShipmentMode, ShipmentPatch, ShipmentType, Status,
};
use crate::error::FieldViolation;
use crate::updates::{EmailRule, EmailRules, Event};
use outbox::language::Language;
use service_common::text::TextRule;

/// Collects every violation of one request, so the admin sees all bad fields at once.
#[derive(Default)]
pub struct Violations(Vec<FieldViolation>);

impl Violations {
    pub fn add(&mut self, field: impl Into<String>, description: impl Into<String>) {
        self.0.push(FieldViolation::new(field, description));
    }

    /// The trimmed text of a field, checked by the services' one text rule.
    pub fn text(&mut self, field: &str, value: &str, rule: TextRule) -> String {
        rule.check(value).unwrap_or_else(|description| {
            self.add(field, description);
            value.trim().to_owned()
        })
    }

    fn email(&mut self, field: &str, value: &str) -> String {
        let value = value.trim();
        if value.is_empty() {
            self.add(field, "is required");
        } else if !service_common::is_email(value) {
            self.add(field, "must be a valid e-mail address");
        }
        value.to_owned()
    }

    fn phone(&mut self, field: &str, value: &str) -> String {
        let value = value.trim();
        let digits = value.chars().filter(char::is_ascii_digit).count();
        let allowed = value
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c));
        if value.is_empty() {
            self.add(field, "is required");
        } else if !allowed || !(5..=20).contains(&digits) || value.len() > 30 {
            self.add(field, "must be a phone number of 5 to 20 digits");
        }
        value.to_owned()
    }

    fn whole(&mut self, field: &str, value: i64, min: i64, max: i64) -> i64 {
        if !(min..=max).contains(&value) {
            self.add(field, format!("must be a whole number from {min} to {max}"));
        }
        value
    }

    fn decimal(&mut self, field: &str, value: f64, max: f64) -> f64 {
        if !value.is_finite() || value < 0.0 || value > max {
            self.add(field, format!("must be a number from 0 to {max}"));
        }
        value
    }

    fn date(&mut self, field: &str, value: Option<&pb::Date>) -> NaiveDate {
        let parsed = value.and_then(|d| {
            let date = NaiveDate::from_ymd_opt(
                d.year,
                u32::try_from(d.month).ok()?,
                u32::try_from(d.day).ok()?,
            )?;
            (2000..=2100).contains(&d.year).then_some(date)
        });
        parsed.unwrap_or_else(|| {
            self.add(
                field,
                if value.is_none() {
                    "is required"
                } else {
                    "must be a valid date between 2000 and 2100"
                },
            );
            NaiveDate::default()
        })
    }

    /// An optional date: None when unset.
    pub fn optional_date(&mut self, field: &str, value: Option<&pb::Date>) -> Option<NaiveDate> {
        value.map(|d| self.date(field, Some(d)))
    }

    /// An optional instant in the past (2000 to `now`), for events recorded after the fact.
    pub fn past_time(
        &mut self,
        field: &str,
        value: Option<&prost_types::Timestamp>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let value = value?;
        let parsed = u32::try_from(value.nanos)
            .ok()
            .and_then(|nanos| DateTime::from_timestamp(value.seconds, nanos))
            .filter(|t| t.year() >= 2000 && *t <= now);
        if parsed.is_none() {
            self.add(field, "must be a time between 2000 and now");
        }
        parsed
    }

    fn time(&mut self, field: &str, value: Option<&pb::TimeOfDay>) -> NaiveTime {
        let parsed = value.and_then(|t| {
            NaiveTime::from_hms_opt(
                u32::try_from(t.hours).ok()?,
                u32::try_from(t.minutes).ok()?,
                0,
            )
        });
        parsed.unwrap_or_else(|| {
            self.add(
                field,
                if value.is_none() {
                    "is required"
                } else {
                    "must be a valid time of day"
                },
            );
            NaiveTime::default()
        })
    }

    pub fn into_result<T>(self, value: T) -> Result<T, Vec<FieldViolation>> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self.0)
        }
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

fn type_from_proto(value: i32, violations: &mut Violations) -> ShipmentType {
    match pb::ShipmentType::try_from(value) {
        Ok(pb::ShipmentType::Standard) => ShipmentType::Standard,
        Ok(pb::ShipmentType::Express) => ShipmentType::Express,
        Ok(pb::ShipmentType::Economy) => ShipmentType::Economy,
        _ => {
            violations.add("type", "must be one of standard, express, economy");
            ShipmentType::Standard
        }
    }
}

fn mode_from_proto(value: i32, violations: &mut Violations) -> ShipmentMode {
    match pb::ShipmentMode::try_from(value) {
        Ok(pb::ShipmentMode::LandShipping) => ShipmentMode::LandShipping,
        Ok(pb::ShipmentMode::AirShipping) => ShipmentMode::AirShipping,
        Ok(pb::ShipmentMode::SeaShipping) => ShipmentMode::SeaShipping,
        _ => {
            violations.add(
                "mode",
                "must be one of land_shipping, air_shipping, sea_shipping",
            );
            ShipmentMode::LandShipping
        }
    }
}

fn payment_from_proto(value: i32, violations: &mut Violations) -> PaymentMode {
    match pb::PaymentMode::try_from(value) {
        Ok(pb::PaymentMode::BankTransfer) => PaymentMode::BankTransfer,
        Ok(pb::PaymentMode::CreditCard) => PaymentMode::CreditCard,
        Ok(pb::PaymentMode::Cash) => PaymentMode::Cash,
        Ok(pb::PaymentMode::Check) => PaymentMode::Check,
        _ => {
            violations.add(
                "payment_mode",
                "must be one of Bank Transfer, Credit Card, Cash, Check",
            );
            PaymentMode::BankTransfer
        }
    }
}

/// Every field of a shipment's details, by its update-mask path.
const DETAIL_PATHS: [&str; 20] = [
    "shipper",
    "receiver",
    "origin",
    "destination",
    "carrier",
    "type",
    "mode",
    "package_count",
    "product",
    "product_quantity",
    "payment_mode",
    "total_freight_cents",
    "weight_kg",
    "expected_delivery_date",
    "departure_time",
    "pickup_date",
    "pickup_time",
    "packages",
    "comments",
    "language_code",
];

/// Validates everything an admin types about a new shipment.
pub fn details_from_proto(s: &pb::Shipment) -> Result<ShipmentDetails, Vec<FieldViolation>> {
    let mut v = Violations::default();
    let mut patch = ShipmentPatch::default();
    for path in DETAIL_PATHS {
        parse_field(path, s, &mut v, &mut patch);
    }
    v.into_result(())?;
    fn named<T>(value: Option<T>) -> T {
        value.expect("every detail path was parsed")
    }
    let (shipper, receiver) = (patch.shipper, patch.receiver);
    Ok(ShipmentDetails {
        shipper_name: named(shipper.name),
        shipper_address: named(shipper.address),
        shipper_phone: named(shipper.phone),
        shipper_email: named(shipper.email),
        receiver_name: named(receiver.name),
        receiver_address: named(receiver.address),
        receiver_phone: named(receiver.phone),
        receiver_email: named(receiver.email),
        origin: named(patch.origin),
        destination: named(patch.destination),
        carrier: named(patch.carrier),
        type_of_shipment: named(patch.type_of_shipment),
        shipment_mode: named(patch.shipment_mode),
        package_count: named(patch.package_count),
        product: named(patch.product),
        product_quantity: named(patch.product_quantity),
        payment_mode: named(patch.payment_mode),
        total_freight_cents: named(patch.total_freight_cents),
        weight: named(patch.weight),
        expected_delivery_date: named(patch.expected_delivery_date),
        departure_time: named(patch.departure_time),
        pickup_date: named(patch.pickup_date),
        pickup_time: named(patch.pickup_time),
        packages: named(patch.packages),
        comments: named(patch.comments),
        language: named(patch.language),
    })
}

/// An UpdateShipment request parsed at the edge: the fields its mask names, each validated as
/// on create; unknown and output-only paths are refused.
pub fn patch_from_proto(
    paths: &[String],
    s: &pb::Shipment,
    remarks: &str,
) -> Result<ShipmentPatch, Vec<FieldViolation>> {
    let mut v = Violations::default();
    let mut patch = ShipmentPatch {
        remarks: v.text("remarks", remarks, TextRule::line(500).optional()),
        ..ShipmentPatch::default()
    };
    if paths.is_empty() {
        v.add("update_mask", "must name at least one field");
    }
    for path in paths {
        if !parse_field(path, s, &mut v, &mut patch) {
            v.add("update_mask", format!("cannot update \"{path}\""));
        }
    }
    v.into_result(patch)
}

/// Parses the field at update-mask `path` of `s` into `patch`; false for an unknown or
/// output-only path.
fn parse_field(
    path: &str,
    s: &pb::Shipment,
    v: &mut Violations,
    patch: &mut ShipmentPatch,
) -> bool {
    let empty = pb::Party::default();
    if let Some((party, field)) = path.split_once('.') {
        let (from, into) = match party {
            "shipper" => (s.shipper.as_ref(), &mut patch.shipper),
            "receiver" => (s.receiver.as_ref(), &mut patch.receiver),
            _ => return false,
        };
        return party_field(party, field, from.unwrap_or(&empty), v, into);
    }
    match path {
        "status" => patch.status = Some(status_from_proto("status", s.status, v)),
        "current_location" => {
            patch.current_location =
                Some(v.text("current_location", &s.current_location, TextRule::line(200)))
        }
        "shipper" | "receiver" => {
            let (from, into) = if path == "shipper" {
                (s.shipper.as_ref(), &mut patch.shipper)
            } else {
                (s.receiver.as_ref(), &mut patch.receiver)
            };
            for field in ["name", "address", "phone", "email"] {
                party_field(path, field, from.unwrap_or(&empty), v, into);
            }
        }
        "origin" => patch.origin = Some(v.text("origin", &s.origin, TextRule::line(200))),
        "destination" => {
            patch.destination = Some(v.text("destination", &s.destination, TextRule::line(200)))
        }
        "carrier" => patch.carrier = Some(v.text("carrier", &s.carrier, TextRule::line(100))),
        "type" => patch.type_of_shipment = Some(type_from_proto(s.r#type, v)),
        "mode" => patch.shipment_mode = Some(mode_from_proto(s.mode, v)),
        "package_count" => {
            patch.package_count =
                Some(v.whole("package_count", s.package_count.into(), 1, 10_000) as u32)
        }
        "product" => patch.product = Some(v.text("product", &s.product, TextRule::line(200))),
        "product_quantity" => {
            patch.product_quantity =
                Some(v.whole("product_quantity", s.product_quantity.into(), 1, 1_000_000) as u32)
        }
        "payment_mode" => patch.payment_mode = Some(payment_from_proto(s.payment_mode, v)),
        "total_freight_cents" => {
            patch.total_freight_cents = Some(v.whole(
                "total_freight_cents",
                s.total_freight_cents,
                0,
                100_000_000_000,
            ))
        }
        "weight_kg" => patch.weight = Some(v.decimal("weight_kg", s.weight_kg, 1_000_000.0)),
        "expected_delivery_date" => {
            patch.expected_delivery_date =
                Some(v.date("expected_delivery_date", s.expected_delivery_date.as_ref()))
        }
        "departure_time" => {
            patch.departure_time = Some(v.time("departure_time", s.departure_time.as_ref()))
        }
        "pickup_date" => patch.pickup_date = Some(v.date("pickup_date", s.pickup_date.as_ref())),
        "pickup_time" => patch.pickup_time = Some(v.time("pickup_time", s.pickup_time.as_ref())),
        "packages" => patch.packages = Some(packages_from_proto(&s.packages, v)),
        "comments" => {
            patch.comments = Some(v.text(
                "comments",
                &s.comments,
                TextRule::paragraph(2000).optional(),
            ))
        }
        "language_code" => {
            patch.language = Some(Language::parse(&s.language_code).unwrap_or_else(|problem| {
                v.add("language_code", problem);
                Language::En
            }))
        }
        _ => return false,
    }
    true
}

fn party_field(
    party: &str,
    field: &str,
    from: &pb::Party,
    v: &mut Violations,
    into: &mut PartyPatch,
) -> bool {
    let name = format!("{party}.{field}");
    match field {
        "name" => into.name = Some(v.text(&name, &from.name, TextRule::line(100))),
        "address" => into.address = Some(v.text(&name, &from.address, TextRule::paragraph(300))),
        "phone" => into.phone = Some(v.phone(&name, &from.phone)),
        "email" => into.email = Some(v.email(&name, &from.email)),
        _ => return false,
    }
    true
}

fn packages_from_proto(packages: &[pb::Package], v: &mut Violations) -> Vec<Package> {
    if packages.is_empty() {
        v.add("packages", "must hold at least one package");
    } else if packages.len() > MAX_PACKAGES {
        v.add(
            "packages",
            format!("must hold at most {MAX_PACKAGES} packages"),
        );
    }
    packages
        .iter()
        .take(MAX_PACKAGES)
        .enumerate()
        .map(|(i, p)| {
            let f = |name: &str| format!("packages[{i}].{name}");
            Package {
                quantity: v.whole(&f("quantity"), p.quantity.into(), 1, 10_000) as u32,
                piece_type: v.text(&f("piece_type"), &p.piece_type, TextRule::line(50)),
                description: v.text(&f("description"), &p.description, TextRule::line(200)),
                length: v.decimal(&f("length_cm"), p.length_cm, 10_000.0),
                width: v.decimal(&f("width_cm"), p.width_cm, 10_000.0),
                height: v.decimal(&f("height_cm"), p.height_cm, 10_000.0),
                weight: v.decimal(&f("weight_kg"), p.weight_kg, 100_000.0),
            }
        })
        .collect()
}

pub fn timestamp(t: DateTime<Utc>) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: t.timestamp(),
        nanos: t.timestamp_subsec_nanos() as i32,
    }
}

pub fn date(d: NaiveDate) -> pb::Date {
    pb::Date {
        year: d.year(),
        month: d.month() as i32,
        day: d.day() as i32,
    }
}

fn time(t: NaiveTime) -> pb::TimeOfDay {
    pb::TimeOfDay {
        hours: t.hour() as i32,
        minutes: t.minute() as i32,
    }
}

fn history_to_proto(h: &HistoryEntry) -> pb::HistoryEntry {
    pb::HistoryEntry {
        time: Some(timestamp(h.timestamp)),
        local_date: h.date.clone(),
        local_time: h.time.clone(),
        location: h.location.clone(),
        status: status_to_proto(h.status).into(),
        updated_by: h.updated_by.clone(),
        remarks: h.remarks.clone(),
        remarks_public: h.remarks_public,
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
        create_time: Some(timestamp(s.created_at)),
        update_time: Some(timestamp(s.updated_at)),
        view: pb::ShipmentView::Full.into(),
        external_reference: s.external_reference.clone(),
        proof_of_delivery: s.proof_of_delivery.as_ref().map(|p| pb::ProofOfDelivery {
            recipient_name: p.recipient_name.clone(),
            has_signature: p.signature.is_some(),
            has_photo: p.photo.is_some(),
            record_time: Some(timestamp(p.recorded_at)),
            recorded_by: p.recorded_by.clone(),
        }),
        ..details_to_proto(&s.details)
    }
}

/// The fields an admin types, as a CreateShipment request carries them.
pub fn details_to_proto(d: &ShipmentDetails) -> pb::Shipment {
    pb::Shipment {
        shipper: Some(pb::Party {
            name: d.shipper_name.clone(),
            address: d.shipper_address.clone(),
            phone: d.shipper_phone.clone(),
            email: d.shipper_email.clone(),
        }),
        receiver: Some(pb::Party {
            name: d.receiver_name.clone(),
            address: d.receiver_address.clone(),
            phone: d.receiver_phone.clone(),
            email: d.receiver_email.clone(),
        }),
        origin: d.origin.clone(),
        destination: d.destination.clone(),
        carrier: d.carrier.clone(),
        r#type: match d.type_of_shipment {
            ShipmentType::Standard => pb::ShipmentType::Standard,
            ShipmentType::Express => pb::ShipmentType::Express,
            ShipmentType::Economy => pb::ShipmentType::Economy,
        }
        .into(),
        mode: match d.shipment_mode {
            ShipmentMode::LandShipping => pb::ShipmentMode::LandShipping,
            ShipmentMode::AirShipping => pb::ShipmentMode::AirShipping,
            ShipmentMode::SeaShipping => pb::ShipmentMode::SeaShipping,
        }
        .into(),
        package_count: d.package_count as i32,
        product: d.product.clone(),
        product_quantity: d.product_quantity as i32,
        payment_mode: match d.payment_mode {
            PaymentMode::BankTransfer => pb::PaymentMode::BankTransfer,
            PaymentMode::CreditCard => pb::PaymentMode::CreditCard,
            PaymentMode::Cash => pb::PaymentMode::Cash,
            PaymentMode::Check => pb::PaymentMode::Check,
        }
        .into(),
        total_freight_cents: d.total_freight_cents,
        weight_kg: d.weight,
        expected_delivery_date: Some(date(d.expected_delivery_date)),
        departure_time: Some(time(d.departure_time)),
        pickup_date: Some(date(d.pickup_date)),
        pickup_time: Some(time(d.pickup_time)),
        packages: d
            .packages
            .iter()
            .map(|p| pb::Package {
                quantity: p.quantity as i32,
                piece_type: p.piece_type.clone(),
                description: p.description.clone(),
                length_cm: p.length,
                width_cm: p.width,
                height_cm: p.height,
                weight_kg: p.weight,
            })
            .collect(),
        comments: d.comments.clone(),
        language_code: d.language.code().to_owned(),
        ..Default::default()
    }
}

fn from_timestamp(t: Option<&prost_types::Timestamp>) -> DateTime<Utc> {
    t.and_then(|t| DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .unwrap_or_default()
}

/// Reads a whole shipment as the service returned it (for tools such as the demo loader).
pub fn shipment_from_proto(s: &pb::Shipment) -> Result<Shipment, Vec<FieldViolation>> {
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

fn event_to_proto(event: Event) -> pb::TrackingEvent {
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
) -> Result<(), Vec<FieldViolation>> {
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

    fn paths(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
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
        let patch = patch_from_proto(&paths(&["shipper.phone", "origin"]), &input, "ok").unwrap();
        assert_eq!(
            patch,
            ShipmentPatch {
                shipper: PartyPatch {
                    phone: Some("+234 801 234 5678".into()),
                    ..Default::default()
                },
                origin: Some("Lagos".into()),
                remarks: "ok".into(),
                ..Default::default()
            }
        );
    }

    #[test]
    fn bad_updates_name_every_bad_field() {
        let fields = |paths_named: &[&str], input: &pb::Shipment| -> Vec<String> {
            patch_from_proto(&paths(paths_named), input, "")
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
