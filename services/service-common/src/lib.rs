//! What every service shares: where its store is, the gRPC server with health and
//! reflection, timestamp encoding and e-mail syntax.

pub mod grpc_guard;
pub mod telemetry;

use std::convert::Infallible;
use std::path::PathBuf;

use tokio::net::TcpListener;
use tonic::body::Body;
use tonic::server::NamedService;

/// Which store a service opens, from the environment.
#[derive(Clone, Debug)]
pub enum StoreConfig {
    /// SQLite files in `DATA_DIR` (default `./data`).
    Embedded { data_dir: PathBuf },
    /// `MONGODB_URI`, database `MONGODB_DATABASE` (default `logistics`).
    Mongo { uri: String, database: String },
}

impl StoreConfig {
    pub fn from_env() -> Self {
        match std::env::var("MONGODB_URI") {
            Ok(uri) if !uri.is_empty() => Self::Mongo {
                uri,
                database: std::env::var("MONGODB_DATABASE")
                    .unwrap_or_else(|_| "logistics".to_owned()),
            },
            _ => Self::Embedded {
                data_dir: std::env::var("DATA_DIR")
                    .unwrap_or_else(|_| "./data".to_owned())
                    .into(),
            },
        }
    }
}

/// A pool of SQLite connections to `file` in `data_dir`, in WAL mode, with `schema` applied.
pub fn sqlite_pool(
    path: &std::path::Path,
    max_size: u32,
    schema: &str,
) -> anyhow::Result<r2d2::Pool<r2d2_sqlite::SqliteConnectionManager>> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let manager = r2d2_sqlite::SqliteConnectionManager::file(path).with_init(|c| {
        c.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;",
        )
    });
    let pool = r2d2::Pool::builder()
        .max_size(max_size)
        .test_on_check_out(false)
        .build(manager)?;
    pool.get()?.execute_batch(schema)?;
    Ok(pool)
}

/// Serves `service` with gRPC health and reflection on `listener` until `shutdown`.
pub async fn serve<S>(
    listener: TcpListener,
    service: S,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()>
where
    S: tower_service::Service<
            http::Request<Body>,
            Response = http::Response<Body>,
            Error = Infallible,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    serve_unless(listener, service, None, shutdown).await
}

/// Like `serve`, but with `problem` (a configuration the service cannot work without) the
/// health service answers NOT_SERVING for it, so it never becomes ready, and says why in the log.
pub async fn serve_unless<S>(
    listener: TcpListener,
    service: S,
    problem: Option<String>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> anyhow::Result<()>
where
    S: tower_service::Service<
            http::Request<Body>,
            Response = http::Response<Body>,
            Error = Infallible,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let (health_reporter, health) = tonic_health::server::health_reporter();
    match problem {
        None => health_reporter.set_serving::<S>().await,
        Some(problem) => {
            tracing::error!("not ready: {problem}");
            health_reporter.set_not_serving::<S>().await;
        }
    }
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(logistics_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    // Connections are recycled so clients (the gateway) spread over replicas a scale-up adds.
    tonic::transport::Server::builder()
        .max_connection_age(std::time::Duration::from_secs(60))
        .layer(telemetry::RpcTelemetryLayer)
        .add_service(grpc_guard::GrpcGuard::new(
            health,
            grpc_guard::SERVICE_MAX_BODY_BYTES,
        ))
        .add_service(reflection)
        .add_service(grpc_guard::GrpcGuard::new(
            service,
            grpc_guard::SERVICE_MAX_BODY_BYTES,
        ))
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// The current time at the precision the stores keep (microseconds), so what a call
/// returns equals what a later read returns.
pub fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound;
    chrono::Utc::now().trunc_subsecs(6)
}

/// Timestamps as fixed-width RFC 3339 strings with microseconds, so text order is time order.
pub mod utc_micros {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn format(t: &DateTime<Utc>) -> String {
        t.to_rfc3339_opts(SecondsFormat::Micros, true)
    }

    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(t))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let text = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(&text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(serde::de::Error::custom)
    }
}

/// A pragmatic e-mail check: one `@`, a non-empty local part, a dotted domain, no spaces.
pub fn is_email(value: &str) -> bool {
    if value.len() > 254 || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    match value.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains("..")
        }
        None => false,
    }
}

/// Resolves on SIGTERM (Kubernetes stopping a pod) or Ctrl-C; servers then stop accepting and
/// drain the calls in flight.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut sigterm) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            sigterm.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutting down: draining calls in flight");
}

/// Whether a MongoDB error means the server cannot be reached (worth UNAVAILABLE and a later
/// try), as opposed to a refused or malformed operation.
pub fn mongo_unreachable(e: &mongodb::error::Error) -> bool {
    use mongodb::error::ErrorKind;
    matches!(
        *e.kind,
        ErrorKind::Io(_)
            | ErrorKind::ServerSelection { .. }
            | ErrorKind::ConnectionPoolCleared { .. }
    )
}

/// The site's public address for links in e-mails: `PUBLIC_URL`, default http://localhost:8080.
pub fn public_url() -> String {
    std::env::var("PUBLIC_URL")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "http://localhost:8080".to_owned())
}

/// How long a starting process waits for MongoDB before giving up (and, in Kubernetes, being
/// restarted).
pub const MONGODB_STARTUP_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// A MongoDB client that fails fast while the server is away (2 s server selection instead of
/// 30 s, so callers answer UNAVAILABLE promptly and recover as soon as it is back), writes
/// with majority and journal acknowledgement unless the URI says otherwise, after waiting for
/// the server at start-up with a log line per attempt (for up to `MONGODB_STARTUP_WAIT`).
pub async fn mongo_client(uri: &str) -> anyhow::Result<mongodb::Client> {
    let mut options = mongodb::options::ClientOptions::parse(uri).await?;
    options.server_selection_timeout = Some(std::time::Duration::from_secs(2));
    options.connect_timeout = Some(std::time::Duration::from_secs(2));
    // An acknowledged write is on disk on a majority of the replica set: a crash loses nothing
    // the product said was saved (the driver's default, w:1 without journal, can).
    if options.write_concern.is_none() {
        options.write_concern = Some(
            mongodb::options::WriteConcern::builder()
                .w(mongodb::options::Acknowledgment::Majority)
                .journal(true)
                .build(),
        );
    }
    let hosts: Vec<String> = options.hosts.iter().map(|h| h.to_string()).collect();
    let client = mongodb::Client::with_options(options)?;
    let started = std::time::Instant::now();
    let mut attempt = 1;
    loop {
        match client
            .database("admin")
            .run_command(mongodb::bson::doc! { "ping": 1 })
            .await
        {
            Ok(_) => {
                tracing::info!(hosts = ?hosts, "connected to MongoDB");
                return Ok(client);
            }
            Err(e) if started.elapsed() >= MONGODB_STARTUP_WAIT => {
                anyhow::bail!(
                    "MongoDB at {hosts:?} did not answer within {MONGODB_STARTUP_WAIT:?}: {e}"
                )
            }
            Err(e) => {
                tracing::warn!(hosts = ?hosts, attempt, error = %e, "waiting for MongoDB");
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        }
    }
}

/// For tests: the server the MongoDB suites run against (`TEST_MONGODB_URI`, set by
/// `make test`), and a fresh database name on it. None when `SKIP_MONGO_TESTS=1`; without
/// either it panics, so a missing server never passes silently.
pub fn test_mongodb() -> Option<(String, String)> {
    let uri = match std::env::var("TEST_MONGODB_URI") {
        Ok(uri) if !uri.is_empty() => uri,
        _ if std::env::var("SKIP_MONGO_TESTS").as_deref() == Ok("1") => return None,
        _ => panic!("TEST_MONGODB_URI is not set: run `make test`, or set SKIP_MONGO_TESTS=1"),
    };
    let database = format!(
        "test_{:x}_{:x}",
        std::process::id(),
        chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default()
    );
    Some((uri, database))
}

#[cfg(test)]
mod tests {
    #[test]
    fn email_syntax() {
        assert!(super::is_email("ada@example.com"));
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a da@example.com",
            "a@@example.com",
            "a@.example.com",
        ] {
            assert!(!super::is_email(bad), "{bad}");
        }
    }
}
