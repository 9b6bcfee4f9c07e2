//! `gateway`: the all-in-one product by default; with SHIPMENTS_URL, the gateway alone.
//! `gateway demo [--json]` loads demo shipments through the shipment service API;
//! `gateway create-admin --email E` creates an admin (password from ADMIN_PASSWORD or stdin).

use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let config = gateway::Config::from_env()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => run(config).await,
        Some("demo") => demo(&config, args.iter().any(|a| a == "--json")).await,
        Some("create-admin") => {
            let email = args
                .iter()
                .position(|a| a == "--email")
                .and_then(|i| args.get(i + 1));
            let email = email.ok_or_else(|| anyhow::anyhow!("usage: gateway create-admin --email EMAIL (password from ADMIN_PASSWORD or stdin)"))?;
            let store = auth::open_store(&auth::StoreConfig::from_env()).await?;
            auth::create_admin(store, email, &auth::admin_password_from_env_or_stdin()?).await
        }
        Some(other) => anyhow::bail!(
            "unknown command {other:?}; usage: gateway [demo [--json] | create-admin --email EMAIL]"
        ),
    }
}

async fn run(config: gateway::Config) -> anyhow::Result<()> {
    let upstreams = gateway::Upstreams::from_config(&config).await?;
    let listener = TcpListener::bind(("0.0.0.0", config.port)).await?;
    let mode = if config.all_in_one() {
        "all-in-one"
    } else {
        "gateway (distributed)"
    };
    let app = gateway::app(&config, upstreams).await?;
    tracing::info!(
        port = config.port,
        mode,
        "listening on http://localhost:{}",
        config.port
    );
    gateway::serve(listener, app).await
}

async fn demo(config: &gateway::Config, json: bool) -> anyhow::Result<()> {
    let loaded = match &config.shipments_url {
        Some(url) => {
            let key = service_auth::TokenKey::from_env(false)?;
            let channel = tonic::transport::Endpoint::from_shared(url.clone())?
                .connect()
                .await?;
            let bearer = service_auth::Bearer::new(&service_auth::tool_token(&key));
            shipments::demo::load(&mut ShipmentServiceClient::with_interceptor(
                channel, bearer,
            ))
            .await?
        }
        None => {
            let key = service_auth::TokenKey::generate();
            let store = shipments::open_store(&shipments::StoreConfig::from_env()).await?;
            let server = shipments::server(store, key.clone(), std::time::Duration::ZERO);
            let bearer = service_auth::Bearer::new(&service_auth::tool_token(&key));
            shipments::demo::load(&mut ShipmentServiceClient::with_interceptor(server, bearer))
                .await?
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&loaded)?);
    } else {
        println!("Loaded {} demo shipments:", loaded.len());
        for s in &loaded {
            println!(
                "  {}  {:<10}  {} → {}",
                s.tracking_number,
                s.status.as_str(),
                s.details.origin,
                s.details.destination
            );
        }
        if let Some(first) = loaded.first() {
            println!(
                "Try one: http://localhost:{}/track/{}",
                config.port, first.tracking_number
            );
        }
    }
    Ok(())
}
