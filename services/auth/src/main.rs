//! The auth service on its own (distributed mode); `auth create-admin --email E` creates an
//! admin, reading the password from ADMIN_PASSWORD or standard input; `backup --to FILE` and
//! `restore --from FILE` copy the embedded stores.

use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli: auth::Cli = service_common::settings::parse();
    let _telemetry = service_common::telemetry::init("auth", &cli.telemetry);
    if let Some(auth::Command::CreateAdmin { email }) = &cli.command {
        let config = cli.store.config();
        let store = auth::open_store(&config).await?;
        let password = auth::admin_password_or_stdin(&cli.auth)?;
        return auth::create_admin(store, audit::open(&config).await?, email, &password).await;
    }
    if let Some(auth::Command::Data(command)) = &cli.command {
        return service_common::backup::run(command, &cli.store.config());
    }
    let tokens = cli.tokens.key(None)?;
    let built = auth::build(&cli.store.config(), &cli.auth, tokens).await?;
    let listener = TcpListener::bind(cli.addr).await?;
    service_common::telemetry::serve_metrics(&cli.telemetry, "127.0.0.1:9092");
    tracing::info!(addr = %cli.addr, "auth service listening");
    service_common::serve(listener, built, service_common::shutdown_signal()).await
}
