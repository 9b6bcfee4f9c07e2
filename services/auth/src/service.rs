//! The `logistics.v1.AuthService` RPC handlers.

use std::sync::Arc;

use audit::{Action, Actor, AuditEntry, AuditLog};
use logistics_proto::v1::{self as pb, auth_service_server::AuthService};
use service_auth::{Permission, TokenKey, invitation};
use service_common::mask::Mask;
use service_common::paging;
use service_common::timestamp;
use tonic::{Request, Response, Status};

use crate::domain::{self, Email, NewPassword, Role, User};
use crate::error::AuthError;
use crate::password;
use crate::store::UserStore;

#[derive(Clone)]
pub struct AuthApi {
    store: Arc<dyn UserStore>,
    /// Where sign-ins and changes of users are recorded.
    audit: Arc<dyn AuditLog>,
    /// Verifies invitation links; None in the tools that only create admins.
    tokens: Option<TokenKey>,
}

/// The fields of a user an audit entry compares: never the password's hash.
const NOT_AUDITED: &[&str] = &["passwordHash", "updatedAt", "createdAt", "sessionVersion"];

/// The paths of a user an update may name.
const UPDATABLE: &[&str] = &["name", "role", "permissions"];

const ROLES: &str = "must be user, courier, agent, manager or admin";

/// A customer's users come only by invitation, and keep a customer role.
const CUSTOMER_ROLES: &str = "customer roles are given by invitation only";

/// What an invitation link says when it does not verify.
const INVITATION_INVALID: &str = "This invitation link is invalid or has expired.";

/// What an admin narrowed a user to: each name a permission of the role, stored as given
/// (in the API's order); all of the role's is stored as none, so it follows the role.
fn narrowed(role: Role, names: &[String]) -> Result<Vec<String>, AuthError> {
    let allowed = role.permissions();
    let mut chosen = Vec::new();
    for name in names {
        let permission = Permission::parse(name.trim())
            .filter(|p| allowed.contains(p))
            .ok_or_else(|| {
                AuthError::invalid(
                    "user.permissions",
                    format!("{name:?} is not a permission of the role {}", role.as_str()),
                )
            })?;
        if !chosen.contains(&permission) {
            chosen.push(permission);
        }
    }
    if chosen.len() == allowed.len() {
        return Ok(Vec::new());
    }
    if chosen.is_empty() {
        // Stored as a name no permission has, since no names at all means the whole role.
        return Ok(vec!["none".to_owned()]);
    }
    chosen.sort();
    Ok(chosen.iter().map(|p| p.as_str().to_owned()).collect())
}

pub fn user_to_proto(u: &User) -> pb::User {
    pb::User {
        id: u.id.clone(),
        email: u.email.as_str().to_owned(),
        name: u.name.clone(),
        role: u.role.to_proto().into(),
        permissions: u
            .role
            .narrowed(&u.permissions)
            .iter()
            .map(|p| p.as_str().to_owned())
            .collect(),
        disabled: u.disabled,
        create_time: Some(timestamp::to_proto(u.created_at)),
        update_time: Some(timestamp::to_proto(u.updated_at)),
        session_version: u.session_version,
        customer_id: u.customer_id.clone().unwrap_or_default(),
        role_permissions: u
            .role
            .permissions()
            .iter()
            .map(|p| p.as_str().to_owned())
            .collect(),
    }
}

impl AuthApi {
    pub fn new(store: Arc<dyn UserStore>, audit: Arc<dyn AuditLog>) -> Self {
        Self {
            store,
            audit,
            tokens: None,
        }
    }

    /// The service that also verifies invitation links signed with `tokens`.
    pub fn with_invitations(self, tokens: TokenKey) -> Self {
        Self {
            tokens: Some(tokens),
            ..self
        }
    }

    /// The invitation a link's token names, not yet accepted.
    async fn invitation(&self, token: &str) -> Result<(invitation::Invitation, i64), AuthError> {
        let verified = self
            .tokens
            .as_ref()
            .and_then(|key| invitation::verify(key, token))
            .ok_or_else(|| AuthError::invalid("token", INVITATION_INVALID))?;
        let email = Email::parse(&verified.0.email)?;
        if self.store.find_by_email(&email).await?.is_some() {
            return Err(AuthError::InvitationUsed);
        }
        Ok(verified)
    }

    /// Records what was done. The user store is another database, so the change is already
    /// saved: a failure here is logged loudly rather than reported as a failed change.
    pub async fn record(&self, entry: AuditEntry) {
        if let Err(e) = self.audit.append(std::slice::from_ref(&entry)).await {
            tracing::error!(error = %e, action = entry.action.as_str(), target = %entry.target_name, "audit entry not written");
        }
    }

    /// Creates a user; the first user of an empty store becomes the admin.
    pub async fn create(
        &self,
        email: Email,
        name: &str,
        role: Role,
        password: NewPassword,
    ) -> Result<User, AuthError> {
        if self.store.find_by_email(&email).await?.is_some() {
            return Err(AuthError::AlreadyExists);
        }
        let first = self.store.count().await? == 0;
        let hash = password::hash_off_thread(password.expose().to_owned()).await?;
        let user = User::new(email, name, role, hash, first, domain::now());
        self.store.insert(&user).await?;
        tracing::info!(
            email = user.email.as_str(),
            role = user.role.as_str(),
            "user created"
        );
        Ok(user)
    }

    /// A page of the staff (`customer` None) or of one customer's users.
    async fn page(
        &self,
        customer: Option<&str>,
        page_size: i32,
        page_token: &str,
    ) -> Result<pb::ListUsersResponse, AuthError> {
        let page_size = paging::page_size(page_size, 50, 100)?;
        let after = paging::decode(page_token)?;
        let page = self
            .store
            .list(customer, page_size, after.as_deref())
            .await?;
        Ok(pb::ListUsersResponse {
            users: page.users.iter().map(user_to_proto).collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
        })
    }

    /// Disables or enables the user `id`, audited; a customer's admin (`within` their
    /// customer) reaches that customer's users only, any other user is NotFound to them.
    async fn set_disabled(
        &self,
        caller: &service_auth::Caller,
        actor: &Actor,
        id: &str,
        disabled: bool,
        within: Option<&str>,
    ) -> Result<User, AuthError> {
        let id = domain::UserId::parse("id", id)?;
        let mut user = self.store.get(id.as_str()).await?;
        if within.is_some_and(|customer| user.customer_id.as_deref() != Some(customer)) {
            return Err(AuthError::NotFound);
        }
        if disabled && id.as_str() == caller.sub {
            return Err(AuthError::FailedPrecondition(
                "You cannot disable your own account".into(),
            ));
        }
        user.disabled = disabled;
        user.updated_at = domain::now();
        let user = self.store.replace(&user).await?;
        tracing::info!(
            email = user.email.as_str(),
            disabled = user.disabled,
            "user access changed"
        );
        let action = if user.disabled {
            Action::UserDisable
        } else {
            Action::UserEnable
        };
        let mut entry = AuditEntry::new(actor, action, &user.id, user.email.as_str());
        if let Some(customer) = &user.customer_id {
            entry = entry.with_summary(format!("A user of customer {customer}"));
        }
        self.record(entry).await;
        Ok(user)
    }

    /// Checks the credentials; unknown e-mail and wrong password fail alike and in the same time.
    pub async fn authenticate(&self, email: &str, password: &str) -> Result<User, AuthError> {
        let email = Email::parse(email)?;
        if password.is_empty() {
            return Err(AuthError::invalid("password", "Password is required"));
        }
        let user = self.store.find_by_email(&email).await?;
        let matches = password::verify_off_thread(
            password.to_owned(),
            user.as_ref().map(|u| u.password_hash.clone()),
        )
        .await;
        match user {
            Some(user) if matches => {
                if user.disabled {
                    Err(AuthError::Disabled)
                } else {
                    Ok(user)
                }
            }
            _ => Err(AuthError::InvalidCredentials),
        }
    }
}

#[tonic::async_trait]
impl AuthService for AuthApi {
    #[tracing::instrument(skip_all)]
    async fn sign_in(
        &self,
        request: Request<pb::SignInRequest>,
    ) -> Result<Response<pb::SignInResponse>, Status> {
        let actor = Actor::anonymous(&request);
        let request = request.into_inner();
        let outcome = self.authenticate(&request.email, &request.password).await;
        let tried = request.email.trim().to_lowercase();
        let entry = match &outcome {
            Ok(user) => AuditEntry::new(
                &Actor {
                    id: user.id.clone(),
                    email: user.email.as_str().to_owned(),
                    ..actor
                },
                Action::SignIn,
                &user.id,
                user.email.as_str(),
            ),
            Err(e) => AuditEntry::new(
                &Actor {
                    email: tried.chars().take(254).collect(),
                    ..actor
                },
                Action::SignInFailure,
                "",
                tried.chars().take(254).collect::<String>(),
            )
            .with_summary(e.to_string()),
        };
        self.record(entry).await;
        let user = outcome?;
        Ok(Response::new(pb::SignInResponse {
            user: Some(user_to_proto(&user)),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_user(
        &self,
        request: Request<pb::GetUserRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let id = domain::UserId::parse("id", &request.get_ref().id)?;
        let user = self.store.get(id.as_str()).await?;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_users(
        &self,
        request: Request<pb::ListUsersRequest>,
    ) -> Result<Response<pb::ListUsersResponse>, Status> {
        let request = request.into_inner();
        let customer = service_common::text::TextRule::line(64)
            .optional()
            .check(&request.customer_id)
            .map_err(|description| AuthError::invalid("customer_id", description))?;
        let customer = Some(customer.as_str()).filter(|c| !c.is_empty());
        let page = self
            .page(customer, request.page_size, &request.page_token)
            .await?;
        Ok(Response::new(page))
    }

    #[tracing::instrument(skip_all)]
    async fn create_user(
        &self,
        request: Request<pb::CreateUserRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let request = request.into_inner();
        let input = request.user.unwrap_or_default();
        let email = Email::parse(&input.email)?;
        let name = service_common::text::TextRule::line(100)
            .optional()
            .check(&input.name)
            .map_err(|description| AuthError::invalid("user.name", description))?;
        let role = match Role::from_proto(input.role) {
            Some(role) => role,
            None if input.role == pb::Role::Unspecified as i32 => Role::User,
            None => return Err(AuthError::invalid("user.role", ROLES).into()),
        };
        if role.is_customer() {
            return Err(AuthError::invalid("user.role", CUSTOMER_ROLES).into());
        }
        let password = NewPassword::parse("password", &request.password)?;
        let user = self.create(email, &name, role, password).await?;
        self.record(
            AuditEntry::new(&actor, Action::UserCreate, &user.id, user.email.as_str())
                .with_summary(format!("Role: {}", user.role.as_str())),
        )
        .await;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn set_user_disabled(
        &self,
        request: Request<pb::SetUserDisabledRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let request = request.into_inner();
        let user = self
            .set_disabled(&caller, &actor, &request.id, request.disabled, None)
            .await?;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn change_password(
        &self,
        request: Request<pb::ChangePasswordRequest>,
    ) -> Result<Response<()>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let request = request.into_inner();
        let mut user = self.store.get(&caller.sub).await?;
        if !password::verify_off_thread(request.current_password, Some(user.password_hash.clone()))
            .await
        {
            // A field of the form, not a lost session: the caller stays signed in.
            return Err(AuthError::invalid("current_password", "Incorrect password").into());
        }
        let new_password = NewPassword::parse("new_password", &request.new_password)?;
        user.password_hash = password::hash_off_thread(new_password.expose().to_owned()).await?;
        user.session_version += 1;
        user.updated_at = domain::now();
        self.store.replace(&user).await?;
        tracing::info!(
            email = user.email.as_str(),
            "password changed: earlier sessions end"
        );
        self.record(AuditEntry::new(
            &actor,
            Action::PasswordChange,
            &user.id,
            user.email.as_str(),
        ))
        .await;
        Ok(Response::new(()))
    }

    #[tracing::instrument(skip_all)]
    async fn update_user(
        &self,
        request: Request<pb::UpdateUserRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let request = request.into_inner();
        let input = request.user.unwrap_or_default();
        let id = domain::UserId::parse("user.id", &input.id)?;
        let mask = Mask::parse(request.update_mask.as_ref(), UPDATABLE).map_err(AuthError::from)?;
        let mut user = self.store.get(id.as_str()).await?;
        let before = user.clone();
        for path in mask.paths() {
            match path {
                "name" => {
                    let name = service_common::text::TextRule::line(100)
                        .check(&input.name)
                        .map_err(|description| AuthError::invalid("user.name", description))?;
                    user.name = name;
                }
                "role" | "permissions" if id.as_str() == caller.sub => {
                    return Err(AuthError::FailedPrecondition(
                        "You cannot change your own role or permissions".into(),
                    )
                    .into());
                }
                "role" => {
                    let role = Role::from_proto(input.role)
                        .ok_or_else(|| AuthError::invalid("user.role", ROLES))?;
                    // Staff roles and customer roles never mix.
                    if role.is_customer() != user.role.is_customer() {
                        return Err(AuthError::invalid("user.role", CUSTOMER_ROLES).into());
                    }
                    user.role = role;
                    if !mask.contains("permissions") {
                        user.permissions.clear();
                    }
                }
                // Permissions follow the role, whichever order the mask names them in.
                _ => {}
            }
        }
        if mask.contains("permissions") {
            user.permissions = narrowed(user.role, &input.permissions)?;
        }
        user.updated_at = domain::now();
        let user = self.store.replace(&user).await?;
        let action = if user.role != before.role {
            Action::UserRoleChange
        } else {
            Action::UserUpdate
        };
        let shown = |u: &User| User {
            permissions: u
                .role
                .narrowed(&u.permissions)
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect(),
            ..u.clone()
        };
        let changes = audit::diff(&shown(&before), &shown(&user), NOT_AUDITED);
        tracing::info!(
            email = user.email.as_str(),
            role = user.role.as_str(),
            "user changed"
        );
        self.record(
            AuditEntry::new(&actor, action, &user.id, user.email.as_str()).with_changes(changes),
        )
        .await;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_customer_users(
        &self,
        request: Request<pb::ListCustomerUsersRequest>,
    ) -> Result<Response<pb::ListUsersResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let customer = caller.customer().ok_or(AuthError::NotFound)?;
        let request = request.get_ref();
        let page = self
            .page(Some(customer), request.page_size, &request.page_token)
            .await?;
        Ok(Response::new(page))
    }

    #[tracing::instrument(skip_all)]
    async fn set_customer_user_disabled(
        &self,
        request: Request<pb::SetCustomerUserDisabledRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let customer = caller.customer().ok_or(AuthError::NotFound)?;
        let request = request.get_ref();
        let user = self
            .set_disabled(
                &caller,
                &actor,
                &request.id,
                request.disabled,
                Some(customer),
            )
            .await?;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn get_current_user(
        &self,
        request: Request<pb::GetCurrentUserRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let user = self.store.get(&caller.sub).await?;
        Ok(Response::new(user_to_proto(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn get_customer_invitation(
        &self,
        request: Request<pb::GetCustomerInvitationRequest>,
    ) -> Result<Response<pb::CustomerInvitation>, Status> {
        let (invitation, exp) = self.invitation(&request.get_ref().token).await?;
        Ok(Response::new(invitation_to_proto(invitation, exp)))
    }

    #[tracing::instrument(skip_all)]
    async fn accept_customer_invitation(
        &self,
        request: Request<pb::AcceptCustomerInvitationRequest>,
    ) -> Result<Response<pb::User>, Status> {
        let actor = Actor::anonymous(&request);
        let request = request.into_inner();
        let (invitation, _) = self.invitation(&request.token).await?;
        let name = service_common::text::TextRule::line(100)
            .optional()
            .check(&request.name)
            .map_err(|description| AuthError::invalid("name", description))?;
        let name = if name.is_empty() {
            invitation.name.clone()
        } else {
            name
        };
        let password = NewPassword::parse("password", &request.password)?;
        let email = Email::parse(&invitation.email)?;
        let hash = password::hash_off_thread(password.expose().to_owned()).await?;
        let mut user = User::new(email, &name, invitation.role, hash, false, domain::now());
        user.customer_id = Some(invitation.customer_id.clone());
        // Two tabs accepting at once: the e-mail's unique key lets one through.
        self.store.insert(&user).await.map_err(|e| match e {
            AuthError::AlreadyExists => AuthError::InvitationUsed,
            e => e,
        })?;
        tracing::info!(
            role = user.role.as_str(),
            "customer user created by invitation"
        );
        self.record(
            AuditEntry::new(
                &Actor {
                    id: user.id.clone(),
                    email: user.email.as_str().to_owned(),
                    ..actor
                },
                Action::UserCreate,
                &user.id,
                user.email.as_str(),
            )
            .with_summary(format!(
                "Invitation accepted: {} of customer {} ({})",
                user.role.as_str(),
                invitation.customer_name,
                invitation.customer_id
            )),
        )
        .await;
        Ok(Response::new(user_to_proto(&user)))
    }
}

fn invitation_to_proto(invitation: invitation::Invitation, exp: i64) -> pb::CustomerInvitation {
    pb::CustomerInvitation {
        customer_id: invitation.customer_id,
        customer_name: invitation.customer_name,
        email: invitation.email,
        name: invitation.name,
        role: invitation.role.to_proto().into(),
        expire_time: chrono::DateTime::from_timestamp(exp, 0).map(timestamp::to_proto),
    }
}
