//! How the gateway reaches a service: in process (all-in-one) or over gRPC (distributed).
//! Either way it is one tower service that never fails: transport errors become UNAVAILABLE.

use std::convert::Infallible;
use std::time::Duration;

use http::{Request, Response};
use http_body_util::BodyExt;
use tonic::body::Body;
use tonic::transport::{Channel, Endpoint};
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;

pub type Upstream = BoxCloneSyncService<Request<Body>, Response<Body>, Infallible>;

/// How long the gateway waits for a service's connection before answering UNAVAILABLE.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);
/// Longest any forwarded call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Reads are tried this many times while a service cannot be reached, waiting 100 ms, then 200 ms.
const READ_ATTEMPTS: u32 = 3;
const READ_BACKOFF: Duration = Duration::from_millis(100);

/// Get and List methods change nothing, so sending one twice is harmless.
pub(crate) fn is_idempotent(path: &str) -> bool {
    let method = path.rsplit('/').next().unwrap_or_default();
    method.starts_with("Get") || method.starts_with("List")
}

/// A service hosted in this process (its generated server), called without a socket but
/// observed as a remote one is: a span per call, continuing the gateway's trace, and metrics.
pub fn in_process<S>(server: S) -> Upstream
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    with_trace_context(tower::Layer::layer(
        &service_common::telemetry::RpcTelemetryLayer,
        server,
    ))
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
    BoxCloneSyncService::new(service.map_request(|mut request: Request<Body>| {
        service_common::telemetry::inject_trace_context(request.headers_mut());
        request
    }))
}

/// A service at `url` (for example `http://shipments:50051`), connected lazily.
pub fn remote(name: &'static str, url: &str) -> anyhow::Result<Upstream> {
    let channel: Channel = Endpoint::from_shared(url.to_owned())?
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(CALL_TIMEOUT)
        .connect_lazy();
    Ok(with_trace_context(Remote { name, channel }))
}

/// A channel whose transport errors (readiness included) become UNAVAILABLE responses.
#[derive(Clone)]
struct Remote {
    name: &'static str,
    channel: Channel,
}

impl tower::Service<Request<Body>> for Remote {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(
        &mut self,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let (name, channel) = (self.name, self.channel.clone());
        Box::pin(async move {
            let unavailable = |error: &dyn std::fmt::Display| {
                tracing::warn!(service = name, %error, "service unreachable");
                tonic::Status::unavailable("The service is unavailable. Please try again shortly.")
                    .into_http()
            };
            if !is_idempotent(request.uri().path()) {
                return Ok(channel
                    .oneshot(request)
                    .await
                    .unwrap_or_else(|e| unavailable(&e)));
            }
            // Reads can be sent again: buffer the (small, size-limited) body and retry with
            // backoff while the service cannot be reached (a restarting pod, a new connection).
            let (parts, body) = request.into_parts();
            let body = match body.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(e) => return Ok(unavailable(&e)),
            };
            let mut attempt = 0;
            loop {
                let mut retry = Request::new(Body::new(http_body_util::Full::new(body.clone())));
                *retry.method_mut() = parts.method.clone();
                *retry.uri_mut() = parts.uri.clone();
                *retry.version_mut() = parts.version;
                *retry.headers_mut() = parts.headers.clone();
                match channel.clone().oneshot(retry).await {
                    Ok(response) => return Ok(response),
                    Err(e) if attempt + 1 >= READ_ATTEMPTS => return Ok(unavailable(&e)),
                    Err(e) => {
                        tracing::debug!(service = name, error = %e, attempt, "retrying a read");
                        tokio::time::sleep(READ_BACKOFF * 2u32.pow(attempt)).await;
                        attempt += 1;
                    }
                }
            }
        })
    }
}
