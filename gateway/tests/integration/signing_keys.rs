//! The keys that sign e-mailed links and tracking cookies outlive a restart: all-in-one they are
//! made once in DATA_DIR and reused; distributed they come from JWT_SIGNING_KEY. A rotation
//! lets a new key sign while links made before it still open; a key no longer listed opens
//! nothing.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use base64::Engine;
use common::site::{self, ADMIN_EMAIL, ADMIN_PASSWORD, Site};
use common::wire::{frame, read_reply, sign_in};
use logistics_proto::v1 as pb;
use outbox::OutboxStore;
use prost::Message;
use service_auth::TokenSettings;

const OK: i32 = 0;
const INVALID_ARGUMENT: i32 = 3;

/// A gRPC-web call through the gateway with extra headers: the reply and its `Set-Cookie`.
async fn call(
    site: &Site,
    path: &str,
    message: impl Message,
    headers: &[(&str, &str)],
) -> (common::wire::Reply, Option<String>) {
    let mut request = reqwest::Client::new()
        .post(format!("{}/logistics.v1.{path}", site.base))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request
        .body(frame(&message.encode_to_vec()))
        .send()
        .await
        .unwrap();
    let (reply, headers) = read_reply(response).await;
    let cookie = headers
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_owned());
    (reply, cookie)
}

fn party(name: &str, email: &str) -> Option<pb::Party> {
    Some(pb::Party {
        name: name.into(),
        address: "Wilhelminakade 88, Rotterdam".into(),
        phone: "+31 10 555 0199".into(),
        email: email.into(),
    })
}

/// A shipment created by the admin through the site; its receiver's e-mailed full-view link
/// (the `access` token), as the product signed it.
async fn shipment_with_link(site: &Site) -> (String, String) {
    let (reply, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(OK), "{}", reply.message);
    let admin = cookie.unwrap().split(';').next().unwrap().to_owned();
    let shipment = pb::Shipment {
        shipper: party("Amara Okafor", "amara@example.com"),
        receiver: party("Jan de Vries", "jan@example.nl"),
        origin: "Lagos".into(),
        destination: "Rotterdam".into(),
        carrier: "Maersk".into(),
        r#type: pb::ShipmentType::Express.into(),
        mode: pb::ShipmentMode::SeaShipping.into(),
        package_count: 1,
        product: "Cocoa".into(),
        product_quantity: 1,
        payment_mode: pb::PaymentMode::CreditCard.into(),
        weight_kg: 4.0,
        expected_delivery_date: Some(pb::Date {
            year: 2030,
            month: 12,
            day: 24,
        }),
        departure_time: Some(pb::TimeOfDay {
            hours: 8,
            minutes: 30,
        }),
        pickup_date: Some(pb::Date {
            year: 2030,
            month: 12,
            day: 1,
        }),
        pickup_time: Some(pb::TimeOfDay {
            hours: 9,
            minutes: 15,
        }),
        packages: vec![pb::Package {
            quantity: 1,
            piece_type: "Box".into(),
            description: "Beans".into(),
            length_cm: 50.0,
            width_cm: 40.0,
            height_cm: 30.0,
            weight_kg: 4.0,
        }],
        ..Default::default()
    };
    let request = pb::CreateShipmentRequest {
        shipment: Some(shipment),
        ..Default::default()
    };
    let (reply, _) = call(
        site,
        "ShipmentService/CreateShipment",
        request,
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{}", reply.message);
    let number = pb::Shipment::decode(reply.body.unwrap())
        .unwrap()
        .tracking_number;
    let outbox = outbox::SqliteOutbox::open(&site.data).unwrap();
    let emails = outbox.list(&Default::default(), 100, None).await.unwrap();
    let link = emails
        .notifications
        .iter()
        .filter(|n| n.tracking_number == number && n.template == outbox::Template::Receiver)
        .find_map(|n| n.params.get("tracking_url"))
        .expect("the receiver's e-mail")
        .clone();
    let token = link.split_once("?access=").expect("a full-view link").1;
    (number, token.to_owned())
}

/// Opens the e-mailed link: the view it shows, the field it refused, and the cookie it set.
async fn open_link(site: &Site, number: &str, token: &str) -> (pb::ShipmentView, String, String) {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        access_token: token.into(),
    };
    let (reply, cookie) = call(
        site,
        "ShipmentService/GetShipmentByTrackingNumber",
        request,
        &[],
    )
    .await;
    match reply.grpc_status {
        Some(OK) => (
            pb::Shipment::decode(reply.body.unwrap()).unwrap().view(),
            String::new(),
            cookie.map_or(String::new(), |c| c.split(';').next().unwrap().to_owned()),
        ),
        Some(INVALID_ARGUMENT) => (pb::ShipmentView::Unspecified, reply.message, String::new()),
        other => panic!("{other:?}: {}", reply.message),
    }
}

/// A lookup by a browser holding `cookie` (the grant of a verified party).
async fn view_with_cookie(site: &Site, number: &str, cookie: &str) -> pb::ShipmentView {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    };
    let (reply, _) = call(
        site,
        "ShipmentService/GetShipmentByTrackingNumber",
        request,
        &[("cookie", cookie)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{}", reply.message);
    pb::Shipment::decode(reply.body.unwrap()).unwrap().view()
}

/// The key id a token (or a cookie holding one) names in its header.
fn kid(token: &str) -> String {
    // A cookie `name=token` or a bare token.
    let token = token.rsplit('=').next().unwrap();
    let header = token.split('.').next().unwrap();
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .unwrap();
    let header: serde_json::Value = serde_json::from_slice(&json).unwrap();
    header["kid"].as_str().expect("a key id").to_owned()
}

#[tokio::test]
async fn all_in_one_links_and_cookies_outlive_a_restart_and_a_rotation() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let keys = TokenSettings::default();

    let first = site::all_in_one_keyed(&data, &keys).await;
    let (number, token) = shipment_with_link(&first).await;
    let (view, _, cookie) = open_link(&first, &number, &token).await;
    assert_eq!(view, pb::ShipmentView::Full);
    assert!(cookie.starts_with("pse_track_"), "{cookie:?}");
    let key_file = std::fs::read(data.join(service_auth::keyfile::FILE)).unwrap();
    drop(first);

    let restarted = site::all_in_one_keyed(&data, &keys).await;
    assert_eq!(
        std::fs::read(data.join(service_auth::keyfile::FILE)).unwrap(),
        key_file,
        "the same keys, not new ones"
    );
    assert_eq!(
        open_link(&restarted, &number, &token).await.0,
        pb::ShipmentView::Full,
        "the link e-mailed before the restart"
    );
    assert_eq!(
        view_with_cookie(&restarted, &number, &cookie).await,
        pb::ShipmentView::Full,
        "the cookie of a party verified before the restart"
    );
    drop(restarted);

    let rotation = service_auth::keyfile::rotate(&data, false).unwrap();
    let rotated = site::all_in_one_keyed(&data, &keys).await;
    assert_eq!(
        open_link(&rotated, &number, &token).await.0,
        pb::ShipmentView::Full,
        "a link signed by the retired key"
    );
    assert_eq!(
        view_with_cookie(&rotated, &number, &cookie).await,
        pb::ShipmentView::Full
    );
    let (newer, new_token) = shipment_with_link(&rotated).await;
    // E-mailed links name no key; the cookies they open do.
    let (_, _, new_cookie) = open_link(&rotated, &newer, &new_token).await;
    assert_eq!(kid(&new_cookie), rotation.signing, "the new key signs");
    assert_eq!(rotation.retired, [kid(&cookie)]);
    drop(rotated);

    // After a leak: the retired keys are forgotten, and what they signed opens nothing.
    service_auth::keyfile::rotate(&data, true).unwrap();
    let forgotten = site::all_in_one_keyed(&data, &keys).await;
    for (number, token) in [(&number, &token), (&newer, &new_token)] {
        let (view, refused, _) = open_link(&forgotten, number, token).await;
        assert_eq!(view, pb::ShipmentView::Unspecified);
        assert!(!refused.is_empty());
    }
    assert_eq!(
        view_with_cookie(&forgotten, &number, &cookie).await,
        pb::ShipmentView::Limited,
        "a cookie signed by a forgotten key is ignored"
    );
}

fn settings(current: &str, previous: &[&str]) -> TokenSettings {
    TokenSettings {
        jwt_signing_key: Some(current.into()),
        jwt_previous_signing_keys: previous.iter().map(|k| (*k).into()).collect(),
    }
}

fn new_key() -> String {
    let mut secret = [0u8; 32];
    rand::fill(&mut secret);
    base64::engine::general_purpose::STANDARD.encode(secret)
}

#[tokio::test]
async fn distributed_links_outlive_a_restart_and_a_rotation_with_previous_keys() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path();
    let (old, new) = (new_key(), new_key());

    let first = site::distributed_keyed(data, &settings(&old, &[])).await;
    let (number, token) = shipment_with_link(&first).await;
    let (view, _, cookie) = open_link(&first, &number, &token).await;
    assert_eq!(view, pb::ShipmentView::Full);
    drop(first);

    let restarted = site::distributed_keyed(data, &settings(&old, &[])).await;
    assert_eq!(
        open_link(&restarted, &number, &token).await.0,
        pb::ShipmentView::Full
    );
    assert_eq!(
        view_with_cookie(&restarted, &number, &cookie).await,
        pb::ShipmentView::Full
    );
    drop(restarted);

    // The new key signs; the old one, listed as previous, still verifies.
    let rotated = site::distributed_keyed(data, &settings(&new, &[&old])).await;
    assert_eq!(
        open_link(&rotated, &number, &token).await.0,
        pb::ShipmentView::Full
    );
    assert_eq!(
        view_with_cookie(&rotated, &number, &cookie).await,
        pb::ShipmentView::Full
    );
    let (newer, new_token) = shipment_with_link(&rotated).await;
    let (_, _, new_cookie) = open_link(&rotated, &newer, &new_token).await;
    assert_ne!(kid(&new_cookie), kid(&cookie));
    drop(rotated);

    // The old key no longer listed: what it signed is refused, what the new one signed opens.
    let later = site::distributed_keyed(data, &settings(&new, &[])).await;
    let (view, refused, _) = open_link(&later, &number, &token).await;
    assert_eq!(view, pb::ShipmentView::Unspecified);
    assert!(!refused.is_empty());
    assert_eq!(
        view_with_cookie(&later, &number, &cookie).await,
        pb::ShipmentView::Limited
    );
}

/// Starts the gateway binary on `data` until it listens; its log.
fn start_and_stop(data: &Path) -> Vec<String> {
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("index.html"), "<!doctype html>").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("PORT", "0")
        .env("DATA_DIR", data)
        .env("STATIC_DIR", files.path())
        .env("METRICS_ADDR", "off")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut log = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        let ready = line.contains("listening on");
        log.push(line);
        if ready {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        log.iter().any(|l| l.contains("listening on")),
        "never ready: {log:#?}"
    );
    log
}

#[test]
fn the_binary_makes_its_key_once_private_and_rotates_it_on_request() {
    use std::os::unix::fs::PermissionsExt;
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let file = data.join(service_auth::keyfile::FILE);
    let log = start_and_stop(&data);
    assert!(
        log.iter().any(|l| l.contains("made the token signing key")),
        "{log:#?}"
    );
    let made = std::fs::read(&file).unwrap();
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let log = start_and_stop(&data);
    assert!(!log.iter().any(|l| l.contains("made the token signing key")));
    assert_eq!(std::fs::read(&file).unwrap(), made, "reused, not remade");

    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("DATA_DIR", &data)
        .arg("rotate-signing-key")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("signs from the next start on"), "{said}");
    let keys: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(keys["keys"].as_array().unwrap().len(), 2);
    assert!(keys["keys"][1]["retiredAt"].is_string());
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let rotated = std::fs::read(&file).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("DATA_DIR", &data)
        .env("JWT_SIGNING_KEY", new_key())
        .arg("rotate-signing-key")
        .output()
        .unwrap();
    assert!(!output.status.success(), "the key file is not in use");
    assert!(String::from_utf8_lossy(&output.stderr).contains("JWT_PREVIOUS_SIGNING_KEYS"));
    assert_eq!(std::fs::read(&file).unwrap(), rotated);

    // Set with JWT_PREVIOUS_SIGNING_KEYS alone, or a short key: refused, naming the variable.
    for (name, value) in [
        ("JWT_PREVIOUS_SIGNING_KEYS", new_key()),
        ("JWT_SIGNING_KEY", "c2hvcnQ=".to_owned()),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
            .env_clear()
            .env("DATA_DIR", &data)
            .env("PORT", "0")
            .env("METRICS_ADDR", "off")
            .env(name, value)
            .output()
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(name), "{stderr}");
    }
}

#[tokio::test]
async fn the_demo_signs_its_links_with_the_products_own_key() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let output = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .env_clear()
        .env("DATA_DIR", &data)
        .env("METRICS_ADDR", "off")
        .arg("demo")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let outbox = outbox::SqliteOutbox::open(&data).unwrap();
    let emails = outbox.list(&Default::default(), 100, None).await.unwrap();
    let email = emails
        .notifications
        .iter()
        .find(|n| n.template == outbox::Template::Receiver)
        .expect("a demo shipment's e-mail");
    let token = email.params["tracking_url"]
        .split_once("?access=")
        .expect("a full-view link")
        .1;
    let store =
        shipments::store::SqliteShipmentStore::open(&data.join("shipments.sqlite3")).unwrap();
    let number = shipments::domain::TrackingNumber::parse(&email.tracking_number).unwrap();
    let shipment = <shipments::store::SqliteShipmentStore as shipments::store::Shipments>::find_by_tracking_number(&store, &number)
        .await
        .unwrap();
    let seal = shipments::privacy::seal_of(&shipment);
    let keys = service_auth::keyfile::load_or_create(&data).unwrap();
    assert!(
        shipments::privacy::verify_access(&keys, number.as_str(), &seal, token).is_some(),
        "the product, started on this DATA_DIR, opens the demo's links"
    );
}
