//! A shipment's changes reach a registered webhook endpoint, signed and in order.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;

use test_servers::webhooks::TestWebhookReceiver;

use crate::calls::*;
use common::site::{
    ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_with_services,
    distributed_with_services,
};
use common::wire::demo_shipment;

/// A shipment's changes reach a registered webhook endpoint, signed, in order; only those
/// holding webhooks.manage may register one.
async fn shipment_changes_reach_a_signed_webhook(site: &Site, receiver: &TestWebhookReceiver) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let register = pb::CreateWebhookEndpointRequest {
        url: receiver.url("/erp"),
        events: vec![
            pb::WebhookEventType::ShipmentCreated.into(),
            pb::WebhookEventType::ShipmentStatusChanged.into(),
            pb::WebhookEventType::ShipmentDelivered.into(),
            pb::WebhookEventType::ShipmentDeleted.into(),
        ],
        description: "ERP".into(),
    }
    .encode_to_vec();
    let path = "logistics.v1.WebhookService/CreateWebhookEndpoint";
    let (refused, _) = call(&site.base, path, register.clone(), &[("cookie", &clerk)]).await;
    assert_eq!(refused.grpc_status, Some(PERMISSION_DENIED));
    let (reply, _) = call(&site.base, path, register, &[("cookie", &admin)]).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let created = pb::CreateWebhookEndpointResponse::decode(reply.body.unwrap()).unwrap();
    receiver.trust(&[&created.secret]);

    let shipment = demo_shipment(&site.store).await;
    let deliver = pb::UpdateShipmentTrackingRequest {
        id: shipment.id.clone(),
        status: pb::ShipmentStatus::Delivered.into(),
        current_location: "Lagos".into(),
        remarks: "Signed by Rita".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/UpdateShipmentTracking",
        deliver.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/DeleteShipment",
        pb::DeleteShipmentRequest {
            id: shipment.id.clone(),
        }
        .encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");

    // The demo's other shipments have their own events: these are this shipment's.
    let number = shipment.tracking_number.as_str();
    let ours = || -> Vec<serde_json::Value> {
        receiver
            .received()
            .into_iter()
            .filter(|r| r["body"]["data"]["shipment"]["trackingNumber"] == number)
            .collect()
    };
    // The demo's other shipments' events queue before the delete, and an endpoint's deliveries
    // go one at a time: on a loaded machine they take tens of seconds.
    let deadline = Instant::now() + Duration::from_secs(60);
    let is_deleted = |r: &serde_json::Value| r["body"]["type"] == "shipment.deleted";
    while !ours().iter().any(is_deleted) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let received = ours();
    let types: Vec<&str> = received
        .iter()
        .map(|r| r["body"]["type"].as_str().unwrap())
        .collect();
    // Created, the demo's own moves, then this test's delivery and delete, in that order.
    assert_eq!(types.first(), Some(&"shipment.created"), "{types:?}");
    assert!(
        types.ends_with(&[
            "shipment.status_changed",
            "shipment.delivered",
            "shipment.deleted"
        ]),
        "{types:?}"
    );
    assert!(
        types[1..types.len() - 2]
            .iter()
            .all(|t| *t == "shipment.status_changed"),
        "{types:?}"
    );
    for r in &received {
        assert_eq!(r["verified_with"], serde_json::json!([0]), "{r}");
        assert!(r["body"]["data"]["shipment"].get("subscribers").is_none());
    }
    let delivered = &received[received.len() - 2]["body"]["data"];
    assert_eq!(delivered["remarks"], "Signed by Rita");
    // The API's JSON names and values (protobuf's JSON mapping), as the schema documents.
    assert_eq!(delivered["shipment"]["status"], "SHIPMENT_STATUS_DELIVERED");
    assert_eq!(
        delivered["shipment"]["history"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["remarks"],
        "Signed by Rita"
    );
    receiver.check_with_published_tools(&created.secret);
}

pub(crate) fn webhooks_to_loopback(services: &mut gateway::HostedServices) {
    services.notifications.webhook_allow_private_networks = true;
    services.notifications.notify_poll_ms = 20;
}

#[tokio::test]
async fn all_in_one_shipment_changes_reach_a_signed_webhook() {
    let receiver = TestWebhookReceiver::start();
    let site = all_in_one_with_services(|_| {}, webhooks_to_loopback).await;
    shipment_changes_reach_a_signed_webhook(&site, &receiver).await;
}

#[tokio::test]
async fn distributed_shipment_changes_reach_a_signed_webhook() {
    let receiver = TestWebhookReceiver::start();
    let site = distributed_with_services(|_| {}, webhooks_to_loopback).await;
    shipment_changes_reach_a_signed_webhook(&site, &receiver).await;
}
