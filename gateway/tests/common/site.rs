//! The product on loopback ports, built by the same `build` functions its binaries call:
//! all-in-one (every service in the gateway's process) or distributed (each service on its
//! own port, sessions in Redis). The stores are opened a second time beside it, as a tool
//! with database access would, so tests can set up data and look behind the API.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use gateway::{HostedServices, Settings, Upstreams};
use service_auth::{TokenKey, TokenSettings};
use service_common::settings::{StoreSettings, defaults};
use service_common::{Built, Stopping};
use shipments::store::{ShipmentStore, SqliteShipmentStore};
use tokio::net::TcpListener;

use super::RedisServer;

pub const ADMIN_EMAIL: &str = "admin@example.com";
pub const ADMIN_PASSWORD: &str = "correct horse battery staple";
/// A signed-in user of role user, with the admin's password.
pub const CLERK_EMAIL: &str = "clerk@example.com";
/// Long enough that a missed eviction of a cached lookup would show as a stale answer.
pub const CACHE_TTL_MS: u64 = 60_000;

pub struct Site {
    pub base: String,
    /// The data directory every service of the site uses.
    pub data: PathBuf,
    pub store: Arc<dyn ShipmentStore>,
    /// The users' store, as a tool with database access would change it.
    pub users: Arc<dyn auth::store::UserStore>,
    /// The services' own gRPC addresses, in distributed mode.
    pub shipments_url: Option<String>,
    pub auth_url: Option<String>,
    pub tokens: TokenKey,
    /// The settings the gateway was started with (its services' URLs and Redis, distributed).
    pub gateway_settings: Settings,
    _stop: tokio::sync::watch::Sender<bool>,
    _dirs: Vec<tempfile::TempDir>,
    _redis: Option<RedisServer>,
}

/// A built app: an index page with a script, and one hashed asset.
pub fn static_dir() -> tempfile::TempDir {
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

/// The gateway's settings for tests: generous sign-in limits, tight contact limits.
pub fn settings(static_dir: &Path) -> Settings {
    Settings {
        port: 0,
        static_dir: static_dir.to_path_buf(),
        contact_messages_per_hour: 2,
        sign_ins_per_ip_per_minute: 1000,
        failed_sign_ins_per_account: 3,
        session_idle: Duration::from_secs(600),
        session_absolute: Duration::from_secs(3600),
        ..defaults()
    }
}

/// Every service on the embedded store in `data`, e-mail to the local outbox, the first
/// admin from `ADMIN_EMAIL` and `ADMIN_PASSWORD`.
pub fn hosted(data: &Path) -> HostedServices {
    HostedServices {
        store: StoreSettings::embedded(data),
        site: defaults(),
        shipments: shipments::Settings {
            tracking_cache_ttl_ms: CACHE_TTL_MS,
            ..defaults()
        },
        auth: auth::Settings {
            admin_email: Some(ADMIN_EMAIL.into()),
            admin_password: Some(ADMIN_PASSWORD.into()),
            ..Default::default()
        },
        notifications: defaults(),
    }
}

async fn listen(settings: &Settings, data: &Path, upstreams: Upstreams) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = gateway::app(settings, data, upstreams).await.unwrap();
    let settings = settings.clone();
    tokio::spawn(async move { gateway::serve(listener, app, &settings).await });
    base
}

/// The stores of `data`, opened beside the product; and the clerk, created through them.
async fn stores(data: &Path) -> (Arc<dyn ShipmentStore>, Arc<dyn auth::store::UserStore>) {
    let store: Arc<dyn ShipmentStore> =
        Arc::new(SqliteShipmentStore::open(&data.join(outbox::store::sqlite::FILE)).unwrap());
    let users: Arc<dyn auth::store::UserStore> =
        Arc::new(auth::store::SqliteUserStore::open(&data.join("users.sqlite3")).unwrap());
    let clerk = auth::domain::Email::parse(CLERK_EMAIL).unwrap();
    if users.find_by_email(&clerk).await.unwrap().is_none() {
        let audit_log = Arc::new(audit::SqliteAuditLog::open(data).unwrap());
        auth::AuthApi::new(users.clone(), audit_log)
            .create(
                clerk,
                "Clerk",
                auth::domain::Role::User,
                auth::domain::NewPassword::parse("password", ADMIN_PASSWORD).unwrap(),
            )
            .await
            .unwrap();
    }
    (store, users)
}

/// Opens every embedded store of `data`, as the services do at start (which migrates them).
pub async fn open_stores(data: &Path) {
    SqliteShipmentStore::open(&data.join(outbox::store::sqlite::FILE)).unwrap();
    outbox::SqliteOutbox::open(data).unwrap();
    outbox::webhooks::SqliteWebhooks::open(data).unwrap();
    audit::SqliteAuditLog::open(data).unwrap();
    auth::store::SqliteUserStore::open(&data.join("users.sqlite3")).unwrap();
    preferences::store::SqlitePreferenceStore::open(&data.join("preferences.sqlite3")).unwrap();
}

/// The all-in-one, with the gateway's settings adjusted by `adjust`.
pub async fn all_in_one_with(adjust: impl FnOnce(&mut Settings)) -> Site {
    all_in_one_with_services(adjust, |_| {}).await
}

/// The all-in-one, with the gateway's and the services' settings adjusted.
pub async fn all_in_one_with_services(
    adjust: impl FnOnce(&mut Settings),
    adjust_services: impl FnOnce(&mut HostedServices),
) -> Site {
    let data = tempfile::tempdir().unwrap();
    let mut site = all_in_one_in(data.path(), None, adjust, adjust_services).await;
    site._dirs.push(data);
    site
}

/// The all-in-one over the embedded stores in `data`, which stays when the site is dropped.
pub async fn all_in_one_on(data: &Path) -> Site {
    all_in_one_in(data, None, |_| {}, |_| {}).await
}

/// The all-in-one over `data`, which stays when the site is dropped, with the gateway's
/// settings adjusted by `adjust`.
pub async fn all_in_one_on_with(data: &Path, adjust: impl FnOnce(&mut Settings)) -> Site {
    all_in_one_in(data, None, adjust, |_| {}).await
}

/// The all-in-one over `data` with its keys picked as the binary picks them: those `keys`
/// names, else the ones kept in `data`.
pub async fn all_in_one_keyed(data: &Path, keys: &TokenSettings) -> Site {
    all_in_one_in(data, Some(keys), |_| {}, |_| {}).await
}

async fn all_in_one_in(
    data: &Path,
    keys: Option<&TokenSettings>,
    adjust: impl FnOnce(&mut Settings),
    adjust_services: impl FnOnce(&mut HostedServices),
) -> Site {
    let files = static_dir();
    let mut settings = settings(files.path());
    adjust(&mut settings);
    let mut hosted = hosted(data);
    adjust_services(&mut hosted);
    let tokens = match keys {
        Some(keys) => gateway::token_key(&settings, &hosted, keys).unwrap(),
        None => TokenKey::generate(),
    };
    let (stop, stopping) = Stopping::channel();
    let upstreams = Upstreams::build(&settings, &hosted, tokens.clone(), &stopping)
        .await
        .unwrap();
    let (store, users) = stores(data).await;
    let base = listen(&settings, data, upstreams).await;
    Site {
        base,
        data: data.to_path_buf(),
        store,
        users,
        shipments_url: None,
        auth_url: None,
        tokens,
        gateway_settings: settings,
        _stop: stop,
        _dirs: vec![files],
        _redis: None,
    }
}

pub async fn all_in_one() -> Site {
    all_in_one_with(|_| {}).await
}

/// Serves a built service on a loopback port until `stopping`; its URL.
async fn serve<S>(built: Built<S>, stopping: &Stopping) -> String
where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = std::convert::Infallible,
        > + tonic::server::NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(service_common::serve(
        listener,
        built,
        stopping.clone().wait(),
    ));
    url
}

/// Distributed: each service on its own port, reached over gRPC by URL, sessions and rate
/// limits in a real Redis.
pub async fn distributed_with(adjust: impl FnOnce(&mut Settings)) -> Site {
    distributed_with_services(adjust, |_| {}).await
}

/// Distributed, with the gateway's and the services' settings adjusted.
pub async fn distributed_with_services(
    adjust: impl FnOnce(&mut Settings),
    adjust_services: impl FnOnce(&mut HostedServices),
) -> Site {
    let data = tempfile::tempdir().unwrap();
    let mut site = distributed_in(data.path(), None, adjust, adjust_services).await;
    site._dirs.push(data);
    site
}

/// Distributed over `data`, every service and the gateway with the keys `keys` names.
pub async fn distributed_keyed(data: &Path, keys: &TokenSettings) -> Site {
    distributed_in(data, Some(keys), |_| {}, |_| {}).await
}

async fn distributed_in(
    data: &Path,
    keys: Option<&TokenSettings>,
    adjust: impl FnOnce(&mut Settings),
    adjust_services: impl FnOnce(&mut HostedServices),
) -> Site {
    let mut hosted = hosted(data);
    adjust_services(&mut hosted);
    let store = hosted.store.config();
    let tokens = TokenKey::generate();
    // Each service reads the key settings by itself, as its binary does.
    let key = || match keys {
        Some(keys) => keys.key(None).unwrap(),
        None => tokens.clone(),
    };
    let (stop, stopping) = Stopping::channel();
    let shipments_url = serve(
        shipments::build(&store, &hosted.site, &hosted.shipments, key())
            .await
            .unwrap(),
        &stopping,
    )
    .await;
    let auth_url = serve(
        auth::build(&store, &hosted.auth, key()).await.unwrap(),
        &stopping,
    )
    .await;
    let notifications_url = serve(
        notifications::build(&store, &hosted.site, &hosted.notifications, key())
            .await
            .unwrap(),
        &stopping,
    )
    .await;
    let preferences_url = serve(preferences::build(&store, key()).await.unwrap(), &stopping).await;
    let redis = RedisServer::start().await;
    let files = static_dir();
    let mut settings = Settings {
        shipments_url: Some(shipments_url.clone()),
        auth_url: Some(auth_url.clone()),
        notifications_url: Some(notifications_url),
        preferences_url: Some(preferences_url),
        redis_url: Some(redis.url().into()),
        ..settings(files.path())
    };
    adjust(&mut settings);
    let tokens = match keys {
        Some(keys) => gateway::token_key(&settings, &hosted, keys).unwrap(),
        None => tokens,
    };
    let upstreams = Upstreams::build(&settings, &hosted, tokens.clone(), &stopping)
        .await
        .unwrap();
    let (store, users) = stores(data).await;
    let base = listen(&settings, data, upstreams).await;
    Site {
        base,
        data: data.to_path_buf(),
        store,
        users,
        shipments_url: Some(shipments_url),
        auth_url: Some(auth_url),
        tokens,
        gateway_settings: settings,
        _stop: stop,
        _dirs: vec![files],
        _redis: Some(redis),
    }
}

/// One more gateway replica of a distributed `site`: the same services and Redis; its URL.
pub async fn another_gateway(site: &Site) -> String {
    let (_, stopping) = Stopping::channel();
    let upstreams = Upstreams::build(
        &site.gateway_settings,
        &hosted(&site.data),
        site.tokens.clone(),
        &stopping,
    )
    .await
    .unwrap();
    listen(&site.gateway_settings, &site.data, upstreams).await
}

pub async fn distributed() -> Site {
    distributed_with(|_| {}).await
}
