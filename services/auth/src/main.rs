//! The auth service on its own (distributed mode); `auth create-admin --email E` creates an
//! admin, reading the password from ADMIN_PASSWORD or standard input.

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = service_common::telemetry::init("auth");
    let store = auth::open_store(&auth::StoreConfig::from_env()).await?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("create-admin") {
        let email = args
            .iter()
            .position(|a| a == "--email")
            .and_then(|i| args.get(i + 1))
            .ok_or_else(|| anyhow::anyhow!("usage: auth create-admin --email EMAIL"))?;
        return auth::create_admin(store, email, &auth::admin_password_from_env_or_stdin()?).await;
    }
    auth::ensure_first_admin(store.clone()).await?;
    let tokens = service_auth::TokenKey::from_env(false)?;
    let addr: std::net::SocketAddr = std::env::var("AUTH_ADDR")
        .unwrap_or_else(|_| "127.0.0.1:50052".into())
        .parse()?;
    let listener = TcpListener::bind(addr).await?;
    service_common::telemetry::serve_metrics("127.0.0.1:9092");
    tracing::info!(%addr, "auth service listening");
    auth::serve(listener, store, tokens, service_common::shutdown_signal()).await
}
