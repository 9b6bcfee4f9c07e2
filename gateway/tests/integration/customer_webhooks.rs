//! A customer's own webhooks, in both modes, as its systems use them: JSON over HTTP, signed
//! in or with a key. Its endpoint hears of its own shipments only; another customer, a key
//! without the scope and the staff's list never see it.

use serde_json::{Value, json};
use test_servers::webhooks::TestWebhookReceiver;

use crate::api_keys::{create_key, customer_admin, customer_admin_of, signed_in, with_key};
use crate::common;
use crate::connect_json::{booking, post};
use crate::webhooks::webhooks_to_loopback;
use common::site::{
    ADMIN_EMAIL, ADMIN_PASSWORD, Site, all_in_one_with_services, distributed_with_services,
};

const SERVICE: &str = "CustomerWebhookService";

async fn book(site: &Site, cookie: &str) -> String {
    let (status, booked, _) = post(
        site,
        "CustomerPortalService/CreateShipment",
        &booking().to_string(),
        cookie,
    )
    .await;
    assert_eq!(status, 200, "{booked}");
    booked["trackingNumber"].as_str().unwrap().to_owned()
}

fn types(deliveries: &Value) -> Vec<(String, String)> {
    deliveries["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["eventType"].as_str().unwrap().to_owned(),
                d["trackingNumber"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

async fn customers_hear_of_their_own_shipments_only(site: &Site) {
    let receiver = TestWebhookReceiver::start();
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (acme, _) = customer_admin_of(site, &admin, "Acme Hooks").await;
    let bolt = customer_admin(site, &admin, "Bolt Hooks").await;

    let (status, made, _) = post(
        site,
        &format!("{SERVICE}/CreateWebhookEndpoint"),
        &json!({
            "url": receiver.url("/acme"),
            "events": ["WEBHOOK_EVENT_TYPE_SHIPMENT_CREATED"],
            "description": "Acme's ERP",
        })
        .to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let secret = made["secret"].as_str().unwrap().to_owned();
    let id = made["endpoint"]["id"].as_str().unwrap().to_owned();
    receiver.trust(&[&secret]);

    // A key with the scope manages the customer's endpoints; one without it may not.
    let (_, hooks_key) = create_key(site, &acme, "hooks", &["webhooks.manage"]).await;
    let (_, read_key) = create_key(site, &acme, "reader", &["shipments.read"]).await;
    let list = format!("{SERVICE}/ListWebhookEndpoints");
    let (status, listed) = with_key(site, &list, json!({}), &hooks_key).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["endpoints"][0]["id"], id.as_str());
    let (status, refused) = with_key(site, &list, json!({}), &read_key).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("permission_denied"))
    );

    // Another customer and the staff's own list never see it; reaching for it is NOT_FOUND.
    let (_, theirs, _) = post(site, &list, "{}", &bolt).await;
    assert_eq!(theirs, json!({}), "{theirs}");
    for (method, body) in [
        ("DeleteWebhookEndpoint", json!({"id": id})),
        ("ListWebhookDeliveries", json!({"endpointId": id})),
        ("SendTestWebhookEvent", json!({"endpointId": id})),
    ] {
        let (status, refused, _) = post(
            site,
            &format!("{SERVICE}/{method}"),
            &body.to_string(),
            &bolt,
        )
        .await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (404, Some("Webhook endpoint not found")),
            "{method}"
        );
    }
    let (status, staff_list, _) =
        post(site, "WebhookService/ListWebhookEndpoints", "{}", &admin).await;
    assert_eq!(status, 200);
    assert!(!staff_list.to_string().contains(&id), "{staff_list}");
    // Staff are not a customer's admins.
    let (status, _, _) = post(site, &list, "{}", &admin).await;
    assert_eq!(status, 403);

    // A test, then the other customer's booking and Acme's: Acme's endpoint gets its own.
    let (status, test, _) = post(
        site,
        &format!("{SERVICE}/SendTestWebhookEvent"),
        &json!({"endpointId": id}).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{test}");
    let theirs = book(site, &bolt).await;
    let ours = book(site, &acme).await;
    let (status, deliveries, _) = post(
        site,
        &format!("{SERVICE}/ListWebhookDeliveries"),
        &json!({"endpointId": id}).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{deliveries}");
    assert_eq!(
        types(&deliveries),
        [
            (
                "WEBHOOK_EVENT_TYPE_SHIPMENT_CREATED".to_owned(),
                ours.clone()
            ),
            ("WEBHOOK_EVENT_TYPE_TEST".to_owned(), String::new()),
        ]
    );
    let received = receiver.wait_for(2).await;
    let numbers: Vec<&str> = received
        .iter()
        .filter_map(|r| r["body"]["data"]["shipment"]["trackingNumber"].as_str())
        .collect();
    assert_eq!(numbers, [ours.as_str()], "not {theirs}");
    for r in &received {
        assert_eq!(r["path"], "/acme");
        assert_eq!(r["verified_with"], json!([0]), "{r}");
    }
    receiver.check_with_published_tools(&secret);
}

#[tokio::test]
async fn all_in_one_customers_hear_of_their_own_shipments_only() {
    let site = all_in_one_with_services(|_| {}, webhooks_to_loopback).await;
    customers_hear_of_their_own_shipments_only(&site).await;
}

#[tokio::test]
async fn distributed_customers_hear_of_their_own_shipments_only() {
    let site = distributed_with_services(|_| {}, webhooks_to_loopback).await;
    customers_hear_of_their_own_shipments_only(&site).await;
}
