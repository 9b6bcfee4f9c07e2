//! What a stranger can do to other people through the gateway: lock an account (they cannot),
//! dodge a rate limit with the rest of their IPv6 /64 (they cannot), and write their own
//! request id into the audit log (they cannot). Over real HTTP, in both modes, with a real
//! Redis when distributed.

use crate::common;

use std::time::Duration;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::{cookie_pair, set_cookie};
use common::site::{
    ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_with, another_gateway,
    distributed_with,
};
use common::wire::{Reply, frame, read_reply};
use gateway::session_api::{TOO_MANY_ATTEMPTS, delay_before_checking};

const OK: Option<i32> = Some(0);
const RESOURCE_EXHAUSTED: Option<i32> = Some(8);
const UNAUTHENTICATED: Option<i32> = Some(16);

/// A gRPC-web call of `path` (service/method under `logistics.v1.`) with extra headers.
async fn call(base: &str, path: &str, message: Vec<u8>, headers: &[(&str, &[u8])]) -> Reply {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/logistics.v1.{path}"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    for (name, value) in headers {
        request = request.header(
            *name,
            reqwest::header::HeaderValue::from_bytes(value).unwrap(),
        );
    }
    read_reply(request.body(frame(&message)).send().await.unwrap())
        .await
        .0
}

/// A sign-in from `client`, the address the trusted proxy in front names.
async fn sign_in_from(base: &str, client: &str, email: &str, password: &str) -> Reply {
    let request = pb::CreateSessionRequest {
        email: email.into(),
        password: password.into(),
    };
    call(
        base,
        "SessionService/CreateSession",
        request.encode_to_vec(),
        &[("x-forwarded-for", client.as_bytes())],
    )
    .await
}

/// Behind one trusted proxy (tests name the client's address), 3 failures per account and
/// network (the test settings), waits of a millisecond at most.
fn behind_a_proxy(settings: &mut gateway::Settings) {
    settings.trusted_proxy_hops = 1;
    settings.sign_in_max_delay_ms = 1;
}

const STRANGER: &str = "2001:db8:1:1::7";
const STRANGERS_NEIGHBOUR: &str = "2001:db8:1:1:ffff:ffff:ffff:1";

async fn strangers_cannot_lock_the_real_user_out(site: &Site) {
    let base = &site.base;
    // However the e-mail is typed, it is one account.
    for email in [
        "  ADMIN@Example.COM ",
        "admin@EXAMPLE.com",
        "\tAdmin@example.com\n",
    ] {
        let reply = sign_in_from(base, STRANGER, email, "guess, guess, guess").await;
        assert_eq!(reply.grpc_status, UNAUTHENTICATED, "{email:?}");
    }
    // The stranger's network is locked for this account, even with the right password...
    for client in [STRANGER, STRANGERS_NEIGHBOUR] {
        let reply = sign_in_from(base, client, ADMIN_EMAIL, ADMIN_PASSWORD).await;
        assert_eq!(
            (reply.grpc_status, reply.message.as_str()),
            (RESOURCE_EXHAUSTED, TOO_MANY_ATTEMPTS),
            "{client}"
        );
    }
    // ...and so is every other network that keeps failing.
    for network in 2..14 {
        let client = format!("2001:db8:{network}:1::9");
        for _ in 0..3 {
            let reply = sign_in_from(base, &client, " Admin@Example.com", "guess again").await;
            assert_eq!(reply.grpc_status, UNAUTHENTICATED, "{client}");
        }
        let reply = sign_in_from(base, &client, ADMIN_EMAIL, "guess again").await;
        assert_eq!(reply.grpc_status, RESOURCE_EXHAUSTED, "{client}");
    }
    // Yet the real user signs in, from IPv4 or from another /64, the account still under attack.
    for client in ["203.0.113.5", "2001:db8:1:2::7"] {
        let reply = sign_in_from(base, client, " ADMIN@Example.com ", ADMIN_PASSWORD).await;
        assert_eq!(
            (reply.grpc_status, reply.message.as_str()),
            (OK, ""),
            "{client}"
        );
    }
}

#[tokio::test]
async fn all_in_one_strangers_cannot_lock_the_real_user_out() {
    strangers_cannot_lock_the_real_user_out(&all_in_one_with(behind_a_proxy).await).await;
}

#[tokio::test]
async fn distributed_strangers_cannot_lock_the_real_user_out() {
    strangers_cannot_lock_the_real_user_out(&distributed_with(behind_a_proxy).await).await;
}

#[tokio::test]
async fn failures_count_together_on_every_gateway_of_one_redis() {
    let site = distributed_with(behind_a_proxy).await;
    let other = another_gateway(&site).await;
    for base in [&site.base, &other, &site.base] {
        let reply = sign_in_from(base, "198.51.100.7", ADMIN_EMAIL, "guess").await;
        assert_eq!(reply.grpc_status, UNAUTHENTICATED);
    }
    for base in [&site.base, &other] {
        let reply = sign_in_from(base, "198.51.100.7", ADMIN_EMAIL, ADMIN_PASSWORD).await;
        assert_eq!(reply.grpc_status, RESOURCE_EXHAUSTED, "{base}");
        let reply = sign_in_from(base, "198.51.100.8", ADMIN_EMAIL, ADMIN_PASSWORD).await;
        assert_eq!(reply.grpc_status, OK, "{base}");
    }
}

/// A sign-in from this machine with the given `Cookie` header; the reply and the device
/// cookie it set (`device=…`), if any.
async fn sign_in_with(
    base: &str,
    cookie: Option<&str>,
    email: &str,
    password: &str,
) -> (Reply, Option<String>) {
    let request = pb::CreateSessionRequest {
        email: email.into(),
        password: password.into(),
    };
    let mut http = reqwest::Client::new()
        .post(format!("{base}/logistics.v1.SessionService/CreateSession"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    if let Some(cookie) = cookie {
        http = http.header("cookie", cookie);
    }
    let response = http
        .body(frame(&request.encode_to_vec()))
        .send()
        .await
        .unwrap();
    let (reply, headers) = read_reply(response).await;
    let device = set_cookie(&headers, "device").map(|v| {
        assert!(
            v.contains("; HttpOnly; SameSite=Strict")
                && v.contains("; Path=/logistics.v1.SessionService/;"),
            "{v}"
        );
        cookie_pair(v)
    });
    (reply, device)
}

/// Everyone on one address, as behind one NAT: the stranger locks the address out of the
/// admin's account, but the browser the admin signed in from before still signs in.
async fn a_browser_known_to_the_account_signs_in_from_a_locked_network(site: &Site) {
    let base = &site.base;
    let (reply, device) = sign_in_with(base, None, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, OK);
    let device = device.expect("a device cookie at sign-in");
    let (_, clerks_device) = sign_in_with(base, None, CLERK_EMAIL, ADMIN_PASSWORD).await;
    for email in [
        " ADMIN@example.com",
        "admin@example.com ",
        "Admin@Example.Com",
    ] {
        let (reply, _) = sign_in_with(base, None, email, "guess, guess").await;
        assert_eq!(reply.grpc_status, UNAUTHENTICATED);
    }
    let forged = format!("device={}", "A".repeat(43));
    for cookie in [None, Some(forged.as_str()), clerks_device.as_deref()] {
        let (reply, _) = sign_in_with(base, cookie, ADMIN_EMAIL, ADMIN_PASSWORD).await;
        assert_eq!(
            (reply.grpc_status, reply.message.as_str()),
            (RESOURCE_EXHAUSTED, TOO_MANY_ATTEMPTS),
            "{cookie:?}: a stranger's browser, a made-up or another account's device"
        );
    }
    let cookie = format!("theme=dark; {device}");
    let (reply, again) = sign_in_with(base, Some(&cookie), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!((reply.grpc_status, reply.message.as_str()), (OK, ""));
    assert_eq!(again.as_deref(), Some(device.as_str()), "the same device");
    // Whoever holds the cookie gets the account's few guesses, no more.
    for _ in 0..3 {
        let (reply, _) = sign_in_with(base, Some(&device), ADMIN_EMAIL, "guess").await;
        assert_eq!(reply.grpc_status, UNAUTHENTICATED);
    }
    let (reply, _) = sign_in_with(base, Some(&device), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, RESOURCE_EXHAUSTED);
}

#[tokio::test]
async fn all_in_one_a_browser_known_to_the_account_signs_in_from_a_locked_network() {
    a_browser_known_to_the_account_signs_in_from_a_locked_network(
        &all_in_one_with(|s| s.sign_in_max_delay_ms = 1).await,
    )
    .await;
}

#[tokio::test]
async fn distributed_a_browser_known_to_the_account_signs_in_from_a_locked_network() {
    a_browser_known_to_the_account_signs_in_from_a_locked_network(
        &distributed_with(|s| s.sign_in_max_delay_ms = 1).await,
    )
    .await;
}

#[test]
fn an_account_under_attack_is_slowed_more_with_each_failure_up_to_the_limit() {
    let max = Duration::from_secs(5);
    let waits: Vec<u128> = [0, 4, 5, 6, 7, 9, 10, 1_000_000]
        .into_iter()
        .map(|failures| delay_before_checking(failures, 5, max).as_millis())
        .collect();
    assert_eq!(waits, [0, 0, 250, 500, 1000, 4000, 5000, 5000]);
}

async fn lookup_from(base: &str, client: &str) -> Option<i32> {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: "PSE000000000".into(),
        ..Default::default()
    };
    call(
        base,
        "ShipmentService/GetShipmentByTrackingNumber",
        request.encode_to_vec(),
        &[("x-forwarded-for", client.as_bytes())],
    )
    .await
    .grpc_status
}

async fn contact_from(base: &str, client: &str) -> Option<i32> {
    let request = pb::SendContactMessageRequest {
        name: "Someone".into(),
        email: "someone@example.com".into(),
        subject: "Hello".into(),
        message: "A question about a delivery.".into(),
        ..Default::default()
    };
    call(
        base,
        "NotificationService/SendContactMessage",
        request.encode_to_vec(),
        &[("x-forwarded-for", client.as_bytes())],
    )
    .await
    .grpc_status
}

#[tokio::test]
async fn an_ipv6_client_is_limited_by_its_64_and_an_ipv4_mapped_one_as_ipv4() {
    let site = all_in_one_with(|s| {
        s.trusted_proxy_hops = 1;
        s.tracking_lookups_per_minute = 2;
    })
    .await;
    let base = &site.base;
    let mut codes = Vec::new();
    for client in [
        "2001:db8:a:b::1",
        "2001:db8:a:b:1234:5678:9abc:def0",
        "2001:db8:a:b::ffff",
        "2001:db8:a:c::1",
        "192.0.2.1",
        "192.0.2.1",
        "::ffff:192.0.2.1",
        "192.0.2.2",
    ] {
        codes.push((client, lookup_from(base, client).await));
    }
    let refused: Vec<&str> = codes
        .iter()
        .filter(|(_, code)| *code == RESOURCE_EXHAUSTED)
        .map(|(client, _)| *client)
        .collect();
    assert_eq!(refused, ["2001:db8:a:b::ffff", "::ffff:192.0.2.1"]);
    // Another limit, counted the same way (the test settings allow 2 messages an hour).
    let mut codes = Vec::new();
    for client in ["2001:db8:a:b::1", "2001:db8:a:b::2", "2001:db8:a:b::3"] {
        codes.push(contact_from(base, client).await);
    }
    assert_eq!(codes[2], RESOURCE_EXHAUSTED, "{codes:?}");
    assert_ne!(
        contact_from(base, "2001:db8:a:c::3").await,
        RESOURCE_EXHAUSTED
    );
}

#[test]
fn clients_are_keyed_on_their_ipv4_address_or_ipv6_64() {
    use gateway::rpc::network_key;
    let key = |ip: &str| network_key(ip.parse().unwrap());
    assert_eq!(key("203.0.113.7"), "203.0.113.7");
    assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
    assert_eq!(key("2001:db8:a:b:1:2:3:4"), "2001:db8:a:b::/64");
    assert_eq!(key("2001:DB8:A:B::"), "2001:db8:a:b::/64");
    assert_ne!(key("2001:db8:a:c::1"), key("2001:db8:a:b::1"));
    assert_eq!(key("::1"), "0:0:0:0::/64");
}

/// Ids no log line or audit entry may carry; each is sent as the client's `x-request-id`.
fn hostile_ids() -> Vec<Vec<u8>> {
    vec![
        "x".repeat(10 * 1024).into_bytes(),
        br#"{"actor":"admin","forged":true}"#.to_vec(),
        "ünïcödé-✓".as_bytes().to_vec(),
        b"two\twords".to_vec(),
        b"a b".to_vec(),
        b"id;drop".to_vec(),
        "y".repeat(65).into_bytes(),
    ]
}

async fn audited_request_ids(site: &Site) -> Vec<String> {
    use audit::AuditLog;
    let log = audit::SqliteAuditLog::open(&site.data).unwrap();
    let page = log
        .list(&audit::AuditQuery {
            page_size: 500,
            ..Default::default()
        })
        .await
        .unwrap();
    page.entries.into_iter().map(|e| e.request_id).collect()
}

fn assert_only_safe_ids(ids: &[String], expected: usize) {
    assert!(ids.len() >= expected, "{} entries", ids.len());
    for id in ids {
        // Empty: a change made without a request (the first admin, set up at start).
        assert!(
            id.is_empty() || service_common::telemetry::acceptable_request_id(id.as_bytes()),
            "{id:?} in the audit log"
        );
        assert!(!hostile_ids().iter().any(|h| h == id.as_bytes()));
    }
}

/// Every failure reaches the auth service and its audit log.
fn many_failures(settings: &mut gateway::Settings) {
    settings.failed_sign_ins_per_account = 100;
    settings.sign_in_max_delay_ms = 1;
}

async fn a_clients_request_id_is_kept_only_when_safe(site: &Site) {
    for id in hostile_ids() {
        let request = pb::CreateSessionRequest {
            email: ADMIN_EMAIL.into(),
            password: "not the password".into(),
        };
        call(
            &site.base,
            "SessionService/CreateSession",
            request.encode_to_vec(),
            &[("x-request-id", &id)],
        )
        .await;
    }
    // The failures above locked this client out of the admin's account, not the clerk's.
    let request = pb::CreateSessionRequest {
        email: CLERK_EMAIL.into(),
        password: ADMIN_PASSWORD.into(),
    };
    let reply = call(
        &site.base,
        "SessionService/CreateSession",
        request.encode_to_vec(),
        &[("x-request-id", b"lb-7f3a.01")],
    )
    .await;
    assert_eq!(reply.grpc_status, OK);
    let ids = audited_request_ids(site).await;
    assert_only_safe_ids(&ids, hostile_ids().len() + 1);
    assert!(ids.iter().any(|id| id == "lb-7f3a.01"), "a sane id is kept");
}

#[tokio::test]
async fn all_in_one_a_clients_request_id_is_kept_only_when_safe() {
    a_clients_request_id_is_kept_only_when_safe(&all_in_one_with(many_failures).await).await;
}

#[tokio::test]
async fn distributed_a_clients_request_id_is_kept_only_when_safe() {
    a_clients_request_id_is_kept_only_when_safe(&distributed_with(many_failures).await).await;
}

/// A caller of a service itself (inside the cluster) cannot write its own id either.
#[tokio::test]
async fn a_service_replaces_a_callers_unsafe_request_id() {
    use pb::auth_service_client::AuthServiceClient;
    let site = distributed_with(|_| {}).await;
    let mut auth = AuthServiceClient::connect(site.auth_url.clone().unwrap())
        .await
        .unwrap();
    for id in hostile_ids() {
        let mut request = tonic::Request::new(pb::SignInRequest {
            email: ADMIN_EMAIL.into(),
            password: "not the password".into(),
        });
        request.metadata_mut().insert(
            "x-request-id",
            tonic::metadata::AsciiMetadataValue::try_from(id.as_slice()).unwrap(),
        );
        let status = auth.sign_in(request).await.unwrap_err();
        assert_eq!(status.code(), tonic::Code::Unauthenticated);
    }
    assert_only_safe_ids(&audited_request_ids(&site).await, hostile_ids().len());
}
