//! The auth service: users, argon2id passwords and service tokens.

pub mod domain;
pub mod error;
pub mod password;
pub mod service;
pub mod store;

use std::sync::Arc;

use logistics_proto::v1::auth_service_server::AuthServiceServer;
use service_auth::TokenKey;
use tokio::net::TcpListener;

pub use service::AuthApi;
use store::{MongoUserStore, SqliteUserStore, UserStore};

pub use service_common::StoreConfig;

/// Opens the user store the configuration names.
pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn UserStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => {
            Arc::new(SqliteUserStore::open(&data_dir.join("users.sqlite3"))?)
        }
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoUserStore::connect(uri, database).await?)
        }
    })
}

pub fn server(store: Arc<dyn UserStore>, tokens: TokenKey) -> AuthServiceServer<AuthApi> {
    AuthServiceServer::new(AuthApi::new(store, tokens)).max_decoding_message_size(64 * 1024)
}

/// On the first start with no users: the admin from `ADMIN_EMAIL`/`ADMIN_PASSWORD`, or
/// `admin@example.com` with a generated password printed once.
pub async fn ensure_first_admin(store: Arc<dyn UserStore>) -> anyhow::Result<()> {
    if store.count().await? > 0 {
        return Ok(());
    }
    let email = std::env::var("ADMIN_EMAIL")
        .ok()
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| "admin@example.com".into());
    let (password, generated) = match std::env::var("ADMIN_PASSWORD") {
        Ok(p) if !p.is_empty() => (p, false),
        _ => (generate_password(), true),
    };
    let api = AuthApi::new(store, TokenKey::generate());
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

/// Creates an admin account (the `create-admin` command).
pub async fn create_admin(
    store: Arc<dyn UserStore>,
    email: &str,
    password: &str,
) -> anyhow::Result<()> {
    let api = AuthApi::new(store, TokenKey::generate());
    let user = api
        .create(
            domain::Email::parse(email)?,
            "Administrator",
            domain::Role::Admin,
            domain::NewPassword::parse("password", password)?,
        )
        .await?;
    println!("Created admin {}", user.email.as_str());
    Ok(())
}

/// The password for `create-admin`: `ADMIN_PASSWORD`, else the first line of standard input.
/// Never a command-line argument, where other users of the machine could read it.
pub fn admin_password_from_env_or_stdin() -> anyhow::Result<String> {
    if let Ok(p) = std::env::var("ADMIN_PASSWORD")
        && !p.is_empty()
    {
        return Ok(p);
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

/// Serves the auth service, gRPC health and reflection on `listener` until `shutdown`.
pub async fn serve(
    listener: TcpListener,
    store: Arc<dyn UserStore>,
    tokens: TokenKey,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    service_common::serve(listener, server(store, tokens), shutdown).await
}
