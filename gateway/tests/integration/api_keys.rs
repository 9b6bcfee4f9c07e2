//! API keys through the gateway, in both modes, as an integrator uses them: JSON over HTTP with
//! `Authorization: Bearer`. A customer admin's key books (once per Idempotency-Key), lists and
//! prints its own customer's shipments; a key without the scope, another customer's key, a
//! revoked key and a made-up one are each refused; the audit log names the key, its usage is
//! counted, and its calls per minute are limited.

use std::time::Duration;

use serde_json::{Value, json};
use service_auth::Role;

use crate::common;
use crate::connect_json::{booking, post, post_with};
use crate::customers::{PASSWORD, accept_invitation};
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site};

/// POSTs `body` to `method` with the API key `secret`: the HTTP status and the JSON answer.
pub(crate) async fn with_key(site: &Site, method: &str, body: Value, secret: &str) -> (u16, Value) {
    let bearer = format!("Bearer {secret}");
    let (status, answer, _, _) = post_with(
        site,
        method,
        &body.to_string(),
        "",
        &[("authorization", bearer.as_str())],
    )
    .await;
    (status, answer)
}

pub(crate) async fn signed_in(site: &Site, email: &str, password: &str) -> String {
    let (status, answer, cookie) = post(
        site,
        "SessionService/CreateSession",
        &json!({"email": email, "password": password}).to_string(),
        "",
    )
    .await;
    assert_eq!(status, 200, "{email}: {answer}");
    cookie.unwrap()
}

/// A customer named `name` with an admin signed in; the admin's session cookie.
pub(crate) async fn customer_admin(site: &Site, staff: &str, name: &str) -> String {
    customer_admin_of(site, staff, name).await.0
}

/// `customer_admin`, and the customer's id.
pub(crate) async fn customer_admin_of(site: &Site, staff: &str, name: &str) -> (String, String) {
    let (status, customer, _) = post(
        site,
        "CustomerService/CreateCustomer",
        &json!({"customer": {"name": name}}).to_string(),
        staff,
    )
    .await;
    assert_eq!(status, 200, "{customer}");
    let customer: logistics_proto::v1::Customer = logistics_proto::v1::Customer {
        id: customer["id"].as_str().unwrap().into(),
        name: name.into(),
        ..Default::default()
    };
    let email = format!(
        "admin@{}.example.com",
        name.to_lowercase().replace(' ', "-")
    );
    accept_invitation(site, &customer, &email, Role::CustomerAdmin).await;
    (signed_in(site, &email, PASSWORD).await, customer.id)
}

/// Creates a key named `name` with `scopes` for the session `cookie`: its id and secret.
pub(crate) async fn create_key(
    site: &Site,
    cookie: &str,
    name: &str,
    scopes: &[&str],
) -> (String, String) {
    let (status, made, _) = post(
        site,
        "ApiKeyService/CreateApiKey",
        &json!({"apiKey": {"displayName": name, "scopes": scopes}}).to_string(),
        cookie,
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let secret = made["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("lk_") && secret.len() == 46, "{secret}");
    (made["apiKey"]["id"].as_str().unwrap().to_owned(), secret)
}

/// Calls `holds` every 200 ms until it answers true, for at most `seconds`.
async fn within(seconds: u64, mut holds: impl AsyncFnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    loop {
        if holds().await {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn keys_call_as_their_creator_within_their_scopes(site: &Site) {
    let staff = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let acme = customer_admin(site, &staff, "Acme Imports").await;
    let bolt = customer_admin(site, &staff, "Bolt Freight").await;

    // Bad input names its field; a scope outside what a customer may give is refused.
    let (status, refused, _) = post(
        site,
        "ApiKeyService/CreateApiKey",
        &json!({"apiKey": {"displayName": "ERP", "scopes": ["shipments.delete"]}}).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        refused["details"][0]["debug"]["fieldViolations"][0]["field"], "api_key.scopes",
        "{refused}"
    );

    let (erp_id, erp) = create_key(
        site,
        &acme,
        "Warehouse ERP",
        &["shipments.read", "shipments.book"],
    )
    .await;
    let (_, reader) = create_key(site, &acme, "Read only", &["shipments.read"]).await;
    let (_, bolt_key) = create_key(site, &bolt, "Bolt ERP", &["shipments.read"]).await;

    // The web app's gRPC-web calls reach the keys too.
    let (reply, _) = crate::calls::call(
        &site.base,
        "logistics.v1.ApiKeyService/ListApiKeys",
        Vec::new(),
        &[("cookie", acme.as_str())],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(crate::calls::OK));

    // The secret is shown once: the list has its prefix only.
    let (status, listed, _) = post(site, "ApiKeyService/ListApiKeys", "{}", &acme).await;
    assert_eq!(status, 200);
    assert!(
        !listed.to_string().contains(&erp),
        "the secret is never listed"
    );
    assert_eq!(
        listed["apiKeys"].as_array().unwrap().len(),
        2,
        "Acme's keys only: {listed}"
    );
    assert_eq!(
        listed["apiKeys"][0]["displayName"], "Read only",
        "newest first"
    );
    assert_eq!(listed["apiKeys"][1]["secretPrefix"], erp[..9]);

    // Book with an idempotency key: a retry answers the same shipment.
    let bearer = format!("Bearer {erp}");
    let headers = [
        ("authorization", bearer.as_str()),
        ("idempotency-key", "order-1042"),
    ];
    let body = booking().to_string();
    let first = post_with(
        site,
        "CustomerPortalService/CreateShipment",
        &body,
        "",
        &headers,
    )
    .await;
    let again = post_with(
        site,
        "CustomerPortalService/CreateShipment",
        &body,
        "",
        &headers,
    )
    .await;
    assert_eq!((first.0, again.0, again.3), (200, 200, true), "{}", first.1);
    assert_eq!(first.1["id"], again.1["id"], "one shipment");
    let id = first.1["id"].as_str().unwrap().to_owned();

    let (status, list) =
        with_key(site, "CustomerPortalService/ListShipments", json!({}), &erp).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["shipments"].as_array().unwrap().len(), 1);

    // Labels as a download, with the key.
    let pdf = reqwest::Client::new()
        .get(format!("{}/exports/portal/labels.pdf?ids={id}", site.base))
        .header("authorization", &bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");

    // A key without the scope, another customer's key, a staff method, a method for people.
    let (status, refused) = with_key(
        site,
        "CustomerPortalService/CreateShipment",
        booking(),
        &reader,
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (403, Some("permission_denied"))
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("shipments.book"),
        "{refused}"
    );
    let (status, _) = with_key(
        site,
        "CustomerPortalService/GetShipment",
        json!({"id": id}),
        &bolt_key,
    )
    .await;
    assert_eq!(status, 404, "another customer's shipment is not found");
    let (status, _) = with_key(site, "ShipmentService/ListShipments", json!({}), &erp).await;
    assert_eq!(status, 403, "a customer's key never reaches staff methods");
    let (status, refused) = with_key(
        site,
        "ApiKeyService/CreateApiKey",
        json!({"apiKey": {"displayName": "More", "scopes": ["shipments.read"]}}),
        &erp,
    )
    .await;
    assert_eq!(status, 403, "{refused}");
    let made_up = format!("lk_{}", "A".repeat(43));
    for secret in [made_up.as_str(), "not-a-key"] {
        let (status, refused) = with_key(
            site,
            "CustomerPortalService/ListShipments",
            json!({}),
            secret,
        )
        .await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (401, Some("This API key is not valid.")),
            "{secret}"
        );
    }

    // The audit log names the key that booked.
    let (status, audit, _) = post(
        site,
        "AuditService/ListAuditEntries",
        &json!({"action": "shipment.create", "target": id}).to_string(),
        &staff,
    )
    .await;
    assert_eq!(status, 200, "{audit}");
    assert_eq!(
        audit["entries"][0]["actorApiKey"],
        format!("Warehouse ERP ({})", &erp[..9]),
        "{audit}"
    );

    // Its calls are counted (the gateway reports them within seconds).
    let counted = within(12, async || {
        let (_, listed, _) = post(site, "ApiKeyService/ListApiKeys", "{}", &acme).await;
        let key = listed["apiKeys"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == erp_id.as_str())
            .cloned()
            .unwrap();
        // The booking, the list and the labels; the replay and the refusals are no calls.
        key["lastUseTime"].is_string() && key["dailyUsage"][0]["calls"] == "3"
    })
    .await;
    let (_, listed, _) = post(site, "ApiKeyService/ListApiKeys", "{}", &acme).await;
    assert!(counted, "the key's calls show as its usage: {listed}");

    // Revoked: refused within 5 s (at once through this gateway); nobody else may revoke it.
    let (status, _, _) = post(
        site,
        "ApiKeyService/RevokeApiKey",
        &json!({"id": erp_id}).to_string(),
        &bolt,
    )
    .await;
    assert_eq!(status, 404, "another customer's key is not found");
    let (status, revoked, _) = post(
        site,
        "ApiKeyService/RevokeApiKey",
        &json!({"id": erp_id}).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["revokeTime"].is_string());
    let refused = within(5, async || {
        with_key(site, "CustomerPortalService/ListShipments", json!({}), &erp)
            .await
            .0
            == 401
    })
    .await;
    assert!(refused, "a revoked key is refused within 5 s");
}

#[tokio::test]
async fn all_in_one_keys_call_as_their_creator_within_their_scopes() {
    keys_call_as_their_creator_within_their_scopes(&common::site::all_in_one().await).await;
}

#[tokio::test]
async fn distributed_keys_call_as_their_creator_within_their_scopes() {
    keys_call_as_their_creator_within_their_scopes(&common::site::distributed().await).await;
}

#[tokio::test]
async fn a_key_has_its_calls_per_minute_and_staff_keys_hold_their_scopes() {
    let site = common::site::all_in_one_with_services(
        |_| {},
        |services| services.auth.api_key_rate_limit_per_minute = Some(5),
    )
    .await;
    let staff = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (_, key) = create_key(&site, &staff, "Reports", &["shipments.read"]).await;
    for call in 1..=5 {
        let (status, answer) =
            with_key(&site, "ShipmentService/ListShipments", json!({}), &key).await;
        assert_eq!(status, 200, "call {call}: {answer}");
    }
    let (status, refused) = with_key(&site, "ShipmentService/ListShipments", json!({}), &key).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (429, Some("resource_exhausted")),
        "{refused}"
    );
    // A staff key holds only its scopes, even for an admin.
    let (_, other) = create_key(&site, &staff, "Other", &["shipments.read"]).await;
    let (status, _) = with_key(&site, "ShipmentService/CreateShipment", booking(), &other).await;
    assert_eq!(status, 403, "no shipments.create scope");
}

/// Keys and what they made outlive a restart: a key made before it still calls, a key revoked
/// before it stays refused, and a retried booking still answers with the shipment it made.
#[tokio::test]
async fn keys_and_their_bookings_outlive_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let site = common::site::all_in_one_on(data.path()).await;
    let admin = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let acme = customer_admin(&site, &admin, "Acme Restart Keys").await;
    let (_, kept) = create_key(&site, &acme, "kept", &["shipments.read", "shipments.book"]).await;
    let (revoked_id, revoked) = create_key(&site, &acme, "revoked", &["shipments.read"]).await;
    let (status, _, _) = post(
        &site,
        "ApiKeyService/RevokeApiKey",
        &json!({"id": revoked_id}).to_string(),
        &acme,
    )
    .await;
    assert_eq!(status, 200);
    let book = async |site: &Site| {
        let bearer = format!("Bearer {kept}");
        let (status, booked, _, replayed) = post_with(
            site,
            "CustomerPortalService/CreateShipment",
            &booking().to_string(),
            "",
            &[
                ("authorization", bearer.as_str()),
                ("idempotency-key", "order-restart-1"),
            ],
        )
        .await;
        assert_eq!(status, 200, "{booked}");
        (
            booked["trackingNumber"].as_str().unwrap().to_owned(),
            replayed,
        )
    };
    let (before, replayed) = book(&site).await;
    assert!(!replayed);
    drop(site);

    let site = common::site::all_in_one_on(data.path()).await;
    let (after, replayed) = book(&site).await;
    assert_eq!((after.as_str(), replayed), (before.as_str(), true));
    let (status, listed) = with_key(
        &site,
        "CustomerPortalService/ListShipments",
        json!({}),
        &kept,
    )
    .await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["shipments"].as_array().map(Vec::len), Some(1));
    let (status, _) = with_key(
        &site,
        "CustomerPortalService/ListShipments",
        json!({}),
        &revoked,
    )
    .await;
    assert_eq!(status, 401);
}
