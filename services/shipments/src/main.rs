//! The shipments service on its own (distributed mode).

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let store = shipments::open_store(&shipments::StoreConfig::from_env()).await?;
    let addr = shipments::listen_addr()?;
    let listener = TcpListener::bind(addr).await?;
    tracing::info!(%addr, "shipments service listening");
    let tokens = service_auth::TokenKey::from_env(false)?;
    shipments::serve(
        listener,
        store,
        tokens,
        shipments::lookup_cache_ttl()?,
        async {
            let _ = tokio::signal::ctrl_c().await;
        },
    )
    .await
}
