//! The shipper and receiver e-mails of a new shipment, written to the outbox with it.

use outbox::Notification;
use outbox::emails::{ShipmentEmail, package_line};

use crate::domain::Shipment;
use crate::privacy::Party;
use crate::updates::{EmailRules, Event, Links};

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
        language: d.language,
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

/// The e-mails of a new shipment the rules ask for; each party's link opens the full view.
pub fn notifications(s: &Shipment, links: &Links, rules: &EmailRules) -> Vec<Notification> {
    let email = shipment_email(s);
    let rule = rules.rule(Event::Created);
    let mut out = Vec::new();
    if rule.shipper {
        let mut n = email.to_shipper(&links.public_url, s.created_at);
        n.params
            .insert("url".into(), links.full_view(s, Party::Shipper));
        out.push(n);
    }
    if rule.receiver {
        let mut n = email.to_receiver(&links.public_url, s.created_at);
        n.params
            .insert("tracking_url".into(), links.full_view(s, Party::Receiver));
        out.push(n);
    }
    out
}
