//! The notifications service on its own (distributed mode): the gRPC API and the outbox worker.

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli: notifications::Cli = service_common::settings::parse();
    let _telemetry = service_common::telemetry::init("notifications", &cli.telemetry);
    let tokens = cli.tokens.key(None)?;
    let built =
        notifications::build(&cli.store.config(), &cli.site, &cli.notifications, tokens).await?;
    let listener = TcpListener::bind(cli.addr).await?;
    service_common::telemetry::serve_metrics(&cli.telemetry, "127.0.0.1:9093");
    tracing::info!(addr = %cli.addr, "notifications service listening");
    service_common::serve(listener, built, service_common::shutdown_signal()).await
}
