//! The shipments service on its own (distributed mode); `backup --to FILE` and
//! `restore --from FILE` copy its embedded stores.

use tokio::net::TcpListener;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli: shipments::Cli = service_common::settings::parse();
    let _telemetry = service_common::telemetry::init("shipments", &cli.telemetry);
    if let Some(command) = &cli.command {
        return service_common::backup::run(command, &cli.store.config());
    }
    let tokens = cli.tokens.key(None)?;
    let built = shipments::build(&cli.store.config(), &cli.site, &cli.shipments, tokens).await?;
    let listener = TcpListener::bind(cli.addr).await?;
    service_common::telemetry::serve_metrics(&cli.telemetry, "127.0.0.1:9091");
    tracing::info!(addr = %cli.addr, "shipments service listening");
    service_common::serve(listener, built, service_common::shutdown_signal()).await
}
