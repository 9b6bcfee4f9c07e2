//! The shipments service on its own (distributed mode).

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = service_common::telemetry::init("shipments");
    let store = shipments::open_store(&shipments::StoreConfig::from_env()).await?;
    let addr = shipments::listen_addr()?;
    let listener = TcpListener::bind(addr).await?;
    service_common::telemetry::serve_metrics("127.0.0.1:9091");
    tracing::info!(%addr, "shipments service listening");
    let tokens = service_auth::TokenKey::from_env(false)?;
    shipments::serve(
        listener,
        store,
        tokens,
        shipments::lookup_cache_ttl()?,
        service_common::shutdown_signal(),
    )
    .await
}
