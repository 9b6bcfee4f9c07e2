//! The sample shipment the admin's e-mail test sends and the template checks render.

use outbox::emails::{ShipmentEmail, package_line};

/// The sample shipment of the admin's e-mail test: expected 7 days ahead.
pub fn shipment(to_email: &str, today: chrono::NaiveDate) -> ShipmentEmail {
    ShipmentEmail {
        tracking_number: "PSE000000000".into(),
        status: "pending".into(),
        current_location: "New York, USA".into(),
        origin: "New York, USA".into(),
        destination: "London, UK".into(),
        expected_delivery_date: (today + chrono::Days::new(7))
            .format("%Y-%m-%d")
            .to_string(),
        shipper_name: "Test Shipper".into(),
        shipper_email: to_email.into(),
        receiver_name: "Test Receiver".into(),
        receiver_email: to_email.into(),
        language: Default::default(),
        packages: vec![package_line(
            1,
            "Box",
            "Sample documents",
            [30.0, 20.0, 10.0],
            2.0,
        )],
    }
}
