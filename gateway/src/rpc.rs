//! The gRPC-web entry point: decides, per method, whether a browser may call it, then
//! forwards the call unchanged to the service that owns it.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::ConnectInfo;
use futures::future::BoxFuture;
use http::{HeaderMap, Request, Response};
use tonic::body::Body;
use tower::ServiceExt;

use crate::rate_limit::RateLimiter;
use crate::upstream::Upstream;

/// The path prefix of the shipment service's methods.
pub const SHIPMENT_SERVICE: &str = "/logistics.v1.ShipmentService/";
const TRACKING_LOOKUP: &str = "/logistics.v1.ShipmentService/GetShipmentByTrackingNumber";

pub const TOO_MANY_LOOKUPS: &str = "Too many tracking lookups from your network. Please wait a minute and try again.";

/// What a browser may do with one method.
enum Access {
    /// Anyone, within the client's rate limit.
    PublicRateLimited,
    /// Only a signed-in admin; sign-in does not exist yet, so nobody.
    AdminOnly,
}

fn access(path: &str) -> Access {
    if path == TRACKING_LOOKUP { Access::PublicRateLimited } else { Access::AdminOnly }
}

#[derive(Clone)]
pub struct RpcGateway {
    pub shipments: Upstream,
    pub tracking_limiter: Arc<dyn RateLimiter>,
    /// Trust the first `X-Forwarded-For` address (only behind a proxy that sets it).
    pub trust_forwarded_for: bool,
}

impl RpcGateway {
    fn client_ip(&self, request: &Request<Body>) -> Option<IpAddr> {
        if self.trust_forwarded_for {
            let forwarded = forwarded_for(request.headers());
            if forwarded.is_some() {
                return forwarded;
            }
        }
        request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())
    }
}

fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    headers.get("x-forwarded-for")?.to_str().ok()?.split(',').next()?.trim().parse().ok()
}

/// Browser credentials never travel to a service.
fn strip_browser_headers(headers: &mut HeaderMap) {
    for name in ["cookie", "authorization", "x-forwarded-for"] {
        headers.remove(name);
    }
}

impl tower::Service<Request<Body>> for RpcGateway {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        let gateway = self.clone();
        Box::pin(async move {
            match access(request.uri().path()) {
                Access::AdminOnly => {
                    return Ok(tonic::Status::permission_denied("Only a signed-in admin may do this.").into_http());
                }
                Access::PublicRateLimited => {
                    let allowed = gateway.client_ip(&request).is_none_or(|ip| gateway.tracking_limiter.allow(ip));
                    if !allowed {
                        return Ok(tonic::Status::resource_exhausted(TOO_MANY_LOOKUPS).into_http());
                    }
                }
            }
            strip_browser_headers(request.headers_mut());
            gateway.shipments.oneshot(request).await
        })
    }
}
