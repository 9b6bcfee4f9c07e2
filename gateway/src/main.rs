//! `gateway`: the all-in-one product by default; with SHIPMENTS_URL, the gateway alone.
//! `gateway demo [--json]` loads demo shipments through the shipment service API;
//! `gateway create-admin --email E` creates an admin (password from ADMIN_PASSWORD or stdin);
//! `gateway token` prints a short-lived service token for internal tools (JWT_SIGNING_KEY).

use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = service_common::telemetry::init("gateway");
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
        Some("token") => service_token(&args),
        Some(other) => anyhow::bail!(
            "unknown command {other:?}; usage: gateway [demo [--json] | create-admin --email EMAIL | token [--role admin|user] [--email E] [--minutes N]]"
        ),
    }
}

async fn run(config: gateway::Config) -> anyhow::Result<()> {
    service_common::telemetry::serve_metrics("127.0.0.1:9090");
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

/// Prints a service token signed with `JWT_SIGNING_KEY`, for calling a service directly
/// (e.g. with `buf curl`): `--role` (admin), `--email` (tools@localhost), `--minutes` (5, at most 60).
fn service_token(args: &[String]) -> anyhow::Result<()> {
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let role: service_auth::Role = flag("--role")
        .as_deref()
        .unwrap_or("admin")
        .parse()
        .map_err(|e| anyhow::anyhow!("--role: {e}"))?;
    let minutes: u64 = flag("--minutes").map_or(Ok(5), |m| m.parse())?;
    if !(1..=60).contains(&minutes) {
        anyhow::bail!("--minutes must be between 1 and 60");
    }
    let email = flag("--email").unwrap_or_else(|| "tools@localhost".to_owned());
    let key = service_auth::TokenKey::from_env(false)?;
    let caller = service_auth::Caller {
        sub: format!("tool:{email}"),
        email,
        role,
    };
    println!(
        "{}",
        key.mint(&caller, std::time::Duration::from_secs(minutes * 60))
    );
    Ok(())
}
