//! Browser sessions: an opaque random id in a cookie, the data on the server (in this
//! process, or in Redis in distributed mode), with an idle and an absolute expiry.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use service_auth::Role;
use sha2::{Digest, Sha256};

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
    /// The browser and system it signed in from ("Chrome on Linux"); empty when unknown.
    #[serde(default)]
    pub device: String,
    /// Unix seconds of its last use, kept to the minute (`LAST_SEEN_STEP`).
    #[serde(default)]
    pub last_seen_at: i64,
}

/// How stale a session's `last_seen_at` may get: a use updates it at most this often, so a
/// busy page does not rewrite its session on every call.
const LAST_SEEN_STEP: i64 = 60;

impl Session {
    pub fn new(
        user_id: String,
        email: String,
        name: String,
        role: Role,
        session_version: u32,
    ) -> Self {
        let now = chrono::Utc::now().timestamp();
        Self {
            id: new_id(),
            user_id,
            email,
            name,
            role,
            session_version,
            created_at: now,
            device: String::new(),
            last_seen_at: now,
        }
    }

    /// The id shown to its user (ListSessions): it names the session without being the cookie.
    pub fn public_id(&self) -> String {
        URL_SAFE_NO_PAD.encode(&Sha256::digest(self.id.as_bytes())[..16])
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

/// The ids of one user's sessions (some may have expired since; they are pruned when read).
fn redis_user_key(user_id: &str) -> String {
    format!("user-sessions:{user_id}")
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
                let user_key = redis_user_key(&session.user_id);
                let _: () = bounded(
                    redis::pipe()
                        .atomic()
                        .set_ex(
                            redis_key(&session.id),
                            json,
                            self.lifetime.idle.as_secs().max(1),
                        )
                        .ignore()
                        .sadd(&user_key, &session.id)
                        .ignore()
                        .expire(&user_key, self.lifetime.absolute.as_secs().max(1) as i64)
                        .ignore()
                        .query_async(&mut connection),
                )
                .await
                .map_err(down)?;
            }
        }
        Ok(())
    }

    /// Writes a newer `last_seen_at` of a live session, keeping its expiry.
    async fn touch(&self, session: &Session) -> Result<(), SessionStoreDown> {
        match &self.backend {
            Backend::InProcess(cache) => cache.insert(session.id.clone(), session.clone()),
            Backend::Redis(connection) => {
                let json = serde_json::to_string(session).map_err(down)?;
                let mut connection = connection.clone();
                let _: () = bounded(
                    connection.set_options(
                        redis_key(&session.id),
                        json,
                        redis::SetOptions::default()
                            .conditional_set(redis::ExistenceCheck::XX)
                            .with_expiration(redis::SetExpiry::KEEPTTL),
                    ),
                )
                .await
                .map_err(down)?;
            }
        }
        Ok(())
    }

    /// The live sessions of one user, most recently used first.
    pub async fn of_user(&self, user_id: &str) -> Result<Vec<Session>, SessionStoreDown> {
        let mut sessions: Vec<Session> = match &self.backend {
            Backend::InProcess(cache) => cache
                .iter()
                .map(|(_, session)| session)
                .filter(|session| session.user_id == user_id)
                .collect(),
            Backend::Redis(connection) => {
                let mut connection = connection.clone();
                let user_key = redis_user_key(user_id);
                let ids: Vec<String> = bounded(connection.smembers(&user_key))
                    .await
                    .map_err(down)?;
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let keys: Vec<String> = ids.iter().map(|id| redis_key(id)).collect();
                let found: Vec<Option<String>> =
                    bounded(connection.mget(&keys)).await.map_err(down)?;
                let (live, ended): (Vec<_>, Vec<_>) = ids
                    .into_iter()
                    .zip(found)
                    .partition(|(_, json)| json.is_some());
                if !ended.is_empty() {
                    let ended: Vec<String> = ended.into_iter().map(|(id, _)| id).collect();
                    let _: () = bounded(connection.srem(&user_key, ended))
                        .await
                        .map_err(down)?;
                }
                live.into_iter()
                    .filter_map(|(_, json)| serde_json::from_str(&json?).ok())
                    .collect()
            }
        };
        sessions.retain(|session| !self.lifetime.over(session));
        sessions.sort_by_key(|session| std::cmp::Reverse(session.last_seen_at));
        Ok(sessions)
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
            Some(mut s) => {
                let now = chrono::Utc::now().timestamp();
                if now - s.last_seen_at >= LAST_SEEN_STEP {
                    s.last_seen_at = now;
                    self.touch(&s).await?;
                }
                Ok(Some(s))
            }
            None => Ok(None),
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

/// "Chrome on Linux" from a `User-Agent` header: what a person recognises their browser by.
pub fn device_of(user_agent: &str) -> String {
    // Order matters: Edge and Opera also say Chrome; Chrome also says Safari.
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .into_iter()
    .find(|(mark, _)| user_agent.contains(mark))
    .map(|(_, name)| name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("CrOS", "ChromeOS"),
        ("Mac OS X", "macOS"),
        ("Linux", "Linux"),
    ]
    .into_iter()
    .find(|(mark, _)| user_agent.contains(mark))
    .map(|(_, name)| name);
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(one), None) | (None, Some(one)) => one.to_owned(),
        (None, None) => String::new(),
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
    fn devices_are_named_as_people_know_them() {
        let chrome_linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";
        assert_eq!(device_of(chrome_linux), "Chrome on Linux");
        let safari_iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
        assert_eq!(device_of(safari_iphone), "Safari on iOS");
        let edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0";
        assert_eq!(device_of(edge), "Edge on Windows");
        assert_eq!(device_of("curl/8.0"), "");
    }

    #[test]
    fn the_public_id_is_not_the_cookie() {
        let a = Session::new("u".into(), "e".into(), "n".into(), Role::Admin, 0);
        assert_ne!(a.public_id(), a.id);
        assert_eq!(a.public_id(), a.public_id());
        assert_eq!(a.public_id().len(), 22);
    }

    #[test]
    fn session_ids_are_random_and_long() {
        let a = Session::new("u".into(), "e".into(), "n".into(), Role::Admin, 0);
        let b = a.rotated(1);
        assert_ne!(a.id, b.id);
        assert_eq!(a.id.len(), 43);
    }
}
