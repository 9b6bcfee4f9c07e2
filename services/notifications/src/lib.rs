//! The notifications service: the outbox worker that sends e-mail, the contact form and the
//! admin's outbox view and e-mail test.

pub mod config;
pub mod error;
pub mod service;
pub mod transport;
pub mod worker;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::notification_service_server::NotificationServiceServer;
use outbox::{MongoOutbox, OutboxStore, SqliteOutbox};
use service_auth::TokenKey;
use service_common::StoreConfig;
use tokio::net::TcpListener;
use tokio::sync::Notify;

pub use config::MailConfig;
pub use service::NotificationsService;
pub use transport::Transport;
pub use worker::{RetryPolicy, Worker};

/// How long one request to the e-mail API may take: `EMAIL_API_TIMEOUT_MS`, default 10 s.
pub fn api_timeout() -> anyhow::Result<Duration> {
    let millis = match std::env::var("EMAIL_API_TIMEOUT_MS") {
        Ok(v) if !v.is_empty() => v
            .parse()
            .map_err(|_| anyhow::anyhow!("EMAIL_API_TIMEOUT_MS must be milliseconds, got {v:?}"))?,
        _ => 10_000,
    };
    Ok(Duration::from_millis(millis))
}

/// Opens the outbox the configuration names (the shipments' database).
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn OutboxStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqliteOutbox::open(data_dir)?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoOutbox::connect(uri, database).await?)
        }
    })
}

/// The service and its worker, sharing the outbox, the transport and the wake-up signal.
pub fn service_and_worker(
    store: Arc<dyn OutboxStore>,
    transport: Transport,
    tokens: TokenKey,
    policy: RetryPolicy,
    public_url: String,
) -> (NotificationsService, Worker) {
    let wake = Arc::new(Notify::new());
    let service = NotificationsService {
        store: store.clone(),
        transport: transport.clone(),
        tokens,
        wake: wake.clone(),
        public_url,
    };
    (
        service,
        Worker {
            store,
            transport,
            policy,
            wake,
        },
    )
}

pub fn server(service: NotificationsService) -> NotificationServiceServer<NotificationsService> {
    NotificationServiceServer::new(service)
}

/// Serves the service, gRPC health and reflection on `listener` until `shutdown` resolves.
/// An incomplete e-mail configuration leaves the service NOT_SERVING (never ready).
pub async fn serve(
    listener: TcpListener,
    service: NotificationsService,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    let problem = service.transport.problem().map(str::to_owned);
    service_common::serve_unless(listener, server(service), problem, shutdown).await
}

/// Address from `NOTIFICATIONS_ADDR`, default 127.0.0.1:50053.
pub fn listen_addr() -> anyhow::Result<SocketAddr> {
    Ok(std::env::var("NOTIFICATIONS_ADDR")
        .unwrap_or_else(|_| "127.0.0.1:50053".to_owned())
        .parse()?)
}
