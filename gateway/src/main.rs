//! `gateway`: the all-in-one product by default; with service URLs, the gateway alone.
//! `gateway --help` lists every setting; `gateway demo`, `create-admin` and `token` are tools.

use gateway::{Cli, Command};
use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use tokio::net::TcpListener;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::read();
    cli.gateway.check()?;
    let _telemetry = service_common::telemetry::init("gateway", &cli.telemetry);
    match &cli.command {
        None => run(&cli).await,
        Some(Command::Demo { json }) => demo(&cli, *json).await,
        Some(Command::CreateAdmin { email }) => {
            let config = cli.hosted.store.config();
            let store = auth::open_store(&config).await?;
            let password = auth::admin_password_or_stdin(&cli.hosted.auth)?;
            auth::create_admin(store, audit::open(&config).await?, email, &password).await
        }
        Some(Command::Token {
            role,
            email,
            minutes,
        }) => {
            let key = cli.tokens.key(None)?;
            let caller = service_auth::Caller::with_role(format!("tool:{email}"), email, *role);
            println!(
                "{}",
                key.mint(&caller, std::time::Duration::from_secs(minutes * 60))
            );
            Ok(())
        }
        Some(Command::RotateSigningKey { forget_retired }) => {
            anyhow::ensure!(
                cli.tokens.jwt_signing_key.is_none() && cli.gateway.all_in_one(),
                "JWT_SIGNING_KEY or a service URL is set, so the key file is not used: rotate \
                 with JWT_SIGNING_KEY and JWT_PREVIOUS_SIGNING_KEYS (README, Operations)"
            );
            let data_dir = &cli.hosted.store.data_dir;
            let done = service_auth::keyfile::rotate(data_dir, *forget_retired)?;
            println!(
                "key {} signs from the next start on (restart the gateway); retired keys that \
                 still verify: {}; keys that stopped verifying: {}",
                done.signing,
                if done.retired.is_empty() {
                    "none".to_owned()
                } else {
                    done.retired.join(", ")
                },
                done.dropped
            );
            Ok(())
        }
        Some(Command::EmailPreviews { out }) => {
            let site = &cli.hosted.site;
            let brand =
                notifications::brand::Brand::load(site.brand_file.as_deref(), &site.public_url())?;
            let renderer = notifications::render::Renderer::new(brand)?;
            std::fs::create_dir_all(out)?;
            for (name, email) in notifications::render::previews(&renderer, &site.public_url())? {
                std::fs::write(out.join(format!("{name}.html")), &email.html)?;
                std::fs::write(out.join(format!("{name}.txt")), &email.text)?;
            }
            Ok(())
        }
        Some(Command::Data(command)) => {
            service_common::backup::run(command, &cli.hosted.store.config())
        }
    }
}

async fn run(cli: &Cli) -> anyhow::Result<()> {
    let settings = &cli.gateway;
    service_common::telemetry::serve_metrics(&cli.telemetry, "127.0.0.1:9090");
    let tokens = gateway::token_key(settings, &cli.hosted, &cli.tokens)?;
    let listener = TcpListener::bind(("0.0.0.0", settings.port)).await?;
    let port = listener.local_addr()?.port();
    let mut hosted = cli.hosted.clone();
    hosted.site.site_port = port;
    let (stop, stopping) = service_common::Stopping::channel();
    let upstreams = gateway::Upstreams::build(settings, &hosted, tokens, &stopping).await?;
    let mode = if settings.all_in_one() {
        "all-in-one"
    } else {
        "gateway (distributed)"
    };
    let app = gateway::app(settings, &hosted.store.data_dir, upstreams).await?;
    if settings.all_in_one() {
        let public_url = hosted.site.public_url();
        tracing::info!(%public_url, "links in e-mails open {public_url} (set PUBLIC_URL to change it)");
    }
    tracing::info!(port, mode, "listening on http://localhost:{port}");
    let served = gateway::serve(listener, app, settings).await;
    let _ = stop.send(true);
    served
}

async fn demo(cli: &Cli, json: bool) -> anyhow::Result<()> {
    let hosted = &cli.hosted;
    let loaded = match &cli.gateway.shipments_url {
        Some(url) => {
            let key = cli.tokens.key(None)?;
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
            // The product's own keys: the demo shipments' e-mailed links open once it runs.
            let key = gateway::token_key(&cli.gateway, hosted, &cli.tokens)?;
            let built = shipments::build(
                &hosted.store.config(),
                &hosted.site,
                &hosted.shipments,
                key.clone(),
            )
            .await?;
            let bearer = service_auth::Bearer::new(&service_auth::tool_token(&key));
            shipments::demo::load(&mut ShipmentServiceClient::with_interceptor(
                built.server,
                bearer,
            ))
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
                cli.gateway.port, first.tracking_number
            );
        }
    }
    Ok(())
}
