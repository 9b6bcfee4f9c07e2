//! `logistics.v1.SessionService`: the browser's sign-in, served by the gateway itself.

use logistics_proto::v1::{
    self as pb, auth_service_client::AuthServiceClient, session_service_server::SessionService,
};
use tonic::metadata::MetadataValue;
use tonic::{Code, Request, Response, Status};

use crate::limits::RateLimit;
use crate::rpc::client_ip;
use crate::session::{self, Session, SessionStore};
use crate::upstream::Upstream;

pub const TOO_MANY_ATTEMPTS: &str = "Too many failed attempts. Please try again later";

#[derive(Clone)]
pub struct SessionApi {
    pub auth: Upstream,
    pub sessions: SessionStore,
    /// Sign-in attempts per client IP.
    pub attempts_per_ip: RateLimit,
    /// Failed sign-ins per account (e-mail), counted even for unknown e-mails.
    pub failures_per_account: RateLimit,
    pub secure_cookie: bool,
    pub trust_forwarded_for: bool,
}

fn unavailable(e: impl std::fmt::Display) -> Status {
    tracing::warn!(error = %e, "sign-in store unavailable");
    Status::unavailable("Sign-in is unavailable right now. Please try again shortly.")
}

fn session_reply(session: &Session, sessions: &SessionStore) -> pb::Session {
    let role = if session.role == "admin" {
        pb::Role::Admin
    } else {
        pb::Role::User
    };
    pb::Session {
        user: Some(pb::User {
            id: session.user_id.clone(),
            email: session.email.clone(),
            name: session.name.clone(),
            role: role.into(),
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

#[tonic::async_trait]
impl SessionService for SessionApi {
    #[tracing::instrument(skip_all)]
    async fn create_session(
        &self,
        request: Request<pb::CreateSessionRequest>,
    ) -> Result<Response<pb::Session>, Status> {
        let ip = client_ip(
            request.metadata().as_ref(),
            request.extensions(),
            self.trust_forwarded_for,
        );
        // Secure when configured, or when the trusted proxy in front says it served HTTPS.
        let secure = self.secure_cookie
            || (self.trust_forwarded_for
                && request
                    .metadata()
                    .get("x-forwarded-proto")
                    .is_some_and(|p| p == "https"));
        let previous = cookie_id(&request);
        let credentials = request.into_inner();
        if credentials.email.trim().is_empty() || credentials.password.is_empty() {
            return Err(Status::invalid_argument("Email and password are required"));
        }
        let account = credentials.email.trim().to_lowercase();
        let ip_key = ip.map(|ip| ip.to_string()).unwrap_or_default();
        if !self
            .attempts_per_ip
            .hit(&ip_key)
            .await
            .map_err(unavailable)?
            || self
                .failures_per_account
                .exhausted(&account)
                .await
                .map_err(unavailable)?
        {
            tracing::warn!(ip = %ip_key, "sign-in rate limit reached");
            return Err(Status::resource_exhausted(TOO_MANY_ATTEMPTS));
        }
        let sign_in = pb::SignInRequest {
            email: credentials.email,
            password: credentials.password,
        };
        let signed_in = match AuthServiceClient::new(self.auth.clone())
            .sign_in(sign_in)
            .await
        {
            Ok(reply) => reply.into_inner(),
            Err(status) => {
                if status.code() == Code::Unauthenticated {
                    self.failures_per_account
                        .hit(&account)
                        .await
                        .map_err(unavailable)?;
                }
                return Err(status);
            }
        };
        let user = signed_in.user.unwrap_or_default();
        let role = if user.role() == pb::Role::Admin {
            "admin"
        } else {
            "user"
        };
        // A new id at every sign-in; the old session, if any, ends.
        if let Some(old) = previous {
            self.sessions.delete(&old).await.map_err(unavailable)?;
        }
        let session = Session::new(user.id, user.email, user.name, role.to_owned());
        self.sessions.create(&session).await.map_err(unavailable)?;
        tracing::info!(email = %session.email, "signed in");
        let reply = session_reply(&session, &self.sessions);
        with_cookie(
            reply,
            session::set_cookie(&session, &self.sessions.lifetime, secure),
        )
    }

    #[tracing::instrument(skip_all)]
    async fn get_session(
        &self,
        request: Request<pb::GetSessionRequest>,
    ) -> Result<Response<pb::Session>, Status> {
        let id = cookie_id(&request).ok_or_else(|| Status::unauthenticated("Not signed in"))?;
        let session = self
            .sessions
            .get(&id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| Status::unauthenticated("Not signed in"))?;
        Ok(Response::new(session_reply(&session, &self.sessions)))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_session(
        &self,
        request: Request<pb::DeleteSessionRequest>,
    ) -> Result<Response<()>, Status> {
        if let Some(id) = cookie_id(&request) {
            self.sessions.delete(&id).await.map_err(unavailable)?;
        }
        with_cookie((), session::clear_cookie(self.secure_cookie))
    }
}
