//! How the gateway reaches a service: in process (all-in-one) or over gRPC (distributed).
//! Either way it is one tower service that never fails: transport errors become UNAVAILABLE.

use std::convert::Infallible;
use std::time::Duration;

use http::{Request, Response};
use tonic::body::Body;
use tonic::transport::{Channel, Endpoint};
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;

pub type Upstream = BoxCloneSyncService<Request<Body>, Response<Body>, Infallible>;

/// How long the gateway waits for a service's connection before answering UNAVAILABLE.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);
/// Longest any forwarded call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// A service hosted in this process (its generated server), called without a socket.
pub fn in_process<S>(server: S) -> Upstream
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    BoxCloneSyncService::new(server)
}

/// A service at `url` (for example `http://shipments:50051`), connected lazily.
pub fn remote(name: &'static str, url: &str) -> anyhow::Result<Upstream> {
    let channel: Channel = Endpoint::from_shared(url.to_owned())?
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(CALL_TIMEOUT)
        .connect_lazy();
    Ok(BoxCloneSyncService::new(Remote { name, channel }))
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
            Ok(channel.oneshot(request).await.unwrap_or_else(|error| {
                tracing::warn!(service = name, %error, "service unreachable");
                tonic::Status::unavailable("The service is unavailable. Please try again shortly.")
                    .into_http()
            }))
        })
    }
}
