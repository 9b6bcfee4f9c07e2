//! The shipments service: the shipment rules, their two stores and the gRPC server.

pub mod convert;
pub mod demo;
pub mod domain;
pub mod error;
pub mod service;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::shipment_service_server::ShipmentServiceServer;
use service_auth::TokenKey;
use tokio::net::TcpListener;

pub use service::ShipmentsService;
use store::{MongoShipmentStore, ShipmentStore, SqliteShipmentStore};

/// Largest request the service decodes: a shipment with 100 packages is far smaller.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Which store to open, from the environment.
#[derive(Clone, Debug)]
pub enum StoreConfig {
    /// `DATA_DIR` (default `./data`) holds `shipments.sqlite3`.
    Embedded { data_dir: PathBuf },
    /// `MONGODB_URI` and `MONGODB_DATABASE` (default `logistics`).
    Mongo { uri: String, database: String },
}

impl StoreConfig {
    pub fn from_env() -> Self {
        match std::env::var("MONGODB_URI") {
            Ok(uri) if !uri.is_empty() => Self::Mongo {
                uri,
                database: std::env::var("MONGODB_DATABASE").unwrap_or_else(|_| "logistics".to_owned()),
            },
            _ => Self::Embedded { data_dir: std::env::var("DATA_DIR").unwrap_or_else(|_| "./data".to_owned()).into() },
        }
    }

    pub async fn open(&self) -> anyhow::Result<Arc<dyn ShipmentStore>> {
        Ok(match self {
            Self::Embedded { data_dir } => {
                std::fs::create_dir_all(data_dir)?;
                Arc::new(SqliteShipmentStore::open(&data_dir.join("shipments.sqlite3"))?)
            }
            Self::Mongo { uri, database } => Arc::new(MongoShipmentStore::connect(uri, database).await?),
        })
    }
}

/// How long a public lookup may be answered from memory: `TRACKING_CACHE_TTL_MS`, default
/// 1000; 0 turns the cache off.
pub fn lookup_cache_ttl() -> anyhow::Result<Duration> {
    let millis = match std::env::var("TRACKING_CACHE_TTL_MS") {
        Ok(v) if !v.is_empty() => v.parse().map_err(|_| anyhow::anyhow!("TRACKING_CACHE_TTL_MS must be milliseconds, got {v:?}"))?,
        _ => 1000,
    };
    Ok(Duration::from_millis(millis))
}

/// The gRPC server of the service, with its limits.
pub fn server(store: Arc<dyn ShipmentStore>, tokens: TokenKey, lookup_cache_ttl: Duration) -> ShipmentServiceServer<ShipmentsService> {
    ShipmentServiceServer::new(ShipmentsService::new(store, tokens, lookup_cache_ttl)).max_decoding_message_size(MAX_MESSAGE_BYTES)
}

/// Serves the shipment service, gRPC health and reflection on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    store: Arc<dyn ShipmentStore>,
    tokens: TokenKey,
    lookup_cache_ttl: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    let (health_reporter, health) = tonic_health::server::health_reporter();
    health_reporter.set_serving::<ShipmentServiceServer<ShipmentsService>>().await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(logistics_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    tonic::transport::Server::builder()
        .add_service(health)
        .add_service(reflection)
        .add_service(server(store, tokens, lookup_cache_ttl))
        .serve_with_incoming_shutdown(tokio_stream_incoming(listener), shutdown)
        .await?;
    Ok(())
}

fn tokio_stream_incoming(listener: TcpListener) -> tonic::transport::server::TcpIncoming {
    tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true))
}

/// Address from `SHIPMENTS_ADDR`, default 127.0.0.1:50051.
pub fn listen_addr() -> anyhow::Result<SocketAddr> {
    Ok(std::env::var("SHIPMENTS_ADDR").unwrap_or_else(|_| "127.0.0.1:50051".to_owned()).parse()?)
}
