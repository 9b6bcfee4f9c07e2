//! How the gateway reaches a service: in process (all-in-one) or over gRPC (distributed), to
//! every replica behind the service's name in turn. Either way it is one tower service that
//! never fails: transport errors become UNAVAILABLE.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;

use http::{Request, Response};
use http_body_util::BodyExt;
use logistics_proto::direct::Unary;
use tonic::body::Body;
use tonic::transport::{Channel, Endpoint};
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;

/// A service the gateway calls: its gRPC server over HTTP, in process or remote, and for one
/// in this process its unary methods called directly (`forward` prefers those).
#[derive(Clone)]
pub struct Upstream {
    http: BoxCloneSyncService<Request<Body>, Response<Body>, Infallible>,
    in_process: Option<Arc<dyn Unary>>,
}

impl Upstream {
    /// The server, when it runs in this process.
    pub fn in_process(&self) -> Option<&dyn Unary> {
        self.in_process.as_deref()
    }
}

impl tower::Service<Request<Body>> for Upstream {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        self.http.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        self.http.call(request)
    }
}

/// How long the gateway waits for a service's connection before answering UNAVAILABLE.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);
/// Longest any forwarded call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Reads are tried this many times while a service cannot be reached, waiting 100 ms, then 200 ms.
const READ_ATTEMPTS: u32 = 3;
const READ_BACKOFF: Duration = Duration::from_millis(100);

/// Whether sending the call twice is harmless: its method's `idempotency_level` in the proto.
pub(crate) fn is_idempotent(path: &str) -> bool {
    service_auth::access::rule(path).is_some_and(|rule| rule.idempotent)
}

/// A service hosted in this process (its generated server), called without a socket but
/// observed as a remote one is: a span per call, in the gateway's trace, and metrics.
pub fn in_process<S>(server: S) -> Upstream
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Unary
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    // No trace headers: the service's span is opened inside the gateway's request span, its
    // parent already.
    Upstream {
        in_process: Some(Arc::new(server.clone())),
        http: BoxCloneSyncService::new(tower::Layer::layer(
            &service_common::telemetry::RpcTelemetryLayer,
            server,
        )),
    }
}

/// Every call carries the trace context of the gateway's request span.
fn with_trace_context<S>(service: S) -> Upstream
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    Upstream {
        http: BoxCloneSyncService::new(service.map_request(|mut request: Request<Body>| {
            service_common::telemetry::inject_trace_context(request.headers_mut());
            request
        })),
        in_process: None,
    }
}

/// How often the addresses behind a service's host name are looked up again: replicas that
/// came or went are used or dropped within this time.
const REFRESH_EVERY: Duration = Duration::from_secs(5);
/// How long a replica that refused a connection (or broke one) is passed over.
const DOWN_FOR: Duration = Duration::from_secs(2);

/// Looks up the addresses of a host name; DNS unless a test says otherwise.
pub trait Resolve: Send + Sync + 'static {
    fn resolve(
        &self,
        host: &str,
        port: u16,
    ) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>;
}

/// The system resolver: a Kubernetes headless Service's name gives every ready pod's address.
pub struct Dns;

impl Resolve for Dns {
    fn resolve(
        &self,
        host: &str,
        port: u16,
    ) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
        let target = format!("{host}:{port}");
        Box::pin(async move { Ok(tokio::net::lookup_host(target).await?.collect()) })
    }
}

/// A service at `url` (for example `http://shipments:50051`). Every address its host name
/// resolves to gets calls in turn (each with its own lazily made connection), the list is
/// looked up again every few seconds, and a replica that cannot be reached is passed over.
pub fn remote(name: &'static str, url: &str) -> anyhow::Result<Upstream> {
    remote_with(name, url, Arc::new(Dns))
}

/// [`remote`] with the given resolver.
pub fn remote_with(
    name: &'static str,
    url: &str,
    resolver: Arc<dyn Resolve>,
) -> anyhow::Result<Upstream> {
    let uri: http::Uri = url.parse()?;
    let host = uri
        .host()
        .ok_or_else(|| anyhow::anyhow!("{name} URL {url} has no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let scheme = uri.scheme_str().unwrap_or("http").to_owned();
    let port = uri
        .port_u16()
        .unwrap_or(if scheme == "https" { 443 } else { 80 });
    let replicas = Arc::new(Replicas {
        name,
        url: url.to_owned(),
        scheme,
        host,
        port,
        resolver,
        members: std::sync::RwLock::new(Vec::new()),
        next: AtomicUsize::new(0),
        looking_up: tokio::sync::Mutex::new(()),
    });
    // Looked up again in the background for as long as the gateway uses the service.
    let weak = Arc::downgrade(&replicas);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(REFRESH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let Some(replicas) = weak.upgrade() else {
                return;
            };
            replicas.refresh().await;
        }
    });
    Ok(with_trace_context(Remote { replicas }))
}

/// One address behind a service's name, and its connection.
struct Member {
    addr: SocketAddr,
    channel: Channel,
    /// Passed over until then, after it failed.
    down_until: std::sync::Mutex<Option<Instant>>,
}

impl Member {
    fn is_up(&self, now: Instant) -> bool {
        self.down_until
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none_or(|until| until <= now)
    }

    fn mark_down(&self) {
        *self.down_until.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Instant::now() + DOWN_FOR);
    }
}

/// The replicas of one service, as last looked up.
struct Replicas {
    name: &'static str,
    /// As configured: the connection URL when the name does not resolve.
    url: String,
    /// `http` (h2c, inside a cluster) or `https`, as the URL says.
    scheme: String,
    host: String,
    port: u16,
    resolver: Arc<dyn Resolve>,
    members: std::sync::RwLock<Vec<Arc<Member>>>,
    next: AtomicUsize,
    /// One lookup at a time.
    looking_up: tokio::sync::Mutex<()>,
}

impl Replicas {
    fn channel(&self, endpoint: Endpoint) -> Channel {
        endpoint
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(CALL_TIMEOUT)
            .connect_lazy()
    }

    fn is_empty(&self) -> bool {
        self.members
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    /// Looks the addresses up again: new ones are added, gone ones dropped, the others keep
    /// their connection. A failed lookup keeps the list; with no list at all the URL itself
    /// is used.
    async fn refresh(&self) {
        let _one_at_a_time = self.looking_up.lock().await;
        let found = match self.resolver.resolve(&self.host, self.port).await {
            Ok(found) if !found.is_empty() => found,
            Ok(_) | Err(_) => {
                let mut members = self.members.write().unwrap_or_else(|e| e.into_inner());
                if members.is_empty() {
                    tracing::warn!(service = self.name, host = %self.host, "no address found; connecting by name");
                    if let Ok(endpoint) = Endpoint::from_shared(self.url.clone()) {
                        members.push(Arc::new(Member {
                            addr: SocketAddr::from(([0, 0, 0, 0], self.port)),
                            channel: self.channel(endpoint),
                            down_until: std::sync::Mutex::new(None),
                        }));
                    }
                }
                return;
            }
        };
        let mut members = self.members.write().unwrap_or_else(|e| e.into_inner());
        let before = members.len();
        members.retain(|m| found.contains(&m.addr));
        for addr in found {
            if members.iter().any(|m| m.addr == addr) {
                continue;
            }
            let Ok(endpoint) = Endpoint::from_shared(format!("{}://{addr}", self.scheme)) else {
                continue;
            };
            members.push(Arc::new(Member {
                addr,
                channel: self.channel(endpoint),
                down_until: std::sync::Mutex::new(None),
            }));
        }
        if members.len() != before {
            tracing::info!(
                service = self.name,
                replicas = members.len(),
                "service replicas changed"
            );
        }
    }

    /// The next replica in turn, passing over those marked down (unless all are) and `not`.
    fn pick(&self, not: Option<SocketAddr>) -> Option<Arc<Member>> {
        let members = self.members.read().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let in_turn = (0..members.len()).map(|i| &members[(start + i) % members.len()]);
        let mut candidates = in_turn.filter(|m| Some(m.addr) != not || members.len() == 1);
        let first = candidates.clone().find(|m| m.is_up(now));
        first.or_else(|| candidates.next()).cloned()
    }
}

/// Whether the call never reached the service, so sending it elsewhere cannot run it twice:
/// its connection was refused, closed while the call still waited to go out, or the service
/// refused the stream. (A stream cut by a GOAWAY may have run: h2 reports both alike.)
fn never_sent(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::ConnectionRefused;
        }
        if let Some(hyper) = e.downcast_ref::<hyper::Error>()
            && hyper.is_canceled()
        {
            return true;
        }
        if let Some(h2) = e.downcast_ref::<h2::Error>() {
            return h2.reason() == Some(h2::Reason::REFUSED_STREAM);
        }
        source = e.source();
    }
    false
}

/// The replicas of a service; transport errors (readiness included) become UNAVAILABLE.
#[derive(Clone)]
struct Remote {
    replicas: Arc<Replicas>,
}

impl tower::Service<Request<Body>> for Remote {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(
        &mut self,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let replicas = self.replicas.clone();
        Box::pin(async move {
            let name = replicas.name;
            let unavailable = |error: &dyn std::fmt::Display| {
                tracing::warn!(service = name, %error, "service unreachable");
                tonic::Status::unavailable("The service is unavailable. Please try again shortly.")
                    .into_http()
            };
            if replicas.is_empty() {
                replicas.refresh().await;
            }
            // Reads can be sent again: buffer the (small, size-limited) body and retry with
            // backoff on another replica while one cannot be reached. Writes go again only
            // when their connection was refused, so they never run twice.
            let idempotent = is_idempotent(request.uri().path());
            let (parts, body) = request.into_parts();
            let body = match body.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(e) => return Ok(unavailable(&e)),
            };
            let mut attempt = 0;
            let mut failed: Option<SocketAddr> = None;
            loop {
                let Some(member) = replicas.pick(failed) else {
                    return Ok(unavailable(&"no replica known"));
                };
                let mut retry = Request::new(Body::new(http_body_util::Full::new(body.clone())));
                *retry.method_mut() = parts.method.clone();
                *retry.uri_mut() = parts.uri.clone();
                *retry.version_mut() = parts.version;
                *retry.headers_mut() = parts.headers.clone();
                match member.channel.clone().oneshot(retry).await {
                    Ok(response) => return Ok(response),
                    Err(e) => {
                        member.mark_down();
                        let again = idempotent || never_sent(&e);
                        if !again || attempt + 1 >= READ_ATTEMPTS {
                            return Ok(unavailable(&e));
                        }
                        tracing::debug!(service = name, replica = %member.addr, error = %e, attempt, "trying another replica");
                        // Another replica at once; the same one (the only one) after a pause.
                        if replicas
                            .members
                            .read()
                            .unwrap_or_else(|e| e.into_inner())
                            .len()
                            <= 1
                        {
                            tokio::time::sleep(READ_BACKOFF * 2u32.pow(attempt)).await;
                        }
                        failed = Some(member.addr);
                        attempt += 1;
                    }
                }
            }
        })
    }
}
