//! Browser sessions: an opaque random id in a cookie, the data on the server (in SQLite in
//! DATA_DIR, or in Redis in distributed mode), with an idle and an absolute expiry; both
//! outlive a restart of the gateway.

use std::path::Path;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use r2d2_sqlite::rusqlite::{OptionalExtension, params};
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use service_auth::Role;
use service_common::store::migrate::{Schema, Step};
use service_common::store::{Sqlite, StoreFault};
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

    /// When `session` ends at the latest (Unix milliseconds), however often it is used.
    fn absolute_end_ms(&self, session: &Session) -> i64 {
        session.created_at * 1000 + self.absolute.as_millis() as i64
    }

    /// When `session` ends if it is not used again after `now_ms` (Unix milliseconds).
    fn idle_end_ms(&self, session: &Session, now_ms: i64) -> i64 {
        (now_ms + self.idle.as_millis() as i64).min(self.absolute_end_ms(session))
    }
}

#[derive(Debug, thiserror::Error)]
#[error("session store unavailable: {0}")]
pub struct SessionStoreDown(String);

impl From<StoreFault> for SessionStoreDown {
    fn from(fault: StoreFault) -> Self {
        down(fault)
    }
}

#[derive(Clone)]
enum Backend {
    /// One row per session in `FILE` in DATA_DIR.
    Embedded(Sqlite),
    Redis(ConnectionManager),
}

/// The sessions' file in DATA_DIR. Not in backups: a restored DATA_DIR signs everyone out
/// rather than bringing back sessions ended since.
pub const FILE: &str = "sessions.sqlite3";

/// Expiries in Unix milliseconds: `idle_expires_at` moves on with each use, never past
/// `expires_at` (the absolute end), so it alone says whether a session has ended. The same
/// file keeps the counts that must outlive a restart too (`limits::RateLimit::embedded`).
pub(crate) const SCHEMA: Schema = Schema {
    store: "sessions",
    steps: &[Step {
        name: "initial",
        sql: "
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    doc TEXT NOT NULL,
    idle_expires_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_idle_expiry ON sessions (idle_expires_at);
CREATE TABLE rate_counts (
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    window_ends_at INTEGER NOT NULL,
    PRIMARY KEY (name, key)
);
",
    }],
};

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Deletes the sessions that have ended by `now_ms`.
fn prune(conn: &r2d2_sqlite::rusqlite::Connection, now_ms: i64) -> Result<usize, StoreFault> {
    Ok(conn.execute(
        "DELETE FROM sessions WHERE idle_expires_at <= ?1 OR expires_at <= ?1",
        [now_ms],
    )?)
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
    /// The sessions kept in `data_dir` (made there if new), those that ended while the
    /// gateway was down removed.
    pub fn embedded(data_dir: &Path, lifetime: Lifetime) -> anyhow::Result<Self> {
        let db = Sqlite::open(&data_dir.join(FILE), 4, &[&SCHEMA])?;
        let pruned = db.run_inline(|conn| prune(conn, now_ms()))?;
        tracing::debug!(pruned, "ended sessions removed");
        Ok(Self {
            backend: Backend::Embedded(db),
            lifetime,
        })
    }

    pub fn redis(connection: ConnectionManager, lifetime: Lifetime) -> Self {
        Self {
            backend: Backend::Redis(connection),
            lifetime,
        }
    }

    pub async fn create(&self, session: &Session) -> Result<(), SessionStoreDown> {
        match &self.backend {
            Backend::Embedded(db) => {
                let json = serde_json::to_string(session).map_err(down)?;
                let now = now_ms();
                let (idle_end, end) = (
                    self.lifetime.idle_end_ms(session, now),
                    self.lifetime.absolute_end_ms(session),
                );
                let (id, user_id) = (session.id.clone(), session.user_id.clone());
                db.write(move |conn| {
                    let tx = conn.transaction()?;
                    // Each sign-in clears out what has ended, so the file holds about the live
                    // sessions.
                    prune(&tx, now)?;
                    tx.execute(
                        "INSERT OR REPLACE INTO sessions (id, user_id, doc, idle_expires_at, expires_at) \
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![id, user_id, json, idle_end, end],
                    )?;
                    tx.commit().map_err(StoreFault::from)
                })
                .await?;
            }
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
            Backend::Embedded(db) => {
                let json = serde_json::to_string(session).map_err(down)?;
                let id = session.id.clone();
                // Only a row still there: an ended session stays ended.
                db.write(move |conn| {
                    conn.execute(
                        "UPDATE sessions SET doc = ?1 WHERE id = ?2",
                        params![json, id],
                    )
                    .map_err(StoreFault::from)
                })
                .await?;
            }
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
            Backend::Embedded(db) => {
                let (user_id, now) = (user_id.to_owned(), now_ms());
                let docs: Vec<String> = db
                    .run(move |conn| {
                        let mut select = conn.prepare_cached(
                            "SELECT doc FROM sessions WHERE user_id = ?1 AND idle_expires_at > ?2",
                        )?;
                        let docs = select
                            .query_map(params![user_id, now], |row| row.get(0))?
                            .collect::<Result<_, _>>()?;
                        Ok::<_, StoreFault>(docs)
                    })
                    .await?;
                docs.iter()
                    .filter_map(|doc| serde_json::from_str(doc).ok())
                    .collect()
            }
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
            Backend::Embedded(db) => {
                let owned = id.to_owned();
                let found: Option<(String, i64)> = db.run_inline(|conn| {
                    conn.prepare_cached("SELECT doc, idle_expires_at FROM sessions WHERE id = ?1")?
                        .query_row([&owned], |row| Ok((row.get(0)?, row.get(1)?)))
                        .optional()
                        .map_err(StoreFault::from)
                })?;
                let now = now_ms();
                match found.and_then(|(doc, idle_end)| {
                    Some((serde_json::from_str::<Session>(&doc).ok()?, idle_end))
                }) {
                    Some((_, idle_end)) if idle_end <= now => {
                        self.delete(id).await?;
                        return Ok(None);
                    }
                    Some((session, idle_end)) => {
                        let pushed = self.lifetime.idle_end_ms(&session, now);
                        if pushed > idle_end {
                            db.write(move |conn| {
                                conn.execute(
                                    "UPDATE sessions SET idle_expires_at = ?1 \
                                     WHERE id = ?2 AND idle_expires_at < ?1",
                                    params![pushed, owned],
                                )
                                .map_err(StoreFault::from)
                            })
                            .await?;
                        }
                        Some(session)
                    }
                    None => None,
                }
            }
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
            Backend::Embedded(db) => {
                let id = id.to_owned();
                db.write(move |conn| {
                    conn.execute("DELETE FROM sessions WHERE id = ?1", [id])
                        .map_err(StoreFault::from)
                })
                .await?;
            }
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
