//! The preferences service on its own (distributed mode).

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = service_common::telemetry::init("preferences");
    let store = preferences::open_store(&service_common::StoreConfig::from_env()).await?;
    let tokens = service_auth::TokenKey::from_env(false)?;
    let addr = preferences::listen_addr()?;
    let listener = TcpListener::bind(addr).await?;
    service_common::telemetry::serve_metrics("127.0.0.1:9094");
    tracing::info!(%addr, "preferences service listening");
    preferences::serve(listener, store, tokens, service_common::shutdown_signal()).await
}
