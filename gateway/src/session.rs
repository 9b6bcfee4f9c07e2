//! Browser sessions: an opaque random id in a cookie, the data on the server (in this
//! process, or in Redis in distributed mode), with an idle and an absolute expiry.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use service_auth::Role;

use crate::redis_call::bounded;

pub const COOKIE_NAME: &str = "session";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: String,
    pub user_id: String,
    pub email: String,
    pub name: String,
    /// The role at sign-in; every call is authorised by the role stored now (`access`).
    pub role: Role,
    /// The user's session version at sign-in: a password change ends the session.
    #[serde(default)]
    pub session_version: u32,
    /// Unix seconds.
    pub created_at: i64,
}

impl Session {
    pub fn new(
        user_id: String,
        email: String,
        name: String,
        role: Role,
        session_version: u32,
    ) -> Self {
        Self {
            id: new_id(),
            user_id,
            email,
            name,
            role,
            session_version,
            created_at: chrono::Utc::now().timestamp(),
        }
    }

    /// The same sign-in under a new id (and a new session version): the old id stops working.
    pub fn rotated(&self, session_version: u32) -> Self {
        Self {
            id: new_id(),
            session_version,
            ..self.clone()
        }
    }
}

pub(crate) fn new_id() -> String {
    let bytes: [u8; 32] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

#[derive(Clone, Copy, Debug)]
pub struct Lifetime {
    /// Ends a session not used for this long.
    pub idle: Duration,
    /// Ends every session this long after sign-in.
    pub absolute: Duration,
}

impl Lifetime {
    /// When `session` ends if it is not used again from now.
    pub fn expires_at(&self, session: &Session) -> i64 {
        let now = chrono::Utc::now().timestamp();
        (now + self.idle.as_secs() as i64).min(session.created_at + self.absolute.as_secs() as i64)
    }

    fn over(&self, session: &Session) -> bool {
        chrono::Utc::now().timestamp() >= session.created_at + self.absolute.as_secs() as i64
    }
}

#[derive(Debug, thiserror::Error)]
#[error("session store unavailable: {0}")]
pub struct SessionStoreDown(String);

#[derive(Clone)]
enum Backend {
    InProcess(moka::sync::Cache<String, Session>),
    Redis(ConnectionManager),
}

#[derive(Clone)]
pub struct SessionStore {
    backend: Backend,
    pub lifetime: Lifetime,
}

fn redis_key(id: &str) -> String {
    format!("session:{id}")
}

fn down(e: impl std::fmt::Display) -> SessionStoreDown {
    metrics::counter!("session_store_errors_total").increment(1);
    SessionStoreDown(e.to_string())
}

impl SessionStore {
    pub fn in_process(lifetime: Lifetime) -> Self {
        let cache = moka::sync::Cache::builder()
            .max_capacity(100_000)
            .time_to_idle(lifetime.idle)
            .build();
        Self {
            backend: Backend::InProcess(cache),
            lifetime,
        }
    }

    pub fn redis(connection: ConnectionManager, lifetime: Lifetime) -> Self {
        Self {
            backend: Backend::Redis(connection),
            lifetime,
        }
    }

    pub async fn create(&self, session: &Session) -> Result<(), SessionStoreDown> {
        match &self.backend {
            Backend::InProcess(cache) => cache.insert(session.id.clone(), session.clone()),
            Backend::Redis(connection) => {
                let json = serde_json::to_string(session).map_err(down)?;
                let mut connection = connection.clone();
                let _: () = bounded(connection.set_ex(
                    redis_key(&session.id),
                    json,
                    self.lifetime.idle.as_secs().max(1),
                ))
                .await
                .map_err(down)?;
            }
        }
        Ok(())
    }

    /// The live session with this id, its idle expiry pushed back; None if unknown or expired.
    pub async fn get(&self, id: &str) -> Result<Option<Session>, SessionStoreDown> {
        let session = match &self.backend {
            Backend::InProcess(cache) => cache.get(id),
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                let json: Option<String> = bounded(connection.get_ex(
                    redis_key(id),
                    redis::Expiry::EX(self.lifetime.idle.as_secs().max(1)),
                ))
                .await
                .map_err(down)?;
                json.and_then(|j| serde_json::from_str(&j).ok())
            }
        };
        match session {
            Some(s) if self.lifetime.over(&s) => {
                self.delete(id).await?;
                Ok(None)
            }
            other => Ok(other),
        }
    }

    pub async fn delete(&self, id: &str) -> Result<(), SessionStoreDown> {
        match &self.backend {
            Backend::InProcess(cache) => cache.invalidate(id),
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                let _: () = bounded(connection.del(redis_key(id))).await.map_err(down)?;
            }
        }
        Ok(())
    }
}

/// The session id in a `Cookie` header, if any.
pub fn id_from_cookies(header: Option<&str>) -> Option<&str> {
    cookie(header, COOKIE_NAME)
}

/// The value of cookie `name` in a `Cookie` header, if not empty.
pub fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty())
}

/// `Set-Cookie` for a new session: HttpOnly, SameSite=Strict, Secure when asked.
pub fn set_cookie(session: &Session, lifetime: &Lifetime, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{COOKIE_NAME}={}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        session.id,
        lifetime.absolute.as_secs()
    )
}

/// `Set-Cookie` that removes the session cookie.
pub fn clear_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE_NAME}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{secure}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_id_is_read_from_the_cookie_header() {
        assert_eq!(
            id_from_cookies(Some("theme=dark; session=abc123; x=y")),
            Some("abc123")
        );
        assert_eq!(id_from_cookies(Some("mysession=abc")), None);
        assert_eq!(id_from_cookies(Some("session=")), None);
        assert_eq!(id_from_cookies(None), None);
    }

    #[test]
    fn session_ids_are_random_and_long() {
        let a = Session::new("u".into(), "e".into(), "n".into(), Role::Admin, 0);
        let b = a.rotated(1);
        assert_ne!(a.id, b.id);
        assert_eq!(a.id.len(), 43);
    }
}
