//! The gateway: serves the web app and forwards gRPC-web calls to the services,
//! deciding per method what a browser may call.

pub mod limits;
pub mod observe;
pub mod redis_call;
pub mod rpc;
pub mod session;
pub mod session_api;
pub mod upstream;
pub mod web;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::middleware;
use logistics_proto::v1::session_service_server::SessionServiceServer;
use service_auth::TokenKey;
use tokio::net::TcpListener;
use tonic_web::GrpcWebLayer;
use tower::Layer;

use limits::RateLimit;
use rpc::RpcGateway;
use session::{Lifetime, SessionStore};
use session_api::SessionApi;
use upstream::Upstream;

/// Largest gRPC-web request body a browser may send.
pub const MAX_RPC_BODY_BYTES: usize = 64 * 1024;

/// The gateway's settings, from the environment (see the README).
#[derive(Clone, Debug)]
pub struct Config {
    pub port: u16,
    pub static_dir: PathBuf,
    /// Where the shipments service runs; None hosts it in this process.
    pub shipments_url: Option<String>,
    /// Where the auth service runs; None hosts it in this process.
    pub auth_url: Option<String>,
    /// Where the notifications service runs; None hosts it (and its outbox worker) here.
    pub notifications_url: Option<String>,
    /// Where the preferences service runs; None hosts it in this process.
    pub preferences_url: Option<String>,
    /// Sessions and rate limits in Redis; None keeps them in this process.
    pub redis_url: Option<String>,
    pub tracking_lookups_per_minute: u64,
    pub contact_messages_per_hour: u64,
    pub sign_ins_per_ip_per_minute: u64,
    pub failed_sign_ins_per_account: u64,
    pub session_lifetime: Lifetime,
    pub secure_cookie: bool,
    pub trust_forwarded_for: bool,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T> {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => v
            .parse()
            .map_err(|_| anyhow::anyhow!("{name} has an invalid value: {v:?}")),
        _ => Ok(default),
    }
}

fn env_url(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|u| !u.is_empty())
}

/// The window in which failed sign-ins of one account are counted.
pub const FAILED_SIGN_IN_WINDOW: Duration = Duration::from_secs(15 * 60);

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Ok(Self {
            port: env_or("PORT", 8080)?,
            static_dir: env_or("STATIC_DIR", PathBuf::from("frontend/dist"))?,
            shipments_url: env_url("SHIPMENTS_URL"),
            auth_url: env_url("AUTH_URL"),
            notifications_url: env_url("NOTIFICATIONS_URL"),
            preferences_url: env_url("PREFERENCES_URL"),
            redis_url: env_url("REDIS_URL"),
            tracking_lookups_per_minute: env_or("TRACKING_RATE_LIMIT_PER_MINUTE", 60)?,
            contact_messages_per_hour: env_or("CONTACT_RATE_LIMIT_PER_HOUR", 5)?,
            sign_ins_per_ip_per_minute: env_or("LOGIN_RATE_LIMIT_PER_MINUTE", 20)?,
            failed_sign_ins_per_account: env_or("LOGIN_FAILURES_PER_ACCOUNT", 5)?,
            session_lifetime: Lifetime {
                idle: Duration::from_secs(60 * env_or::<u64>("SESSION_IDLE_MINUTES", 30)?),
                absolute: Duration::from_secs(3600 * env_or::<u64>("SESSION_ABSOLUTE_HOURS", 12)?),
            },
            secure_cookie: env_or("COOKIE_SECURE", false)?,
            trust_forwarded_for: env_or("TRUST_FORWARDED_FOR", false)?,
        })
    }

    /// Whether every service runs in this process (then a random token key will do).
    pub fn all_in_one(&self) -> bool {
        self.shipments_url.is_none()
            && self.auth_url.is_none()
            && self.notifications_url.is_none()
            && self.preferences_url.is_none()
    }
}

/// The services the gateway forwards to, and the key that signs their tokens.
#[derive(Clone)]
pub struct Upstreams {
    pub shipments: Upstream,
    pub auth: Upstream,
    pub notifications: Upstream,
    pub preferences: Upstream,
    pub tokens: TokenKey,
}

impl Upstreams {
    /// Remote services where a URL is configured, the rest in this process.
    pub async fn from_config(config: &Config) -> anyhow::Result<Self> {
        let tokens = TokenKey::from_env(config.all_in_one())?;
        let shipments = match &config.shipments_url {
            Some(url) => upstream::remote("shipments", url)?,
            None => {
                let store = shipments::open_store(&shipments::StoreConfig::from_env()).await?;
                upstream::in_process(shipments::server(
                    store,
                    tokens.clone(),
                    shipments::lookup_cache_ttl()?,
                ))
            }
        };
        let auth = match &config.auth_url {
            Some(url) => upstream::remote("auth", url)?,
            None => {
                let store = auth::open_store(&auth::StoreConfig::from_env()).await?;
                auth::ensure_first_admin(store.clone()).await?;
                upstream::in_process(auth::server(store, tokens.clone()))
            }
        };
        let notifications = match &config.notifications_url {
            Some(url) => upstream::remote("notifications", url)?,
            None => {
                let store =
                    notifications::open_store(&service_common::StoreConfig::from_env()).await?;
                let mail = notifications::MailConfig::from_env();
                if mail == notifications::MailConfig::LocalOutbox {
                    tracing::info!(
                        "no e-mail API configured: e-mails go to the local outbox (Admin > E-mails)"
                    );
                }
                let transport =
                    notifications::Transport::new(&mail, notifications::api_timeout()?)?;
                let (service, worker) = notifications::service_and_worker(
                    store,
                    transport,
                    tokens.clone(),
                    notifications::RetryPolicy::from_env()?,
                    service_common::public_url(),
                );
                // Stops with the process: an e-mail being sent then is taken over after its lease.
                tokio::spawn(worker.run(std::future::pending()));
                upstream::in_process(notifications::server(service))
            }
        };
        let preferences = match &config.preferences_url {
            Some(url) => upstream::remote("preferences", url)?,
            None => {
                let store =
                    preferences::open_store(&service_common::StoreConfig::from_env()).await?;
                upstream::in_process(preferences::server(store, tokens.clone()))
            }
        };
        Ok(Self {
            shipments,
            auth,
            notifications,
            preferences,
            tokens,
        })
    }
}

/// A Redis connection that reconnects by itself after an outage, once Redis answered at
/// start-up (waited for, with a log line per attempt). Calls fail within a second while it is
/// away, so the site answers at once instead of hanging.
async fn redis_connection(url: &str) -> anyhow::Result<redis::aio::ConnectionManager> {
    // Reconnect attempts at most 500 ms apart, for as long as it takes: back within half a
    // second of Redis returning.
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(1)))
        .set_max_delay(Duration::from_millis(500))
        .set_number_of_retries(usize::MAX);
    let client = redis::Client::open(url)?;
    let mut attempt = 1;
    loop {
        match redis::aio::ConnectionManager::new_with_config(client.clone(), config.clone()).await {
            Ok(connection) => {
                tracing::info!("connected to Redis");
                return Ok(connection);
            }
            Err(e) => {
                tracing::warn!(attempt, error = %e, "waiting for Redis");
                attempt += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Where sessions and rate-limit counts live.
async fn state_stores(config: &Config) -> anyhow::Result<(SessionStore, [RateLimit; 4])> {
    let minute = Duration::from_secs(60);
    let hour = Duration::from_secs(3600);
    Ok(match &config.redis_url {
        Some(url) => {
            let connection = redis_connection(url).await?;
            (
                SessionStore::redis(connection.clone(), config.session_lifetime),
                [
                    RateLimit::redis(
                        "tracking",
                        config.tracking_lookups_per_minute,
                        minute,
                        connection.clone(),
                    ),
                    RateLimit::redis(
                        "signin-ip",
                        config.sign_ins_per_ip_per_minute,
                        minute,
                        connection.clone(),
                    ),
                    RateLimit::redis(
                        "signin-failures",
                        config.failed_sign_ins_per_account,
                        FAILED_SIGN_IN_WINDOW,
                        connection.clone(),
                    ),
                    RateLimit::redis(
                        "contact",
                        config.contact_messages_per_hour,
                        hour,
                        connection,
                    ),
                ],
            )
        }
        None => (
            SessionStore::in_process(config.session_lifetime),
            [
                RateLimit::in_process("tracking", config.tracking_lookups_per_minute, minute),
                RateLimit::in_process("signin-ip", config.sign_ins_per_ip_per_minute, minute),
                RateLimit::in_process(
                    "signin-failures",
                    config.failed_sign_ins_per_account,
                    FAILED_SIGN_IN_WINDOW,
                ),
                RateLimit::in_process("contact", config.contact_messages_per_hour, hour),
            ],
        ),
    })
}

/// The whole HTTP application.
pub async fn app(config: &Config, upstreams: Upstreams) -> anyhow::Result<Router> {
    let (sessions, [tracking, attempts_per_ip, failures_per_account, contact]) =
        state_stores(config).await?;
    let session_api = SessionApi {
        auth: upstreams.auth.clone(),
        sessions: sessions.clone(),
        attempts_per_ip,
        failures_per_account,
        secure_cookie: config.secure_cookie,
        trust_forwarded_for: config.trust_forwarded_for,
    };
    let rpc = RpcGateway {
        shipments: upstreams.shipments,
        auth: upstreams.auth,
        notifications: upstreams.notifications,
        preferences: upstreams.preferences,
        session_api: upstream::in_process(SessionServiceServer::new(session_api)),
        sessions,
        tokens: upstreams.tokens,
        tracking_limit: Arc::new(tracking),
        contact_limit: Arc::new(contact),
        trust_forwarded_for: config.trust_forwarded_for,
    };
    let grpc_web = GrpcWebLayer::new().layer(
        service_common::grpc_guard::GrpcGuardLayer::behind_grpc_web(MAX_RPC_BODY_BYTES).layer(rpc),
    );
    let mut router = Router::new();
    for service in [
        rpc::SHIPMENT_SERVICE,
        rpc::AUTH_SERVICE,
        rpc::SESSION_SERVICE,
        rpc::NOTIFICATION_SERVICE,
        rpc::PREFERENCE_SERVICE,
    ] {
        router = router.route_service(&format!("{service}{{method}}"), grpc_web.clone());
    }
    Ok(router
        .route("/healthz", axum::routing::get(|| async { "ok" }))
        .merge(web::app_files(&config.static_dir))
        .layer(middleware::from_fn(web::security_headers))
        .layer(middleware::from_fn(observe::request_id_and_metrics)))
}

/// Serves `app` on `listener` until SIGTERM or Ctrl-C, then drains in-flight requests.
pub async fn serve(listener: TcpListener, app: Router) -> anyhow::Result<()> {
    use axum::serve::ListenerExt;
    // Without TCP_NODELAY small responses wait on delayed ACKs (~40 ms each).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(service_common::shutdown_signal())
    .await?;
    Ok(())
}
