//! The gateway over real HTTP: gRPC-web calls as a browser makes them, the app's files,
//! and both ways of reaching the shipment service.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Buf, Bytes, BytesMut};
use gateway::{Config, Upstreams, upstream};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use prost::Message;
use service_auth::TokenKey;
use shipments::store::{ShipmentStore, SqliteShipmentStore};
use tokio::net::TcpListener;

/// Long enough that a missed eviction would show as a stale answer.
const CACHE_TTL: Duration = Duration::from_secs(60);

struct Site {
    base: String,
    store: Arc<dyn ShipmentStore>,
    _dirs: Vec<tempfile::TempDir>,
    _redis: Option<common::RedisServer>,
}

fn static_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let page = format!(
        "<!doctype html><html><head><script src=\"/assets/app-1a2b3c.js\"></script></head><body>{}</body></html>",
        "app ".repeat(100)
    );
    std::fs::write(dir.path().join("index.html"), page).unwrap();
    std::fs::create_dir(dir.path().join("assets")).unwrap();
    std::fs::write(
        dir.path().join("assets/app-1a2b3c.js"),
        "console.log('app');".repeat(50),
    )
    .unwrap();
    dir
}

fn config(static_dir: &Path, lookups_per_minute: u64) -> Config {
    Config {
        port: 0,
        static_dir: static_dir.to_path_buf(),
        shipments_url: None,
        auth_url: None,
        notifications_url: None,
        preferences_url: None,
        redis_url: None,
        tracking_lookups_per_minute: lookups_per_minute,
        contact_messages_per_hour: 2,
        sign_ins_per_ip_per_minute: 1000,
        failed_sign_ins_per_account: 3,
        session_lifetime: gateway::session::Lifetime {
            idle: Duration::from_secs(600),
            absolute: Duration::from_secs(3600),
        },
        secure_cookie: false,
        trust_forwarded_for: false,
    }
}

async fn listen(config: &Config, upstreams: Upstreams) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(gateway::serve(
        listener,
        gateway::app(config, upstreams).await.unwrap(),
    ));
    base
}

const ADMIN_EMAIL: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "correct horse battery staple";
const CLERK_EMAIL: &str = "clerk@example.com";

/// An auth store holding an admin and a clerk (role user).
async fn users(dir: &Path) -> Arc<dyn auth::store::UserStore> {
    let store: Arc<dyn auth::store::UserStore> =
        Arc::new(auth::store::SqliteUserStore::open(&dir.join("users.sqlite3")).unwrap());
    auth::create_admin(store.clone(), ADMIN_EMAIL, ADMIN_PASSWORD)
        .await
        .unwrap();
    let api = auth::AuthApi::new(store.clone(), TokenKey::generate());
    let clerk = auth::domain::Email::parse(CLERK_EMAIL).unwrap();
    api.create(
        clerk,
        "Clerk",
        auth::domain::Role::User,
        auth::domain::NewPassword::parse("p", ADMIN_PASSWORD).unwrap(),
    )
    .await
    .unwrap();
    store
}

fn sqlite() -> (Arc<dyn ShipmentStore>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn ShipmentStore> =
        Arc::new(SqliteShipmentStore::open(&dir.path().join(outbox::store::sqlite::FILE)).unwrap());
    (store, dir)
}

fn preference_store(dir: &Path) -> Arc<dyn preferences::PreferenceStore> {
    Arc::new(preferences::SqlitePreferenceStore::open(&dir.join("preferences.sqlite3")).unwrap())
}

/// The notifications service on the shipments' outbox, delivering to the local outbox, with
/// its worker running.
fn notifications_service(dir: &Path, tokens: &TokenKey) -> notifications::NotificationsService {
    let store = Arc::new(outbox::SqliteOutbox::open(dir).unwrap());
    let (service, worker) = notifications::service_and_worker(
        store,
        notifications::Transport::LocalOutbox,
        tokens.clone(),
        notifications::RetryPolicy::default(),
        "http://localhost:8080".into(),
    );
    tokio::spawn(worker.run(std::future::pending()));
    service
}

/// The all-in-one: every service in this process.
async fn all_in_one_with(config_of: impl FnOnce(&Path) -> Config) -> Site {
    let (store, data) = sqlite();
    let files = static_dir();
    let tokens = TokenKey::generate();
    let upstreams = Upstreams {
        shipments: upstream::in_process(shipments::server(
            store.clone(),
            tokens.clone(),
            CACHE_TTL,
        )),
        auth: upstream::in_process(auth::server(users(data.path()).await, tokens.clone())),
        notifications: upstream::in_process(notifications::server(notifications_service(
            data.path(),
            &tokens,
        ))),
        preferences: upstream::in_process(preferences::server(
            preference_store(data.path()),
            tokens.clone(),
        )),
        tokens,
    };
    let base = listen(&config_of(files.path()), upstreams).await;
    Site {
        base,
        store,
        _dirs: vec![data, files],
        _redis: None,
    }
}

async fn all_in_one(lookups_per_minute: u64) -> Site {
    all_in_one_with(|files| config(files, lookups_per_minute)).await
}

/// Distributed: each service on its own port, reached over gRPC by URL.
async fn distributed() -> Site {
    let (store, data) = sqlite();
    let tokens = TokenKey::generate();
    let shipments_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let shipments_url = format!("http://{}", shipments_listener.local_addr().unwrap());
    tokio::spawn(shipments::serve(
        shipments_listener,
        store.clone(),
        tokens.clone(),
        CACHE_TTL,
        std::future::pending(),
    ));
    let auth_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let auth_url = format!("http://{}", auth_listener.local_addr().unwrap());
    tokio::spawn(auth::serve(
        auth_listener,
        users(data.path()).await,
        tokens.clone(),
        std::future::pending(),
    ));
    let notifications_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let notifications_url = format!("http://{}", notifications_listener.local_addr().unwrap());
    tokio::spawn(notifications::serve(
        notifications_listener,
        notifications_service(data.path(), &tokens),
        std::future::pending(),
    ));
    let preferences_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let preferences_url = format!("http://{}", preferences_listener.local_addr().unwrap());
    tokio::spawn(preferences::serve(
        preferences_listener,
        preference_store(data.path()),
        tokens.clone(),
        std::future::pending(),
    ));
    let files = static_dir();
    let upstreams = Upstreams {
        shipments: upstream::remote("shipments", &shipments_url).unwrap(),
        auth: upstream::remote("auth", &auth_url).unwrap(),
        notifications: upstream::remote("notifications", &notifications_url).unwrap(),
        preferences: upstream::remote("preferences", &preferences_url).unwrap(),
        tokens,
    };
    let redis = common::RedisServer::start().await;
    let config = Config {
        redis_url: Some(redis.url()),
        ..config(files.path(), 60)
    };
    let base = listen(&config, upstreams).await;
    Site {
        base,
        store,
        _dirs: vec![data, files],
        _redis: Some(redis),
    }
}

async fn demo_shipment(store: &Arc<dyn ShipmentStore>) -> shipments::domain::Shipment {
    let key = TokenKey::generate();
    let server = shipments::server(store.clone(), key.clone(), CACHE_TTL);
    let mut client = ShipmentServiceClient::with_interceptor(
        server,
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    );
    shipments::demo::load(&mut client).await.unwrap().remove(0)
}

/// What a gRPC-web call answered: status, message and the reply message bytes.
#[derive(Debug)]
struct Reply {
    http: u16,
    grpc_status: Option<i32>,
    message: String,
    body: Option<Bytes>,
}

fn frame(message: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8];
    out.extend_from_slice(&(message.len() as u32).to_be_bytes());
    out.extend_from_slice(message);
    out
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
    let response = request.body(body).send().await.unwrap();
    let http = response.status().as_u16();
    let headers = response.headers().clone();
    let mut grpc_status = headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let mut message = headers
        .get("grpc-message")
        .map(|v| percent_decode(v.to_str().unwrap()))
        .unwrap_or_default();
    let mut bytes = BytesMut::from(&response.bytes().await.unwrap()[..]);
    let mut body = None;
    while bytes.len() >= 5 {
        let flag = bytes.get_u8();
        let len = bytes.get_u32() as usize;
        if len > bytes.len() {
            break; // not a gRPC-web frame: an HTTP-level error body
        }
        let chunk = bytes.split_to(len).freeze();
        if flag & 0x80 == 0 {
            body = Some(chunk);
        } else {
            for line in String::from_utf8_lossy(&chunk).split("\r\n") {
                if let Some(v) = line.strip_prefix("grpc-status:") {
                    grpc_status = v.trim().parse().ok();
                }
                if let Some(v) = line.strip_prefix("grpc-message:") {
                    message = percent_decode(v.trim());
                }
            }
        }
    }
    (
        Reply {
            http,
            grpc_status,
            message,
            body,
        },
        headers,
    )
}

fn percent_decode(text: &str) -> String {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

async fn lookup(base: &str, number: &str) -> Reply {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
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
    assert_eq!(found.shipper.unwrap().name, shipment.details.shipper_name);
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
    let files = static_dir();
    let tokens = TokenKey::generate();
    let upstreams = Upstreams {
        shipments: upstream::remote("shipments", &format!("http://{closed}")).unwrap(),
        auth: upstream::remote("auth", &format!("http://{closed}")).unwrap(),
        notifications: upstream::remote("notifications", &format!("http://{closed}")).unwrap(),
        preferences: upstream::remote("preferences", &format!("http://{closed}")).unwrap(),
        tokens,
    };
    let base = listen(&config(files.path(), 60), upstreams).await;
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
    let site = all_in_one_with(|files| Config {
        trust_forwarded_for: true,
        ..config(files, 60)
    })
    .await;
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
    let site = all_in_one_with(|files| Config {
        sign_ins_per_ip_per_minute: 2,
        ..config(files, 60)
    })
    .await;
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
    let lifetime = gateway::session::Lifetime {
        idle: Duration::from_secs(600),
        absolute: Duration::from_secs(1),
    };
    let site = all_in_one_with(|files| Config {
        session_lifetime: lifetime,
        ..config(files, 60)
    })
    .await;
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
        pb::ListNotificationsRequest::default().encode_to_vec(),
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
    let (store, data) = sqlite();
    let tokens = TokenKey::generate();
    let upstreams = Upstreams {
        shipments: upstream::in_process(shipments::server(store, tokens.clone(), CACHE_TTL)),
        auth: upstream::in_process(auth::server(users(data.path()).await, tokens.clone())),
        notifications: upstream::in_process(notifications::server(notifications_service(
            data.path(),
            &tokens,
        ))),
        preferences: upstream::in_process(preferences::server(
            preference_store(data.path()),
            tokens.clone(),
        )),
        tokens,
    };
    let base = listen(&config(files.path(), 60), upstreams).await;
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
    let site = all_in_one_with(|dir| {
        std::fs::write(dir.join("assets/big-9f8e7d.js"), &big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js"), &big).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js.gz"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("assets/big-9f8e7d.js.br"), b"not brotli of it").unwrap();
        config(dir, 60)
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
