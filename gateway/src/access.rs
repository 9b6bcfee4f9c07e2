//! Who a browser's session belongs to, checked against the user as the auth service stores
//! them now: a disabled user, a new role or a new password takes effect within
//! `RECHECK_AFTER`, however the change was made (this gateway, another replica, or a tool
//! calling the auth service or editing its store directly).

use std::time::Duration;

use http::HeaderMap;
use logistics_proto::v1::{
    self as pb, auth_service_client::AuthServiceClient,
    customer_service_client::CustomerServiceClient,
};
use service_auth::access::{Audience, KeyScope};
use service_auth::{CALL_TOKEN_LIFETIME, Caller, NOT_PERMITTED, Permission, Role, TokenKey};
use tonic::{Code, Status};

use crate::api_keys::{self, ApiKeys};
use crate::session::{self, Session, SessionStore};
use crate::upstream::Upstream;

/// How long a user's stored state may be reused before it is asked for again; well inside
/// the 5 s in which a revoked access must end.
pub const RECHECK_AFTER: Duration = Duration::from_secs(2);

const SIGN_IN_UNAVAILABLE: &str = "Sign-in is unavailable right now. Please try again shortly.";

/// The signed-in user as stored now.
#[derive(Clone, Debug, PartialEq)]
pub struct CurrentUser {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    /// What they may do now: the role's permissions, or what an admin narrowed them to.
    pub permissions: Vec<Permission>,
    pub disabled: bool,
    pub session_version: u32,
    /// The customer of a customer's user; None for staff.
    pub customer_id: Option<String>,
}

impl CurrentUser {
    pub fn from_proto(user: pb::User) -> Option<Self> {
        Some(Self {
            role: Role::from_proto(user.role)?,
            permissions: user
                .permissions
                .iter()
                .filter_map(|p| Permission::parse(p))
                .collect(),
            id: user.id,
            email: user.email,
            name: user.name,
            disabled: user.disabled,
            session_version: user.session_version,
            customer_id: Some(user.customer_id).filter(|c| !c.is_empty()),
        })
    }

    pub fn caller(&self) -> Caller {
        Caller {
            sub: self.id.clone(),
            email: self.email.clone(),
            role: self.role,
            permissions: self.permissions.clone(),
            customer_id: self.customer_id.clone(),
            api_key: None,
        }
    }

    pub fn may(&self, permission: Permission) -> bool {
        self.permissions.contains(&permission)
    }

    /// Whether they may call a method for `audience` (one that needs a signed-in user): a
    /// staff method needs its permission, which no customer role holds; a portal method a
    /// customer's user with their customer (and its admin, where it says so).
    pub fn admitted_to(&self, audience: Audience) -> bool {
        match audience {
            Audience::Staff(permission) => self.may(permission),
            Audience::Customer { admin } => {
                self.caller().customer().is_some() && (!admin || self.role == Role::CustomerAdmin)
            }
            _ => true,
        }
    }

    /// Whether `session` still gives access: the user is enabled and has not changed their
    /// password since signing in.
    fn admits(&self, session: &Session) -> bool {
        !self.disabled && self.session_version == session.session_version
    }
}

#[derive(Clone)]
pub struct Access {
    pub sessions: SessionStore,
    auth: Upstream,
    /// Where customers are kept: a suspended customer's users have no access.
    shipments: Upstream,
    tokens: TokenKey,
    users: moka::sync::Cache<String, CurrentUser>,
    keys: ApiKeys,
}

/// Who a call was let through for: a browser's session, or an API key's caller.
pub enum Admitted {
    Session(Session, CurrentUser),
    Key(Caller),
}

impl Admitted {
    /// Who the service token names.
    pub fn caller(&self) -> Caller {
        match self {
            Self::Session(_, user) => user.caller(),
            Self::Key(caller) => caller.clone(),
        }
    }
}

fn unavailable(e: impl std::fmt::Display) -> Status {
    tracing::warn!(error = %e, "sign-in store unavailable");
    Status::unavailable(SIGN_IN_UNAVAILABLE)
}

impl Access {
    pub fn new(
        sessions: SessionStore,
        auth: Upstream,
        shipments: Upstream,
        tokens: TokenKey,
        keys: ApiKeys,
    ) -> Self {
        let users = moka::sync::Cache::builder()
            .max_capacity(100_000)
            .time_to_live(RECHECK_AFTER)
            .build();
        Self {
            sessions,
            auth,
            shipments,
            tokens,
            users,
            keys,
        }
    }

    /// The caller of a call for `audience` (a signed-in one) needing `key_scope` from a key:
    /// the API key it carries, else the session of its cookie; refused as the gRPC status
    /// says when neither admits it.
    pub async fn admit(
        &self,
        headers: &HeaderMap,
        audience: Audience,
        key_scope: Option<KeyScope>,
    ) -> Result<Admitted, Status> {
        if api_keys::carries_key(headers) {
            let secret = api_keys::secret(headers)
                .ok_or_else(|| Status::unauthenticated(api_keys::INVALID_KEY))?;
            let caller = self
                .keys
                .caller(secret, audience, key_scope, async |user| {
                    self.with_customer_state(user).await
                })
                .await?;
            return Ok(Admitted::Key(caller));
        }
        let cookie = headers
            .get(http::header::COOKIE)
            .and_then(|v| v.to_str().ok());
        let Some((session, user)) = self.signed_in(session::id_from_cookies(cookie)).await? else {
            return Err(Status::unauthenticated("Please sign in."));
        };
        if !user.admitted_to(audience) {
            return Err(Status::permission_denied(NOT_PERMITTED));
        }
        Ok(Admitted::Session(session, user))
    }

    /// The live session with id `session_id` and its user as stored now; None when there is
    /// no such session or it has ended (it is then deleted).
    pub async fn signed_in(
        &self,
        session_id: Option<&str>,
    ) -> Result<Option<(Session, CurrentUser)>, Status> {
        let Some(id) = session_id else {
            return Ok(None);
        };
        let Some(session) = self.sessions.get(id).await.map_err(unavailable)? else {
            return Ok(None);
        };
        let user = match self.users.get(&session.user_id) {
            Some(user) => Some(user),
            None => self.fetch(&session).await?,
        };
        match user {
            Some(user) if user.admits(&session) => Ok(Some((session, user))),
            _ => {
                tracing::info!(user = %session.user_id, "session ended: access revoked");
                self.sessions
                    .delete(&session.id)
                    .await
                    .map_err(unavailable)?;
                Ok(None)
            }
        }
    }

    /// Forgets what it knows of every user: after a change made through this gateway, the
    /// next call of each user asks again, so the change shows at once here.
    pub fn forget_users(&self) {
        self.users.invalidate_all();
    }

    /// Forgets what it knows of every API key: a key revoked through this gateway is refused
    /// here at once (elsewhere within RECHECK_AFTER).
    pub fn forget_keys(&self) {
        self.keys.forget();
    }

    /// The user with id `id` as stored now, from the cache within `RECHECK_AFTER`; None
    /// when there is no such user.
    pub async fn user(&self, id: &str) -> Result<Option<CurrentUser>, Status> {
        match self.users.get(id) {
            Some(user) => Ok(Some(user)),
            // Only the id counts: the auth service reads the user it names.
            None => self.fetch_as(id, "", Role::User).await,
        }
    }

    /// The user of `session` as stored now, asked of the auth service (not the cache);
    /// None when the user no longer exists.
    pub async fn fetch(&self, session: &Session) -> Result<Option<CurrentUser>, Status> {
        self.fetch_as(&session.user_id, &session.email, session.role)
            .await
    }

    /// The user with id `id` as stored now, asked of the auth service as that user.
    async fn fetch_as(
        &self,
        id: &str,
        email: &str,
        role: Role,
    ) -> Result<Option<CurrentUser>, Status> {
        // Reading one's own user needs no permission.
        let caller = Caller {
            sub: id.to_owned(),
            email: email.to_owned(),
            role,
            permissions: Vec::new(),
            customer_id: None,
            api_key: None,
        };
        let mut request = tonic::Request::new(pb::GetCurrentUserRequest {});
        let bearer = format!("Bearer {}", self.tokens.mint(&caller, CALL_TOKEN_LIFETIME));
        request
            .metadata_mut()
            .insert("authorization", bearer.parse().expect("a JWT is ASCII"));
        let user = match AuthServiceClient::new(self.auth.clone())
            .get_current_user(request)
            .await
        {
            Ok(reply) => CurrentUser::from_proto(reply.into_inner()),
            Err(status) if status.code() == Code::NotFound => None,
            Err(status) => return Err(unavailable(status.message())),
        };
        let user = match user {
            Some(user) => Some(self.with_customer_state(user).await?),
            None => None,
        };
        if let Some(user) = &user {
            self.users.insert(user.id.clone(), user.clone());
        }
        Ok(user)
    }

    /// The user, disabled while their customer is suspended (or gone): a customer's users
    /// lose access with it, within the same recheck as any other revocation.
    pub async fn with_customer_state(&self, mut user: CurrentUser) -> Result<CurrentUser, Status> {
        if !user.role.is_customer() {
            return Ok(user);
        }
        if user.customer_id.is_none() {
            user.disabled = true;
            return Ok(user);
        }
        let mut request = tonic::Request::new(pb::GetCurrentCustomerRequest {});
        let bearer = format!(
            "Bearer {}",
            self.tokens.mint(&user.caller(), CALL_TOKEN_LIFETIME)
        );
        request
            .metadata_mut()
            .insert("authorization", bearer.parse().expect("a JWT is ASCII"));
        match CustomerServiceClient::new(self.shipments.clone())
            .get_current_customer(request)
            .await
        {
            Ok(reply) => {
                if reply.into_inner().status() != pb::CustomerStatus::Active {
                    user.disabled = true;
                }
            }
            Err(status) if status.code() == Code::NotFound => user.disabled = true,
            Err(status) => return Err(unavailable(status.message())),
        }
        Ok(user)
    }
}
