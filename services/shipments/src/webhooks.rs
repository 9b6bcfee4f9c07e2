//! The webhook events of a shipment's changes, written to the outbox with the change.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use outbox::webhooks::{Event, EventType};
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, SerializeOptions};
use serde_json::{Value, json};

use crate::convert::{shipment_to_proto, status_to_proto};
use crate::domain::{Shipment, Status};

/// Fields whose change is a status change, or bookkeeping no receiver needs told apart.
const NOT_UPDATES: &[&str] = &["status", "currentLocation", "history", "updateTime"];

static SHIPMENT: LazyLock<MessageDescriptor> = LazyLock::new(|| {
    DescriptorPool::decode(logistics_proto::FILE_DESCRIPTOR_SET)
        .ok()
        .and_then(|pool| pool.get_message_by_name("logistics.v1.Shipment"))
        .expect("the compiled-in descriptors describe logistics.v1.Shipment")
});

/// The shipment as receivers read it: the API's JSON of its full view (protobuf's JSON
/// mapping: camelCase names, enum names, 64-bit integers as strings, every field present);
/// never its subscribers, never the proof-of-delivery images.
fn snapshot(s: &Shipment) -> Value {
    let bytes = shipment_to_proto(s).encode_to_vec();
    let options = SerializeOptions::new().skip_default_fields(false);
    DynamicMessage::decode(SHIPMENT.clone(), bytes.as_slice())
        .ok()
        .and_then(|message| {
            message
                .serialize_with_options(serde_json::value::Serializer, &options)
                .ok()
        })
        .unwrap_or(Value::Null)
}

/// A status as the API's JSON names it, e.g. `SHIPMENT_STATUS_IN_TRANSIT`.
fn status_name(status: Status) -> &'static str {
    status_to_proto(status).as_str_name()
}

fn event(
    kind: EventType,
    s: &Shipment,
    data: impl FnOnce() -> Value + Send + 'static,
    now: DateTime<Utc>,
) -> Event {
    Event::with_data(kind, &s.id, s.tracking_number.as_str(), now, data)
        .of_customer(&s.details.customer_id)
}

/// `{"shipment": …}` of `s` as it is now, made when an endpoint wants it.
fn shipment_data(s: &Shipment) -> impl FnOnce() -> Value + Send + 'static {
    let s = s.clone();
    move || json!({ "shipment": snapshot(&s) })
}

pub fn created(s: &Shipment, now: DateTime<Utc>) -> Vec<Event> {
    vec![event(EventType::ShipmentCreated, s, shipment_data(s), now)]
}

pub fn deleted(s: &Shipment, now: DateTime<Utc>) -> Vec<Event> {
    vec![event(EventType::ShipmentDeleted, s, shipment_data(s), now)]
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
            "previousStatus": status_name(before.status),
            "previousLocation": before.current_location,
            "remarks": remarks,
        });
        let delivered = (after.status == Status::Delivered && before.status != Status::Delivered)
            .then(|| data.clone());
        events.push(event(EventType::ShipmentStatusChanged, after, || data, now));
        if let Some(data) = delivered {
            events.push(event(EventType::ShipmentDelivered, after, || data, now));
        }
    }
    let shipment = snapshot(after);
    let fields: Vec<String> = audit::diff(&snapshot(before), &shipment, NOT_UPDATES)
        .into_iter()
        .map(|change| change.field)
        .collect();
    if !fields.is_empty() {
        events.push(event(
            EventType::ShipmentUpdated,
            after,
            move || json!({ "shipment": shipment, "changedFields": fields }),
            now,
        ));
    }
    events
}
