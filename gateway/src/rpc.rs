//! The gRPC-web entry point: decides, per method, who may call it, then forwards the call
//! unchanged to the service that owns it, with a service token naming the signed-in user.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::ConnectInfo;
use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue, Request, Response};
use logistics_proto::v1::RateLimit;
use service_auth::access::{Audience, Rule, rule};
use service_auth::{CALL_TOKEN_LIFETIME, Permission, TokenKey};
use service_common::grpc_guard::GrpcGuardLayer;
use tonic::body::Body;
use tower::{Layer, ServiceExt};

use crate::access;
use crate::limits;
use crate::session::{self, Session};
use crate::tracking_access;
use crate::upstream::Upstream;

/// Path prefixes of the services the gateway routes or checks by name.
pub const SHIPMENT_SERVICE: &str = "/logistics.v1.ShipmentService/";
pub const AUTH_SERVICE: &str = "/logistics.v1.AuthService/";
pub const SESSION_SERVICE: &str = "/logistics.v1.SessionService/";
pub const NOTIFICATION_SERVICE: &str = "/logistics.v1.NotificationService/";
pub const WEBHOOK_SERVICE: &str = "/logistics.v1.WebhookService/";
pub const CUSTOMER_WEBHOOK_SERVICE: &str = "/logistics.v1.CustomerWebhookService/";
pub const PREFERENCE_SERVICE: &str = "/logistics.v1.PreferenceService/";
pub const API_KEY_SERVICE: &str = "/logistics.v1.ApiKeyService/";
const CHANGE_PASSWORD: &str = "/logistics.v1.AuthService/ChangePassword";
const REVOKE_API_KEY: &str = "/logistics.v1.ApiKeyService/RevokeApiKey";

pub const TOO_MANY_LOOKUPS: &str =
    "Too many tracking lookups from your network. Please wait a minute and try again.";
pub const TOO_MANY_MESSAGES: &str = "Too many messages from your network. Please try again later.";
pub const TOO_MANY_VERIFICATIONS: &str =
    "Too many attempts from your network. Please try again in an hour.";
pub const TOO_MANY_QUOTES: &str =
    "Too many quotes from your network. Please wait a minute and try again.";
pub const TOO_MANY_SUBSCRIPTIONS: &str =
    "Too many subscriptions from your network. Please try again later.";

/// Who may call the method at `path` from a browser: its access option in the proto; nobody
/// for a method marked internal or one the proto does not declare.
fn audience(path: &str) -> Option<Audience> {
    reachable(path).map(|rule| rule.audience)
}

/// The rule of a method the gateway lets anyone reach at all.
fn reachable(path: &str) -> Option<Rule> {
    rule(path).filter(|rule| !rule.internal)
}

/// The anonymous calls that come in volume and say little in a log: tracking lookups and
/// instant quotes (`LOG_PUBLIC_REQUESTS` decides which of them get a line).
pub fn is_quiet_public_call(path: &str) -> bool {
    matches!(
        audience(path),
        Some(Audience::PublicLookup | Audience::Public(RateLimit::Quote))
    )
}

pub struct RpcGateway {
    pub shipments: Upstream,
    pub auth: Upstream,
    pub notifications: Upstream,
    pub preferences: Upstream,
    /// The gateway's own SessionService server.
    pub session_api: Upstream,
    pub access: access::Access,
    pub tokens: TokenKey,
    pub tracking_limit: Arc<limits::RateLimit>,
    pub contact_limit: Arc<limits::RateLimit>,
    pub verify_limit: Arc<limits::RateLimit>,
    pub subscribe_limit: Arc<limits::RateLimit>,
    pub quote_limit: Arc<limits::RateLimit>,
    pub proxies: TrustedProxies,
    /// Checks and reads a call's body; applied after the caller was admitted from the headers.
    pub guard: GrpcGuardLayer,
    /// The answers kept for the JSON API's `Idempotency-Key`s.
    pub idempotency: crate::idempotency::Idempotency,
    /// The live pages open on this gateway.
    pub watchers: crate::watchers::Watchers,
}

/// How many reverse proxies in front of the gateway append to `X-Forwarded-For`; the
/// entries they wrote are the rightmost ones, anything further left the client could forge.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrustedProxies {
    pub hops: usize,
    /// Mark the session cookie `Secure` whatever the proxies say.
    pub secure_cookie: bool,
}

impl TrustedProxies {
    /// The client's IP: with N trusted hops, the Nth `X-Forwarded-For` entry from the right
    /// (the address the outermost trusted proxy saw); otherwise the socket's peer.
    pub fn client_ip(&self, headers: &HeaderMap, extensions: &http::Extensions) -> Option<IpAddr> {
        let peer = || {
            extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip().to_canonical())
        };
        if self.hops == 0 {
            return peer();
        }
        let entries: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let Some(index) = entries.len().checked_sub(1) else {
            return peer();
        };
        // Fewer entries than hops: the request skipped an outer proxy; the leftmost is the
        // farthest address known.
        let index = index.saturating_sub(self.hops - 1);
        entries[index]
            .parse::<IpAddr>()
            .ok()
            .map(|ip| ip.to_canonical())
            .or_else(peer)
    }

    /// The key every per-client rate limit counts under: the client's network (see
    /// `network_key`), "" when the address is unknown.
    pub fn client_key(&self, headers: &HeaderMap, extensions: &http::Extensions) -> String {
        self.client_ip(headers, extensions)
            .map(network_key)
            .unwrap_or_default()
    }

    /// Whether a cookie set for this request should be `Secure`: configured, or the trusted
    /// proxy in front says it served HTTPS.
    pub fn secure(&self, headers: &HeaderMap) -> bool {
        self.secure_cookie
            || (self.hops > 0
                && headers
                    .get("x-forwarded-proto")
                    .is_some_and(|p| p == "https"))
    }
}

/// The network one client holds: an IPv4 address as it is (an IPv4-mapped IPv6 address as
/// its IPv4 address), an IPv6 address as its /64, which a single subscriber is usually given
/// whole.
pub fn network_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
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

/// What only the gateway may tell a service: the client's own cookies, token and claimed
/// address never pass.
fn strip_client_credentials(headers: &mut HeaderMap) {
    for name in [
        "cookie",
        "authorization",
        "x-forwarded-for",
        audit::CLIENT_IP_METADATA,
        tracking_access::ACCESS_METADATA,
    ] {
        headers.remove(name);
    }
}

/// Tells the service where the call came from, for its audit log (the request id is on the
/// request already, set or checked by the gateway's first layer).
fn name_the_client(headers: &mut HeaderMap, client_ip: Option<IpAddr>) {
    if let Some(ip) = client_ip {
        headers.insert(
            audit::CLIENT_IP_METADATA,
            HeaderValue::from_str(&ip.to_string()).expect("an IP address is ASCII"),
        );
    }
}

fn refuse(status: tonic::Status) -> Result<Response<Body>, Infallible> {
    Ok(status.into_http())
}

impl RpcGateway {
    fn upstream_of(&self, path: &str) -> &Upstream {
        // The audit log is served beside the shipments, the webhooks beside the e-mail.
        if path.starts_with(AUTH_SERVICE) || path.starts_with(API_KEY_SERVICE) {
            &self.auth
        } else if [
            NOTIFICATION_SERVICE,
            WEBHOOK_SERVICE,
            CUSTOMER_WEBHOOK_SERVICE,
        ]
        .iter()
        .any(|service| path.starts_with(service))
        {
            &self.notifications
        } else if path.starts_with(PREFERENCE_SERVICE) {
            &self.preferences
        } else {
            &self.shipments
        }
    }

    /// A call; a watcher (a live page) only within its client's and this gateway's share,
    /// its place held until its stream ends.
    async fn handle(self: Arc<Self>, request: Request<Body>) -> Result<Response<Body>, Infallible> {
        if !reachable(request.uri().path()).is_some_and(|rule| rule.watch) {
            return self.dispatch(request).await;
        }
        let client = self
            .proxies
            .client_key(request.headers(), request.extensions());
        let slot = match self.watchers.admit(&client) {
            Ok(slot) => slot,
            Err(message) => return refuse(tonic::Status::resource_exhausted(message)),
        };
        let Ok(response) = self.dispatch(request).await;
        Ok(crate::watchers::holding(response, slot))
    }

    async fn dispatch(
        self: Arc<Self>,
        mut request: Request<Body>,
    ) -> Result<Response<Body>, Infallible> {
        let path = request.uri().path().to_owned();
        let rule = reachable(&path);
        let audience = rule.map(|rule| rule.audience);
        // A call with a key of its own is no page's: another site's page cannot send one.
        if !matches!(audience, Some(Audience::PublicLookup))
            && !crate::api_keys::carries_key(request.headers())
            && !same_origin(request.headers())
        {
            tracing::warn!(%path, "cross-site call refused");
            return refuse(tonic::Status::permission_denied(
                "Cross-site requests are not allowed.",
            ));
        }
        let caller = match audience {
            // Open to anyone without a token: only for the gateway's own sign-in.
            None | Some(Audience::Anyone) => {
                return refuse(tonic::Status::permission_denied(
                    "This method is not available from a browser.",
                ));
            }
            Some(Audience::Sessions) => return self.forward(&self.session_api, request).await,
            Some(audience @ (Audience::PublicLookup | Audience::Public(_))) => {
                let key = self
                    .proxies
                    .client_key(request.headers(), request.extensions());
                let (limit, message) = match audience {
                    Audience::Public(RateLimit::Contact) => {
                        (&self.contact_limit, TOO_MANY_MESSAGES)
                    }
                    Audience::Public(RateLimit::Verify) => {
                        (&self.verify_limit, TOO_MANY_VERIFICATIONS)
                    }
                    Audience::Public(RateLimit::Subscribe) => {
                        (&self.subscribe_limit, TOO_MANY_SUBSCRIPTIONS)
                    }
                    Audience::Public(RateLimit::Quote) => (&self.quote_limit, TOO_MANY_QUOTES),
                    _ => (&self.tracking_limit, TOO_MANY_LOOKUPS),
                };
                // Fails open: a rate-limit store outage must not take the public site down.
                if !limit.hit(&key).await.unwrap_or(true) {
                    return refuse(tonic::Status::resource_exhausted(message));
                }
                if matches!(audience, Audience::PublicLookup) {
                    return Ok(self.lookup(request).await);
                }
                None
            }
            Some(
                audience @ (Audience::SignedIn | Audience::Staff(_) | Audience::Customer { .. }),
            ) => {
                let key_scope = rule.and_then(|rule| rule.key_scope);
                match self
                    .access
                    .admit(request.headers(), audience, key_scope)
                    .await
                {
                    Ok(admitted) => Some(admitted),
                    Err(status) => return refuse(status),
                }
            }
        };
        let secure = self.proxies.secure(request.headers());
        let client_ip = self
            .proxies
            .client_ip(request.headers(), request.extensions());
        let headers = request.headers_mut();
        strip_client_credentials(headers);
        name_the_client(headers, client_ip);
        let Some(admitted) = caller else {
            let mut response = self.forward(self.upstream_of(&path), request).await?;
            Self::keep_grant(&mut response, secure);
            return Ok(response);
        };
        let token = self.tokens.mint(&admitted.caller(), CALL_TOKEN_LIFETIME);
        headers.insert(
            "authorization",
            HeaderValue::from_str(&format!("Bearer {token}")).expect("a JWT is ASCII"),
        );
        let request =
            match crate::staff_users::settle(&path, request, &self.guard, &self.access).await {
                Ok(request) => request,
                Err(refusal) => return Ok(refusal),
            };
        let response = self.forward(self.upstream_of(&path), request).await?;
        // A change of users through this gateway shows at once here (elsewhere within
        // RECHECK_AFTER).
        if path.starts_with(AUTH_SERVICE) && !crate::upstream::is_idempotent(&path) {
            self.access.forget_users();
        }
        if path == REVOKE_API_KEY {
            self.access.forget_keys();
        }
        if let (CHANGE_PASSWORD, access::Admitted::Session(session, _)) = (path.as_str(), admitted)
        {
            return Ok(self.keep_signed_in(session, secure, response).await);
        }
        Ok(response)
    }

    /// Sends an admitted call on: its body is checked and read only now. A unary call to a
    /// service in this process goes straight to its handler.
    async fn forward(
        &self,
        upstream: &Upstream,
        request: Request<Body>,
    ) -> Result<Response<Body>, Infallible> {
        let Some(server) = upstream
            .in_process()
            .filter(|server| server.serves(request.uri().path()))
        else {
            return self.guard.layer(upstream.clone()).oneshot(request).await;
        };
        let checked = match self.guard.read(request).await {
            Ok(checked) => checked,
            Err(refusal) => return Ok(refusal),
        };
        match checked.into_message() {
            Ok(message) => Ok(service_common::telemetry::in_process(server, message).await),
            Err(checked) => upstream.clone().oneshot(checked.into_request()).await,
        }
    }

    /// The public lookup: staff are named to the service (they see everything) and the
    /// browser's full-view grants go along; a new grant comes back as a cookie.
    async fn lookup(&self, mut request: Request<Body>) -> Response<Body> {
        let cookies = request
            .headers()
            .get("cookie")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let secure = self.proxies.secure(request.headers());
        let staff = match session::id_from_cookies(cookies.as_deref()) {
            // A session store outage must not stop the lookup: the visitor's view it is.
            Some(id) => match self.access.signed_in(Some(id)).await {
                Ok(Some((_, user))) if user.may(Permission::ShipmentsRead) => Some(user),
                _ => None,
            },
            None => None,
        };
        let headers = request.headers_mut();
        strip_client_credentials(headers);
        tracking_access::forward(
            headers,
            tracking_access::grants_from_cookies(cookies.as_deref()),
        );
        if let Some(user) = staff {
            let token = self.tokens.mint(&user.caller(), CALL_TOKEN_LIFETIME);
            headers.insert(
                "authorization",
                HeaderValue::from_str(&format!("Bearer {token}")).expect("a JWT is ASCII"),
            );
        }
        let Ok(mut response) = self.forward(&self.shipments, request).await;
        Self::keep_grant(&mut response, secure);
        response
    }

    fn keep_grant(response: &mut Response<Body>, secure: bool) {
        if let Some(cookie) = tracking_access::grant_cookie(response.headers_mut(), secure) {
            response.headers_mut().append(
                http::header::SET_COOKIE,
                HeaderValue::from_str(&cookie).expect("checked to be cookie-safe"),
            );
        }
    }

    /// After the user changed their password, their other sessions end; this one goes on
    /// under a new id, so whoever held the old id is signed out too.
    async fn keep_signed_in(
        &self,
        session: Session,
        secure: bool,
        mut response: Response<Body>,
    ) -> Response<Body> {
        let version = match self.access.fetch(&session).await {
            Ok(Some(user)) if user.session_version != session.session_version => {
                user.session_version
            }
            // Unchanged (the change was refused) or unknown: nothing to carry over.
            _ => return response,
        };
        let renewed = session.rotated(version);
        let sessions = &self.access.sessions;
        let saved = async {
            sessions.create(&renewed).await?;
            sessions.delete(&session.id).await
        };
        match saved.await {
            Ok(()) => {
                let cookie = session::set_cookie(&renewed, &sessions.lifetime, secure);
                response.headers_mut().append(
                    http::header::SET_COOKIE,
                    HeaderValue::from_str(&cookie).expect("cookies are ASCII"),
                );
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not renew the session after a password change")
            }
        }
        response
    }
}

/// The gateway as a tower service: one shared `RpcGateway`, so a call clones a pointer, not
/// the gateway's upstreams, limits and caches.
#[derive(Clone)]
pub struct RpcService(pub Arc<RpcGateway>);

impl std::ops::Deref for RpcService {
    type Target = RpcGateway;
    fn deref(&self) -> &RpcGateway {
        &self.0
    }
}

impl tower::Service<Request<Body>> for RpcService {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        Box::pin(self.0.clone().handle(request))
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
