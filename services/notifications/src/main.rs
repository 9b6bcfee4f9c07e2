//! The notifications service on its own (distributed mode): the gRPC API and the outbox worker.

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = service_common::telemetry::init("notifications");
    let store = notifications::open_store(&service_common::StoreConfig::from_env()).await?;
    let transport = notifications::Transport::new(
        &notifications::MailConfig::from_env(),
        notifications::api_timeout()?,
    )?;
    let tokens = service_auth::TokenKey::from_env(false)?;
    let (service, worker) = notifications::service_and_worker(
        store,
        transport,
        tokens,
        notifications::RetryPolicy::from_env()?,
        service_common::public_url(),
    );
    let addr = notifications::listen_addr()?;
    let listener = TcpListener::bind(addr).await?;
    service_common::telemetry::serve_metrics("127.0.0.1:9093");
    tracing::info!(%addr, "notifications service listening");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let worker = tokio::spawn(worker.run({
        let mut stopped = stopped.clone();
        async move {
            let _ = stopped.changed().await;
        }
    }));
    notifications::serve(listener, service, service_common::shutdown_signal()).await?;
    let _ = stop.send(true);
    let _ = worker.await;
    Ok(())
}
