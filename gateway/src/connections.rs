//! The gateway's listener: HTTP/1.1 and HTTP/2 (gRPC) on one port, with every connection
//! bounded in time and the number of connections capped, so slow or idle clients cannot hold
//! the process:
//!
//! - a request head (HTTP/1.1) must arrive within `header_read` of its first byte;
//! - a connection with no request in progress is closed after `idle` (keep-alive, HTTP/2
//!   connections without a stream, a client that sends nothing at all);
//! - a request body must arrive within `body` of its head;
//! - at most `max_connections` at once: the next connection is accepted when one closes.
//!
//! Each connection's reads and its requests are tracked in one small shared record, watched
//! by a timer that wakes only at the next deadline.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use bytes::Bytes;
use http::{Request, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, watch};
use tokio::time::Instant;

/// What the listener allows each connection (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    pub header_read: Duration,
    pub idle: Duration,
    pub body: Duration,
    pub max_connections: usize,
}

/// The message a request body cut off by its deadline fails with.
pub const BODY_TIMED_OUT: &str = "the request body did not arrive in time";

/// The first bytes of an HTTP/2 connection (prior knowledge, as gRPC clients send).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0";

const NOT_STARTED: u64 = u64::MAX;

/// One connection's activity, shared by its socket, its requests and its timer.
struct Activity {
    epoch: Instant,
    /// Requests whose response has not been sent in full.
    in_flight: AtomicUsize,
    /// When (ms after `epoch`) the last request ended, or the connection opened.
    idle_since: AtomicU64,
    /// When (ms after `epoch`) the first byte of the next request head came, or NOT_STARTED.
    head_started: AtomicU64,
    /// HTTP/2: control frames flow between requests, so only `idle` applies.
    http2: AtomicBool,
    first_read: AtomicBool,
    changed: Notify,
}

impl Activity {
    fn new() -> Self {
        Self {
            epoch: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            head_started: AtomicU64::new(NOT_STARTED),
            http2: AtomicBool::new(false),
            first_read: AtomicBool::new(true),
            changed: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn read(&self, bytes: &[u8]) {
        if self.first_read.swap(false, Ordering::Relaxed) && bytes.starts_with(H2_PREFACE) {
            self.http2.store(true, Ordering::Relaxed);
        }
        if self.in_flight.load(Ordering::Relaxed) == 0
            && !self.http2.load(Ordering::Relaxed)
            && self
                .head_started
                .compare_exchange(
                    NOT_STARTED,
                    self.now_ms(),
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                )
                .is_ok()
        {
            self.changed.notify_one();
        }
    }

    fn request_started(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.head_started.store(NOT_STARTED, Ordering::Relaxed);
        InFlight(self.clone())
    }

    /// When the connection is to be closed if nothing changes; `None` while a request runs.
    fn deadline(&self, limits: &ConnectionLimits) -> Option<Instant> {
        if self.in_flight.load(Ordering::Relaxed) > 0 {
            return None;
        }
        let at = |ms: u64, limit: Duration| self.epoch + Duration::from_millis(ms) + limit;
        let idle = at(self.idle_since.load(Ordering::Relaxed), limits.idle);
        match self.head_started.load(Ordering::Relaxed) {
            NOT_STARTED => Some(idle),
            started => Some(idle.min(at(started, limits.header_read))),
        }
    }

    /// Returns when the connection has overstayed one of its limits.
    async fn expired(&self, limits: &ConnectionLimits) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(limits) {
                None => changed.await,
                Some(deadline) if deadline <= Instant::now() => return,
                Some(deadline) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(deadline) => {}
                        () = changed => {}
                    }
                }
            }
        }
    }
}

/// A request in progress; dropped when its response is sent (or abandoned).
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.0;
        activity
            .idle_since
            .store(activity.now_ms(), Ordering::Relaxed);
        if activity.in_flight.fetch_sub(1, Ordering::Relaxed) == 1 {
            activity.changed.notify_one();
        }
    }
}

/// The socket, noting every read in the connection's activity.
struct Watched {
    tcp: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// A body that carries a guard along, dropped with it: a request counts as in progress, or a
/// live page holds its place, until its response is sent in full or abandoned.
pub(crate) struct Guarded<B, G> {
    pub(crate) inner: B,
    pub(crate) _guard: G,
}

impl<B: http_body::Body + Unpin, G: Unpin> http_body::Body for Guarded<B, G> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// A request body that fails once its deadline has passed.
struct Deadline {
    inner: Incoming,
    deadline: Instant,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl http_body::Body for Deadline {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::BoxError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let deadline = self.deadline;
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(BODY_TIMED_OUT.into()))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The app as one connection sees it: the peer's address, the body deadline, the tracking.
#[derive(Clone)]
struct PerConnection {
    app: Router,
    peer: SocketAddr,
    activity: Arc<Activity>,
    body_timeout: Duration,
}

impl tower::Service<Request<Incoming>> for PerConnection {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let in_flight = self.activity.request_started();
        let deadline = Instant::now() + self.body_timeout;
        let mut request = request.map(|inner| {
            if http_body::Body::is_end_stream(&inner) {
                Body::new(inner)
            } else {
                Body::new(Deadline {
                    inner,
                    deadline,
                    sleep: None,
                })
            }
        });
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let response = tower::Service::call(&mut self.app, request);
        Box::pin(async move {
            let Ok(response) = response.await;
            Ok(response.map(|inner| {
                Body::new(Guarded {
                    inner,
                    _guard: in_flight,
                })
            }))
        })
    }
}

/// Errors of one connection's accept that say nothing about the listener.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// Serves `app` on `listener` within `limits` until `shutdown`, then lets the requests in
/// progress finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // Our own timer bounds request heads; hyper's would also cut keep-alive at that limit.
    builder.http1().header_read_timeout(None);
    let builder = Arc::new(builder);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::error!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Without TCP_NODELAY small responses wait on delayed ACKs (~40 ms each).
        let _ = tcp.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let service = PerConnection {
            app: app.clone(),
            peer,
            activity: activity.clone(),
            body_timeout: limits.body,
        };
        let io = TokioIo::new(Watched {
            tcp,
            activity: activity.clone(),
        });
        let builder = builder.clone();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let connection = builder
                .serve_connection(io, hyper_util::service::TowerToHyperService::new(service));
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = activity.expired(&limits) => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    tokio::select! {
                        _ = connection.as_mut() => {}
                        () = activity.expired(&limits) => {}
                    }
                }
            }
            drop(slot);
        });
    }
    let _ = stop.send(true);
    service_common::draining::begin();
    // Every connection holds a slot until it is closed.
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
    Ok(())
}
