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
use tokio::net::TcpListener;

pub use service::ShipmentsService;
use store::{MongoShipmentStore, ShipmentStore, SqliteShipmentStore};

/// Largest request the service decodes: a shipment with 100 packages is far smaller.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

pub use service_common::StoreConfig;

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

/// How long a public lookup may be answered from memory: `TRACKING_CACHE_TTL_MS`, default
/// 1000; 0 turns the cache off.
pub fn lookup_cache_ttl() -> anyhow::Result<Duration> {
    let millis = match std::env::var("TRACKING_CACHE_TTL_MS") {
        Ok(v) if !v.is_empty() => v.parse().map_err(|_| {
            anyhow::anyhow!("TRACKING_CACHE_TTL_MS must be milliseconds, got {v:?}")
        })?,
        _ => 1000,
    };
    Ok(Duration::from_millis(millis))
}

/// The gRPC server of the service, with its limits.
pub fn server(
    store: Arc<dyn ShipmentStore>,
    tokens: TokenKey,
    lookup_cache_ttl: Duration,
) -> ShipmentServiceServer<ShipmentsService> {
    ShipmentServiceServer::new(ShipmentsService::new(store, tokens, lookup_cache_ttl))
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
}

/// Serves the shipment service, gRPC health and reflection on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    store: Arc<dyn ShipmentStore>,
    tokens: TokenKey,
    lookup_cache_ttl: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    service_common::serve(listener, server(store, tokens, lookup_cache_ttl), shutdown).await
}

/// Address from `SHIPMENTS_ADDR`, default 127.0.0.1:50051.
pub fn listen_addr() -> anyhow::Result<SocketAddr> {
    Ok(std::env::var("SHIPMENTS_ADDR")
        .unwrap_or_else(|_| "127.0.0.1:50051".to_owned())
        .parse()?)
}
