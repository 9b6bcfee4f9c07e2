//! What every service shares: where its store is and the store plumbing, the gRPC server with
//! health and reflection, the request plumbing (paging, update masks, field violations,
//! timestamps) and e-mail syntax.

pub mod backup;
pub mod direct;
pub mod draining;
pub mod grpc_guard;
pub mod mask;
pub mod paging;
pub mod settings;
pub mod store;
pub mod telemetry;
pub mod text;
pub mod timestamp;
pub mod violations;

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;

use logistics_proto::direct::Unary;
use tokio::net::TcpListener;
use tonic::body::Body;
use tonic::server::NamedService;
use tower::ServiceExt;

pub use settings::StoreConfig;

/// A background task of a service (the outbox worker): runs until told the process stops.
pub type Task = Box<dyn FnOnce(Stopping) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// Resolves once the process begins to stop.
#[derive(Clone)]
pub struct Stopping(tokio::sync::watch::Receiver<bool>);

impl Stopping {
    /// A pair: call `stop` on the sender to make every clone of the `Stopping` resolve.
    pub fn channel() -> (tokio::sync::watch::Sender<bool>, Self) {
        let (stop, stopping) = tokio::sync::watch::channel(false);
        (stop, Self(stopping))
    }

    pub async fn wait(mut self) {
        let _ = self.0.wait_for(|stopped| *stopped).await;
    }
}

/// A service as its `build` makes it: the gRPC server, the tasks that run beside it, a
/// configuration problem that keeps it from being ready (its health says NOT_SERVING), and
/// the gRPC services it answers (which reflection lists).
pub struct Built<S> {
    pub server: S,
    pub tasks: Vec<Task>,
    pub problem: Option<String>,
    pub services: Vec<&'static str>,
}

impl<S: NamedService> Built<S> {
    pub fn new(server: S) -> Self {
        Self {
            server,
            tasks: Vec::new(),
            problem: None,
            services: vec![S::NAME],
        }
    }
}

impl<N: NamedService> Built<Services<N>> {
    /// Several services served as one, each listed by reflection.
    pub fn of_services(server: Services<N>) -> Self {
        Self {
            services: server.servers.iter().map(|(name, _)| *name).collect(),
            server,
            tasks: Vec::new(),
            problem: None,
        }
    }
}

impl<S> Built<S> {
    /// Starts the background tasks; each stops when `stopping` resolves.
    pub fn spawn_tasks(&mut self, stopping: &Stopping) -> Vec<tokio::task::JoinHandle<()>> {
        self.tasks
            .drain(..)
            .map(|task| tokio::spawn(task(stopping.clone())))
            .collect()
    }
}

/// Several gRPC services served as one (the shipments and the audit log beside them),
/// reported by health under the name of `N`, the main one.
pub struct Services<N> {
    routes: tonic::service::Routes,
    /// Each service's name and its server, for calls made in process. Shared: the gateway
    /// clones its upstream services for every call.
    servers: std::sync::Arc<Vec<(&'static str, std::sync::Arc<dyn Unary>)>>,
    main: std::marker::PhantomData<fn() -> N>,
}

impl<N> Clone for Services<N> {
    fn clone(&self) -> Self {
        Self {
            routes: self.routes.clone(),
            servers: self.servers.clone(),
            main: std::marker::PhantomData,
        }
    }
}

impl<N> Services<N>
where
    N: tower_service::Service<
            http::Request<Body>,
            Response = http::Response<Body>,
            Error = Infallible,
        > + NamedService
        + Unary
        + Clone
        + Send
        + Sync
        + 'static,
    N::Future: Send + 'static,
{
    pub fn new(main: N) -> Self {
        Self {
            servers: std::sync::Arc::new(vec![(N::NAME, std::sync::Arc::new(main.clone()) as _)]),
            routes: tonic::service::Routes::new(main),
            main: std::marker::PhantomData,
        }
    }

    /// Serves `service` beside the main one.
    pub fn with<S>(mut self, service: S) -> Self
    where
        S: tower_service::Service<
                http::Request<Body>,
                Response = http::Response<Body>,
                Error = Infallible,
            > + NamedService
            + Unary
            + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
    {
        std::sync::Arc::make_mut(&mut self.servers)
            .push((S::NAME, std::sync::Arc::new(service.clone())));
        self.routes = self.routes.add_service(service);
        self
    }
}

/// A call made in process goes to the server of the service its path names.
impl<N> Unary for Services<N> {
    fn serves(&self, path: &str) -> bool {
        self.server_of(path)
            .is_some_and(|server| server.serves(path))
    }

    fn unary(&self, request: http::Request<bytes::Bytes>) -> logistics_proto::direct::UnaryFuture {
        match self.server_of(request.uri().path()) {
            Some(server) => server.unary(request),
            None => logistics_proto::direct::unimplemented(),
        }
    }
}

impl<N> Services<N> {
    fn server_of(&self, path: &str) -> Option<&dyn Unary> {
        let service = path.trim_start_matches('/').split('/').next()?;
        self.servers
            .iter()
            .find(|(name, _)| *name == service)
            .map(|(_, server)| server.as_ref())
    }
}

/// The descriptors reflection shows for `services`: the files that declare them and the files
/// those import, so a service lists and describes only what it serves.
fn descriptors_of(services: &[&str]) -> anyhow::Result<prost_types::FileDescriptorSet> {
    use prost::Message;
    let all = prost_types::FileDescriptorSet::decode(logistics_proto::FILE_DESCRIPTOR_SET)?;
    let declares = |file: &prost_types::FileDescriptorProto| {
        file.service.iter().any(|service| {
            let name = format!("{}.{}", file.package(), service.name());
            services.contains(&name.as_str())
        })
    };
    let mut wanted: Vec<String> = all
        .file
        .iter()
        .filter(|f| declares(f))
        .map(|f| f.name().to_owned())
        .collect();
    let mut next = 0;
    while let Some(name) = wanted.get(next).cloned() {
        next += 1;
        if let Some(file) = all.file.iter().find(|f| f.name() == name) {
            for import in &file.dependency {
                if !wanted.contains(import) {
                    wanted.push(import.clone());
                }
            }
        }
    }
    Ok(prost_types::FileDescriptorSet {
        file: all
            .file
            .into_iter()
            .filter(|f| wanted.iter().any(|w| w == f.name()))
            .collect(),
    })
}

impl<N: NamedService> NamedService for Services<N> {
    const NAME: &'static str = N::NAME;
}

impl<N> tower_service::Service<http::Request<Body>> for Services<N> {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = <tonic::service::Routes as tower_service::Service<http::Request<Body>>>::Future;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        tower_service::Service::<http::Request<Body>>::poll_ready(&mut self.routes, cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        self.routes.call(request)
    }
}

const HEALTH_SERVICE: &str = "grpc.health.v1.Health";
const REFLECTION_SERVICE: &str = "grpc.reflection.v1.ServerReflection";

/// Serves a built service with gRPC health and reflection on `listener` until `shutdown`,
/// its tasks beside it; then drains the calls in flight and lets the tasks finish.
pub async fn serve<S>(
    listener: TcpListener,
    mut built: Built<S>,
    shutdown: impl Future<Output = ()> + Send,
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
    let (stop, stopping) = Stopping::channel();
    let tasks = built.spawn_tasks(&stopping);
    let served = serve_grpc(
        listener,
        built.server,
        built.problem,
        &built.services,
        shutdown,
    )
    .await;
    let _ = stop.send(true);
    for task in tasks {
        let _ = task.await;
    }
    served
}

async fn serve_grpc<S>(
    listener: TcpListener,
    service: S,
    problem: Option<String>,
    services: &[&'static str],
    shutdown: impl Future<Output = ()> + Send,
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
    // Reflection lists this process's services, its health and itself: nothing of the others.
    let mut reflection = tonic_reflection::server::Builder::configure()
        .register_file_descriptor_set(descriptors_of(services)?)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .with_service_name(HEALTH_SERVICE)
        .with_service_name(REFLECTION_SERVICE);
    for name in services {
        reflection = reflection.with_service_name(*name);
    }
    let reflection = reflection.build_v1()?;
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    // Every path but health and reflection goes to the service, which may be several
    // (`Services`) and answers UNIMPLEMENTED for what it does not know.
    let guard = grpc_guard::GrpcGuardLayer::new(grpc_guard::SERVICE_MAX_BODY_BYTES)
        .with_larger(grpc_guard::FILE_UPLOADS);
    let service = tower::Layer::layer(&guard, service)
        .map_request(|request: http::Request<axum::body::Body>| request.map(Body::new));
    let routes = tonic::service::Routes::new(grpc_guard::GrpcGuard::new(
        health,
        grpc_guard::SERVICE_MAX_BODY_BYTES,
    ))
    .add_service(reflection)
    .into_axum_router()
    .fallback_service(service);
    // Connections are never recycled: the gateway keeps one per replica and looks the replicas
    // up every few seconds, and a recycled connection can cut a write it cannot safely resend.
    tonic::transport::Server::builder()
        .layer(telemetry::RpcTelemetryLayer)
        .add_routes(tonic::service::Routes::from(routes))
        .serve_with_incoming_shutdown(incoming, async {
            shutdown.await;
            draining::begin();
        })
        .await?;
    Ok(())
}

/// Whether `value` could be a record's id (ours, or one a store or an older version made): at
/// most 64 letters, digits, `-` or `_`. Anything else names no record, unasked.
pub fn could_be_id(value: &str) -> bool {
    value.len() <= 64
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A record's id: 24 hex digits, the creation time in milliseconds then 48 random bits, so
/// ids sort by creation and a store's index of them grows at its end instead of touching a
/// random page per insert (an import of 100,000 shipments writes a page per row otherwise).
pub fn new_id() -> String {
    use std::fmt::Write as _;
    let millis = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0);
    let random: [u8; 6] = rand::random();
    let mut id = format!("{:012x}", millis & 0xffff_ffff_ffff);
    for b in random {
        let _ = write!(id, "{b:02x}");
    }
    id
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

/// An optional timestamp, stored like `utc_micros` when present.
pub mod optional_utc_micros {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_some(&super::utc_micros::format(t)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                DateTime::parse_from_rfc3339(&text)
                    .map(|t| t.with_timezone(&Utc))
                    .map_err(serde::de::Error::custom)
            })
            .transpose()
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

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_unique_and_sort_by_creation() {
        let first = super::new_id();
        let many: std::collections::BTreeSet<String> =
            (0..10_000).map(|_| super::new_id()).collect();
        assert_eq!(many.len(), 10_000);
        let start = std::time::Instant::now();
        let later = loop {
            let id = super::new_id();
            // A later millisecond; a loop, not a sleep: the clock decides.
            if id[..12] != first[..12] || start.elapsed() > std::time::Duration::from_secs(5) {
                break id;
            }
        };
        assert!(later > first, "{later} sorts after {first}");
        assert!(first.len() == 24 && first.chars().all(|c| c.is_ascii_hexdigit()));
    }

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
