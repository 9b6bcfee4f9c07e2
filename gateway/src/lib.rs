//! The gateway: serves the web app and forwards gRPC-web calls to the services,
//! deciding per method what a browser may call.

pub mod rate_limit;
pub mod rpc;
pub mod upstream;
pub mod web;

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::middleware;
use tokio::net::TcpListener;
use tonic_web::GrpcWebLayer;
use tower::Layer;
use tower_http::limit::RequestBodyLimitLayer;

use rate_limit::InProcessRateLimiter;
use rpc::RpcGateway;
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
    pub tracking_lookups_per_minute: NonZeroU32,
    pub trust_forwarded_for: bool,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T> {
    match std::env::var(name) {
        Ok(v) if !v.is_empty() => v.parse().map_err(|_| anyhow::anyhow!("{name} has an invalid value: {v:?}")),
        _ => Ok(default),
    }
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Ok(Self {
            port: env_or("PORT", 8080)?,
            static_dir: env_or("STATIC_DIR", PathBuf::from("frontend/dist"))?,
            shipments_url: std::env::var("SHIPMENTS_URL").ok().filter(|u| !u.is_empty()),
            tracking_lookups_per_minute: env_or("TRACKING_RATE_LIMIT_PER_MINUTE", NonZeroU32::new(60).unwrap())?,
            trust_forwarded_for: env_or("TRUST_FORWARDED_FOR", false)?,
        })
    }
}

/// The services the gateway forwards to.
#[derive(Clone)]
pub struct Upstreams {
    pub shipments: Upstream,
}

impl Upstreams {
    /// Remote services where a URL is configured, the rest in this process.
    pub async fn from_config(config: &Config) -> anyhow::Result<Self> {
        let shipments = match &config.shipments_url {
            Some(url) => upstream::remote("shipments", url)?,
            None => {
                let store = shipments::StoreConfig::from_env().open().await?;
                upstream::in_process(shipments::server(store, shipments::lookup_cache_ttl()?))
            }
        };
        Ok(Self { shipments })
    }
}

/// The whole HTTP application.
pub fn app(config: &Config, upstreams: Upstreams) -> Router {
    let limiter = Arc::new(InProcessRateLimiter::per_minute(config.tracking_lookups_per_minute));
    let forget = Arc::downgrade(&limiter);
    tokio::spawn(async move {
        let mut every_minute = tokio::time::interval(Duration::from_secs(60));
        loop {
            every_minute.tick().await;
            match forget.upgrade() {
                Some(limiter) => limiter.forget_idle_clients(),
                None => break,
            }
        }
    });
    let rpc = RpcGateway {
        shipments: upstreams.shipments,
        tracking_limiter: limiter,
        trust_forwarded_for: config.trust_forwarded_for,
    };
    let grpc_web = RequestBodyLimitLayer::new(MAX_RPC_BODY_BYTES).layer(GrpcWebLayer::new().layer(rpc));
    Router::new()
        .route_service(&format!("{}{{method}}", rpc::SHIPMENT_SERVICE), grpc_web)
        .route("/healthz", axum::routing::get(|| async { "ok" }))
        .merge(web::app_files(&config.static_dir))
        .layer(middleware::from_fn(web::security_headers))
}

/// Serves `app` on `listener` until SIGTERM or Ctrl-C, then drains in-flight requests.
pub async fn serve(listener: TcpListener, app: Router) -> anyhow::Result<()> {
    use axum::serve::ListenerExt;
    // Without TCP_NODELAY small responses wait on delayed ACKs (~40 ms each).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut sigterm) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            sigterm.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}
