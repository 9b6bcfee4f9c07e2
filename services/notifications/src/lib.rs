//! The notifications service: the outbox worker that sends e-mail, the contact form and the
//! admin's outbox view and e-mail test.

pub mod brand;
pub mod config;
pub mod error;
pub mod render;
pub mod sample;
pub mod send_error;
pub mod service;
pub mod smtp;
pub mod transport;
pub mod webhooks;
pub mod worker;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::customer_webhook_service_server::CustomerWebhookServiceServer;
use logistics_proto::v1::notification_service_server::NotificationServiceServer;
use logistics_proto::v1::webhook_service_server::WebhookServiceServer;
use outbox::webhooks::{MongoWebhooks, SqliteWebhooks, WebhookStore};
use outbox::{MongoOutbox, OutboxStore, SqliteOutbox};
use service_auth::TokenKey;
use service_auth::TokenSettings;
use service_auth::access::Enforced;
use service_common::settings::{
    ExposeSecret, SiteSettings, StoreConfig, StoreSettings, TelemetrySettings,
};
use service_common::{Built, Services};
use tokio::sync::Notify;

pub use config::{MailConfig, MailSettings, MailTransport};
pub use service::NotificationsService;
pub use transport::Transport;
pub use worker::{Clock, RetryPolicy, Worker};

/// The notifications service's own settings: where e-mail goes and how it is retried.
#[derive(clap::Args, Clone, Debug)]
#[group(id = "notifications")]
#[command(next_help_heading = "Notifications service: e-mail")]
pub struct Settings {
    #[command(flatten)]
    pub mail: MailSettings,
    /// How long an e-mail is retried after its first passing failure (a 5xx, 429, timeout
    /// or network error), in seconds, before it is marked failed.
    #[arg(long, env = "NOTIFY_RETRY_FOR_SECS", default_value_t = 86_400)]
    pub notify_retry_for_secs: u64,
    /// The wait after the first failure, in milliseconds; it doubles after each further one
    /// up to NOTIFY_MAX_BACKOFF_MS, plus up to a quarter more at random.
    #[arg(long, env = "NOTIFY_FIRST_BACKOFF_MS", default_value_t = 2000)]
    pub notify_first_backoff_ms: u64,
    /// The longest wait between two attempts, in milliseconds (a server's Retry-After may ask
    /// for longer).
    #[arg(long, env = "NOTIFY_MAX_BACKOFF_MS", default_value_t = 3_600_000)]
    pub notify_max_backoff_ms: u64,
    /// How long a worker holds an e-mail it is sending, in milliseconds.
    #[arg(long, env = "NOTIFY_LEASE_MS", default_value_t = 60_000)]
    pub notify_lease_ms: u64,
    /// How many e-mails the worker sends at once, each over its own pooled SMTP connection
    /// (kept open between e-mails) or API request (1-16).
    #[arg(long, env = "NOTIFY_CONCURRENCY", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=i64::from(smtp::POOL_SIZE)))]
    pub notify_concurrency: u16,
    /// How often an idle worker looks for due e-mails, in milliseconds.
    #[arg(long, env = "NOTIFY_POLL_MS", default_value_t = 500)]
    pub notify_poll_ms: u64,
    /// Longest one request to the e-mail API, or one SMTP command, may take, in milliseconds.
    #[arg(long, env = "EMAIL_API_TIMEOUT_MS", default_value_t = 10_000)]
    pub email_api_timeout_ms: u64,
    /// Let webhook endpoints be on loopback, link-local and private networks (an on-premises
    /// ERP); off, such URLs are refused and no delivery connects to such an address.
    #[arg(long, env = "WEBHOOK_ALLOW_PRIVATE_NETWORKS", default_value_t = false, action = clap::ArgAction::Set)]
    pub webhook_allow_private_networks: bool,
    /// Longest one webhook delivery may take, answer included, in milliseconds.
    #[arg(long, env = "WEBHOOK_TIMEOUT_MS", default_value_t = 10_000)]
    pub webhook_timeout_ms: u64,
    /// The HTTP proxy webhooks and the e-mail API are sent through, e.g. http://proxy.example:3128;
    /// unset, they connect directly (HTTP_PROXY and the like are ignored). Webhook addresses are
    /// checked either way.
    #[arg(long, env = "OUTBOUND_PROXY")]
    pub outbound_proxy: Option<String>,
    /// Who is told by e-mail when a webhook endpoint is disabled (comma-separated addresses);
    /// unset, the brand's support address.
    #[arg(long, env = "ALERT_EMAILS")]
    pub alert_emails: Option<String>,
}

impl Settings {
    /// Where e-mail goes.
    pub fn mail(&self) -> MailConfig {
        self.mail.config()
    }

    pub fn address_policy(&self) -> webhooks::AddressPolicy {
        webhooks::AddressPolicy {
            allow_private: self.webhook_allow_private_networks,
        }
    }

    /// The proxy of outbound HTTP (OUTBOUND_PROXY), if one is set.
    pub fn outbound_proxy(&self) -> anyhow::Result<Option<reqwest::Url>> {
        let Some(text) = self.outbound_proxy.as_deref().map(str::trim) else {
            return Ok(None);
        };
        if text.is_empty() {
            return Ok(None);
        }
        match reqwest::Url::parse(text) {
            Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {
                Ok(Some(url))
            }
            _ => anyhow::bail!(
                "OUTBOUND_PROXY must be an http:// or https:// URL such as http://proxy.example:3128"
            ),
        }
    }

    /// The alert recipients; `support` when none is set.
    pub fn alert_to(&self, support: &str) -> Vec<String> {
        let listed: Vec<String> = self
            .alert_emails
            .as_deref()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_owned)
            .collect();
        if listed.is_empty() {
            vec![support.to_owned()]
        } else {
            listed
        }
    }

    pub fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy {
            retry_for: Duration::from_secs(self.notify_retry_for_secs),
            first_backoff: Duration::from_millis(self.notify_first_backoff_ms),
            max_backoff: Duration::from_millis(self.notify_max_backoff_ms),
            lease: Duration::from_millis(self.notify_lease_ms),
            poll: Duration::from_millis(self.notify_poll_ms),
        }
    }
}

impl Default for RetryPolicy {
    /// The policy of the default settings.
    fn default() -> Self {
        service_common::settings::defaults::<Settings>().retry_policy()
    }
}

/// The `notifications` binary: the service and its outbox worker on their own.
#[derive(clap::Parser, Debug)]
#[command(
    name = "notifications",
    version,
    about = "The notifications gRPC service and outbox worker"
)]
pub struct Cli {
    /// Listen address of the gRPC service.
    #[arg(long, env = "NOTIFICATIONS_ADDR", default_value = "127.0.0.1:50053")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub store: StoreSettings,
    #[command(flatten)]
    pub site: SiteSettings,
    #[command(flatten)]
    pub tokens: TokenSettings,
    #[command(flatten)]
    pub telemetry: TelemetrySettings,
    #[command(flatten)]
    pub notifications: Settings,
}

/// What the notifications process serves: e-mail, and the webhooks beside it.
pub type NotificationsServer = Services<Enforced<NotificationServiceServer<NotificationsService>>>;

/// The service with its outbox and webhook workers as background tasks, whoever starts it:
/// its binary, the all-in-one gateway and the tests. An incomplete e-mail configuration is
/// its `problem`: the service then never becomes ready, and says why.
pub async fn build(
    store: &StoreConfig,
    site: &SiteSettings,
    settings: &Settings,
    tokens: TokenKey,
) -> anyhow::Result<Built<NotificationsServer>> {
    let mail = settings.mail();
    if matches!(mail, MailConfig::LocalOutbox) {
        tracing::info!("no e-mail API configured: e-mails go to the local outbox (Admin > Emails)");
    }
    let brand = brand::Brand::load(site.brand_file.as_deref(), &site.public_url())?;
    let renderer = Arc::new(render::Renderer::new(brand)?);
    let proxy = settings.outbound_proxy()?;
    let transport = Transport::new(
        &mail,
        Duration::from_millis(settings.email_api_timeout_ms),
        renderer.clone(),
        proxy.as_ref(),
    )?;
    let audit_log = audit::open(store).await?;
    let outbox = open_store(store).await?;
    let (mut service, mut worker) = service_and_worker(
        outbox,
        audit_log.clone(),
        transport,
        tokens.clone(),
        settings.retry_policy(),
        site.public_url(),
    );
    worker.concurrency = settings.notify_concurrency.into();
    let company = renderer.brand().name.clone();
    let alert_to = settings.alert_to(&renderer.brand().support_email);
    if matches!(mail, MailConfig::LocalOutbox | MailConfig::Smtp(_)) {
        service.renderer = Some(renderer);
    }
    let webhook_store = open_webhooks(store).await?;
    let policy = settings.address_policy();
    let wake = Arc::new(Notify::new());
    let webhooks = webhooks::WebhooksService {
        store: webhook_store.clone(),
        tokens,
        policy,
        wake: wake.clone(),
        audit: audit_log,
    };
    let webhook_worker = webhooks::WebhookWorker {
        webhooks: webhook_store,
        sender: webhooks::WebhookSender::new(
            policy,
            Duration::from_millis(settings.webhook_timeout_ms),
            &company,
            proxy.as_ref(),
        )?,
        policy: settings.retry_policy(),
        wake,
        email_wake: worker.wake.clone(),
        clock: worker::system_clock(),
        alerts: Arc::new(webhooks::Alerts {
            to: alert_to,
            admin_url: format!(
                "{}/administration_and_development/webhooks",
                site.public_url().trim_end_matches('/')
            ),
            portal_url: format!(
                "{}/portal/webhooks",
                site.public_url().trim_end_matches('/')
            ),
        }),
    };
    let services = Services::new(server(service))
        .with(Enforced::new(
            webhooks.tokens.clone(),
            CustomerWebhookServiceServer::new(webhooks.clone()),
        ))
        .with(Enforced::new(
            webhooks.tokens.clone(),
            WebhookServiceServer::new(webhooks),
        ));
    let mut built = Built::of_services(services);
    built.problem = worker.transport.problem().map(str::to_owned);
    built.tasks.push(Box::new(move |stopping| {
        Box::pin(worker.run(stopping.wait()))
    }));
    built.tasks.push(Box::new(move |stopping| {
        Box::pin(webhook_worker.run(stopping.wait()))
    }));
    Ok(built)
}

/// Opens the webhook endpoints and deliveries (beside the shipments, like the outbox).
pub async fn open_webhooks(config: &StoreConfig) -> anyhow::Result<Arc<dyn WebhookStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqliteWebhooks::open(data_dir)?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoWebhooks::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// Opens the outbox the configuration names (the shipments' database).
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn OutboxStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqliteOutbox::open(data_dir)?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoOutbox::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// The service and its worker, sharing the outbox, the transport and the wake-up signal.
pub fn service_and_worker(
    store: Arc<dyn OutboxStore>,
    audit: Arc<dyn audit::AuditLog>,
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
        audit,
        renderer: None,
    };
    (
        service,
        Worker {
            store,
            transport,
            policy,
            wake,
            clock: worker::system_clock(),
            concurrency: 1,
            unsettled: Default::default(),
        },
    )
}

pub fn server(
    service: NotificationsService,
) -> Enforced<NotificationServiceServer<NotificationsService>> {
    Enforced::new(
        service.tokens.clone(),
        NotificationServiceServer::new(service),
    )
}
