//! The gateway: serves the web app and forwards gRPC-web calls to the services,
//! deciding per method what a browser may call.

pub mod access;
pub mod api_keys;
pub mod connect;
pub mod connections;
pub mod export;
pub mod idempotency;
pub mod labels;
pub mod limits;
pub mod observe;
pub mod openapi;
pub mod redis_call;
pub mod rpc;
pub mod session;
pub mod session_api;
pub mod staff_users;
pub mod tracking_access;
pub mod unsubscribe;
pub mod upstream;
pub mod watchers;
pub mod web;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::middleware;
use logistics_proto::v1::session_service_server::SessionServiceServer;
use service_auth::{TokenKey, TokenSettings};
use service_common::settings::{
    ExposeSecret, SecretString, SiteSettings, StoreSettings, TelemetrySettings,
};
use service_common::{Built, Stopping};
use tokio::net::TcpListener;
use tonic_web::GrpcWebLayer;
use tower::Layer;

use access::Access;
use limits::RateLimit;
use rpc::{RpcGateway, RpcService, TrustedProxies};
use session::{Lifetime, SessionStore};
use session_api::SessionApi;
use upstream::Upstream;

/// Largest gRPC-web request body a browser may send.
pub const MAX_RPC_BODY_BYTES: usize = 64 * 1024;

/// The gateway's own settings (see the README's configuration table).
#[derive(clap::Args, Clone, Debug)]
#[group(id = "gateway")]
#[command(next_help_heading = "Gateway")]
pub struct Settings {
    /// HTTP port of the website and the gRPC-web API.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The built web app (hidden files and folders in it, such as `.vite/` or `.env`, are not
    /// served; `.well-known/` is).
    #[arg(long, env = "STATIC_DIR", default_value = "frontend/dist")]
    pub static_dir: PathBuf,
    /// URL of a separate shipments service, e.g. http://shipments:50051; unset, it runs in
    /// the gateway's process.
    #[arg(long, env = "SHIPMENTS_URL")]
    pub shipments_url: Option<String>,
    /// URL of a separate auth service; unset, it runs in the gateway's process.
    #[arg(long, env = "AUTH_URL")]
    pub auth_url: Option<String>,
    /// URL of a separate notifications service; unset, it and its outbox worker run in the
    /// gateway's process.
    #[arg(long, env = "NOTIFICATIONS_URL")]
    pub notifications_url: Option<String>,
    /// URL of a separate preferences service; unset, it runs in the gateway's process.
    #[arg(long, env = "PREFERENCES_URL")]
    pub preferences_url: Option<String>,
    /// Keep sessions and rate-limit counts in Redis (every gateway replica shares them);
    /// unset, sessions and known browsers in DATA_DIR/sessions.sqlite3, other counts in
    /// the process.
    #[arg(long, env = "REDIS_URL", hide_env_values = true, value_parser = service_common::settings::secret)]
    pub redis_url: Option<SecretString>,
    /// Tracking lookups one client (IPv4 address or IPv6 /64) may make per minute.
    #[arg(
        long = "tracking-rate-limit-per-minute",
        env = "TRACKING_RATE_LIMIT_PER_MINUTE",
        default_value_t = 60
    )]
    pub tracking_lookups_per_minute: u64,
    /// Contact messages one client (IPv4 address or IPv6 /64) may send per hour.
    #[arg(
        long = "contact-rate-limit-per-hour",
        env = "CONTACT_RATE_LIMIT_PER_HOUR",
        default_value_t = 5
    )]
    pub contact_messages_per_hour: u64,
    /// Attempts one client (IPv4 address or IPv6 /64) may make per hour to prove they are a
    /// party to a shipment.
    #[arg(
        long = "verify-rate-limit-per-hour",
        env = "TRACKING_VERIFY_RATE_LIMIT_PER_HOUR",
        default_value_t = 20
    )]
    pub verifications_per_hour: u64,
    /// Subscriptions to shipment updates and "Send me a link" requests one client (IPv4 address
    /// or IPv6 /64) may make per hour, together.
    #[arg(
        long = "subscribe-rate-limit-per-hour",
        env = "SUBSCRIBE_RATE_LIMIT_PER_HOUR",
        default_value_t = 10
    )]
    pub subscriptions_per_hour: u64,
    /// Instant quotes one client (IPv4 address or IPv6 /64) may ask for per minute.
    #[arg(
        long = "quote-rate-limit-per-minute",
        env = "QUOTE_RATE_LIMIT_PER_MINUTE",
        default_value_t = 30
    )]
    pub quotes_per_minute: u64,
    /// Sign-in attempts one client (IPv4 address or IPv6 /64) may make per minute.
    #[arg(
        long = "login-rate-limit-per-minute",
        env = "LOGIN_RATE_LIMIT_PER_MINUTE",
        default_value_t = 20
    )]
    pub sign_ins_per_ip_per_minute: u64,
    /// Failed sign-ins of one e-mail from one client network in 15 minutes before that
    /// network gets "Too many failed attempts" for it; beyond as many failures from all
    /// networks together, every attempt on the e-mail waits longer (none is refused).
    #[arg(
        long = "login-failures-per-account",
        env = "LOGIN_FAILURES_PER_ACCOUNT",
        default_value_t = 5
    )]
    pub failed_sign_ins_per_account: u64,
    /// The longest wait, in milliseconds, of a sign-in to an account that strangers keep
    /// failing (0 to 60000).
    #[arg(
        long = "login-max-delay-ms",
        env = "LOGIN_MAX_DELAY_MS",
        default_value_t = 5000,
        value_parser = clap::value_parser!(u64).range(0..=60_000)
    )]
    pub sign_in_max_delay_ms: u64,
    /// A session ends when unused this many minutes.
    #[arg(long = "session-idle-minutes", env = "SESSION_IDLE_MINUTES", default_value = "30", value_parser = minutes)]
    pub session_idle: Duration,
    /// Every session ends this many hours after sign-in.
    #[arg(long = "session-absolute-hours", env = "SESSION_ABSOLUTE_HOURS", default_value = "12", value_parser = hours)]
    pub session_absolute: Duration,
    /// Mark the session cookie Secure; set it whenever the site is served over HTTPS.
    #[arg(long, env = "COOKIE_SECURE", default_value_t = false, action = clap::ArgAction::Set)]
    pub secure_cookie: bool,
    /// How many reverse proxies in front append to X-Forwarded-For; the client IP is that
    /// many entries from the right (what the client writes itself is ignored).
    #[arg(long, env = "TRUSTED_PROXY_HOPS", default_value_t = 0)]
    pub trusted_proxy_hops: usize,
    /// A request's head (request line and headers) must arrive within this many seconds of
    /// its first byte, or the connection is closed.
    #[arg(long = "http-header-timeout-seconds", env = "HTTP_HEADER_TIMEOUT_SECONDS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// A connection with no request in progress (keep-alive, or one that sends nothing) is
    /// closed after this many seconds.
    #[arg(long = "http-idle-timeout-seconds", env = "HTTP_IDLE_TIMEOUT_SECONDS", default_value = "60", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// A request's body must arrive within this many seconds of its head (an 8 MB photo in
    /// 60 s needs about 1.1 Mbit/s), or the request fails.
    #[arg(long = "http-body-timeout-seconds", env = "HTTP_BODY_TIMEOUT_SECONDS", default_value = "60", value_parser = seconds)]
    pub body_timeout: Duration,
    /// Most client connections open at once; further ones wait to be accepted. Keep it below
    /// the process's open-file limit (`ulimit -n`).
    #[arg(long = "http-max-connections", env = "HTTP_MAX_CONNECTIONS", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Most live pages (open tracking pages and staff screens that update themselves) one
    /// client network may hold open at once on this gateway.
    #[arg(long = "live-pages-per-client", env = "LIVE_PAGES_PER_CLIENT", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub live_pages_per_client: u32,
    /// Most live pages open at once on this gateway; each holds one request (and, over
    /// HTTP/1.1, one of the HTTP_MAX_CONNECTIONS).
    #[arg(long = "live-pages-max", env = "LIVE_PAGES_MAX", default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub live_pages_max: u32,
    /// Which public tracking lookups and instant quotes get a log line: `all`, `errors`
    /// (server-side failures only) or `sample:N` (one in N, and every error); other requests
    /// are always logged.
    #[arg(
        long = "log-public-requests",
        env = "LOG_PUBLIC_REQUESTS",
        default_value = "errors"
    )]
    pub log_public_requests: observe::PublicRequestLog,
    /// Replaced by TRUSTED_PROXY_HOPS; set, the gateway refuses to start rather than guess.
    #[arg(long, env = "TRUST_FORWARDED_FOR", hide = true)]
    pub trust_forwarded_for: Option<String>,
}

fn minutes(text: &str) -> Result<Duration, String> {
    text.parse::<u64>()
        .map(|m| Duration::from_secs(60 * m))
        .map_err(|_| format!("{text:?} is not a whole number of minutes"))
}

fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(s) if s > 0 => Ok(Duration::from_secs(s)),
        _ => Err(format!("{text:?} is not a whole number of seconds above 0")),
    }
}

fn hours(text: &str) -> Result<Duration, String> {
    text.parse::<u64>()
        .map(|h| Duration::from_secs(3600 * h))
        .map_err(|_| format!("{text:?} is not a whole number of hours"))
}

/// The window in which failed sign-ins of one account (and of one account and network) are
/// counted.
pub const FAILED_SIGN_IN_WINDOW: Duration = Duration::from_secs(15 * 60);

impl Settings {
    /// Whether every service runs in this process (then its token keys may live in DATA_DIR).
    pub fn all_in_one(&self) -> bool {
        self.shipments_url.is_none()
            && self.auth_url.is_none()
            && self.notifications_url.is_none()
            && self.preferences_url.is_none()
    }

    pub fn session_lifetime(&self) -> Lifetime {
        Lifetime {
            idle: self.session_idle,
            absolute: self.session_absolute,
        }
    }

    pub fn connection_limits(&self) -> connections::ConnectionLimits {
        connections::ConnectionLimits {
            header_read: self.header_timeout,
            idle: self.idle_timeout,
            body: self.body_timeout,
            max_connections: self.max_connections as usize,
        }
    }

    /// Settings a newer version replaced, refused with what to set instead.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.trust_forwarded_for.is_some() {
            anyhow::bail!(
                "TRUST_FORWARDED_FOR was replaced by TRUSTED_PROXY_HOPS: set TRUSTED_PROXY_HOPS=1 \
                 behind one reverse proxy (the number of proxies in front), and unset TRUST_FORWARDED_FOR"
            );
        }
        Ok(())
    }
}

/// The settings of the services the gateway hosts in its own process (those without a URL).
#[derive(clap::Args, Clone, Debug)]
#[group(id = "hosted")]
pub struct HostedServices {
    #[command(flatten)]
    pub store: StoreSettings,
    #[command(flatten)]
    pub site: SiteSettings,
    #[command(flatten)]
    pub shipments: shipments::Settings,
    #[command(flatten)]
    pub auth: auth::Settings,
    #[command(flatten)]
    pub notifications: notifications::Settings,
}

/// The `gateway` binary: the all-in-one product unless service URLs are set, and its tools.
#[derive(clap::Parser, Debug)]
#[command(
    name = "gateway",
    version,
    about = "The website, the gRPC-web API and (all-in-one) every service"
)]
pub struct Cli {
    #[command(flatten)]
    pub gateway: Settings,
    #[command(flatten)]
    pub hosted: HostedServices,
    #[command(flatten)]
    pub tokens: TokenSettings,
    #[command(flatten)]
    pub telemetry: TelemetrySettings,
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The settings from the arguments and the environment; PUBLIC_URL defaults to the port the
    /// site listens on, so links in e-mails follow a changed PORT.
    pub fn read() -> Self {
        let mut cli: Self = service_common::settings::parse();
        cli.hosted.site.site_port = cli.gateway.port;
        cli
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Loads a dozen demo shipments through the shipment service API.
    Demo {
        /// Print the loaded shipments as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Creates an admin account; the password comes from ADMIN_PASSWORD or standard input.
    CreateAdmin {
        #[arg(long)]
        email: String,
    },
    /// Prints a short-lived service token signed with JWT_SIGNING_KEY, for calling a service
    /// directly (e.g. with `buf curl`).
    Token {
        #[arg(long, default_value = "admin")]
        role: service_auth::Role,
        #[arg(long, default_value = "tools@localhost")]
        email: String,
        /// Lifetime in minutes, 1 to 60.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=60))]
        minutes: u64,
    },
    /// All-in-one without JWT_SIGNING_KEY: a new key in DATA_DIR/signing-keys.json signs from
    /// the next start on; the one before keeps verifying links for two years.
    RotateSigningKey {
        /// Also stop accepting everything the previous keys signed (after a leak).
        #[arg(long)]
        forget_retired: bool,
    },
    /// Writes every e-mail the product sends, in each language, branded as configured, to
    /// DIR/<name>.html and .txt: for reviewing the templates (and the e-mail layout test).
    EmailPreviews {
        #[arg(long)]
        out: std::path::PathBuf,
    },
    #[command(flatten)]
    Data(service_common::backup::DataCommand),
}

/// The keys of the gateway and the services it hosts: JWT_SIGNING_KEY (and the previous ones)
/// where set; else, all-in-one, those kept in DATA_DIR, made at the first start.
pub fn token_key(
    settings: &Settings,
    hosted: &HostedServices,
    tokens: &TokenSettings,
) -> anyhow::Result<TokenKey> {
    tokens.key(
        settings
            .all_in_one()
            .then_some(hosted.store.data_dir.as_path()),
    )
}

/// The services the gateway forwards to, and the key that signs their tokens.
#[derive(Clone)]
pub struct Upstreams {
    pub shipments: Upstream,
    pub auth: Upstream,
    pub notifications: Upstream,
    pub preferences: Upstream,
    pub tokens: TokenKey,
    /// The site's address (the labels' tracking links) and company (their sender).
    pub public_url: String,
    pub company_name: String,
}

impl Upstreams {
    /// Remote services where a URL is set, the rest built here (their background tasks
    /// spawned, running until `stopping`).
    pub async fn build(
        settings: &Settings,
        hosted: &HostedServices,
        tokens: TokenKey,
        stopping: &Stopping,
    ) -> anyhow::Result<Self> {
        let store = hosted.store.config();
        let shipments = match &settings.shipments_url {
            Some(url) => upstream::remote("shipments", url)?,
            None => hosted_upstream(
                shipments::build(&store, &hosted.site, &hosted.shipments, tokens.clone()).await?,
                stopping,
            ),
        };
        let auth = match &settings.auth_url {
            Some(url) => upstream::remote("auth", url)?,
            None => hosted_upstream(
                auth::build(&store, &hosted.auth, tokens.clone()).await?,
                stopping,
            ),
        };
        let notifications = match &settings.notifications_url {
            Some(url) => upstream::remote("notifications", url)?,
            None => {
                let built = notifications::build(
                    &store,
                    &hosted.site,
                    &hosted.notifications,
                    tokens.clone(),
                )
                .await?;
                if let Some(problem) = &built.problem {
                    tracing::error!("e-mail is not configured: {problem}");
                }
                hosted_upstream(built, stopping)
            }
        };
        let preferences = match &settings.preferences_url {
            Some(url) => upstream::remote("preferences", url)?,
            None => hosted_upstream(preferences::build(&store, tokens.clone()).await?, stopping),
        };
        Ok(Self {
            shipments,
            auth,
            notifications,
            preferences,
            tokens,
            public_url: hosted.site.public_url(),
            company_name: hosted.site.company_name(),
        })
    }
}

/// A service hosted in this process: its tasks started, its server called without a socket.
fn hosted_upstream<S>(mut built: Built<S>, stopping: &Stopping) -> Upstream
where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = std::convert::Infallible,
        > + logistics_proto::direct::Unary
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    built.spawn_tasks(stopping);
    upstream::in_process(built.server)
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

/// The count of sign-ins per account and browser (`SessionApi::devices`).
const KNOWN_DEVICES: &str = "signin-devices";

/// Where sessions and rate-limit counts live: in Redis when set; else sessions and the known
/// browsers in `data_dir` (they outlive a restart) and the other counts in the process.
async fn state_stores(
    config: &Settings,
    data_dir: &Path,
) -> anyhow::Result<(SessionStore, [RateLimit; 10])> {
    let minute = Duration::from_secs(60);
    let hour = Duration::from_secs(3600);
    let limits = [
        ("tracking", config.tracking_lookups_per_minute, minute),
        ("signin-ip", config.sign_ins_per_ip_per_minute, minute),
        (
            "signin-failures",
            config.failed_sign_ins_per_account,
            FAILED_SIGN_IN_WINDOW,
        ),
        (
            "signin-account-failures",
            config.failed_sign_ins_per_account,
            FAILED_SIGN_IN_WINDOW,
        ),
        (KNOWN_DEVICES, u64::MAX, session_api::DEVICE_LIFETIME),
        ("contact", config.contact_messages_per_hour, hour),
        ("verify", config.verifications_per_hour, hour),
        ("subscribe", config.subscriptions_per_hour, hour),
        ("quote", config.quotes_per_minute, minute),
        // Each key's own limit comes from the auth service with the key.
        ("api-key", u64::MAX, minute),
    ];
    Ok(match &config.redis_url {
        Some(url) => {
            let connection = redis_connection(url.expose_secret()).await?;
            (
                SessionStore::redis(connection.clone(), config.session_lifetime()),
                limits.map(|(name, limit, window)| {
                    RateLimit::redis(name, limit, window, connection.clone())
                }),
            )
        }
        None => {
            // The browsers an account signed in from are remembered for a year, across
            // restarts too; the other counts may start again from zero.
            let devices = limits
                .iter()
                .find(|(name, ..)| *name == KNOWN_DEVICES)
                .map(|&(name, limit, window)| RateLimit::embedded(name, limit, window, data_dir))
                .transpose()?;
            (
                SessionStore::embedded(data_dir, config.session_lifetime())?,
                limits.map(|(name, limit, window)| match &devices {
                    Some(devices) if name == KNOWN_DEVICES => devices.clone(),
                    _ => RateLimit::in_process(name, limit, window),
                }),
            )
        }
    })
}

/// The whole HTTP application; without REDIS_URL its sessions are kept in `data_dir`.
pub async fn app(
    config: &Settings,
    data_dir: &Path,
    upstreams: Upstreams,
) -> anyhow::Result<Router> {
    let (
        sessions,
        [
            tracking,
            attempts_per_ip,
            failures_per_client,
            failures_per_account,
            devices,
            contact,
            verify,
            subscribe,
            quote,
            api_key_calls,
        ],
    ) = state_stores(config, data_dir).await?;
    let access = Access::new(
        sessions,
        upstreams.auth.clone(),
        upstreams.shipments.clone(),
        upstreams.tokens.clone(),
        api_keys::ApiKeys::new(upstreams.auth.clone(), api_key_calls),
    );
    let proxies = TrustedProxies {
        hops: config.trusted_proxy_hops,
        secure_cookie: config.secure_cookie,
    };
    let session_api = SessionApi {
        auth: upstreams.auth.clone(),
        access: access.clone(),
        attempts_per_ip,
        failures_per_client,
        failures_per_account,
        max_delay: Duration::from_millis(config.sign_in_max_delay_ms),
        devices,
        proxies,
    };
    let tracking = Arc::new(tracking);
    let one_click = unsubscribe::OneClick {
        shipments: upstreams.shipments.clone(),
        limit: tracking.clone(),
        proxies,
    };
    let exports = export::Exports {
        access: access.clone(),
        tokens: upstreams.tokens.clone(),
        shipments: upstreams.shipments.clone(),
        proxies,
        public_url: upstreams.public_url.clone(),
        company_name: upstreams.company_name.clone(),
    };
    let idempotency = match &config.redis_url {
        Some(url) => idempotency::Idempotency::redis(redis_connection(url.expose_secret()).await?),
        None => idempotency::Idempotency::embedded(data_dir)?,
    };
    let rpc = RpcService(Arc::new(RpcGateway {
        idempotency,
        shipments: upstreams.shipments,
        auth: upstreams.auth,
        notifications: upstreams.notifications,
        preferences: upstreams.preferences,
        session_api: upstream::in_process(SessionServiceServer::new(session_api)),
        access,
        tokens: upstreams.tokens,
        tracking_limit: tracking,
        contact_limit: Arc::new(contact),
        verify_limit: Arc::new(verify),
        subscribe_limit: Arc::new(subscribe),
        quote_limit: Arc::new(quote),
        proxies,
        watchers: watchers::Watchers::new(
            config.live_pages_per_client as usize,
            config.live_pages_max as usize,
        ),
        // Inside the gateway's checks: a body is read only once the caller may send it.
        guard: service_common::grpc_guard::GrpcGuardLayer::behind_grpc_web(MAX_RPC_BODY_BYTES)
            .with_larger(service_common::grpc_guard::FILE_UPLOADS),
    }));
    let json_calls = rpc.clone();
    let grpc_web = GrpcWebLayer::new().layer(rpc);
    let mut router = Router::new();
    for service in connect::service_prefixes() {
        router = router.route_service(&format!("{service}{{method}}"), grpc_web.clone());
    }
    Ok(router
        .route(observe::HEALTH, axum::routing::get(|| async { "ok" }))
        .route(openapi::PATH, axum::routing::get(openapi::serve))
        .route(
            export::PATH,
            axum::routing::get(export::shipments_csv).with_state(exports.clone()),
        )
        .route(
            export::PORTAL_PATH,
            axum::routing::get(export::portal_shipments_csv).with_state(exports.clone()),
        )
        .route(
            labels::PDF_PATH,
            axum::routing::get(labels::staff_pdf).with_state(exports.clone()),
        )
        .route(
            labels::ZPL_PATH,
            axum::routing::get(labels::staff_zpl).with_state(exports.clone()),
        )
        .route(
            labels::PORTAL_PDF_PATH,
            axum::routing::get(labels::portal_pdf).with_state(exports.clone()),
        )
        .route(
            labels::PORTAL_ZPL_PATH,
            axum::routing::get(labels::portal_zpl).with_state(exports.clone()),
        )
        .route(
            export::REJECTED_PATH,
            axum::routing::get(export::rejected_rows_csv).with_state(exports),
        )
        .merge(web::app_files(&config.static_dir))
        .layer(middleware::from_fn_with_state(
            json_calls,
            connect::json_calls,
        ))
        .layer(middleware::from_fn_with_state(
            one_click,
            unsubscribe::one_click,
        ))
        .layer(middleware::from_fn(web::security_headers))
        .layer(middleware::from_fn_with_state(
            config.log_public_requests,
            observe::request_id_and_metrics,
        )))
}

/// Serves `app` on `listener` within `settings`' connection limits until SIGTERM or Ctrl-C,
/// then drains in-flight requests.
pub async fn serve(listener: TcpListener, app: Router, settings: &Settings) -> anyhow::Result<()> {
    connections::serve(
        listener,
        app,
        settings.connection_limits(),
        service_common::shutdown_signal(),
    )
    .await
}
