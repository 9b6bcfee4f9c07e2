//! Every unary method as Connect JSON over plain HTTP, in both modes: a sign-in sets the
//! session cookie, a booking and a lookup answer JSON, and each error is a Connect error with
//! its HTTP status and, for a bad field, the field violations.

use crate::common;

use serde_json::{Value, json};

use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site, distributed};

use crate::calls::*;

/// POSTs `body` as JSON to `method` with `cookie`; the HTTP status, the JSON answer and the
/// session cookie it set.
pub(crate) async fn post(
    site: &Site,
    method: &str,
    body: &str,
    cookie: &str,
) -> (u16, Value, Option<String>) {
    let (status, body, cookie, _) = post_with(site, method, body, cookie, &[]).await;
    (status, body, cookie)
}

/// `post` with more headers; also whether the answer was a replay of an earlier one.
pub(crate) async fn post_with(
    site: &Site,
    method: &str,
    body: &str,
    cookie: &str,
    headers: &[(&str, &str)],
) -> (u16, Value, Option<String>, bool) {
    let mut request = reqwest::Client::new()
        .post(format!("{}/logistics.v1.{method}", site.base))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if !cookie.is_empty() {
        request = request.header("cookie", cookie);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    assert_eq!(
        reply.headers()["content-type"],
        "application/json",
        "{method}"
    );
    let cookie = set_cookie(reply.headers(), "session").map(cookie_pair);
    let replayed = reply.headers().get("idempotency-replayed").is_some();
    let text = reply.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap(),
        cookie,
        replayed,
    )
}

pub(crate) fn booking() -> Value {
    let party = |name: &str| json!({"name": name, "address": "1 Quay, Oslo", "phone": "+47 555 0101", "email": "ada@example.com"});
    json!({
        "shipment": {
            "shipper": party("Ada"), "receiver": party("Bo"),
            "origin": "Oslo, Norway", "destination": "Busan, Korea", "carrier": "Maersk",
            "type": "SHIPMENT_TYPE_EXPRESS", "mode": "SHIPMENT_MODE_SEA_SHIPPING",
            "packageCount": 1, "product": "Salmon", "productQuantity": 1,
            "paymentMode": "PAYMENT_MODE_CASH", "totalFreightCents": "12050", "weightKg": 12.5,
            "expectedDeliveryDate": {"year": 2030, "month": 3, "day": 1},
            "departureTime": {"hours": 8, "minutes": 30},
            "pickupDate": {"year": 2030, "month": 2, "day": 1},
            "pickupTime": {"hours": 9, "minutes": 15},
            "packages": [{"quantity": 1, "pieceType": "Box", "description": "Fish",
                          "lengthCm": 40, "widthCm": 30, "heightCm": 20, "weightKg": 12.5}]
        }
    })
}

async fn unary_methods_answer_connect_json(site: &Site) {
    // Signed out: a Connect error with its HTTP status.
    let (status, body, _) = post(site, "ShipmentService/ListShipments", "{}", "").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("unauthenticated"))
    );

    let (status, _, cookie) = post(
        site,
        "SessionService/CreateSession",
        &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}).to_string(),
        "",
    )
    .await;
    assert_eq!(status, 200);
    let admin = cookie.expect("the sign-in sets the session cookie");

    let (status, made, _) = post(
        site,
        "ShipmentService/CreateShipment",
        &booking().to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let number = made["trackingNumber"].as_str().unwrap().to_owned();
    assert_eq!(made["status"], "SHIPMENT_STATUS_PENDING");
    assert_eq!(
        made["totalFreightCents"], "12050",
        "64-bit numbers as strings"
    );

    let (status, found, _) = post(
        site,
        "ShipmentService/GetShipmentByTrackingNumber",
        &json!({"trackingNumber": number.to_lowercase()}).to_string(),
        "",
    )
    .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["trackingNumber"], number.as_str());

    // A retried booking with its Idempotency-Key is answered, not booked again.
    let key = [("idempotency-key", "booking-7f3a")];
    let body = booking().to_string();
    let first = post_with(site, "ShipmentService/CreateShipment", &body, &admin, &key).await;
    let again = post_with(site, "ShipmentService/CreateShipment", &body, &admin, &key).await;
    assert_eq!((first.0, first.3), (200, false), "{}", first.1);
    assert_eq!((again.0, again.3), (200, true));
    assert_eq!(first.1["id"], again.1["id"], "one shipment");
    let mut other = booking();
    other["shipment"]["product"] = json!("Cod");
    let reused = post_with(
        site,
        "ShipmentService/CreateShipment",
        &other.to_string(),
        &admin,
        &key,
    )
    .await;
    assert_eq!(
        (reused.0, reused.1["message"].as_str()),
        (
            400,
            Some("This Idempotency-Key was used with a different request.")
        )
    );
    let long = "k".repeat(256);
    let refused = post_with(
        site,
        "ShipmentService/CreateShipment",
        &body,
        &admin,
        &[("idempotency-key", &long)],
    )
    .await;
    assert_eq!(refused.0, 400);

    // A bad field: 400 with the violations, in the bytes and readable.
    let mut bad = booking();
    bad["shipment"]["receiver"]["email"] = json!("not an address");
    let (status, refused, _) = post(
        site,
        "ShipmentService/CreateShipment",
        &bad.to_string(),
        &admin,
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("invalid_argument"))
    );
    let detail = &refused["details"][0];
    assert_eq!(detail["type"], "google.rpc.BadRequest");
    assert!(!detail["value"].as_str().unwrap().is_empty());
    let fields: Vec<&str> = detail["debug"]["fieldViolations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"receiver.email"), "{refused}");

    // What is not the method's message, or no method at all.
    for (method, body, expected) in [
        (
            "ShipmentService/GetShipment",
            r#"{"idd": "x"}"#,
            (400, "invalid_argument"),
        ),
        (
            "ShipmentService/GetShipment",
            r#"{"id": 5"#,
            (400, "invalid_argument"),
        ),
        (
            "ShipmentService/GetShipment",
            r#"{"id": "0190ffffffffffffffffffff"}"#,
            (404, "not_found"),
        ),
        ("ShipmentService/NoSuchMethod", "{}", (501, "unimplemented")),
        (
            "ShipmentService/ExportShipments",
            "{}",
            (501, "unimplemented"),
        ),
        (
            "AuthService/GetCurrentUser",
            "{}",
            (403, "permission_denied"),
        ),
    ] {
        let (status, body, _) = post(site, method, body, &admin).await;
        assert_eq!(
            (status, body["code"].as_str().unwrap()),
            expected,
            "{method}: {body}"
        );
    }
    let huge = format!(r#"{{"id": "{}"}}"#, "x".repeat(1024 * 1024));
    let (status, body, _) = post(site, "ShipmentService/GetShipment", &huge, &admin).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("resource_exhausted"))
    );
}

#[tokio::test]
async fn all_in_one_unary_methods_answer_connect_json() {
    unary_methods_answer_connect_json(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_unary_methods_answer_connect_json() {
    unary_methods_answer_connect_json(&distributed().await).await;
}

/// `/openapi.json` passes an independent OpenAPI validator (`make openapi-tools`) and
/// describes the JSON API: its unary methods, by their JSON names, never an internal or a
/// streaming one.
#[tokio::test]
async fn the_openapi_document_describes_the_json_api_and_is_valid() {
    let site = all_in_one(60).await;
    let reply = reqwest::get(format!("{}/openapi.json", site.base))
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let text = reply.text().await.unwrap();
    let document: Value = serde_json::from_str(&text).unwrap();
    let paths = document["paths"].as_object().unwrap();
    let lookup = &paths["/logistics.v1.ShipmentService/GetShipmentByTrackingNumber"]["post"];
    assert_eq!(lookup["description"], "Anyone (rate-limited per network).");
    assert!(paths.contains_key("/logistics.v1.CustomerPortalService/CreateShipment"));
    assert!(
        !paths.contains_key("/logistics.v1.ShipmentService/ExportShipments"),
        "streaming"
    );
    assert!(
        !paths.contains_key("/logistics.v1.AuthService/GetCurrentUser"),
        "internal"
    );
    let shipment = &document["components"]["schemas"]["logistics.v1.Shipment"]["properties"];
    assert_eq!(shipment["trackingNumber"]["type"], "string");
    assert_eq!(shipment["totalFreightCents"]["format"], "int64");

    let file = std::env::temp_dir().join(format!("openapi-{}.json", std::process::id()));
    std::fs::write(&file, &text).unwrap();
    let validator = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../.tools/openapi/bin/openapi-spec-validator"
    );
    let output = std::process::Command::new(validator)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{validator}: {e} (run `make openapi-tools`)"));
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_file(file);
}

/// A booking retried with its Idempotency-Key after a restart of the all-in-one is answered
/// from before the restart, not booked again.
#[tokio::test]
async fn an_idempotency_key_outlives_a_restart() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let first = common::site::all_in_one_on_with(&data, |_| {}).await;
    let admin = signed_in(&first, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let key = [("idempotency-key", "restart-2f9c")];
    let body = booking().to_string();
    let before = post_with(
        &first,
        "ShipmentService/CreateShipment",
        &body,
        &admin,
        &key,
    )
    .await;
    assert_eq!(before.0, 200, "{}", before.1);
    drop(first);
    let second = common::site::all_in_one_on_with(&data, |_| {}).await;
    let after = post_with(
        &second,
        "ShipmentService/CreateShipment",
        &body,
        &admin,
        &key,
    )
    .await;
    assert_eq!((after.0, after.3), (200, true));
    assert_eq!(before.1["id"], after.1["id"]);
}
