//! `logistics.v1.SessionService`: the browser's sign-in, served by the gateway itself.

use logistics_proto::v1::{
    self as pb, auth_service_client::AuthServiceClient, session_service_server::SessionService,
};
use std::time::Duration;

use tonic::metadata::MetadataValue;
use tonic::{Code, Request, Response, Status};

use crate::access::{Access, CurrentUser};
use crate::limits::RateLimit;
use crate::rpc::{TrustedProxies, network_key};
use crate::session::{self, Session, SessionStore};
use crate::upstream::Upstream;

pub const TOO_MANY_ATTEMPTS: &str = "Too many failed attempts. Please try again later";

#[derive(Clone)]
pub struct SessionApi {
    pub auth: Upstream,
    pub access: Access,
    /// Sign-in attempts per client network.
    pub attempts_per_ip: RateLimit,
    /// Failed sign-ins per account (e-mail) and client network: at the limit, that network
    /// may not try that account, even with the right password.
    pub failures_per_client: RateLimit,
    /// Failed sign-ins per account from every network, counted even for unknown e-mails:
    /// beyond the limit, every attempt on the account waits longer, but none is refused.
    pub failures_per_account: RateLimit,
    /// The longest wait an attempt on an account under attack makes.
    pub max_delay: Duration,
    /// Browsers that signed in to an account before (`DEVICE_COOKIE`), per account and id:
    /// they are exempt from the network's limits and the wait, with failure limits of their own.
    pub devices: RateLimit,
    pub proxies: TrustedProxies,
}

/// The cookie that marks a browser where an account signed in before; sent only to the
/// sign-in service.
pub const DEVICE_COOKIE: &str = "device";
/// How long a browser stays known after its first sign-in to an account.
pub const DEVICE_LIFETIME: Duration = Duration::from_secs(365 * 24 * 3600);

fn device_cookie(id: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{DEVICE_COOKIE}={id}; Path={}; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        crate::rpc::SESSION_SERVICE,
        DEVICE_LIFETIME.as_secs()
    )
}

/// A device id as the gateway makes them (43 URL-safe characters), nothing else.
fn device_id(cookies: Option<&str>) -> Option<&str> {
    session::cookie(cookies, DEVICE_COOKIE).filter(|id| {
        id.len() == 43
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// The wait before checking a password of an account that has failed `failures` times
/// lately: none up to `free`, then 250 ms doubling with each failure, at most `max`.
pub fn delay_before_checking(failures: u64, free: u64, max: Duration) -> Duration {
    let Some(beyond) = failures.checked_sub(free) else {
        return Duration::ZERO;
    };
    let factor = 1u32 << beyond.min(16);
    (Duration::from_millis(250) * factor).min(max)
}

/// One account however its e-mail is typed (spaces around it, capitals), as the auth
/// service reads it.
fn account_key(email: &str) -> String {
    auth::domain::Email::parse(email)
        .map(|e| e.as_str().to_owned())
        .unwrap_or_else(|_| {
            email
                .trim()
                .chars()
                .take(320)
                .collect::<String>()
                .to_lowercase()
        })
}

fn unavailable(e: impl std::fmt::Display) -> Status {
    tracing::warn!(error = %e, "sign-in store unavailable");
    Status::unavailable("Sign-in is unavailable right now. Please try again shortly.")
}

fn session_reply(session: &Session, user: &CurrentUser, sessions: &SessionStore) -> pb::Session {
    pb::Session {
        user: Some(pb::User {
            id: user.id.clone(),
            email: user.email.clone(),
            name: user.name.clone(),
            role: user.role.to_proto().into(),
            permissions: user
                .permissions
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect(),
            customer_id: user.customer_id.clone().unwrap_or_default(),
            ..Default::default()
        }),
        expire_time: Some(prost_types::Timestamp {
            seconds: sessions.lifetime.expires_at(session),
            nanos: 0,
        }),
    }
}

fn with_cookie<T>(body: T, cookie: String) -> Result<Response<T>, Status> {
    let mut response = Response::new(body);
    let value: MetadataValue<_> = cookie.parse().map_err(|_| Status::internal("cookie"))?;
    response.metadata_mut().insert("set-cookie", value);
    Ok(response)
}

fn cookie_id<T>(request: &Request<T>) -> Option<String> {
    session::id_from_cookies(
        request
            .metadata()
            .get("cookie")
            .and_then(|v| v.to_str().ok()),
    )
    .map(str::to_owned)
}

fn signed_in_session(session: &Session, current: bool) -> pb::SignedInSession {
    let time = |seconds| Some(prost_types::Timestamp { seconds, nanos: 0 });
    pb::SignedInSession {
        id: session.public_id(),
        device: session.device.clone(),
        create_time: time(session.created_at),
        last_seen_time: time(session.last_seen_at.max(session.created_at)),
        current,
    }
}

impl SessionApi {
    /// The caller's live session (its user still admitted), or UNAUTHENTICATED.
    async fn signed_in<T>(&self, request: &Request<T>) -> Result<Session, Status> {
        self.access
            .signed_in(cookie_id(request).as_deref())
            .await?
            .map(|(session, _)| session)
            .ok_or_else(|| Status::unauthenticated("Not signed in"))
    }
}

#[tonic::async_trait]
impl SessionService for SessionApi {
    #[tracing::instrument(skip_all)]
    async fn create_session(
        &self,
        request: Request<pb::CreateSessionRequest>,
    ) -> Result<Response<pb::Session>, Status> {
        let ip = self
            .proxies
            .client_ip(request.metadata().as_ref(), request.extensions());
        let secure = self.proxies.secure(request.metadata().as_ref());
        let previous = cookie_id(&request);
        let browser = request
            .metadata()
            .get("user-agent")
            .and_then(|v| v.to_str().ok())
            .map(session::device_of)
            .unwrap_or_default();
        let device = device_id(
            request
                .metadata()
                .get("cookie")
                .and_then(|v| v.to_str().ok()),
        )
        .map(str::to_owned);
        let request_id = request
            .metadata()
            .get(audit::REQUEST_ID_METADATA)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let credentials = request.into_inner();
        if credentials.email.trim().is_empty() || credentials.password.is_empty() {
            return Err(Status::invalid_argument("Email and password are required"));
        }
        let account = account_key(&credentials.email);
        let network = ip.map(network_key).unwrap_or_default();
        // A browser this account signed in from before counts its own failures: neither a
        // stranger on its network nor one failing the account elsewhere holds it back.
        let known_device = match &device {
            Some(id) => {
                self.devices
                    .count(&format!("{account}\n{id}"))
                    .await
                    .map_err(unavailable)?
                    > 0
            }
            None => false,
        };
        let lock_key = match (&device, known_device) {
            (Some(id), true) => format!("{account}\ndevice {id}"),
            _ => format!("{account}\n{network}"),
        };
        let ip_key = ip.map(|ip| ip.to_string()).unwrap_or_default();
        let network_refuses = !known_device
            && !self
                .attempts_per_ip
                .hit(&network)
                .await
                .map_err(unavailable)?;
        if network_refuses
            || self
                .failures_per_client
                .exhausted(&lock_key)
                .await
                .map_err(unavailable)?
        {
            tracing::warn!(%network, "sign-in rate limit reached");
            return Err(Status::resource_exhausted(TOO_MANY_ATTEMPTS));
        }
        if !known_device {
            let failures = self
                .failures_per_account
                .count(&account)
                .await
                .map_err(unavailable)?;
            let delay =
                delay_before_checking(failures, self.failures_per_account.limit(), self.max_delay);
            if !delay.is_zero() {
                tracing::info!(
                    failures,
                    delay_ms = delay.as_millis() as u64,
                    "sign-in slowed"
                );
                tokio::time::sleep(delay).await;
            }
        }
        let mut sign_in = Request::new(pb::SignInRequest {
            email: credentials.email,
            password: credentials.password,
        });
        // Where the attempt came from, for the audit log.
        for (name, value) in [
            (audit::CLIENT_IP_METADATA, Some(ip_key.clone())),
            (audit::REQUEST_ID_METADATA, request_id),
        ] {
            if let Some(value) = value.and_then(|v| v.parse().ok()) {
                sign_in.metadata_mut().insert(name, value);
            }
        }
        let signed_in = match AuthServiceClient::new(self.auth.clone())
            .sign_in(sign_in)
            .await
        {
            Ok(reply) => reply.into_inner(),
            Err(status) => {
                if status.code() == Code::Unauthenticated {
                    self.failures_per_client
                        .hit(&lock_key)
                        .await
                        .map_err(unavailable)?;
                    self.failures_per_account
                        .hit(&account)
                        .await
                        .map_err(unavailable)?;
                }
                return Err(status);
            }
        };
        let current = CurrentUser::from_proto(signed_in.user.unwrap_or_default())
            .ok_or_else(|| Status::internal("the auth service answered without a role"))?;
        // A suspended customer's users are refused as a disabled user is.
        let current = self.access.with_customer_state(current).await?;
        if current.disabled {
            return Err(Status::permission_denied("This account has been disabled"));
        }
        let role = current.role;
        let sessions = &self.access.sessions;
        // A new id at every sign-in; the old session, if any, ends.
        if let Some(old) = previous {
            sessions.delete(&old).await.map_err(unavailable)?;
        }
        let session = Session {
            device: browser,
            ..Session::new(
                current.id.clone(),
                current.email.clone(),
                current.name.clone(),
                role,
                current.session_version,
            )
        };
        sessions.create(&session).await.map_err(unavailable)?;
        let device = device.unwrap_or_else(session::new_id);
        self.devices
            .hit(&format!("{account}\n{device}"))
            .await
            .map_err(unavailable)?;
        tracing::info!(email = %session.email, "signed in");
        let reply = session_reply(&session, &current, sessions);
        let mut response = with_cookie(
            reply,
            session::set_cookie(&session, &sessions.lifetime, secure),
        )?;
        let value: MetadataValue<_> = device_cookie(&device, secure)
            .parse()
            .map_err(|_| Status::internal("cookie"))?;
        response.metadata_mut().append("set-cookie", value);
        Ok(response)
    }

    #[tracing::instrument(skip_all)]
    async fn get_session(
        &self,
        request: Request<pb::GetSessionRequest>,
    ) -> Result<Response<pb::Session>, Status> {
        let (session, user) = self
            .access
            .signed_in(cookie_id(&request).as_deref())
            .await?
            .ok_or_else(|| Status::unauthenticated("Not signed in"))?;
        Ok(Response::new(session_reply(
            &session,
            &user,
            &self.access.sessions,
        )))
    }

    #[tracing::instrument(skip_all)]
    async fn list_sessions(
        &self,
        request: Request<pb::ListSessionsRequest>,
    ) -> Result<Response<pb::ListSessionsResponse>, Status> {
        let this = self.signed_in(&request).await?;
        let mut sessions: Vec<pb::SignedInSession> = self
            .access
            .sessions
            .of_user(&this.user_id)
            .await
            .map_err(unavailable)?
            .iter()
            .map(|s| signed_in_session(s, s.id == this.id))
            .collect();
        // This browser first; the store gives the rest most recently used first.
        sessions.sort_by_key(|s| !s.current);
        Ok(Response::new(pb::ListSessionsResponse { sessions }))
    }

    #[tracing::instrument(skip_all)]
    async fn end_session(
        &self,
        request: Request<pb::EndSessionRequest>,
    ) -> Result<Response<()>, Status> {
        let this = self.signed_in(&request).await?;
        let wanted = request.into_inner().id;
        if wanted == this.public_id() {
            return Err(Status::invalid_argument(
                "id: this is the session you are using; sign out instead",
            ));
        }
        let sessions = &self.access.sessions;
        // Only the caller's own sessions are looked at: another user's id is not found.
        let Some(other) = sessions
            .of_user(&this.user_id)
            .await
            .map_err(unavailable)?
            .into_iter()
            .find(|s| s.public_id() == wanted)
        else {
            return Err(Status::not_found("Session not found"));
        };
        sessions.delete(&other.id).await.map_err(unavailable)?;
        tracing::info!(email = %this.email, "signed out one other session");
        Ok(Response::new(()))
    }

    #[tracing::instrument(skip_all)]
    async fn end_other_sessions(
        &self,
        request: Request<pb::EndOtherSessionsRequest>,
    ) -> Result<Response<pb::EndOtherSessionsResponse>, Status> {
        let this = self.signed_in(&request).await?;
        let sessions = &self.access.sessions;
        let mut ended_count = 0;
        for other in sessions
            .of_user(&this.user_id)
            .await
            .map_err(unavailable)?
            .into_iter()
            .filter(|s| s.id != this.id)
        {
            sessions.delete(&other.id).await.map_err(unavailable)?;
            ended_count += 1;
        }
        tracing::info!(email = %this.email, ended_count, "signed out everywhere else");
        Ok(Response::new(pb::EndOtherSessionsResponse { ended_count }))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_session(
        &self,
        request: Request<pb::DeleteSessionRequest>,
    ) -> Result<Response<()>, Status> {
        if let Some(id) = cookie_id(&request) {
            self.access
                .sessions
                .delete(&id)
                .await
                .map_err(unavailable)?;
        }
        with_cookie(
            (),
            session::clear_cookie(self.proxies.secure(request.metadata().as_ref())),
        )
    }
}
