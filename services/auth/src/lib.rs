//! The auth service: users, argon2id passwords and service tokens.

pub mod api_keys;
pub mod domain;
pub mod error;
pub mod password;
pub mod service;
pub mod store;

use std::sync::Arc;

use logistics_proto::v1::api_key_service_server::ApiKeyServiceServer;
use logistics_proto::v1::auth_service_server::AuthServiceServer;
use service_auth::TokenKey;

pub use service::AuthApi;
use store::{MongoUserStore, SqliteUserStore, UserStore};

use service_auth::TokenSettings;
use service_auth::access::Enforced;
use service_common::settings::{
    ExposeSecret, SecretString, StoreConfig, StoreSettings, TelemetrySettings,
};
use service_common::{Built, Services};

/// The auth service's own settings: the first admin of an empty users store.
#[derive(clap::Args, Clone, Debug, Default)]
#[group(id = "auth")]
#[command(next_help_heading = "Auth service")]
pub struct Settings {
    /// E-mail of the first admin, created on the first start with no users
    /// (default admin@example.com).
    #[arg(long, env = "ADMIN_EMAIL")]
    pub admin_email: Option<String>,
    /// Password of that first admin; unset, one is generated and printed once. `create-admin`
    /// reads it too (never a command-line argument: other users could see it).
    #[arg(
        long = "admin-password",
        env = "ADMIN_PASSWORD",
        hide_env_values = true,
        value_parser = service_common::settings::secret
    )]
    pub admin_password: Option<SecretString>,
    /// Calls per minute one API key may make; the gateway answers more with
    /// RESOURCE_EXHAUSTED (default 600).
    #[arg(long, env = "API_KEY_RATE_LIMIT_PER_MINUTE")]
    pub api_key_rate_limit_per_minute: Option<u32>,
}

/// Calls per minute an API key may make unless API_KEY_RATE_LIMIT_PER_MINUTE says otherwise.
const API_KEY_RATE_LIMIT_PER_MINUTE: u32 = 600;

/// What the auth process serves: the users and their API keys.
pub type AuthServer = Services<Enforced<AuthServiceServer<AuthApi>>>;

/// The `auth` binary: the service on its own (distributed mode), or `auth create-admin`.
#[derive(clap::Parser, Debug)]
#[command(
    name = "auth",
    version,
    about = "The auth gRPC service: users, passwords, sign-in"
)]
pub struct Cli {
    /// Listen address of the gRPC service.
    #[arg(long, env = "AUTH_ADDR", default_value = "127.0.0.1:50052")]
    pub addr: std::net::SocketAddr,
    #[command(flatten)]
    pub store: StoreSettings,
    #[command(flatten)]
    pub tokens: TokenSettings,
    #[command(flatten)]
    pub telemetry: TelemetrySettings,
    #[command(flatten)]
    pub auth: Settings,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Creates an admin account; the password comes from ADMIN_PASSWORD or standard input.
    CreateAdmin {
        #[arg(long)]
        email: String,
    },
    #[command(flatten)]
    Data(service_common::backup::DataCommand),
}

/// The service, whoever starts it: its binary, the all-in-one gateway and the tests. On an
/// empty users store it first creates the first admin.
pub async fn build(
    store: &StoreConfig,
    settings: &Settings,
    tokens: TokenKey,
) -> anyhow::Result<Built<AuthServer>> {
    let audit_log = audit::open(store).await?;
    let keys = open_key_store(store).await?;
    let store = open_store(store).await?;
    ensure_first_admin(store.clone(), audit_log.clone(), settings).await?;
    let limit = api_keys::KeyRateLimit(
        settings
            .api_key_rate_limit_per_minute
            .unwrap_or(API_KEY_RATE_LIMIT_PER_MINUTE),
    );
    let services = Services::new(server(store.clone(), tokens.clone(), audit_log.clone())).with(
        Enforced::new(
            tokens,
            ApiKeyServiceServer::new(api_keys::ApiKeyApi::new(keys, store, audit_log, limit))
                .max_decoding_message_size(64 * 1024),
        ),
    );
    Ok(Built::of_services(services))
}

/// Opens the API key store the configuration names (beside the users).
pub async fn open_key_store(
    config: &StoreConfig,
) -> anyhow::Result<Arc<dyn api_keys::ApiKeyStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(api_keys::SqliteApiKeyStore::open(
            &data_dir.join("api_keys.sqlite3"),
        )?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(api_keys::MongoApiKeyStore::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// Opens the user store the configuration names.
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn UserStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => {
            Arc::new(SqliteUserStore::open(&data_dir.join("users.sqlite3"))?)
        }
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoUserStore::connect(uri.expose_secret(), database).await?)
        }
    })
}

pub fn server(
    store: Arc<dyn UserStore>,
    tokens: TokenKey,
    audit_log: Arc<dyn audit::AuditLog>,
) -> Enforced<AuthServiceServer<AuthApi>> {
    let server =
        AuthServiceServer::new(AuthApi::new(store, audit_log).with_invitations(tokens.clone()))
            .max_decoding_message_size(64 * 1024);
    Enforced::new(tokens, server)
}

/// On the first start with no users: the admin from `ADMIN_EMAIL`/`ADMIN_PASSWORD`, or
/// `admin@example.com` with a generated password printed once.
async fn ensure_first_admin(
    store: Arc<dyn UserStore>,
    audit_log: Arc<dyn audit::AuditLog>,
    settings: &Settings,
) -> anyhow::Result<()> {
    if store.count().await? > 0 {
        return Ok(());
    }
    let email = settings
        .admin_email
        .clone()
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| "admin@example.com".into());
    let (password, generated) = match settings
        .admin_password
        .as_ref()
        .map(ExposeSecret::expose_secret)
    {
        Some(p) if !p.is_empty() => (p.to_owned(), false),
        _ => (generate_password(), true),
    };
    let api = AuthApi::new(store, audit_log);
    let created = api
        .create(
            domain::Email::parse(&email)?,
            "Administrator",
            domain::Role::Admin,
            domain::NewPassword::parse("ADMIN_PASSWORD", &password)?,
        )
        .await;
    let user = match created {
        Ok(user) => user,
        // Two replicas starting on an empty database: the other one made it.
        Err(error::AuthError::AlreadyExists) => {
            tracing::info!(%email, "the first admin was created by another replica");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    api.record(
        audit::AuditEntry::new(
            &setup_actor(),
            audit::Action::UserCreate,
            &user.id,
            user.email.as_str(),
        )
        .with_summary("The first admin, created at the first start"),
    )
    .await;
    if generated {
        println!(
            "\nCreated the first admin: {}\nPassword (shown once, change it after signing in): {password}\n",
            user.email.as_str()
        );
    } else {
        tracing::info!(
            email = user.email.as_str(),
            "created the first admin from ADMIN_EMAIL and ADMIN_PASSWORD"
        );
    }
    Ok(())
}

/// Who the audit log names for accounts made by the service itself or its command line.
fn setup_actor() -> audit::Actor {
    audit::Actor {
        id: "setup".into(),
        email: "setup@localhost".into(),
        ..Default::default()
    }
}

/// Creates an admin account (the `create-admin` command).
pub async fn create_admin(
    store: Arc<dyn UserStore>,
    audit_log: Arc<dyn audit::AuditLog>,
    email: &str,
    password: &str,
) -> anyhow::Result<()> {
    let api = AuthApi::new(store, audit_log);
    let user = api
        .create(
            domain::Email::parse(email)?,
            "Administrator",
            domain::Role::Admin,
            domain::NewPassword::parse("password", password)?,
        )
        .await?;
    api.record(
        audit::AuditEntry::new(
            &setup_actor(),
            audit::Action::UserCreate,
            &user.id,
            user.email.as_str(),
        )
        .with_summary("Created with the create-admin command"),
    )
    .await;
    println!("Created admin {}", user.email.as_str());
    Ok(())
}

/// The password for `create-admin`: `ADMIN_PASSWORD`, else the first line of standard input.
/// Never a command-line argument, where other users of the machine could read it.
pub fn admin_password_or_stdin(settings: &Settings) -> anyhow::Result<String> {
    if let Some(p) = settings
        .admin_password
        .as_ref()
        .map(ExposeSecret::expose_secret)
        && !p.is_empty()
    {
        return Ok(p.to_owned());
    }
    eprintln!(
        "Password (at least {} characters), then Enter:",
        domain::MIN_PASSWORD_CHARS
    );
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

fn generate_password() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..20)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
