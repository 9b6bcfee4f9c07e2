//! Who may call each method, as its `(logistics.v1.access)` option in the proto says, and the
//! one layer in front of every service that enforces it: it verifies the service token, checks
//! the permission and puts the caller in the request's extensions for the handler.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll};

use http::{HeaderMap, Request, Response};
use logistics_proto::v1::{
    Access, CustomerAccess, CustomerScope, Permission, RateLimit, access::Audience as Pb,
};
use prost_types::method_options::IdempotencyLevel;
use tonic::Status;
use tonic::body::Body;
use tonic::server::NamedService;

use crate::{Caller, NOT_PERMITTED, TokenKey};

/// Who may call one method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Anyone, from any page, within the client's tracking rate limit; staff and verified
    /// parties see more.
    PublicLookup,
    /// Anyone from this site, within one of the client's rate limits.
    Public(RateLimit),
    /// Anyone from this site: the gateway's own sign-in service.
    Sessions,
    /// A signed-in user of any role.
    SignedIn,
    /// A signed-in user holding this permission.
    Staff(Permission),
    /// Anyone who reaches the service, without a token.
    Anyone,
    /// A user of a customer (the token names it); with `admin`, its customer admins only.
    Customer { admin: bool },
}

/// One method's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub audience: Audience,
    /// Refused by the gateway: only the gateway itself and the project's tools call it.
    pub internal: bool,
    /// Sending it twice does no harm (`idempotency_level` NO_SIDE_EFFECTS or IDEMPOTENT).
    pub idempotent: bool,
    /// What an API key must hold to call it: a staff method's permission, or a portal
    /// method's declared scope; None when no key may call it.
    pub key_scope: Option<KeyScope>,
    /// A long-lived stream following changes (`watch` in the proto): no call timeout, bounded
    /// in number per client and per gateway instead.
    pub watch: bool,
}

/// The scope an API key needs for one method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyScope {
    Staff(Permission),
    Customer(CustomerScope),
}

impl KeyScope {
    /// Its name among a key's scopes (`shipments.read`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Staff(permission) => permission.as_str(),
            Self::Customer(scope) => scope.as_str(),
        }
    }
}

/// Every `logistics.v1` method's rule by its gRPC path (`/logistics.v1.ShipmentService/GetShipment`).
static RULES: LazyLock<HashMap<String, Rule>> = LazyLock::new(|| {
    let (rules, missing) = read_rules();
    assert!(
        missing.is_empty(),
        "methods without an access option: {missing:?}"
    );
    rules
});

/// The rules the descriptor set gives, and the paths of the methods without the option.
fn read_rules() -> (HashMap<String, Rule>, Vec<String>) {
    let pool = prost_reflect::DescriptorPool::decode(logistics_proto::FILE_DESCRIPTOR_SET)
        .expect("the build wrote a valid descriptor set");
    let extension = pool
        .get_extension_by_name("logistics.v1.access")
        .expect("access.proto declares the option");
    let mut rules = HashMap::new();
    let mut missing = Vec::new();
    for service in pool.services() {
        for method in service.methods() {
            let path = format!("/{}/{}", service.full_name(), method.name());
            let options = method.options();
            let audience = options
                .has_extension(&extension)
                .then(|| options.get_extension(&extension))
                .and_then(|value| value.as_message()?.transcode_to::<Access>().ok())
                .and_then(|access| {
                    let scope = CustomerScope::try_from(access.key_scope)
                        .ok()
                        .filter(|scope| *scope != CustomerScope::Unspecified);
                    Some((
                        audience(access.audience?)?,
                        access.internal,
                        scope,
                        access.watch,
                    ))
                });
            let Some((audience, internal, customer_scope, watch)) = audience else {
                missing.push(path);
                continue;
            };
            let level = options
                .get_field_by_name("idempotency_level")
                .and_then(|value| value.as_enum_number());
            let idempotent = level.is_some_and(|level| {
                level == IdempotencyLevel::NoSideEffects as i32
                    || level == IdempotencyLevel::Idempotent as i32
            });
            let key_scope = match audience {
                _ if internal => None,
                Audience::Staff(permission) => Some(KeyScope::Staff(permission)),
                Audience::Customer { .. } => customer_scope.map(KeyScope::Customer),
                _ => None,
            };
            rules.insert(
                path,
                Rule {
                    audience,
                    internal,
                    idempotent,
                    key_scope,
                    watch,
                },
            );
        }
    }
    (rules, missing)
}

/// The option's audience; an unspecified permission or limit is no audience at all.
fn audience(audience: Pb) -> Option<Audience> {
    Some(match audience {
        Pb::PublicLookup(true) => Audience::PublicLookup,
        Pb::Public(limit) => match RateLimit::try_from(limit).ok()? {
            RateLimit::Unspecified => return None,
            limit => Audience::Public(limit),
        },
        Pb::Sessions(true) => Audience::Sessions,
        Pb::SignedIn(true) => Audience::SignedIn,
        Pb::Permission(permission) => match Permission::try_from(permission).ok()? {
            Permission::Unspecified => return None,
            permission => Audience::Staff(permission),
        },
        Pb::Anyone(true) => Audience::Anyone,
        Pb::Customer(access) => match CustomerAccess::try_from(access).ok()? {
            CustomerAccess::Unspecified => return None,
            CustomerAccess::AnyUser => Audience::Customer { admin: false },
            CustomerAccess::Admin => Audience::Customer { admin: true },
        },
        _ => return None,
    })
}

/// The rule of the method at `path`; None for a method the proto does not declare.
pub fn rule(path: &str) -> Option<Rule> {
    RULES.get(path).copied()
}

/// The caller the access layer verified for this call; UNAUTHENTICATED when the call came
/// without a valid service token.
pub fn caller<T>(request: &tonic::Request<T>) -> Result<Caller, Status> {
    match request.extensions().get::<Verified>() {
        Some(Verified(Ok(caller))) => Ok(caller.clone()),
        Some(Verified(Err(status))) => Err(status.clone()),
        None => Err(Status::unauthenticated("A service token is required")),
    }
}

/// What the layer found in a call's token: on a public method a bad or missing token is no
/// error, the handler just sees no caller.
#[derive(Clone)]
struct Verified(Result<Caller, Status>);

/// A service behind the access layer: every call is checked against its method's rule.
#[derive(Clone)]
pub struct Enforced<S> {
    inner: S,
    tokens: TokenKey,
}

impl<S> Enforced<S> {
    pub fn new(tokens: TokenKey, inner: S) -> Self {
        Self { inner, tokens }
    }

    /// Applies the method's access rule to a call, over HTTP or in process alike, and hands
    /// the handler the caller it verified.
    fn admit<B>(&self, request: &mut Request<B>) -> Result<(), Status> {
        let verified = admit(&self.tokens, request.uri().path(), request.headers())?;
        if let Some(verified) = verified {
            request.extensions_mut().insert(verified);
        }
        Ok(())
    }
}

impl<S: NamedService> NamedService for Enforced<S> {
    const NAME: &'static str = S::NAME;
}

/// The caller named by `authorization: Bearer <token>`.
fn bearer(tokens: &TokenKey, headers: &HeaderMap) -> Result<Caller, Status> {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .ok_or_else(|| Status::unauthenticated("A service token is required"))?;
    tokens.verify(token)
}

/// Admits a call to the method at `path` or says why not.
fn admit(tokens: &TokenKey, path: &str, headers: &HeaderMap) -> Result<Option<Verified>, Status> {
    // An unknown method goes on to be answered UNIMPLEMENTED.
    let Some(rule) = rule(path) else {
        return Ok(None);
    };
    let verified = bearer(tokens, headers);
    match rule.audience {
        Audience::Staff(permission) => match verified? {
            caller if caller.may(permission) => Ok(Some(Verified(Ok(caller)))),
            _ => Err(Status::permission_denied(NOT_PERMITTED)),
        },
        // Staff never pass: only a customer role with the customer named in its token.
        Audience::Customer { admin } => match verified? {
            caller
                if caller.customer().is_some()
                    && (!admin || caller.role == crate::Role::CustomerAdmin) =>
            {
                Ok(Some(Verified(Ok(caller))))
            }
            _ => Err(Status::permission_denied(NOT_PERMITTED)),
        },
        Audience::SignedIn => Ok(Some(Verified(Ok(verified?)))),
        Audience::PublicLookup | Audience::Public(_) | Audience::Sessions | Audience::Anyone => {
            Ok(Some(Verified(verified)))
        }
    }
}

impl<S> tower_service::Service<Request<Body>> for Enforced<S>
where
    S: tower_service::Service<Request<Body>, Response = Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        match self.admit(&mut request) {
            Ok(()) => Box::pin(self.inner.call(request)),
            Err(status) => Box::pin(std::future::ready(Ok(status.into_http()))),
        }
    }
}

/// A call made in process is admitted as one over HTTP is: the same rule, the same caller.
impl<S: logistics_proto::direct::Unary> logistics_proto::direct::Unary for Enforced<S> {
    fn serves(&self, path: &str) -> bool {
        self.inner.serves(path)
    }

    fn unary(
        &self,
        mut request: Request<tonic::codegen::Bytes>,
    ) -> logistics_proto::direct::UnaryFuture {
        match self.admit(&mut request) {
            Ok(()) => self.inner.unary(request),
            Err(status) => Box::pin(std::future::ready(Err(status))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_declares_who_may_call_it() {
        let (rules, missing) = read_rules();
        assert!(
            missing.is_empty(),
            "methods without an access option: {missing:?}"
        );
        assert!(rules.len() > 50, "every service's methods are read");
        for (path, rule) in &rules {
            assert!(
                rule.audience != Audience::Anyone || rule.internal,
                "{path}: a method open to anyone must not reach browsers"
            );
        }
    }

    #[test]
    fn rules_follow_the_proto() {
        let rule = |path| super::rule(path).unwrap();
        assert_eq!(
            rule("/logistics.v1.ShipmentService/GetShipment"),
            Rule {
                audience: Audience::Staff(Permission::ShipmentsRead),
                internal: false,
                idempotent: true,
                key_scope: Some(KeyScope::Staff(Permission::ShipmentsRead)),
                watch: false,
            }
        );
        assert!(rule("/logistics.v1.ShipmentService/WatchShipment").watch);
        assert_eq!(
            rule("/logistics.v1.CustomerPortalService/CreateShipment").key_scope,
            Some(KeyScope::Customer(CustomerScope::ShipmentsBook))
        );
        // Keys manage no keys, change no password, invite nobody.
        for path in [
            "/logistics.v1.ApiKeyService/CreateApiKey",
            "/logistics.v1.AuthService/ChangePassword",
            "/logistics.v1.CustomerPortalService/CreateUserInvitation",
            "/logistics.v1.AuthService/GetCurrentUser",
        ] {
            assert_eq!(rule(path).key_scope, None, "{path}");
        }
        assert_eq!(
            rule("/logistics.v1.NotificationService/SendContactMessage").audience,
            Audience::Public(RateLimit::Contact)
        );
        assert!(rule("/logistics.v1.AuthService/SignIn").internal);
        assert!(!rule("/logistics.v1.ShipmentService/UpdateShipment").idempotent);
        assert!(super::rule("/logistics.v1.ShipmentService/Nothing").is_none());
    }
}
