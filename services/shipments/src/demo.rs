//! A dozen realistic shipments in every status, loaded through the service API. Their stories
//! are in `demo.json`: each was booked some time ago and its history unfolds over the days
//! since, through real ports, airports and hubs; expected dates are days from today, some
//! already past (late shipments). Times are relative to now, so the data is always fresh.
//! The web app's tests read the same file to check that its journey map finds every place.

use chrono::{DateTime, Duration, Local, Timelike, Utc};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use serde::Deserialize;
use tonic::codegen::{Body, Bytes, StdError};

use crate::convert;
use crate::domain::{
    Language, Package, PaymentMode, Shipment, ShipmentDetails, ShipmentMode, ShipmentType, Status,
};

/// One demo shipment as `demo.json` describes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Demo {
    shipper: Party,
    receiver: Party,
    origin: String,
    destination: String,
    carrier: String,
    #[serde(rename = "type")]
    kind: ShipmentType,
    mode: ShipmentMode,
    payment: PaymentMode,
    product: String,
    freight_cents: i64,
    packages: Vec<Package>,
    /// How long ago it was booked ("16d 7h 40m"): its creation time and first history entry.
    booked: Ago,
    /// When it was (or, "in 1d 2h", will be) picked up.
    pickup: Ago,
    /// Scheduled departure, HH:MM.
    departure_time: String,
    /// The expected delivery date, in days from today; negative when already past.
    expected_in_days: i64,
    /// Tracking updates after the booking, oldest first.
    journey: Vec<Step>,
    /// The language of its e-mails (English when absent).
    #[serde(default)]
    language: Language,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Party {
    name: String,
    address: String,
    phone: String,
    email: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    ago: Ago,
    status: Status,
    location: String,
    remarks: String,
}

/// A time before now written as "3d 4h 20m" (any of the three parts), or after now as "in 1d 2h".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
struct Ago(Duration);

impl TryFrom<String> for Ago {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        let (sign, rest) = match text.strip_prefix("in ") {
            Some(rest) => (-1, rest),
            None => (1, text.as_str()),
        };
        let mut total = Duration::zero();
        for part in rest.split_whitespace() {
            let (number, unit) = part.split_at(part.len() - 1);
            let n: i64 = number
                .parse()
                .map_err(|_| format!("bad duration {text:?}"))?;
            total += match unit {
                "d" => Duration::days(n),
                "h" => Duration::hours(n),
                "m" => Duration::minutes(n),
                _ => return Err(format!("bad duration {text:?}: use d, h and m")),
            };
        }
        Ok(Self(total * sign))
    }
}

impl Ago {
    fn before(self, now: DateTime<Utc>) -> DateTime<Utc> {
        now - self.0
    }
}

fn demos() -> Result<Vec<Demo>, serde_json::Error> {
    serde_json::from_str(include_str!("demo.json"))
}

/// What the admin would have typed for demo shipment `i`, with dates relative to `now`.
fn details(i: usize, demo: &Demo, now: DateTime<Utc>) -> ShipmentDetails {
    let today = now.with_timezone(&Local).date_naive();
    let pickup = demo.pickup.before(now).with_timezone(&Local);
    ShipmentDetails {
        shipper_name: demo.shipper.name.clone(),
        shipper_address: demo.shipper.address.clone(),
        shipper_phone: demo.shipper.phone.clone(),
        shipper_email: demo.shipper.email.clone(),
        receiver_name: demo.receiver.name.clone(),
        receiver_address: demo.receiver.address.clone(),
        receiver_phone: demo.receiver.phone.clone(),
        receiver_email: demo.receiver.email.clone(),
        origin: demo.origin.clone(),
        destination: demo.destination.clone(),
        carrier: demo.carrier.clone(),
        type_of_shipment: demo.kind,
        shipment_mode: demo.mode,
        package_count: demo.packages.iter().map(|p| p.quantity).sum(),
        product: demo.product.clone(),
        product_quantity: demo.packages.len() as u32,
        payment_mode: demo.payment,
        total_freight_cents: demo.freight_cents,
        weight: demo
            .packages
            .iter()
            .map(|p| p.weight * f64::from(p.quantity))
            .sum(),
        expected_delivery_date: today + Duration::days(demo.expected_in_days),
        departure_time: chrono::NaiveTime::parse_from_str(&demo.departure_time, "%H:%M")
            .unwrap_or_default(),
        pickup_date: pickup.date_naive(),
        pickup_time: pickup
            .time()
            .with_second(0)
            .and_then(|t| t.with_nanosecond(0))
            .unwrap_or_default(),
        packages: demo.packages.clone(),
        language: demo.language,
        customer_id: String::new(),
        comments: format!("Handle with care. Reference DEMO-{:03}.", i + 1),
    }
}

/// Creates the demo shipments and walks each through its journey; returns them as stored.
pub async fn load<T>(client: &mut ShipmentServiceClient<T>) -> Result<Vec<Shipment>, tonic::Status>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<StdError>,
    T::ResponseBody: Body<Data = Bytes> + Send + 'static,
    <T::ResponseBody as Body>::Error: Into<StdError> + Send,
{
    let demos = demos().map_err(|e| tonic::Status::internal(format!("demo.json: {e}")))?;
    let now = Utc::now();
    let mut loaded = Vec::new();
    for (i, demo) in demos.iter().enumerate() {
        let request = pb::CreateShipmentRequest {
            shipment: Some(details(i, demo, now).to_proto()),
            create_time: Some(service_common::timestamp::to_proto(demo.booked.before(now))),
            ..pb::CreateShipmentRequest::default()
        };
        let mut shipment = client.create_shipment(request).await?.into_inner();
        for step in &demo.journey {
            let update = pb::UpdateShipmentTrackingRequest {
                id: shipment.id.clone(),
                status: convert::status_to_proto(step.status).into(),
                current_location: step.location.clone(),
                remarks: step.remarks.clone(),
                // The demo's remarks are written as public status text.
                remarks_public: true,
                event_time: Some(service_common::timestamp::to_proto(step.ago.before(now))),
                ..pb::UpdateShipmentTrackingRequest::default()
            };
            shipment = client.update_shipment_tracking(update).await?.into_inner();
        }
        loaded.push(
            convert::shipment_from_proto(&shipment)
                .map_err(|e| tonic::Status::internal(format!("{e:?}")))?,
        );
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last_status(demo: &Demo) -> Status {
        demo.journey.last().map_or(Status::Pending, |s| s.status)
    }

    #[test]
    fn durations_read_as_written() {
        let ago = |s: &str| Ago::try_from(s.to_owned());
        assert_eq!(
            ago("1d 2h 3m"),
            Ok(Ago(Duration::minutes(24 * 60 + 2 * 60 + 3)))
        );
        assert_eq!(ago("in 20h"), Ok(Ago(Duration::hours(-20))));
        assert!(ago("3 days").is_err());
        assert!(ago("3w").is_err());
    }

    #[test]
    fn every_demo_is_a_valid_shipment_whose_history_moves_forward() {
        let now = Utc::now();
        let demos = demos().unwrap();
        assert_eq!(demos.len(), 12);
        for (i, demo) in demos.iter().enumerate() {
            let input = details(i, demo, now).to_proto();
            convert::details_from_proto(&input).unwrap_or_else(|e| panic!("demo {i}: {e:?}"));
            let mut previous = demo.booked;
            for step in &demo.journey {
                assert!(
                    step.ago < previous,
                    "demo {i}: {:?} is not after the step before",
                    step.ago
                );
                assert!(!step.location.is_empty() && !step.remarks.is_empty());
                previous = step.ago;
            }
            assert!(
                demo.booked.0 > Duration::zero(),
                "demo {i} is booked in the past"
            );
        }
    }

    #[test]
    fn the_demos_tell_every_kind_of_story() {
        let demos = demos().unwrap();
        let statuses: std::collections::HashSet<_> = demos.iter().map(last_status).collect();
        assert_eq!(statuses.len(), 5, "every status: {statuses:?}");
        let late = demos
            .iter()
            .filter(|d| d.expected_in_days < 0 && last_status(d) != Status::Delivered)
            .count();
        assert!(late >= 3, "late shipments: {late}");
        // One delivered with every step: picked up, hubs, out for delivery, delivered.
        assert!(demos.iter().any(|d| {
            let remarks: Vec<_> = d.journey.iter().map(|s| s.remarks.as_str()).collect();
            last_status(d) == Status::Delivered
                && remarks.iter().any(|r| r.starts_with("Picked up"))
                && remarks.iter().filter(|r| r.contains("hub")).count() >= 2
                && remarks.contains(&"Out for delivery")
        }));
        // One delayed and then back in transit.
        assert!(demos.iter().any(|d| {
            let statuses: Vec<_> = d.journey.iter().map(|s| s.status).collect();
            statuses
                .windows(2)
                .any(|w| w == [Status::Delayed, Status::InTransit])
        }));
        let modes: std::collections::HashSet<_> =
            demos.iter().map(|d| format!("{:?}", d.mode)).collect();
        assert_eq!(modes.len(), 3);
    }
}
