//! The preferences service on its own (distributed mode).

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let store = preferences::open_store(&service_common::StoreConfig::from_env()).await?;
    let tokens = service_auth::TokenKey::from_env(false)?;
    let addr = preferences::listen_addr()?;
    let listener = TcpListener::bind(addr).await?;
    tracing::info!(%addr, "preferences service listening");
    preferences::serve(listener, store, tokens, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}
