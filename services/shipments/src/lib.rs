//! The shipments service: the shipment rules, their two stores and the gRPC server.

pub mod convert;
pub mod demo;
pub mod domain;
pub mod emails;
pub mod error;
pub mod service;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::shipment_service_server::ShipmentServiceServer;
use service_auth::TokenKey;

pub use service::ShipmentsService;
use store::{MongoShipmentStore, ShipmentStore, SqliteShipmentStore};

/// Largest request the service decodes: a shipment with 100 packages is far smaller.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

use service_auth::TokenSettings;
use service_common::Built;
use service_common::settings::{SiteSettings, StoreConfig, StoreSettings, TelemetrySettings};

/// The shipments service's own settings, beside the shared ones.
#[derive(clap::Args, Clone, Debug)]
#[group(id = "shipments")]
#[command(next_help_heading = "Shipments service")]
pub struct Settings {
    /// How long a public lookup may be answered from memory, in milliseconds (this process's
    /// writes evict at once); 0 turns it off.
    #[arg(long, env = "TRACKING_CACHE_TTL_MS", default_value_t = 1000)]
    pub tracking_cache_ttl_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tracking_cache_ttl_ms: 1000,
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
}

/// Opens the shipment store the configuration names.
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn ShipmentStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqliteShipmentStore::open(
            &data_dir.join("shipments.sqlite3"),
        )?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoShipmentStore::connect(uri, database).await?)
        }
    })
}

/// The service, whoever starts it: its binary, the all-in-one gateway and the tests.
pub async fn build(
    store: &StoreConfig,
    site: &SiteSettings,
    settings: &Settings,
    tokens: TokenKey,
) -> anyhow::Result<Built<ShipmentServiceServer<ShipmentsService>>> {
    let store = open_store(store).await?;
    Ok(Built::new(server(store, tokens, site, settings)))
}

/// The gRPC server of the service on an open `store`, with its limits (for tools that load
/// shipments straight into a store, and tests).
pub fn server(
    store: Arc<dyn ShipmentStore>,
    tokens: TokenKey,
    site: &SiteSettings,
    settings: &Settings,
) -> ShipmentServiceServer<ShipmentsService> {
    ShipmentServiceServer::new(ShipmentsService::new(
        store,
        tokens,
        Duration::from_millis(settings.tracking_cache_ttl_ms),
        site.public_url.clone(),
    ))
    .max_decoding_message_size(MAX_MESSAGE_BYTES)
}
