//! A new shipment and its two e-mails are written together, in both stores: both or neither.

mod common;

use std::sync::Arc;

use common::shipment;
use outbox::{OutboxStore, State, Template};
use shipments::error::ShipmentError;
use shipments::store::ShipmentStore;

async fn shipment_and_emails_are_written_together(
    store: Arc<dyn ShipmentStore>,
    outbox: Arc<dyn OutboxStore>,
) {
    let s = shipment("Ada Shipper", "Auckland");
    let emails = shipments::emails::notifications(&s, "https://ship.example/");
    store.insert(&s, &emails).await.unwrap();
    let queued = outbox.list(10, None).await.unwrap().notifications;
    assert_eq!(queued.len(), 2);
    let shipper = queued
        .iter()
        .find(|n| n.template == Template::Shipper)
        .unwrap();
    let receiver = queued
        .iter()
        .find(|n| n.template == Template::Receiver)
        .unwrap();
    assert_eq!(shipper.state, State::Queued);
    assert_eq!(
        shipper.params["url"],
        format!("https://ship.example/track/{}", s.tracking_number)
    );
    assert_eq!(
        shipper.params["packages"],
        "2 x Bale - Merino wool (100 x 50 x 50 cm, 5 kg)"
    );
    assert_eq!(receiver.params["tracking_url"], shipper.params["url"]);
    assert_eq!(receiver.params["expected_delivery_date"], "2026-12-24");

    // A refused shipment (its number is taken) leaves no e-mail behind.
    let mut clash = shipment("Bo", "Oslo");
    clash.tracking_number = s.tracking_number.clone();
    let clash_emails = shipments::emails::notifications(&clash, "https://ship.example");
    assert!(matches!(
        store.insert(&clash, &clash_emails).await,
        Err(ShipmentError::DuplicateTrackingNumber)
    ));
    assert_eq!(
        outbox.list(10, None).await.unwrap().notifications.len(),
        2,
        "nothing half-written"
    );
    assert_eq!(outbox.backlog().await.unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_writes_shipment_and_emails_together() {
    let (store, outbox, _dir) = common::sqlite_stores();
    shipment_and_emails_are_written_together(store, outbox).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_writes_shipment_and_emails_together() {
    if let Some((store, outbox)) = common::mongo_stores().await {
        shipment_and_emails_are_written_together(store, outbox).await;
    }
}
