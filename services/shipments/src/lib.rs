//! The shipments service: the shipment rules, their two stores and the gRPC server.

pub mod account_requests;
pub mod address_book;
pub mod attention;
pub mod batch;
pub mod blobs;
pub mod claims;
pub mod convert;
pub mod csv_input;
pub mod customers;
pub mod delivery;
pub mod demo;
pub mod details;
pub mod digest;
pub mod domain;
pub mod emails;
pub mod error;
pub mod exceptions;
pub mod export;
pub mod import;
pub mod live;
pub mod notes;
pub mod pickup_queue;
pub mod pickups;
pub mod portal;
pub mod privacy;
pub mod rates;
pub mod rounds;
pub mod search;
pub mod service;
pub mod store;
pub mod tracking;
pub mod updates;
pub mod webhooks;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::shipment_service_server::ShipmentServiceServer;
use service_auth::TokenKey;

use privacy::PublicDetails;
pub use service::{PublicPolicy, ShipmentsService};
use store::{MongoShipmentStore, ShipmentStore, SqliteShipmentStore};

/// Largest request the service decodes: a proof of delivery's photo and signature, with room
/// for the rest of the message.
pub const MAX_MESSAGE_BYTES: usize = 9 * 1024 * 1024;

use logistics_proto::v1::audit_service_server::AuditServiceServer;
use logistics_proto::v1::customer_portal_service_server::CustomerPortalServiceServer;
use logistics_proto::v1::customer_service_server::CustomerServiceServer;
use logistics_proto::v1::pickup_service_server::PickupServiceServer;
use logistics_proto::v1::quote_service_server::QuoteServiceServer;
use logistics_proto::v1::rate_card_service_server::RateCardServiceServer;
use logistics_proto::v1::shipment_exception_service_server::ShipmentExceptionServiceServer;
use logistics_proto::v1::shipment_note_service_server::ShipmentNoteServiceServer;
use service_auth::TokenSettings;
use service_auth::access::Enforced;
use service_common::settings::{
    ExposeSecret, SiteSettings, StoreConfig, StoreSettings, TelemetrySettings,
};
use service_common::{Built, Services};

/// The shipments service's own settings, beside the shared ones.
#[derive(clap::Args, Clone, Debug)]
#[group(id = "shipments")]
#[command(next_help_heading = "Shipments service")]
pub struct Settings {
    /// How long a public lookup may be answered from memory, in milliseconds (this process's
    /// writes evict at once); 0 turns it off.
    #[arg(long, env = "TRACKING_CACHE_TTL_MS", default_value_t = 1000)]
    pub tracking_cache_ttl_ms: u64,
    /// What a visitor sees of a shipment: `verified` (the limited view, and the full one to a
    /// visitor who proves they are the shipper or the receiver), `limited` (staff only see
    /// more) or `full` (everything to anyone with the number).
    #[arg(long, env = "PUBLIC_TRACKING_DETAILS", value_enum, default_value_t = PublicDetails::Verified)]
    pub public_tracking_details: PublicDetails,
    /// How long a browser that proved it is a party keeps the full view, in hours.
    #[arg(long, env = "TRACKING_ACCESS_HOURS", default_value_t = 24)]
    pub tracking_access_hours: u64,
    /// Verification attempts per tracking number per hour, from all clients together.
    #[arg(long, env = "TRACKING_VERIFY_ATTEMPTS_PER_HOUR", default_value_t = 10)]
    pub tracking_verify_attempts_per_hour: u64,
    /// "Send me a link" e-mails each party of a shipment may receive per hour.
    #[arg(long, env = "TRACKING_ACCESS_LINKS_PER_HOUR", default_value_t = 3)]
    pub tracking_access_links_per_hour: u64,
    /// Subscription confirmation e-mails one inbox may receive per day.
    #[arg(long, env = "SUBSCRIPTION_CONFIRMATIONS_PER_DAY", default_value_t = 5)]
    pub subscription_confirmations_per_day: u64,
    /// Most subscribers one shipment may have.
    #[arg(long, env = "SUBSCRIBERS_PER_SHIPMENT", default_value_t = 20)]
    pub subscribers_per_shipment: usize,
    /// Most cells a row of an imported CSV file may have (the template has 36 columns; a
    /// report of rejected rows adds two).
    #[arg(long, env = "IMPORT_MAX_COLUMNS", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(38..=10_000))]
    pub import_max_columns: u32,
    /// Most bytes of one row of an imported CSV file, its cells together.
    #[arg(long, env = "IMPORT_MAX_ROW_BYTES", default_value_t = 512 * 1024,
          value_parser = clap::value_parser!(u32).range(4096..=16 * 1024 * 1024))]
    pub import_max_row_bytes: u32,
    /// Most bytes of one cell of an imported CSV file (the `packages` cell is the longest).
    #[arg(long, env = "IMPORT_MAX_CELL_BYTES", default_value_t = 256 * 1024,
          value_parser = clap::value_parser!(u32).range(1024..=16 * 1024 * 1024))]
    pub import_max_cell_bytes: u32,
    /// How long an uploaded import file that is never run is kept, in seconds; then it is
    /// deleted and its import shows as expired.
    #[arg(long, env = "IMPORT_PENDING_TTL_SECONDS", default_value_t = 24 * 3600,
          value_parser = clap::value_parser!(u64).range(60..=30 * 24 * 3600))]
    pub import_pending_ttl_seconds: u64,
    /// Most megabytes (10^6 bytes) of import files one user may have uploaded and not yet
    /// run; a new import beyond it is refused.
    #[arg(long, env = "IMPORT_PENDING_QUOTA_MB", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub import_pending_quota_mb: u64,
}

impl Settings {
    pub fn policy(&self) -> PublicPolicy {
        PublicPolicy {
            details: self.public_tracking_details,
            verify_attempts_per_hour: self.tracking_verify_attempts_per_hour,
            confirmations_per_address_per_day: self.subscription_confirmations_per_day,
            subscribers_per_shipment: self.subscribers_per_shipment,
            access_lifetime: Duration::from_secs(self.tracking_access_hours.max(1) * 3600),
            access_links_per_hour: self.tracking_access_links_per_hour,
        }
    }

    pub fn imports(&self) -> import::ImportPolicy {
        import::ImportPolicy {
            limits: csv_input::Limits {
                columns: self.import_max_columns as usize,
                row_bytes: self.import_max_row_bytes as usize,
                field_bytes: self.import_max_cell_bytes as usize,
            },
            pending_ttl: chrono::TimeDelta::seconds(
                self.import_pending_ttl_seconds.min(i64::MAX as u64) as i64,
            ),
            pending_quota_bytes: self.import_pending_quota_mb.saturating_mul(1_000_000) as i64,
        }
    }
}

/// The `shipments` binary: the service on its own (distributed mode).
#[derive(clap::Parser, Debug)]
#[command(name = "shipments", version, about = "The shipments gRPC service")]
pub struct Cli {
    /// Listen address of the gRPC service.
    #[arg(long, env = "SHIPMENTS_ADDR", default_value = "127.0.0.1:50051")]
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
    pub shipments: Settings,
    #[command(subcommand)]
    pub command: Option<service_common::backup::DataCommand>,
}

/// Opens the shipment store the configuration names.
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn ShipmentStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqliteShipmentStore::open(
            &data_dir.join("shipments.sqlite3"),
        )?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoShipmentStore::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// What the shipments process serves: the shipments, and the audit log kept beside them.
pub type ShipmentsServer = Services<Enforced<ShipmentServiceServer<ShipmentsService>>>;

/// The service, whoever starts it: its binary, the all-in-one gateway and the tests.
pub async fn build(
    config: &StoreConfig,
    site: &SiteSettings,
    settings: &Settings,
    tokens: TokenKey,
) -> anyhow::Result<Built<ShipmentsServer>> {
    let store = open_store(config).await?;
    let blobs = blobs::open(config).await?;
    let audit_log = audit::open(config).await?;
    rates::api::ensure_public_card(store.as_ref()).await?;
    digest::keep_sending(
        store.clone(),
        site.public_url(),
        std::time::Duration::from_secs(60),
    );
    let service = service(store, blobs, tokens.clone(), site, settings);
    service.keep_sweeping_pending_imports().await;
    let services = Services::new(served(service.clone()))
        .with(Enforced::new(
            tokens.clone(),
            AuditServiceServer::new(audit::AuditApi::new(audit_log)),
        ))
        .with(Enforced::new(
            tokens.clone(),
            CustomerServiceServer::new(service.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        ))
        .with(Enforced::new(
            tokens.clone(),
            CustomerPortalServiceServer::new(service.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        ))
        .with(Enforced::new(
            tokens.clone(),
            PickupServiceServer::new(service.clone()).max_decoding_message_size(MAX_MESSAGE_BYTES),
        ))
        .with(Enforced::new(
            tokens.clone(),
            RateCardServiceServer::new(service.clone())
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        ))
        .with(Enforced::new(
            tokens.clone(),
            ShipmentExceptionServiceServer::new(service.clone()),
        ))
        .with(Enforced::new(
            tokens.clone(),
            ShipmentNoteServiceServer::new(service.clone()),
        ))
        .with(Enforced::new(tokens, QuoteServiceServer::new(service)));
    Ok(Built::of_services(services))
}

/// The gRPC server of the service on an open `store`, with its limits (for tools that load
/// shipments straight into a store, and tests).
pub fn server(
    store: Arc<dyn ShipmentStore>,
    blobs: Arc<dyn blobs::BlobStore>,
    tokens: TokenKey,
    site: &SiteSettings,
    settings: &Settings,
) -> Enforced<ShipmentServiceServer<ShipmentsService>> {
    served(service(store, blobs, tokens, site, settings))
}

fn service(
    store: Arc<dyn ShipmentStore>,
    blobs: Arc<dyn blobs::BlobStore>,
    tokens: TokenKey,
    site: &SiteSettings,
    settings: &Settings,
) -> ShipmentsService {
    ShipmentsService::new(
        store,
        blobs,
        tokens,
        Duration::from_millis(settings.tracking_cache_ttl_ms),
        site.public_url(),
        settings.policy(),
    )
    .with_imports(settings.imports())
    .with_company_name(site.company_name())
}

fn served(service: ShipmentsService) -> Enforced<ShipmentServiceServer<ShipmentsService>> {
    let tokens = service.tokens.clone();
    let server = ShipmentServiceServer::new(service).max_decoding_message_size(MAX_MESSAGE_BYTES);
    Enforced::new(tokens, server)
}
