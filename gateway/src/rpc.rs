//! The gRPC-web entry point: decides, per method, who may call it, then forwards the call
//! unchanged to the service that owns it, with a service token naming the signed-in user.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::ConnectInfo;
use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue, Request, Response};
use logistics_proto::v1 as pb;
use service_auth::{CALL_TOKEN_LIFETIME, Caller, TokenKey};
use tonic::body::Body;
use tower::ServiceExt;

use crate::limits::RateLimit;
use crate::session::{self, SessionStore};
use crate::upstream::Upstream;

/// Path prefixes of the services a browser may reach.
pub const SHIPMENT_SERVICE: &str = "/logistics.v1.ShipmentService/";
pub const AUTH_SERVICE: &str = "/logistics.v1.AuthService/";
pub const SESSION_SERVICE: &str = "/logistics.v1.SessionService/";
pub const NOTIFICATION_SERVICE: &str = "/logistics.v1.NotificationService/";
pub const PREFERENCE_SERVICE: &str = "/logistics.v1.PreferenceService/";
const SET_USER_DISABLED: &str = "/logistics.v1.AuthService/SetUserDisabled";

pub const TOO_MANY_LOOKUPS: &str =
    "Too many tracking lookups from your network. Please wait a minute and try again.";
pub const TOO_MANY_MESSAGES: &str = "Too many messages from your network. Please try again later.";

/// Who may call one method from a browser.
enum Access {
    /// Anyone, within the client's tracking rate limit.
    PublicLookup,
    /// Anyone from this site, within the client's contact-message rate limit.
    PublicContact,
    /// Anyone from this site: the gateway's own sign-in service.
    Sessions,
    /// A signed-in user of any role.
    SignedIn,
    /// A signed-in admin.
    Admin,
    /// Nobody through the gateway.
    Nobody,
}

fn access(path: &str) -> Access {
    match path {
        "/logistics.v1.ShipmentService/GetShipmentByTrackingNumber" => Access::PublicLookup,
        "/logistics.v1.AuthService/ChangePassword" => Access::SignedIn,
        p if p.starts_with(PREFERENCE_SERVICE) => Access::SignedIn,
        "/logistics.v1.AuthService/SignIn" => Access::Nobody,
        "/logistics.v1.NotificationService/SendContactMessage" => Access::PublicContact,
        p if p.starts_with(SESSION_SERVICE) => Access::Sessions,
        p if p.starts_with(SHIPMENT_SERVICE)
            || p.starts_with(AUTH_SERVICE)
            || p.starts_with(NOTIFICATION_SERVICE) =>
        {
            Access::Admin
        }
        _ => Access::Nobody,
    }
}

#[derive(Clone)]
pub struct RpcGateway {
    pub shipments: Upstream,
    pub auth: Upstream,
    pub notifications: Upstream,
    pub preferences: Upstream,
    /// The gateway's own SessionService server.
    pub session_api: Upstream,
    pub sessions: SessionStore,
    pub tokens: TokenKey,
    pub tracking_limit: Arc<RateLimit>,
    pub contact_limit: Arc<RateLimit>,
    /// Trust the first `X-Forwarded-For` address (only behind a proxy that sets it).
    pub trust_forwarded_for: bool,
}

/// The client's IP: the socket's peer, or the proxy's `X-Forwarded-For` when trusted.
pub fn client_ip(
    headers: &HeaderMap,
    extensions: &http::Extensions,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    let forwarded = || {
        headers
            .get("x-forwarded-for")?
            .to_str()
            .ok()?
            .split(',')
            .next()?
            .trim()
            .parse()
            .ok()
    };
    trust_forwarded_for.then(forwarded).flatten().or_else(|| {
        extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
    })
}

/// Refuses calls a page of another site made: its `Origin` must be this host.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get("origin").and_then(|v| v.to_str().ok()) else {
        // Browsers send Origin with every POST; a call without one is not from a page.
        return true;
    };
    let host = headers.get("host").and_then(|v| v.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

fn refuse(status: tonic::Status) -> Result<Response<Body>, Infallible> {
    Ok(status.into_http())
}

impl RpcGateway {
    fn upstream_of(&self, path: &str) -> &Upstream {
        if path.starts_with(AUTH_SERVICE) {
            &self.auth
        } else if path.starts_with(NOTIFICATION_SERVICE) {
            &self.notifications
        } else if path.starts_with(PREFERENCE_SERVICE) {
            &self.preferences
        } else {
            &self.shipments
        }
    }

    async fn handle(self, mut request: Request<Body>) -> Result<Response<Body>, Infallible> {
        let path = request.uri().path().to_owned();
        let access = access(&path);
        if !matches!(access, Access::PublicLookup) && !same_origin(request.headers()) {
            tracing::warn!(%path, "cross-site call refused");
            return refuse(tonic::Status::permission_denied(
                "Cross-site requests are not allowed.",
            ));
        }
        let caller = match access {
            Access::Nobody => {
                return refuse(tonic::Status::permission_denied(
                    "This method is not available from a browser.",
                ));
            }
            Access::Sessions => return self.session_api.oneshot(request).await,
            Access::PublicLookup | Access::PublicContact => {
                let ip = client_ip(
                    request.headers(),
                    request.extensions(),
                    self.trust_forwarded_for,
                );
                let key = ip.map(|ip| ip.to_string()).unwrap_or_default();
                let (limit, message) = match access {
                    Access::PublicLookup => (&self.tracking_limit, TOO_MANY_LOOKUPS),
                    _ => (&self.contact_limit, TOO_MANY_MESSAGES),
                };
                // Fails open: a rate-limit store outage must not take the public site down.
                if !limit.hit(&key).await.unwrap_or(true) {
                    return refuse(tonic::Status::resource_exhausted(message));
                }
                None
            }
            Access::SignedIn | Access::Admin => {
                let id = session::id_from_cookies(
                    request
                        .headers()
                        .get("cookie")
                        .and_then(|v| v.to_str().ok()),
                )
                .map(str::to_owned);
                let session = match id {
                    Some(id) => match self.sessions.get(&id).await {
                        Ok(session) => session,
                        Err(e) => {
                            tracing::warn!(error = %e, "session store unavailable");
                            return refuse(tonic::Status::unavailable(
                                "Sign-in is unavailable right now. Please try again shortly.",
                            ));
                        }
                    },
                    None => None,
                };
                let Some(session) = session else {
                    return refuse(tonic::Status::unauthenticated("Please sign in."));
                };
                if matches!(access, Access::Admin) && session.role != Caller::ADMIN {
                    return refuse(tonic::Status::permission_denied(
                        "Only an admin may do this.",
                    ));
                }
                Some(Caller {
                    sub: session.user_id,
                    email: session.email,
                    role: session.role,
                })
            }
        };
        let headers = request.headers_mut();
        for name in ["cookie", "authorization", "x-forwarded-for"] {
            headers.remove(name);
        }
        if let Some(caller) = caller {
            let token = self.tokens.mint(&caller, CALL_TOKEN_LIFETIME);
            headers.insert(
                "authorization",
                HeaderValue::from_str(&format!("Bearer {token}")).expect("a JWT is ASCII"),
            );
        }
        if path == SET_USER_DISABLED {
            return self.set_user_disabled(request).await;
        }
        self.upstream_of(&path).clone().oneshot(request).await
    }

    /// Forwards SetUserDisabled; once a user is disabled, ends all their sessions, so they are
    /// signed out everywhere at once rather than when their sessions expire.
    async fn set_user_disabled(self, request: Request<Body>) -> Result<Response<Body>, Infallible> {
        use http_body_util::BodyExt;
        use prost::Message;
        let (parts, body) = request.into_parts();
        let Ok(bytes) = body.collect().await.map(|c| c.to_bytes()) else {
            return refuse(tonic::Status::invalid_argument(
                "The request could not be read.",
            ));
        };
        // One gRPC frame: flag, 4-byte length, then the message.
        let change = bytes
            .get(5..)
            .and_then(|m| pb::SetUserDisabledRequest::decode(m).ok());
        let request = Request::from_parts(parts, Body::new(http_body_util::Full::new(bytes)));
        let response = self.auth.clone().oneshot(request).await?;
        // Unary errors come back trailers-only, with grpc-status among the headers.
        let failed = response
            .headers()
            .get("grpc-status")
            .is_some_and(|s| s != "0");
        if let Some(change) = change.filter(|c| c.disabled && !failed) {
            match self.sessions.end_all_of(&change.id).await {
                Ok(ended) => {
                    tracing::info!(user = %change.id, ended, "disabled user signed out everywhere")
                }
                Err(e) => {
                    tracing::error!(user = %change.id, error = %e, "could not end a disabled user's sessions")
                }
            }
        }
        Ok(response)
    }
}

impl tower::Service<Request<Body>> for RpcGateway {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        Box::pin(self.clone().handle(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    HeaderValue::from_static(v),
                )
            })
            .collect()
    }

    #[test]
    fn only_this_sites_pages_pass_the_origin_check() {
        assert!(same_origin(&headers(&[
            ("host", "shop.example:8080"),
            ("origin", "http://shop.example:8080")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "shop.example:8080"),
            ("origin", "https://evil.example")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "shop.example"),
            ("origin", "null")
        ])));
        assert!(same_origin(&headers(&[("host", "shop.example")])));
    }
}
