//! The gateway over real HTTP: gRPC-web calls as a browser makes them, the app's files,
//! and both ways of reaching the shipment service.

mod common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;
use service_auth::TokenKey;
use tokio::net::TcpListener;

use test_servers::smtp::TestSmtpServer;
use test_servers::webhooks::TestWebhookReceiver;

use common::site::{
    ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_with, all_in_one_with_services,
    distributed, distributed_with_services, static_dir,
};
use common::wire::{Reply, demo_shipment, frame, read_reply};

async fn all_in_one(lookups_per_minute: u64) -> Site {
    all_in_one_with(|s| s.tracking_lookups_per_minute = lookups_per_minute).await
}

async fn grpc_web(base: &str, method: &str, body: Vec<u8>) -> (Reply, reqwest::header::HeaderMap) {
    raw_call(
        base,
        &format!("logistics.v1.ShipmentService/{method}"),
        body,
        &[],
    )
    .await
}

async fn call(
    base: &str,
    path: &str,
    message: Vec<u8>,
    headers: &[(&str, &str)],
) -> (Reply, reqwest::header::HeaderMap) {
    raw_call(base, path, frame(&message), headers).await
}

/// A gRPC-web call of `path` (service/method) with a framed body and extra headers.
async fn raw_call(
    base: &str,
    path: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (Reply, reqwest::header::HeaderMap) {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/{path}"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    read_reply(request.body(body).send().await.unwrap()).await
}

async fn lookup(base: &str, number: &str) -> Reply {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    };
    grpc_web(
        base,
        "GetShipmentByTrackingNumber",
        frame(&request.encode_to_vec()),
    )
    .await
    .0
}

const OK: i32 = 0;
const INVALID_ARGUMENT: i32 = 3;
const NOT_FOUND: i32 = 5;
const PERMISSION_DENIED: i32 = 7;
const RESOURCE_EXHAUSTED: i32 = 8;
const UNAVAILABLE: i32 = 14;
const UNAUTHENTICATED: i32 = 16;

async fn tracking_lookup_works(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let reply = lookup(&site.base, shipment.tracking_number.as_str()).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let found = pb::Shipment::decode(reply.body.unwrap()).unwrap();
    assert_eq!(found.tracking_number, shipment.tracking_number.as_str());
    assert_eq!(found.view(), pb::ShipmentView::Limited);
    assert_eq!(
        found.shipper.unwrap().name,
        shipments::privacy::short_name(&shipment.details.shipper_name)
    );
    let reply = lookup(&site.base, "PSE000000000").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (Some(NOT_FOUND), "Shipment not found")
    );
}

#[tokio::test]
async fn all_in_one_tracks_a_shipment_over_grpc_web() {
    tracking_lookup_works(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_tracks_a_shipment_over_grpc_web() {
    tracking_lookup_works(&distributed().await).await;
}

#[tokio::test]
async fn pattern_and_operator_numbers_are_refused_not_matched() {
    let site = all_in_one(60).await;
    demo_shipment(&site.store).await;
    for input in ["   ", ".*", "{\"$gt\":\"\"}", "^PSE", "PSE.*"] {
        let reply = lookup(&site.base, input).await;
        assert_eq!(
            reply.grpc_status,
            Some(INVALID_ARGUMENT),
            "{input}: {reply:?}"
        );
        assert!(reply.body.is_none());
    }
}

#[tokio::test]
async fn admin_methods_need_an_admin_session() {
    let site = all_in_one(60).await;
    let shipment = demo_shipment(&site.store).await;
    let calls: [(&str, Vec<u8>); 4] = [
        (
            "ListShipments",
            pb::ListShipmentsRequest::default().encode_to_vec(),
        ),
        (
            "GetShipment",
            pb::GetShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
        (
            "CreateShipment",
            pb::CreateShipmentRequest::default().encode_to_vec(),
        ),
        (
            "DeleteShipment",
            pb::DeleteShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
    ];
    for (method, body) in calls {
        let (reply, _) = grpc_web(&site.base, method, frame(&body)).await;
        assert_eq!(
            reply.grpc_status,
            Some(UNAUTHENTICATED),
            "{method} without a session"
        );
    }
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "the delete did not happen"
    );
}

#[tokio::test]
async fn tracking_lookups_are_rate_limited_per_client() {
    let site = all_in_one(3).await;
    for _ in 0..3 {
        assert_eq!(
            lookup(&site.base, "PSE000000000").await.grpc_status,
            Some(NOT_FOUND)
        );
    }
    let reply = lookup(&site.base, "PSE000000000").await;
    assert_eq!(reply.grpc_status, Some(RESOURCE_EXHAUSTED));
    assert_eq!(reply.message, gateway::rpc::TOO_MANY_LOOKUPS);
}

#[tokio::test]
async fn malformed_and_oversized_bodies_get_errors_and_the_gateway_keeps_serving() {
    let site = all_in_one(1000).await;
    let shipment = demo_shipment(&site.store).await;
    // Not protobuf at all.
    let (reply, _) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(b"\xff\xff\xff\xff garbage"),
    )
    .await;
    assert!(matches!(reply.grpc_status, Some(s) if s != OK), "{reply:?}");
    // A frame that announces more bytes than it carries.
    let mut truncated = vec![0u8, 0, 0, 1, 0];
    truncated.extend_from_slice(b"short");
    let (reply, _) = grpc_web(&site.base, "GetShipmentByTrackingNumber", truncated).await;
    assert!(
        reply.grpc_status != Some(OK) && reply.body.is_none(),
        "{reply:?}"
    );
    // A 1 MB tracking number is over the body limit.
    let huge = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: "9".repeat(1024 * 1024),
        ..Default::default()
    };
    let (reply, _) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(&huge.encode_to_vec()),
    )
    .await;
    assert!(
        reply.http == 413 || matches!(reply.grpc_status, Some(s) if s != OK),
        "{reply:?}"
    );
    // A plain GET on an RPC path is not a call.
    let get = reqwest::get(format!(
        "{}/logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
        site.base
    ))
    .await
    .unwrap();
    assert!(get.status().is_client_error());
    // Still serving.
    assert_eq!(
        lookup(&site.base, shipment.tracking_number.as_str())
            .await
            .grpc_status,
        Some(OK)
    );
}

#[tokio::test]
async fn a_stopped_shipment_service_gives_unavailable_within_a_second() {
    // Nothing listens on this port once the listener is dropped.
    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let site = all_in_one_with(|s| {
        let url = Some(format!("http://{closed}"));
        s.shipments_url = url.clone();
        s.auth_url = url.clone();
        s.notifications_url = url.clone();
        s.preferences_url = url;
    })
    .await;
    let base = site.base.clone();
    let started = Instant::now();
    let reply = lookup(&base, "PSE000000001").await;
    assert_eq!(reply.grpc_status, Some(UNAVAILABLE), "{reply:?}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(
        reqwest::get(format!("{base}/track"))
            .await
            .unwrap()
            .status(),
        200,
        "pages keep serving"
    );
}

#[tokio::test]
async fn serves_the_app_with_spa_fallback_cache_and_security_headers() {
    let site = all_in_one(60).await;
    let client = reqwest::Client::new();
    for path in [
        "/",
        "/track/PSE123456789",
        "/administration_and_development",
        "/no/such/page",
    ] {
        let response = client
            .get(format!("{}{path}", site.base))
            .send()
            .await
            .unwrap();
        let expected = if path == "/no/such/page" { 404 } else { 200 };
        assert_eq!(response.status(), expected, "{path}");
        let headers = response.headers().clone();
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
        assert!(
            !csp.split(';')
                .any(|d| d.trim().starts_with("script-src") && d.contains("unsafe-inline"))
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(
            headers["referrer-policy"],
            "strict-origin-when-cross-origin"
        );
        assert!(
            response
                .text()
                .await
                .unwrap()
                .contains("/assets/app-1a2b3c.js")
        );
    }
    let asset = client
        .get(format!("{}/assets/app-1a2b3c.js", site.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(asset.headers()["content-encoding"], "gzip");
    let missing = client
        .get(format!("{}/assets/app-000000.js", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        missing.status(),
        404,
        "a missing asset is not the app shell"
    );
    let (_, headers) = grpc_web(&site.base, "GetShipmentByTrackingNumber", frame(&[])).await;
    assert_eq!(
        headers["x-content-type-options"], "nosniff",
        "RPC answers carry the headers too"
    );
}

/// Signs in through the gateway; the reply and the `Set-Cookie` header.
async fn sign_in(base: &str, email: &str, password: &str) -> (Reply, Option<String>) {
    let request = pb::CreateSessionRequest {
        email: email.into(),
        password: password.into(),
    };
    let (reply, headers) = call(
        base,
        "logistics.v1.SessionService/CreateSession",
        request.encode_to_vec(),
        &[],
    )
    .await;
    (
        reply,
        headers
            .get("set-cookie")
            .map(|v| v.to_str().unwrap().to_owned()),
    )
}

/// `session=<id>` from a `Set-Cookie` header.
fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}

async fn list_shipments(base: &str, headers: &[(&str, &str)]) -> Reply {
    call(
        base,
        "logistics.v1.ShipmentService/ListShipments",
        pb::ListShipmentsRequest::default().encode_to_vec(),
        headers,
    )
    .await
    .0
}

async fn sessions_open_admin_methods_to_admins_only(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let (reply, set_cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let set_cookie = set_cookie.expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(
            set_cookie.contains(attribute),
            "{set_cookie} lacks {attribute}"
        );
    }
    let cookie = cookie_pair(&set_cookie);
    let session = pb::Session::decode(reply.body.unwrap()).unwrap();
    assert_eq!(session.user.unwrap().role(), pb::Role::Admin);

    let page = list_shipments(&site.base, &[("cookie", &cookie)]).await;
    assert_eq!(page.grpc_status, Some(OK), "{page:?}");
    let listed = pb::ListShipmentsResponse::decode(page.body.unwrap()).unwrap();
    assert!(listed.shipments.iter().any(|s| s.id == shipment.id));
    let (who, _) = call(
        &site.base,
        "logistics.v1.SessionService/GetSession",
        vec![],
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!(
        pb::Session::decode(who.body.unwrap())
            .unwrap()
            .user
            .unwrap()
            .email,
        ADMIN_EMAIL
    );

    // A page of another site cannot use the admin's cookie.
    let cross_site = list_shipments(
        &site.base,
        &[("cookie", &cookie), ("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
    let delete = pb::DeleteShipmentRequest {
        id: shipment.id.clone(),
    }
    .encode_to_vec();
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/DeleteShipment",
        delete,
        &[("cookie", &cookie), ("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(PERMISSION_DENIED));
    // A plain form post (no gRPC-web content type) is not a call at all.
    let form = reqwest::Client::new()
        .post(format!(
            "{}/logistics.v1.ShipmentService/DeleteShipment",
            site.base
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", &cookie)
        .body(format!("id={}", shipment.id))
        .send()
        .await
        .unwrap();
    assert!(form.status().is_client_error(), "{}", form.status());
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "neither cross-site delete happened"
    );

    // A signed-in user without the admin role, a forged cookie, no cookie.
    let (_, clerk_cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&clerk_cookie.unwrap());
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED)
    );
    assert_eq!(
        list_shipments(&site.base, &[("cookie", "session=forged")])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
    assert_eq!(
        list_shipments(&site.base, &[]).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuthService/SignIn",
        pb::SignInRequest::default().encode_to_vec(),
        &[],
    )
    .await;
    assert_eq!(
        reply.grpc_status,
        Some(PERMISSION_DENIED),
        "the services' sign-in is not for browsers"
    );

    // Signing in again rotates the id; signing out ends the session.
    let (_, again) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let again = cookie_pair(&again.unwrap());
    assert_ne!(again, cookie);
    let (_, headers) = call(
        &site.base,
        "logistics.v1.SessionService/DeleteSession",
        vec![],
        &[("cookie", &again)],
    )
    .await;
    assert!(
        headers["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &again)])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
}

#[tokio::test]
async fn all_in_one_sessions_open_admin_methods_to_admins_only() {
    sessions_open_admin_methods_to_admins_only(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_sessions_open_admin_methods_to_admins_only() {
    sessions_open_admin_methods_to_admins_only(&distributed().await).await;
}

#[tokio::test]
async fn sign_in_failures_are_alike_then_rate_limited() {
    let site = all_in_one(60).await;
    let (reply, cookie) = sign_in(&site.base, ADMIN_EMAIL, "wrong password, long").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str(), cookie),
        (Some(UNAUTHENTICATED), "Invalid email or password", None)
    );
    let (reply, _) = sign_in(&site.base, "nobody@example.com", "wrong password, long").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (Some(UNAUTHENTICATED), "Invalid email or password")
    );
    let (reply, _) = sign_in(&site.base, "not an email", "whatever").await;
    assert_eq!(reply.message, "Invalid email address format");
    // The test config allows 3 failures per account.
    for _ in 0..2 {
        sign_in(&site.base, ADMIN_EMAIL, "wrong password, long").await;
    }
    let (reply, _) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (
            Some(RESOURCE_EXHAUSTED),
            "Too many failed attempts. Please try again later"
        )
    );
    let (reply, _) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(OK), "other accounts are not locked");
}

#[tokio::test]
async fn the_cookie_is_secure_behind_a_trusted_https_proxy() {
    let site = all_in_one_with(|s| s.trusted_proxy_hops = 1).await;
    let request = pb::CreateSessionRequest {
        email: ADMIN_EMAIL.into(),
        password: ADMIN_PASSWORD.into(),
    };
    let (_, headers) = call(
        &site.base,
        "logistics.v1.SessionService/CreateSession",
        request.encode_to_vec(),
        &[("x-forwarded-proto", "https")],
    )
    .await;
    assert!(
        headers["set-cookie"]
            .to_str()
            .unwrap()
            .ends_with("; Secure")
    );
    let (_, plain) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert!(
        !plain.unwrap().contains("Secure"),
        "plain HTTP on localhost keeps working"
    );
}

#[tokio::test]
async fn sign_ins_are_rate_limited_per_client() {
    let site = all_in_one_with(|s| s.sign_ins_per_ip_per_minute = 2).await;
    for _ in 0..2 {
        assert_eq!(
            sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD)
                .await
                .0
                .grpc_status,
            Some(OK)
        );
    }
    let (reply, _) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (
            Some(RESOURCE_EXHAUSTED),
            "Too many failed attempts. Please try again later"
        )
    );
}

#[tokio::test]
async fn an_expired_session_opens_nothing() {
    let site = all_in_one_with(|s| s.session_absolute = Duration::from_secs(1)).await;
    let (_, set_cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let cookie = cookie_pair(&set_cookie.unwrap());
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &cookie)])
            .await
            .grpc_status,
        Some(OK)
    );
    // Wait out the one-second absolute lifetime (whole seconds, so up to two).
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &cookie)])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (who, _) = call(
        &site.base,
        "logistics.v1.SessionService/GetSession",
        vec![],
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!(who.grpc_status, Some(UNAUTHENTICATED));
}

async fn send_contact(
    base: &str,
    request: &pb::SendContactMessageRequest,
    headers: &[(&str, &str)],
) -> Reply {
    call(
        base,
        "logistics.v1.NotificationService/SendContactMessage",
        request.encode_to_vec(),
        headers,
    )
    .await
    .0
}

async fn list_outbox(base: &str, headers: &[(&str, &str)]) -> Reply {
    call(
        base,
        "logistics.v1.NotificationService/ListNotifications",
        // The demo's shipments write many update e-mails; one page holds them all.
        pb::ListNotificationsRequest {
            page_size: 100,
            ..Default::default()
        }
        .encode_to_vec(),
        headers,
    )
    .await
    .0
}

/// The contact form: public, checked field by field, limited per client, never cross-site; the
/// outbox is the admin's alone and shows the new shipment's two e-mails.
async fn contact_messages_and_the_outbox(site: &Site) {
    let message = pb::SendContactMessageRequest {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much to Lagos?".into(),
        website: String::new(),
    };
    let cross_site =
        send_contact(&site.base, &message, &[("origin", "https://evil.example")]).await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
    let invalid = pb::SendContactMessageRequest {
        email: "nope".into(),
        ..message.clone()
    };
    let reply = send_contact(&site.base, &invalid, &[]).await;
    assert_eq!(reply.grpc_status, Some(INVALID_ARGUMENT), "{reply:?}");
    assert!(
        reply
            .message
            .contains("email: is not a valid email address"),
        "{reply:?}"
    );
    // The limit is 2 an hour per client in these tests; the invalid one counted too.
    assert_eq!(
        send_contact(&site.base, &message, &[]).await.grpc_status,
        Some(OK)
    );
    let limited = send_contact(&site.base, &message, &[]).await;
    assert_eq!(limited.grpc_status, Some(RESOURCE_EXHAUSTED));
    assert_eq!(limited.message, gateway::rpc::TOO_MANY_MESSAGES);

    assert_eq!(
        list_outbox(&site.base, &[]).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    assert_eq!(
        list_outbox(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED)
    );
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    let created = demo_shipment(&site.store).await;
    let reply = list_outbox(&site.base, &[("cookie", &admin)]).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let outbox = pb::ListNotificationsResponse::decode(reply.body.unwrap()).unwrap();
    let for_shipment: Vec<_> = outbox
        .notifications
        .iter()
        .filter(|n| n.tracking_number == created.tracking_number.as_str())
        .filter(|n| {
            [pb::EmailTemplate::Shipper, pb::EmailTemplate::Receiver].contains(&n.template())
        })
        .collect();
    assert_eq!(for_shipment.len(), 2, "the shipper and the receiver e-mail");
    assert!(
        outbox
            .notifications
            .iter()
            .any(|n| n.template == pb::EmailTemplate::Contact as i32)
    );
}

#[tokio::test]
async fn all_in_one_contact_messages_and_the_outbox() {
    contact_messages_and_the_outbox(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_contact_messages_and_the_outbox() {
    contact_messages_and_the_outbox(&distributed().await).await;
}

/// The services' settings for e-mail over SMTP to `port` on this host.
fn over_smtp(port: u16) -> impl FnOnce(&mut gateway::HostedServices) {
    move |services| {
        services.notifications = service_common::settings::from_flags(&[
            "--mail-transport",
            "smtp",
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            &port.to_string(),
            "--smtp-tls",
            "none",
            "--mail-from",
            "Parcel Shipping Express <no-reply@pse.example>",
        ])
        .unwrap();
    }
}

/// A new shipment's two e-mails and a contact message reach a real SMTP server, written by the
/// product itself, and the outbox says they were sent.
async fn emails_go_out_over_smtp(site: &Site, server: &TestSmtpServer) {
    let message = pb::SendContactMessageRequest {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much to Lagos?".into(),
        website: String::new(),
    };
    assert_eq!(
        send_contact(&site.base, &message, &[]).await.grpc_status,
        Some(OK)
    );
    let created = demo_shipment(&site.store).await;
    let number = created.tracking_number.as_str();
    let subject = |m: &serde_json::Value| m["headers"]["subject"][0].as_str().unwrap().to_owned();
    // The demo's shipments send their own e-mails too (its moves' status updates, sent
    // alongside): these are the ones of this test.
    let ours = || {
        let mut ours: Vec<serde_json::Value> = server
            .received()
            .into_iter()
            .filter(|m| {
                subject(m) == "Contact form: Rates"
                    || (m["text"].as_str().unwrap().contains(number)
                        && !subject(m).starts_with(&format!("Shipment {number}:")))
            })
            .collect();
        ours.sort_by_key(subject);
        ours
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while ours().len() < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let received = ours();
    let subjects: Vec<String> = received.iter().map(subject).collect();
    assert_eq!(
        subjects,
        [
            "Contact form: Rates",
            "Package Incoming",
            "Shipment Created"
        ]
    );
    assert!(
        received[2]["text"]
            .as_str()
            .unwrap()
            .contains(&format!("/track/{number}?access=")),
        "the shipper's link opens the full view: {}",
        received[2]
    );
    let contact = received
        .iter()
        .find(|m| subject(m) == "Contact form: Rates")
        .unwrap();
    assert_eq!(contact["headers"]["reply-to"][0], "Vee <vee@example.com>");
    assert_eq!(
        contact["rcpt_tos"][0], "support@parcelshippingexpress.com",
        "the brand's support address, CONTACT_INBOX being unset"
    );
}

#[tokio::test]
async fn all_in_one_sends_emails_over_smtp() {
    let server = TestSmtpServer::start("accept");
    let site = all_in_one_with_services(|_| {}, over_smtp(server.port)).await;
    emails_go_out_over_smtp(&site, &server).await;
}

#[tokio::test]
async fn distributed_sends_emails_over_smtp() {
    let server = TestSmtpServer::start("accept");
    let site = distributed_with_services(|_| {}, over_smtp(server.port)).await;
    emails_go_out_over_smtp(&site, &server).await;
}

async fn dark_mode(base: &str, headers: &[(&str, &str)], set: Option<bool>) -> Reply {
    let (path, message) = match set {
        None => (
            "GetPreferences",
            pb::GetPreferencesRequest {}.encode_to_vec(),
        ),
        Some(dark) => (
            "UpdatePreferences",
            pb::UpdatePreferencesRequest {
                preferences: Some(pb::Preferences {
                    is_dark_mode: Some(dark),
                }),
                update_mask: None,
            }
            .encode_to_vec(),
        ),
    };
    call(
        base,
        &format!("logistics.v1.PreferenceService/{path}"),
        message,
        headers,
    )
    .await
    .0
}

/// Preferences are each signed-in user's own, of any role; visitors have none.
async fn preferences_belong_to_the_signed_in_user(site: &Site) {
    assert_eq!(
        dark_mode(&site.base, &[], None).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], Some(true))
            .await
            .grpc_status,
        Some(OK)
    );
    let read = |reply: Reply| {
        pb::Preferences::decode(reply.body.unwrap())
            .unwrap()
            .is_dark_mode
    };
    assert_eq!(
        read(dark_mode(&site.base, &[("cookie", &clerk)], None).await),
        Some(true)
    );
    assert_eq!(
        read(dark_mode(&site.base, &[("cookie", &admin)], None).await),
        None
    );
    let cross_site = dark_mode(
        &site.base,
        &[("cookie", &admin), ("origin", "https://evil.example")],
        Some(true),
    )
    .await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
}

#[tokio::test]
async fn all_in_one_preferences_belong_to_the_signed_in_user() {
    preferences_belong_to_the_signed_in_user(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_preferences_belong_to_the_signed_in_user() {
    preferences_belong_to_the_signed_in_user(&distributed().await).await;
}

#[tokio::test]
async fn every_answer_carries_a_request_id_kept_from_a_sane_caller() {
    let site = all_in_one(60).await;
    let request_id = |response: &reqwest::Response| {
        response
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let client = reqwest::Client::new();
    let made = client
        .get(format!("{}/track", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(request_id(&made).len(), 16, "the gateway makes one");
    let kept = client
        .get(format!("{}/", site.base))
        .header("x-request-id", "lb-7f3a-01")
        .send()
        .await
        .unwrap();
    assert_eq!(request_id(&kept), "lb-7f3a-01");
    let odd = client
        .get(format!("{}/", site.base))
        .header("x-request-id", "a b\"c")
        .send()
        .await
        .unwrap();
    assert_ne!(
        request_id(&odd),
        "a b\"c",
        "an unusable id is replaced, never logged"
    );
    let (_, headers) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(
            &pb::GetShipmentByTrackingNumberRequest {
                tracking_number: "PSE000000000".into(),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
    )
    .await;
    assert_eq!(
        headers.get("x-request-id").unwrap().len(),
        16,
        "gRPC-web answers too"
    );
}

#[tokio::test]
async fn prerendered_routes_are_served_as_built_and_other_routes_get_the_app_shell() {
    let files = static_dir();
    std::fs::create_dir(files.path().join("about")).unwrap();
    std::fs::write(files.path().join("about/index.html"), "<h1>Our Story</h1>").unwrap();
    std::fs::write(files.path().join("app.html"), "<div id=root></div>").unwrap();
    let site = all_in_one_with(|s| s.static_dir = files.path().to_path_buf()).await;
    let base = site.base.clone();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let body = |path: &'static str| {
        let client = client.clone();
        let base = base.clone();
        async move {
            let response = client.get(format!("{base}{path}")).send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    assert_eq!(
        body("/about").await,
        (200, "<h1>Our Story</h1>".to_owned()),
        "no redirect to /about/"
    );
    assert_eq!(body("/about/").await.1, "<h1>Our Story</h1>");
    assert_eq!(body("/about?ref=mail").await.1, "<h1>Our Story</h1>");
    assert_eq!(
        body("/track/PSE123456789").await,
        (200, "<div id=root></div>".to_owned()),
        "client routes get the shell"
    );
    assert!(body("/").await.1.contains("app app"), "home is index.html");
    assert_eq!(body("/administration_and_development/emails").await.0, 200);
    assert_eq!(
        body("/no-such-page").await,
        (404, "<div id=root></div>".to_owned()),
        "the app shows its 404 page, with the status to match"
    );
    assert_eq!(body("/track/PSE1/extra").await.0, 404);
}

/// A site whose app has a large script (compressed at start), a script with the build's own
/// `.gz` beside it, and one with a `.br` that is not its content (ignored, compressed afresh).
async fn site_with_compressible_files() -> (Site, Vec<u8>) {
    use std::io::Write;
    let big: Vec<u8> = (0..400)
        .flat_map(|i| format!("export const value{i} = 'shipment {i}';\n").into_bytes())
        .collect();
    let site = all_in_one_with(|s| {
        let dir = &s.static_dir;
        std::fs::write(dir.join("assets/big-9f8e7d.js"), &big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js"), &big).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js.gz"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("assets/big-9f8e7d.js.br"), b"not brotli of it").unwrap();
    })
    .await;
    (site, big)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

async fn get_with(base: &str, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn static_files_are_negotiated_brotli_gzip_or_identity() {
    let (site, big) = site_with_compressible_files().await;
    let path = "/assets/big-9f8e7d.js";
    for (accept, expected) in [
        (Some("gzip, deflate, br, zstd"), Some("br")),
        (Some("gzip, br"), Some("br")),
        (Some("br;q=0.5, gzip"), Some("gzip")),
        (Some("gzip"), Some("gzip")),
        (Some("x-gzip"), Some("gzip")),
        (Some("br;q=0, gzip"), Some("gzip")),
        (Some("BR;Q=0.9, GZIP;q=0.9"), Some("br")),
        (Some("*"), Some("br")),
        (Some("*;q=0.5, br;q=0"), Some("gzip")),
        (Some("gzip;q=0, br;q=0"), None),
        (Some("deflate"), None),
        (Some("identity"), None),
        (None, None),
    ] {
        let headers: Vec<(&str, &str)> =
            accept.map(|a| ("accept-encoding", a)).into_iter().collect();
        let response = get_with(&site.base, path, &headers).await;
        assert_eq!(response.status(), 200, "{accept:?}");
        let h = response.headers().clone();
        assert_eq!(
            h.get("content-encoding").map(|v| v.to_str().unwrap()),
            expected,
            "{accept:?}"
        );
        assert_eq!(h["vary"], "accept-encoding", "{accept:?}");
        assert_eq!(h["cache-control"], "public, max-age=31536000, immutable");
        assert!(
            h["content-type"].to_str().unwrap().contains("javascript"),
            "{accept:?}"
        );
        assert_eq!(
            h["x-content-type-options"], "nosniff",
            "security headers stay"
        );
        assert_eq!(h.get("x-request-id").map(|v| v.len()), Some(16));
        let etag = h["etag"].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"') && !etag.starts_with("W/"));
        let body = response.bytes().await.unwrap();
        assert_eq!(h["content-length"], body.len().to_string().as_str());
        let decoded = match expected {
            Some("br") => {
                assert!(etag.ends_with("-br\""), "{etag}");
                unbrotli(&body)
            }
            Some(_) => {
                assert!(etag.ends_with("-gz\""), "{etag}");
                gunzip(&body)
            }
            None => body.to_vec(),
        };
        assert_eq!(decoded, big, "{accept:?}: the original bytes");
        if expected.is_some() {
            assert!(body.len() < big.len() / 3, "{accept:?}: compressed");
        }
    }

    // The build's gzip is sent as built; brotli made at start for it.
    let gz = get_with(
        &site.base,
        "/assets/built-1234ab.js",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let gz = gz.bytes().await.unwrap();
    assert_eq!(gunzip(&gz), big);
    // The variant files are plain files at their own URLs too, as with nginx's gzip_static.
    let raw = get_with(
        &site.base,
        "/assets/built-1234ab.js.gz",
        &[("accept-encoding", "gzip, br")],
    )
    .await;
    assert_eq!(raw.status(), 200);
    assert!(raw.headers().get("content-encoding").is_none());
    assert_eq!(
        raw.bytes().await.unwrap(),
        gz,
        "the build's own .gz is what was sent"
    );

    // Small files are sent as they are; the HTML shell too is negotiated.
    let favicon_like = get_with(&site.base, "/", &[("accept-encoding", "gzip, br")]).await;
    assert_eq!(favicon_like.status(), 200);
    assert_eq!(favicon_like.headers()["cache-control"], "no-cache");
}

#[tokio::test]
async fn static_files_answer_304_to_their_etag_and_serve_head() {
    let (site, big) = site_with_compressible_files().await;
    let path = "/assets/big-9f8e7d.js";
    let br = [("accept-encoding", "br")];
    let first = get_with(&site.base, path, &br).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let last_modified = first.headers()["last-modified"]
        .to_str()
        .unwrap()
        .to_owned();
    for tag in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".into(),
    ] {
        let again = get_with(&site.base, path, &[br[0], ("if-none-match", &tag)]).await;
        assert_eq!(again.status(), 304, "{tag}");
        assert_eq!(again.headers()["etag"], etag.as_str());
        assert_eq!(again.headers()["vary"], "accept-encoding");
        assert_eq!(
            again.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert!(again.headers().get("x-request-id").is_some());
        assert!(again.bytes().await.unwrap().is_empty());
    }
    // Another variant has another tag: the brotli tag does not validate the gzip bytes.
    let gzip = get_with(
        &site.base,
        path,
        &[("accept-encoding", "gzip"), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(gzip.status(), 200);
    assert_ne!(gzip.headers()["etag"], etag.as_str());
    let since = get_with(&site.base, path, &[("if-modified-since", &last_modified)]).await;
    assert_eq!(since.status(), 304, "If-Modified-Since");
    let stale = get_with(
        &site.base,
        path,
        &[
            ("if-none-match", "\"other\""),
            ("if-modified-since", &last_modified),
        ],
    )
    .await;
    assert_eq!(
        stale.status(),
        200,
        "If-None-Match wins over If-Modified-Since"
    );
    // App routes revalidate too; a 404 is never a 304.
    let page = get_with(&site.base, "/track/PSE123456789", &[]).await;
    let page_tag = page.headers()["etag"].to_str().unwrap().to_owned();
    let again = get_with(
        &site.base,
        "/track/PSE123456789",
        &[("if-none-match", &page_tag)],
    )
    .await;
    assert_eq!(again.status(), 304);
    let missing = get_with(&site.base, "/no-such-page", &[("if-none-match", "*")]).await;
    assert_eq!(missing.status(), 404);
    assert!(missing.headers().get("etag").is_none());

    // HEAD: the headers of a GET, no body.
    let client = reqwest::Client::new();
    for accept in ["br", "gzip", "identity"] {
        let get = get_with(&site.base, path, &[("accept-encoding", accept)]).await;
        let head = client
            .head(format!("{}{path}", site.base))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), 200);
        for name in [
            "content-length",
            "content-type",
            "etag",
            "cache-control",
            "vary",
        ] {
            assert_eq!(
                head.headers().get(name),
                get.headers().get(name),
                "{accept} {name}"
            );
        }
        assert_eq!(
            head.headers().get("content-encoding"),
            get.headers().get("content-encoding")
        );
        assert!(head.bytes().await.unwrap().is_empty());
    }
    let identity_length = get_with(&site.base, path, &[]).await.headers()["content-length"].clone();
    assert_eq!(identity_length, big.len().to_string().as_str());
}

#[tokio::test]
async fn static_files_allow_get_and_head_only() {
    let site = all_in_one(60).await;
    let client = reqwest::Client::new();
    for (method, path) in [
        (reqwest::Method::POST, "/"),
        (reqwest::Method::PUT, "/assets/app-1a2b3c.js"),
        (reqwest::Method::DELETE, "/about"),
        (reqwest::Method::OPTIONS, "/no-such-page"),
    ] {
        let response = client
            .request(method.clone(), format!("{}{path}", site.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 405, "{method} {path}");
        assert_eq!(response.headers()["allow"], "GET, HEAD");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }
}

/// Disabling a user ends their sessions at once, in every mode.
async fn a_disabled_user_is_signed_out_everywhere(site: &Site) {
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], None)
            .await
            .grpc_status,
        Some(OK)
    );
    let listed = call(
        &site.base,
        "logistics.v1.AuthService/ListUsers",
        pb::ListUsersRequest::default().encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    let users = pb::ListUsersResponse::decode(listed.body.unwrap())
        .unwrap()
        .users;
    let clerk_id = users
        .iter()
        .find(|u| u.email == CLERK_EMAIL)
        .unwrap()
        .id
        .clone();
    let disable = pb::SetUserDisabledRequest {
        id: clerk_id,
        disabled: true,
    };
    let reply = call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        disable.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], None)
            .await
            .grpc_status,
        Some(UNAUTHENTICATED),
        "the disabled user's session ended"
    );
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &admin)], None)
            .await
            .grpc_status,
        Some(OK),
        "others stay signed in"
    );
}

#[tokio::test]
async fn all_in_one_a_disabled_user_is_signed_out_everywhere() {
    a_disabled_user_is_signed_out_everywhere(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_a_disabled_user_is_signed_out_everywhere() {
    a_disabled_user_is_signed_out_everywhere(&distributed().await).await;
}

/// Whether `holds` comes true within the 5 s in which a revoked access must end, asked
/// every 100 ms.
async fn within_5_seconds(mut holds: impl AsyncFnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if holds().await {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn signed_in(site: &Site, email: &str, password: &str) -> String {
    let (reply, cookie) = sign_in(&site.base, email, password).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    cookie_pair(&cookie.unwrap())
}

async fn user_id(site: &Site, email: &str) -> String {
    let email = auth::domain::Email::parse(email).unwrap();
    site.users.find_by_email(&email).await.unwrap().unwrap().id
}

async fn preferences_status(site: &Site, cookie: &str) -> Option<i32> {
    dark_mode(&site.base, &[("cookie", cookie)], None)
        .await
        .grpc_status
}

/// A tool's change straight to the users' store: no gateway and no auth service saw it.
async fn change_stored_user(
    site: &Site,
    email: &str,
    change: impl FnOnce(&mut auth::domain::User),
) {
    let mut user = site.users.get(&user_id(site, email).await).await.unwrap();
    change(&mut user);
    site.users.replace(&user).await.unwrap();
}

/// SetUserDisabled with the id padded by spaces: the account is disabled and its sessions
/// end (the gateway once ended the sessions of the unpadded id only, i.e. none).
async fn disabling_by_a_padded_id_ends_the_sessions(site: &Site) {
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
    let disable = pb::SetUserDisabledRequest {
        id: format!("  {}  ", user_id(site, CLERK_EMAIL).await),
        disabled: true,
    };
    let reply = call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        disable.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "the disabled user's session ended"
    );
    assert_eq!(
        preferences_status(site, &admin).await,
        Some(OK),
        "others stay signed in"
    );
}

#[tokio::test]
async fn all_in_one_disabling_by_a_padded_id_ends_the_sessions() {
    disabling_by_a_padded_id_ends_the_sessions(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_disabling_by_a_padded_id_ends_the_sessions() {
    disabling_by_a_padded_id_ends_the_sessions(&distributed().await).await;
}

/// SetUserDisabled followed by an extra empty gRPC frame is refused whole: it once disabled
/// the account and left its sessions working.
async fn an_extra_frame_never_leaves_a_disabled_user_signed_in(site: &Site) {
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let disable = pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: true,
    };
    let mut body = frame(&disable.encode_to_vec());
    body.extend(frame(&[]));
    let reply = raw_call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        body,
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(INVALID_ARGUMENT), "{reply:?}");
    let stored = site
        .users
        .get(&user_id(site, CLERK_EMAIL).await)
        .await
        .unwrap();
    assert!(!stored.disabled, "nothing half-done");
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
}

#[tokio::test]
async fn all_in_one_an_extra_frame_never_leaves_a_disabled_user_signed_in() {
    an_extra_frame_never_leaves_a_disabled_user_signed_in(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_an_extra_frame_never_leaves_a_disabled_user_signed_in() {
    an_extra_frame_never_leaves_a_disabled_user_signed_in(&distributed().await).await;
}

/// Changes made without the gateway: straight to the store (all-in-one and distributed), or
/// by a tool calling the auth service (distributed). Each ends the old access within 5 s.
async fn changes_made_elsewhere_end_the_old_access_within_5_seconds(site: &Site) {
    // Disabled in the store.
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
    change_stored_user(site, CLERK_EMAIL, |u| u.disabled = true).await;
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "disabled in the store: the session ended"
    );
    change_stored_user(site, CLERK_EMAIL, |u| u.disabled = false).await;

    // A role taken away in the store: the admin's session loses the admin methods.
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &admin)])
            .await
            .grpc_status,
        Some(OK)
    );
    change_stored_user(site, ADMIN_EMAIL, |u| u.role = auth::domain::Role::User).await;
    assert!(
        within_5_seconds(async || {
            list_shipments(&site.base, &[("cookie", &admin)])
                .await
                .grpc_status
                == Some(PERMISSION_DENIED)
        })
        .await,
        "an admin made a user lost the admin methods"
    );
    assert_eq!(
        preferences_status(site, &admin).await,
        Some(OK),
        "and stays signed in as a user"
    );
    change_stored_user(site, ADMIN_EMAIL, |u| u.role = auth::domain::Role::Admin).await;

    // The auth service called directly by a tool with a service token.
    let Some(auth_url) = &site.auth_url else {
        return;
    };
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let channel = tonic::transport::Endpoint::from_shared(auth_url.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut tool = auth_client(
        channel.clone(),
        &site.tokens,
        "tools",
        service_auth::Role::Admin,
    );
    tool.set_user_disabled(pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: true,
    })
    .await
    .unwrap();
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "disabled by a tool: the session ended"
    );
    tool.set_user_disabled(pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: false,
    })
    .await
    .unwrap();

    // The clerk's password changed by a call to the auth service: older sessions end.
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk_id = user_id(site, CLERK_EMAIL).await;
    let mut own = auth_client(channel, &site.tokens, &clerk_id, service_auth::Role::User);
    own.change_password(pb::ChangePasswordRequest {
        current_password: ADMIN_PASSWORD.into(),
        new_password: "another long passphrase".into(),
    })
    .await
    .unwrap();
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "a password changed elsewhere ends the session"
    );
    signed_in(site, CLERK_EMAIL, "another long passphrase").await;
}

fn auth_client(
    channel: tonic::transport::Channel,
    tokens: &TokenKey,
    sub: &str,
    role: service_auth::Role,
) -> pb::auth_service_client::AuthServiceClient<
    tonic::service::interceptor::InterceptedService<
        tonic::transport::Channel,
        service_auth::Bearer,
    >,
> {
    let caller = service_auth::Caller::with_role(sub, "tools@localhost", role);
    let token = tokens.mint(&caller, Duration::from_secs(60));
    pb::auth_service_client::AuthServiceClient::with_interceptor(
        channel,
        service_auth::Bearer::new(&token),
    )
}

#[tokio::test]
async fn all_in_one_changes_made_elsewhere_end_the_old_access_within_5_seconds() {
    changes_made_elsewhere_end_the_old_access_within_5_seconds(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_changes_made_elsewhere_end_the_old_access_within_5_seconds() {
    changes_made_elsewhere_end_the_old_access_within_5_seconds(&distributed().await).await;
}

/// Changing one's password through the gateway keeps this browser signed in under a new
/// session id; the old id and the user's other sessions stop working.
async fn a_password_change_signs_out_the_other_sessions(site: &Site) {
    let here = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let elsewhere = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let change = pb::ChangePasswordRequest {
        current_password: ADMIN_PASSWORD.into(),
        new_password: "another long passphrase".into(),
    };
    let (reply, headers) = call(
        &site.base,
        "logistics.v1.AuthService/ChangePassword",
        change.encode_to_vec(),
        &[("cookie", &here)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let renewed = cookie_pair(headers["set-cookie"].to_str().unwrap());
    assert_ne!(renewed, here, "a new session id");
    assert_eq!(
        preferences_status(site, &renewed).await,
        Some(OK),
        "this browser stays signed in"
    );
    assert_eq!(
        preferences_status(site, &here).await,
        Some(UNAUTHENTICATED),
        "the old id is dead"
    );
    assert_eq!(
        preferences_status(site, &elsewhere).await,
        Some(UNAUTHENTICATED),
        "the other session ended"
    );
}

#[tokio::test]
async fn all_in_one_a_password_change_signs_out_the_other_sessions() {
    a_password_change_signs_out_the_other_sessions(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_a_password_change_signs_out_the_other_sessions() {
    a_password_change_signs_out_the_other_sessions(&distributed().await).await;
}

#[test]
fn the_client_ip_is_the_rightmost_entry_of_the_trusted_hops() {
    use gateway::rpc::TrustedProxies;
    let mut extensions = http::Extensions::new();
    extensions.insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
        [10, 0, 0, 9],
        443,
    ))));
    let headers = |xff: &[&str]| {
        let mut h = http::HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    };
    let ip = |hops: usize, xff: &[&str]| {
        TrustedProxies {
            hops,
            secure_cookie: false,
        }
        .client_ip(&headers(xff), &extensions)
        .unwrap()
        .to_string()
    };
    // A client that sends its own X-Forwarded-For cannot choose its address.
    assert_eq!(ip(1, &["6.6.6.6, 203.0.113.7"]), "203.0.113.7");
    assert_eq!(
        ip(1, &["6.6.6.6", "203.0.113.7"]),
        "203.0.113.7",
        "repeated headers are one list"
    );
    assert_eq!(ip(2, &["6.6.6.6, 203.0.113.7, 10.0.0.2"]), "203.0.113.7");
    assert_eq!(
        ip(2, &["203.0.113.7"]),
        "203.0.113.7",
        "fewer entries than hops"
    );
    assert_eq!(
        ip(0, &["6.6.6.6"]),
        "10.0.0.9",
        "no trusted proxy: the socket's peer"
    );
    assert_eq!(ip(1, &[]), "10.0.0.9");
    assert_eq!(ip(1, &["not an address"]), "10.0.0.9");
}

fn verify_request(number: &str, answer: &str) -> Vec<u8> {
    pb::VerifyTrackingAccessRequest {
        tracking_number: number.into(),
        answer: answer.into(),
    }
    .encode_to_vec()
}

async fn lookup_with(base: &str, number: &str, headers: &[(&str, &str)]) -> pb::Shipment {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    };
    let (reply, _) = call(
        base,
        "logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
        request.encode_to_vec(),
        headers,
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    pb::Shipment::decode(reply.body.unwrap()).unwrap()
}

async fn a_verified_party_keeps_the_full_view_in_an_httponly_cookie(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let number = shipment.tracking_number.as_str();
    let here = [("origin", site.base.as_str())];

    let (refused, headers) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, "nobody@example.com"),
        &here,
    )
    .await;
    assert_eq!(refused.grpc_status, Some(INVALID_ARGUMENT));
    assert!(headers.get("set-cookie").is_none());

    let (verified, headers) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, &shipment.details.receiver_email),
        &here,
    )
    .await;
    assert_eq!(verified.grpc_status, Some(OK), "{verified:?}");
    assert!(
        headers.get("x-tracking-access-grant").is_none(),
        "the grant never reaches a script"
    );
    let set_cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(set_cookie.starts_with(&format!("pse_track_{number}=")));
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"));
    let cookie = cookie_pair(set_cookie);

    let full = lookup_with(&site.base, number, &[("cookie", &cookie)]).await;
    assert_eq!(full.view(), pb::ShipmentView::Full);
    assert_eq!(
        full.receiver.unwrap().email,
        shipment.details.receiver_email
    );
    // A grant a script makes up, or sends as a header, opens nothing.
    let forged = lookup_with(&site.base, number, &[("cookie", &format!("{cookie}x"))]).await;
    assert_eq!(forged.view(), pb::ShipmentView::Limited);
    let token = cookie.split_once('=').unwrap().1;
    let as_header = lookup_with(&site.base, number, &[("x-tracking-access", token)]).await;
    assert_eq!(as_header.view(), pb::ShipmentView::Limited);

    // Signed-in staff see everything.
    let (_, session) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let staff = lookup_with(
        &site.base,
        number,
        &[("cookie", &cookie_pair(&session.unwrap()))],
    )
    .await;
    assert_eq!(staff.view(), pb::ShipmentView::Full);

    // Verification from another site is refused before it reaches the service.
    let (cross, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, &shipment.details.receiver_email),
        &[("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(cross.grpc_status, Some(PERMISSION_DENIED));
}

#[tokio::test]
async fn all_in_one_keeps_a_verified_partys_full_view() {
    a_verified_party_keeps_the_full_view_in_an_httponly_cookie(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_keeps_a_verified_partys_full_view() {
    a_verified_party_keeps_the_full_view_in_an_httponly_cookie(&distributed().await).await;
}

#[tokio::test]
async fn verification_and_subscription_calls_are_rate_limited_per_client() {
    let site = all_in_one_with(|s| {
        s.verifications_per_hour = 2;
        s.subscriptions_per_hour = 2;
    })
    .await;
    let number = demo_shipment(&site.store).await.tracking_number.to_string();
    let mut codes = Vec::new();
    for _ in 0..3 {
        let (reply, _) = call(
            &site.base,
            "logistics.v1.ShipmentService/VerifyTrackingAccess",
            verify_request(&number, "0000"),
            &[],
        )
        .await;
        codes.push(reply.grpc_status);
    }
    assert_eq!(
        codes,
        [
            Some(INVALID_ARGUMENT),
            Some(INVALID_ARGUMENT),
            Some(RESOURCE_EXHAUSTED)
        ]
    );
    // A client out of guesses may still ask for the link by e-mail: it counts as a
    // subscription (it sends e-mail), never as a guess.
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/SendTrackingAccessLink",
        pb::SendTrackingAccessLinkRequest {
            tracking_number: number.clone(),
        }
        .encode_to_vec(),
        &[],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK));
    let subscribe = pb::SubscribeToShipmentRequest {
        tracking_number: number.clone(),
        email: "fan@example.com".into(),
        ..Default::default()
    }
    .encode_to_vec();
    let mut replies = Vec::new();
    for _ in 0..2 {
        let (reply, _) = call(
            &site.base,
            "logistics.v1.ShipmentService/SubscribeToShipment",
            subscribe.clone(),
            &[],
        )
        .await;
        replies.push((reply.grpc_status, reply.message));
    }
    assert_eq!(replies[0].0, Some(OK));
    assert_eq!(
        replies[1],
        (
            Some(RESOURCE_EXHAUSTED),
            gateway::rpc::TOO_MANY_SUBSCRIPTIONS.to_owned()
        )
    );
}

/// Hostile input to every public method of the tracking page is the caller's fault, named as
/// such, and never a server error.
#[tokio::test]
async fn hostile_input_to_the_public_tracking_methods_is_refused_cleanly() {
    let site = all_in_one_with(|s| {
        s.tracking_lookups_per_minute = 1000;
        s.verifications_per_hour = 1000;
        s.subscriptions_per_hour = 1000;
    })
    .await;
    let number = demo_shipment(&site.store).await.tracking_number.to_string();
    let huge = "9".repeat(1 << 20);
    let controls = "\u{0}\u{7}\u{1b}[2J\r\n";
    let verify = |n: &str, a: &str| verify_request(n, a);
    let subscribe = |n: &str, e: &str| {
        pb::SubscribeToShipmentRequest {
            tracking_number: n.into(),
            email: e.into(),
            ..Default::default()
        }
        .encode_to_vec()
    };
    let token =
        |t: &str| pb::ConfirmShipmentSubscriptionRequest { token: t.into() }.encode_to_vec();
    let send_link = |n: &str| {
        pb::SendTrackingAccessLinkRequest {
            tracking_number: n.into(),
        }
        .encode_to_vec()
    };
    let garbage = vec![0xff, 0xff, 0xff, 0x0f, 0x12, 0x80];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("VerifyTrackingAccess", verify(&number, &huge)),
        ("VerifyTrackingAccess", verify(&number, controls)),
        ("VerifyTrackingAccess", verify(controls, "1234")),
        ("VerifyTrackingAccess", garbage.clone()),
        (
            "SubscribeToShipment",
            subscribe(&number, &format!("{huge}@x.io")),
        ),
        (
            "SubscribeToShipment",
            subscribe(&number, &format!("a{controls}@example.com")),
        ),
        (
            "SubscribeToShipment",
            subscribe("PSE' OR 1=1", "fan@example.com"),
        ),
        ("SubscribeToShipment", garbage.clone()),
        ("ConfirmShipmentSubscription", token("")),
        (
            "ConfirmShipmentSubscription",
            token("eyJhbGciOiJub25lIn0.eyJzdWIiOiJQU0UxMjM0NTY3ODkifQ."),
        ),
        ("ConfirmShipmentSubscription", token(&huge)),
        ("DeleteShipmentSubscription", token("a.b.c")),
        ("DeleteShipmentSubscription", token(controls)),
        ("DeleteShipmentSubscription", garbage.clone()),
        ("SendTrackingAccessLink", send_link(&huge)),
        ("SendTrackingAccessLink", send_link(controls)),
        ("SendTrackingAccessLink", garbage),
    ];
    for (method, body) in cases {
        let (reply, _) = call(
            &site.base,
            &format!("logistics.v1.ShipmentService/{method}"),
            body,
            &[],
        )
        .await;
        assert!(
            matches!(
                reply.grpc_status,
                Some(INVALID_ARGUMENT | RESOURCE_EXHAUSTED)
            ),
            "{method}: {reply:?}"
        );
        assert!(reply.message.len() < 300, "{method}: a short message");
    }
}

/// An admin makes the clerk an agent: within 5 s the clerk's open session may move
/// shipments, but not delete them or read the audit log; the audit log names the clerk and
/// where the call came from.
async fn a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED),
        "a user has no office access"
    );
    let to_agent = pb::UpdateUserRequest {
        user: Some(pb::User {
            id: user_id(site, CLERK_EMAIL).await,
            role: pb::Role::Agent.into(),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["role".into()],
        }),
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuthService/UpdateUser",
        to_agent.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert!(
        within_5_seconds(async || {
            list_shipments(&site.base, &[("cookie", &clerk)])
                .await
                .grpc_status
                == Some(OK)
        })
        .await,
        "the agent's open session may list shipments"
    );
    let track = pb::UpdateShipmentTrackingRequest {
        id: shipment.id.clone(),
        status: pb::ShipmentStatus::OnHold.into(),
        current_location: "Customs, Tema".into(),
        remarks: "Papers missing".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/UpdateShipmentTracking",
        track.encode_to_vec(),
        &[("cookie", &clerk)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let moved = pb::Shipment::decode(reply.body.unwrap()).unwrap();
    assert_eq!(moved.history.last().unwrap().updated_by, CLERK_EMAIL);
    for (path, body) in [
        (
            "logistics.v1.ShipmentService/DeleteShipment",
            pb::DeleteShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
        (
            "logistics.v1.AuditService/ListAuditEntries",
            pb::ListAuditEntriesRequest::default().encode_to_vec(),
        ),
        (
            "logistics.v1.AuthService/ListUsers",
            pb::ListUsersRequest::default().encode_to_vec(),
        ),
    ] {
        let (reply, _) = call(&site.base, path, body, &[("cookie", &clerk)]).await;
        assert_eq!(
            (reply.grpc_status, reply.message.as_str()),
            (Some(PERMISSION_DENIED), service_auth::NOT_PERMITTED),
            "{path}"
        );
    }
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "nothing was deleted"
    );

    let audit = pb::ListAuditEntriesRequest {
        target: shipment.tracking_number.to_string(),
        action: "shipment.status_change".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuditService/ListAuditEntries",
        audit.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let entries = pb::ListAuditEntriesResponse::decode(reply.body.unwrap())
        .unwrap()
        .entries;
    let last = &entries[0];
    assert_eq!(last.actor_email, CLERK_EMAIL);
    assert_eq!(last.client_ip, "127.0.0.1", "the gateway names the client");
    assert!(!last.request_id.is_empty());
    assert!(
        last.summary.ends_with("→ On Hold (Papers missing)"),
        "{}",
        last.summary
    );

    let role_change = pb::ListAuditEntriesRequest {
        action: "user.role_change".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuditService/ListAuditEntries",
        role_change.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    let entries = pb::ListAuditEntriesResponse::decode(reply.body.unwrap())
        .unwrap()
        .entries;
    assert_eq!(
        (
            entries[0].actor_email.as_str(),
            entries[0].target_name.as_str()
        ),
        (ADMIN_EMAIL, CLERK_EMAIL)
    );
}

#[tokio::test]
async fn all_in_one_a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user() {
    a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(&all_in_one(60).await)
        .await;
}

#[tokio::test]
async fn distributed_a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user() {
    a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(&distributed().await)
        .await;
}

/// The export: a staff member who may export gets every matching shipment as CSV, with
/// formulas escaped; others are refused, and a bad filter is named.
async fn the_export_streams_matching_shipments_as_csv(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let formula: shipments::store::Edit = std::sync::Arc::new(|s| {
        s.details.shipper_name = "=HYPERLINK(\"http://evil.example\")".into();
        Ok(Default::default())
    });
    site.store.update(&shipment.id, formula).await.unwrap();
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let get = |query: &str, cookie: Option<&str>| {
        let mut request =
            reqwest::Client::new().get(format!("{}/exports/shipments.csv{query}", site.base));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };

    let reply = get("", Some(&admin)).await.unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(
        reply.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment; filename=\"shipments-")
    );
    let bytes = reply.bytes().await.unwrap();
    assert!(
        bytes.starts_with(shipments::export::BOM),
        "UTF-8 with a BOM"
    );
    let mut rows = csv::Reader::from_reader(&bytes[..]);
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(header, shipments::export::COLUMNS);
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let total = site
        .store
        .list(&shipments::store::ListQuery {
            page_size: 100,
            ..Default::default()
        })
        .await
        .unwrap()
        .total;
    assert_eq!(records.len() as u64, total, "every shipment, once");
    let row = records
        .iter()
        .find(|r| &r[0] == shipment.tracking_number.as_str())
        .unwrap();
    assert_eq!(
        &row[2], "'=HYPERLINK(\"http://evil.example\")",
        "a formula is text"
    );

    let status = shipment.status.as_str();
    let filtered = get(
        &format!("?status={status}&sort=expected_delivery_date"),
        Some(&admin),
    )
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    let filtered: Vec<csv::StringRecord> = csv::Reader::from_reader(filtered.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    assert!(!filtered.is_empty() && filtered.iter().all(|r| &r[1] == status));

    let bad = get("?status=lost&from=yesterday", Some(&admin))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains("status"));
    let bad_day = get("?from=2026-05-02&to=2026-05-01", Some(&admin))
        .await
        .unwrap();
    assert_eq!(bad_day.status(), 400);
    assert!(bad_day.text().await.unwrap().contains("create_date_to"));
    assert_eq!(get("", None).await.unwrap().status(), 401);
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let refused = get("", Some(&clerk)).await.unwrap();
    assert_eq!(refused.status(), 403);
    assert_eq!(refused.text().await.unwrap(), service_auth::NOT_PERMITTED);
}

#[tokio::test]
async fn all_in_one_the_export_streams_matching_shipments_as_csv() {
    the_export_streams_matching_shipments_as_csv(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_the_export_streams_matching_shipments_as_csv() {
    the_export_streams_matching_shipments_as_csv(&distributed().await).await;
}

/// Files reach the shipments service through the gateway (a part of an import, a photo), with
/// limits of their own, and the report of an import is a download for importers only.
async fn files_pass_the_gateway_within_their_limits(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let headers = [("cookie", admin.as_str())];
    let method = |name: &str| format!("logistics.v1.ShipmentService/{name}");
    let part = 1024 * 1024;
    let (created, _) = call(
        &site.base,
        &method("CreateShipmentImport"),
        pb::CreateShipmentImportRequest {
            file_name: "big.csv".into(),
            size_bytes: 3 * part as i64,
        }
        .encode_to_vec(),
        &headers,
    )
    .await;
    let created = pb::ShipmentImport::decode(created.body.unwrap()).unwrap();
    let append = |offset: usize, length: usize| {
        pb::AppendShipmentImportDataRequest {
            import_id: created.id.clone(),
            offset: offset as i64,
            data: vec![b'a'; length],
        }
        .encode_to_vec()
    };
    let (whole_part, _) = call(
        &site.base,
        &method("AppendShipmentImportData"),
        append(0, part),
        &headers,
    )
    .await;
    assert_eq!(whole_part.grpc_status, Some(0), "{}", whole_part.message);
    let (too_big, _) = call(
        &site.base,
        &method("AppendShipmentImportData"),
        append(part, 2 * part),
        &headers,
    )
    .await;
    assert_eq!(
        too_big.grpc_status,
        Some(tonic::Code::ResourceExhausted as i32)
    );

    let report = |id: &str, cookie: Option<&str>| {
        let mut request =
            reqwest::Client::new().get(format!("{}/exports/imports/{id}/rejected.csv", site.base));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };
    assert_eq!(
        report(&created.id, Some(&admin)).await.unwrap().status(),
        409,
        "not run yet"
    );
    assert_eq!(
        report("nosuchimport", Some(&admin)).await.unwrap().status(),
        404
    );
    assert_eq!(report(&created.id, None).await.unwrap().status(), 401);
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        report(&created.id, Some(&clerk)).await.unwrap().status(),
        403
    );

    // A photo over 8 MB reaches the service, which names the field; far larger stops here.
    let photo = |bytes: usize| {
        pb::RecordProofOfDeliveryRequest {
            id: "someshipment".into(),
            recipient_name: "Jan".into(),
            photo: vec![0xFF; bytes],
            ..Default::default()
        }
        .encode_to_vec()
    };
    let (named, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(8_500_000),
        &headers,
    )
    .await;
    assert_eq!(named.grpc_status, Some(tonic::Code::InvalidArgument as i32));
    assert!(
        named.message.contains("photo: must be at most 8 MB"),
        "{}",
        named.message
    );
    let (huge, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(50_000_000),
        &headers,
    )
    .await;
    assert_eq!(
        huge.grpc_status,
        Some(tonic::Code::ResourceExhausted as i32)
    );
    let (clerk_call, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(10),
        &[("cookie", clerk.as_str())],
    )
    .await;
    assert_eq!(
        clerk_call.grpc_status,
        Some(tonic::Code::PermissionDenied as i32)
    );
}

#[tokio::test]
async fn all_in_one_files_pass_the_gateway_within_their_limits() {
    files_pass_the_gateway_within_their_limits(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_files_pass_the_gateway_within_their_limits() {
    files_pass_the_gateway_within_their_limits(&distributed().await).await;
}

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
    let deadline = Instant::now() + Duration::from_secs(15);
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

fn webhooks_to_loopback(services: &mut gateway::HostedServices) {
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
