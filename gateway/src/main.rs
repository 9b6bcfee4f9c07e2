//! `gateway`: the all-in-one product by default; with SHIPMENTS_URL, the gateway alone.
//! `gateway demo [--json]` loads demo shipments through the shipment service API.

use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    let config = gateway::Config::from_env()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => run(config).await,
        Some("demo") => demo(&config, args.iter().any(|a| a == "--json")).await,
        Some(other) => anyhow::bail!("unknown command {other:?}; usage: gateway [demo [--json]]"),
    }
}

async fn run(config: gateway::Config) -> anyhow::Result<()> {
    let upstreams = gateway::Upstreams::from_config(&config).await?;
    let listener = TcpListener::bind(("0.0.0.0", config.port)).await?;
    let mode = if config.shipments_url.is_some() { "gateway (distributed)" } else { "all-in-one" };
    tracing::info!(port = config.port, mode, "listening on http://localhost:{}", config.port);
    gateway::serve(listener, gateway::app(&config, upstreams)).await
}

async fn demo(config: &gateway::Config, json: bool) -> anyhow::Result<()> {
    let loaded = match &config.shipments_url {
        Some(url) => shipments::demo::load(&mut ShipmentServiceClient::connect(url.clone()).await?).await?,
        None => {
            let store = shipments::StoreConfig::from_env().open().await?;
            shipments::demo::load(&mut ShipmentServiceClient::new(shipments::server(store, std::time::Duration::ZERO))).await?
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&loaded)?);
    } else {
        println!("Loaded {} demo shipments:", loaded.len());
        for s in &loaded {
            println!("  {}  {:<10}  {} → {}", s.tracking_number, s.status.as_str(), s.details.origin, s.details.destination);
        }
        if let Some(first) = loaded.first() {
            println!("Try one: http://localhost:{}/track/{}", config.port, first.tracking_number);
        }
    }
    Ok(())
}
