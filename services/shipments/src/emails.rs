//! The shipper and receiver e-mails of a new shipment, written to the outbox with it.

use outbox::Notification;
use outbox::emails::{ShipmentEmail, package_line};

use crate::domain::Shipment;

pub fn shipment_email(s: &Shipment) -> ShipmentEmail {
    let d = &s.details;
    ShipmentEmail {
        tracking_number: s.tracking_number.to_string(),
        status: s.status.as_str().to_owned(),
        current_location: s.current_location.clone(),
        origin: d.origin.clone(),
        destination: d.destination.clone(),
        expected_delivery_date: d.expected_delivery_date.format("%Y-%m-%d").to_string(),
        shipper_name: d.shipper_name.clone(),
        shipper_email: d.shipper_email.clone(),
        receiver_name: d.receiver_name.clone(),
        receiver_email: d.receiver_email.clone(),
        packages: d
            .packages
            .iter()
            .map(|p| {
                package_line(
                    p.quantity,
                    &p.piece_type,
                    &p.description,
                    [p.length, p.width, p.height],
                    p.weight,
                )
            })
            .collect(),
    }
}

/// Both e-mails of a new shipment.
pub fn notifications(s: &Shipment, public_url: &str) -> Vec<Notification> {
    shipment_email(s).notifications(public_url, s.created_at)
}
