//! The webhook events of a shipment's changes, written to the outbox with the change.

use chrono::{DateTime, Utc};
use outbox::webhooks::{Event, EventType};
use serde_json::{Value, json};

use crate::domain::{Shipment, Status};

/// Fields whose change is a status change, or bookkeeping no receiver needs told apart.
const NOT_UPDATES: &[&str] = &[
    "status",
    "currentLocation",
    "shipmentHistory",
    "updatedAt",
    "subscribers",
    "deliveredAt",
];

/// The shipment as receivers read it: every field of its record; never its subscribers.
fn snapshot(s: &Shipment) -> Value {
    let mut value = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Some(fields) = value.as_object_mut() {
        fields.remove("subscribers");
        if let Some(proof) = &s.proof_of_delivery {
            // The images stay in the product; receivers learn who signed.
            fields.insert(
                "proofOfDelivery".into(),
                json!({ "recipientName": proof.recipient_name }),
            );
        }
    }
    value
}

fn event(kind: EventType, s: &Shipment, data: Value, now: DateTime<Utc>) -> Event {
    Event::new(kind, &s.id, s.tracking_number.as_str(), data, now)
}

pub fn created(s: &Shipment, now: DateTime<Utc>) -> Vec<Event> {
    vec![event(
        EventType::ShipmentCreated,
        s,
        json!({ "shipment": snapshot(s) }),
        now,
    )]
}

pub fn deleted(s: &Shipment, now: DateTime<Utc>) -> Vec<Event> {
    vec![event(
        EventType::ShipmentDeleted,
        s,
        json!({ "shipment": snapshot(s) }),
        now,
    )]
}

/// What one save tells: a status change (and a delivery), an update of other fields, or both.
pub fn changed(
    before: &Shipment,
    after: &Shipment,
    remarks: &str,
    now: DateTime<Utc>,
) -> Vec<Event> {
    let mut events = Vec::new();
    if before.status != after.status || before.current_location != after.current_location {
        let data = json!({
            "shipment": snapshot(after),
            "previousStatus": before.status,
            "previousLocation": before.current_location,
            "remarks": remarks,
        });
        events.push(event(
            EventType::ShipmentStatusChanged,
            after,
            data.clone(),
            now,
        ));
        if after.status == Status::Delivered && before.status != Status::Delivered {
            events.push(event(EventType::ShipmentDelivered, after, data, now));
        }
    }
    let fields: Vec<String> = audit::diff(before, after, NOT_UPDATES)
        .into_iter()
        .map(|change| change.field)
        .collect();
    if !fields.is_empty() {
        events.push(event(
            EventType::ShipmentUpdated,
            after,
            json!({ "shipment": snapshot(after), "changedFields": fields }),
            now,
        ));
    }
    events
}
