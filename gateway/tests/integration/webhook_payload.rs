//! Every kind of webhook delivery the product makes (created, updated, status changed,
//! delivered, deleted and a test event), sent by the all-in-one product to a real receiver, is
//! checked as a receiver built on the published tools would: the signature with the Standard
//! Webhooks library, the body against services/outbox/webhook-payload.schema.json.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;
use test_servers::webhooks::TestWebhookReceiver;

use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, all_in_one_with_services};
use common::wire::{Reply, demo_shipment, frame, read_reply, sign_in};

/// A staff call of `method` (under `logistics.v1.`) with the session `cookie`.
async fn staff(base: &str, cookie: &str, method: &str, message: impl Message) -> Reply {
    let response = reqwest::Client::new()
        .post(format!("{base}/logistics.v1.{method}"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("cookie", cookie)
        .body(frame(&message.encode_to_vec()))
        .send()
        .await
        .unwrap();
    let (reply, _) = read_reply(response).await;
    assert_eq!(reply.grpc_status, Some(0), "{method}: {reply:?}");
    reply
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_delivery_passes_the_schema_and_the_standard_webhooks_library() {
    let receiver = TestWebhookReceiver::start();
    let site = all_in_one_with_services(
        |_| {},
        |services| {
            services.notifications.webhook_allow_private_networks = true;
            services.notifications.notify_poll_ms = 20;
        },
    )
    .await;
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let cookie = cookie.unwrap();
    let cookie = cookie.split(';').next().unwrap();
    let reply = staff(
        &site.base,
        cookie,
        "WebhookService/CreateWebhookEndpoint",
        pb::CreateWebhookEndpointRequest {
            url: receiver.url("/erp"),
            events: vec![
                pb::WebhookEventType::ShipmentCreated.into(),
                pb::WebhookEventType::ShipmentUpdated.into(),
                pb::WebhookEventType::ShipmentStatusChanged.into(),
                pb::WebhookEventType::ShipmentDelivered.into(),
                pb::WebhookEventType::ShipmentDeleted.into(),
            ],
            description: "ERP".into(),
        },
    )
    .await;
    let created = pb::CreateWebhookEndpointResponse::decode(reply.body.unwrap()).unwrap();
    let endpoint_id = created.endpoint.unwrap().id;
    receiver.trust(&[&created.secret]);

    let shipment = demo_shipment(&site.store).await;
    staff(
        &site.base,
        cookie,
        "ShipmentService/UpdateShipment",
        pb::UpdateShipmentRequest {
            shipment: Some(pb::Shipment {
                id: shipment.id.clone(),
                comments: "Fragile: keep upright".into(),
                receiver: Some(pb::Party {
                    phone: "+31 10 555 0100".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["comments".into(), "receiver.phone".into()],
            }),
            remarks: String::new(),
            remarks_public: false,
        },
    )
    .await;
    staff(
        &site.base,
        cookie,
        "ShipmentService/UpdateShipmentTracking",
        pb::UpdateShipmentTrackingRequest {
            id: shipment.id.clone(),
            status: pb::ShipmentStatus::Delivered.into(),
            current_location: "Rotterdam, Netherlands".into(),
            remarks: "Signed by Jan".into(),
            remarks_public: false,
            event_time: None,
            ..Default::default()
        },
    )
    .await;
    staff(
        &site.base,
        cookie,
        "ShipmentService/DeleteShipment",
        pb::DeleteShipmentRequest {
            id: shipment.id.clone(),
        },
    )
    .await;
    staff(
        &site.base,
        cookie,
        "WebhookService/SendTestWebhookEvent",
        pb::SendTestWebhookEventRequest { endpoint_id },
    )
    .await;

    // Deliveries go out in order per shipment; the test event on its own.
    let kinds = || -> Vec<String> {
        receiver
            .received()
            .iter()
            .filter(|r| {
                r["body"]["type"] == "webhook.test"
                    || r["body"]["data"]["shipment"]["id"] == shipment.id.as_str()
            })
            .map(|r| r["body"]["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let all = [
        "shipment.created",
        "shipment.updated",
        "shipment.status_changed",
        "shipment.delivered",
        "shipment.deleted",
        "webhook.test",
    ];
    while !all.iter().all(|kind| kinds().iter().any(|k| k == kind)) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let got = kinds();
    assert!(
        all.iter().all(|kind| got.iter().any(|k| k == kind)),
        "{got:?}"
    );
    let updated = receiver
        .received()
        .into_iter()
        .find(|r| {
            r["body"]["type"] == "shipment.updated"
                && r["body"]["data"]["shipment"]["id"] == shipment.id.as_str()
        })
        .unwrap();
    assert_eq!(
        updated["body"]["data"]["changedFields"],
        serde_json::json!(["comments", "receiver.phone"])
    );
    receiver.check_with_published_tools(&created.secret);
}
