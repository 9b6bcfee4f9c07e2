//! Service tokens: short-lived HS256 JWTs naming a user and their role. The gateway mints
//! one for each call it forwards; every service verifies signature, expiry and role itself,
//! so an internal tool needs a valid token too.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use tonic::Status;

const ISSUER: &str = "logistics";
/// The issuer of link and cookie tokens, so none of them ever passes as a service token.
const LINK_ISSUER: &str = "logistics-links";
/// Smallest signing key accepted, in bytes (HS256 wants at least its hash size).
const MIN_KEY_BYTES: usize = 32;

/// What a user may do: the one role type of the gateway and every service, stored and
/// signed as its lower-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Signed in, with no back-office screens.
    User,
    /// Finds and views shipments, changes their status and location.
    Agent,
    /// Shipments, labels, the dashboard; reads users.
    Manager,
    /// Everything.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::User, Role::Agent, Role::Manager, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Agent => "agent",
            Self::Manager => "manager",
            Self::Admin => "admin",
        }
    }

    /// The API's role; UNSPECIFIED and unknown numbers are None.
    pub fn from_proto(value: i32) -> Option<Self> {
        use logistics_proto::v1::Role as Pb;
        match Pb::try_from(value).ok()? {
            Pb::User => Some(Self::User),
            Pb::Agent => Some(Self::Agent),
            Pb::Manager => Some(Self::Manager),
            Pb::Admin => Some(Self::Admin),
            Pb::Unspecified => None,
        }
    }

    pub fn to_proto(self) -> logistics_proto::v1::Role {
        use logistics_proto::v1::Role as Pb;
        match self {
            Self::User => Pb::User,
            Self::Agent => Pb::Agent,
            Self::Manager => Pb::Manager,
            Self::Admin => Pb::Admin,
        }
    }

    /// Everything the role may do, unless an admin narrows it for one user.
    pub fn permissions(self) -> &'static [Permission] {
        use Permission::*;
        match self {
            Self::User => &[],
            Self::Agent => &[ShipmentsRead, ShipmentsTrack, DeliveriesRecord],
            Self::Manager => &[
                ShipmentsRead,
                ShipmentsTrack,
                ShipmentsCreate,
                ShipmentsEdit,
                ShipmentsDelete,
                ShipmentsExport,
                ShipmentsImport,
                LabelsPrint,
                DeliveriesRecord,
                DashboardRead,
                UsersRead,
            ],
            Self::Admin => &Permission::ALL,
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|role| role.as_str() == text)
            .ok_or_else(|| format!("unknown role {text:?} (user, agent, manager or admin)"))
    }
}

/// One action a user may be allowed: every RPC that is not public requires exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Permission {
    #[serde(rename = "shipments.read")]
    ShipmentsRead,
    /// Change status and current location, with remarks.
    #[serde(rename = "shipments.track")]
    ShipmentsTrack,
    #[serde(rename = "shipments.create")]
    ShipmentsCreate,
    /// Change any other field.
    #[serde(rename = "shipments.edit")]
    ShipmentsEdit,
    #[serde(rename = "shipments.delete")]
    ShipmentsDelete,
    #[serde(rename = "shipments.export")]
    ShipmentsExport,
    /// Create shipments from a CSV file.
    #[serde(rename = "shipments.import")]
    ShipmentsImport,
    #[serde(rename = "labels.print")]
    LabelsPrint,
    /// Record the proof of delivery (recipient, signature, photo) of a delivered shipment.
    #[serde(rename = "deliveries.record")]
    DeliveriesRecord,
    #[serde(rename = "dashboard.read")]
    DashboardRead,
    #[serde(rename = "users.read")]
    UsersRead,
    /// Create users, disable them, change their role and permissions.
    #[serde(rename = "users.manage")]
    UsersManage,
    #[serde(rename = "emails.read")]
    EmailsRead,
    /// Retry an e-mail, send the e-mail test.
    #[serde(rename = "emails.send")]
    EmailsSend,
    #[serde(rename = "settings.manage")]
    SettingsManage,
    #[serde(rename = "audit.read")]
    AuditRead,
    /// Register, change and remove webhook endpoints; read and resend their deliveries.
    #[serde(rename = "webhooks.manage")]
    WebhooksManage,
}

impl Permission {
    pub const ALL: [Permission; 17] = [
        Permission::ShipmentsRead,
        Permission::ShipmentsTrack,
        Permission::ShipmentsCreate,
        Permission::ShipmentsEdit,
        Permission::ShipmentsDelete,
        Permission::ShipmentsExport,
        Permission::ShipmentsImport,
        Permission::LabelsPrint,
        Permission::DeliveriesRecord,
        Permission::DashboardRead,
        Permission::UsersRead,
        Permission::UsersManage,
        Permission::EmailsRead,
        Permission::EmailsSend,
        Permission::SettingsManage,
        Permission::AuditRead,
        Permission::WebhooksManage,
    ];

    /// Its name in the API and the stores, e.g. `shipments.read`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ShipmentsRead => "shipments.read",
            Self::ShipmentsTrack => "shipments.track",
            Self::ShipmentsCreate => "shipments.create",
            Self::ShipmentsEdit => "shipments.edit",
            Self::ShipmentsDelete => "shipments.delete",
            Self::ShipmentsExport => "shipments.export",
            Self::ShipmentsImport => "shipments.import",
            Self::LabelsPrint => "labels.print",
            Self::DeliveriesRecord => "deliveries.record",
            Self::DashboardRead => "dashboard.read",
            Self::UsersRead => "users.read",
            Self::UsersManage => "users.manage",
            Self::EmailsRead => "emails.read",
            Self::EmailsSend => "emails.send",
            Self::SettingsManage => "settings.manage",
            Self::AuditRead => "audit.read",
            Self::WebhooksManage => "webhooks.manage",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == text)
    }

    /// What a user with `role` may do when an admin stored `narrowed` for them: the role's
    /// permissions, or those of them named (an empty list, or the first admin's legacy
    /// `all`, narrows nothing; names outside the role never widen it).
    pub fn effective(role: Role, narrowed: &[String]) -> Vec<Permission> {
        let defaults = role.permissions();
        if narrowed.is_empty() || narrowed.iter().any(|n| n == "all") {
            return defaults.to_vec();
        }
        defaults
            .iter()
            .copied()
            .filter(|p| narrowed.iter().any(|n| n == p.as_str()))
            .collect()
    }
}

/// Who is calling, as a verified token says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caller {
    /// The user's id.
    pub sub: String,
    pub email: String,
    pub role: Role,
    /// What they may do now (the role's permissions, possibly narrowed).
    #[serde(default)]
    pub permissions: Vec<Permission>,
}

impl Caller {
    /// A caller with every permission of `role`.
    pub fn with_role(sub: impl Into<String>, email: impl Into<String>, role: Role) -> Self {
        Self {
            sub: sub.into(),
            email: email.into(),
            role,
            permissions: role.permissions().to_vec(),
        }
    }

    pub fn may(&self, permission: Permission) -> bool {
        self.permissions.contains(&permission)
    }
}

/// The message of a call refused for want of a permission.
pub const NOT_PERMITTED: &str = "You do not have permission to do this.";

#[derive(Serialize, Deserialize)]
struct Claims {
    #[serde(flatten)]
    caller: Caller,
    iss: String,
    iat: i64,
    exp: i64,
}

/// The key that signs service tokens, shared by the gateway and every service.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Service tokens")]
pub struct TokenSettings {
    /// Base64 of at least 32 bytes (e.g. `openssl rand -base64 32`), the same on the gateway
    /// and every service. Required unless every service runs in the gateway's process.
    #[arg(long, env = "JWT_SIGNING_KEY", hide_env_values = true)]
    pub jwt_signing_key: Option<String>,
}

impl TokenSettings {
    /// The configured key; a random one where `allow_generated` and none is set.
    pub fn key(&self, allow_generated: bool) -> anyhow::Result<TokenKey> {
        match self.jwt_signing_key.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => {
                let secret = base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .map_err(|_| {
                        anyhow::anyhow!(
                            "JWT_SIGNING_KEY must be base64 (e.g. openssl rand -base64 32)"
                        )
                    })?;
                TokenKey::from_secret(&secret).map_err(|e| anyhow::anyhow!("JWT_SIGNING_KEY: {e}"))
            }
            _ if allow_generated => Ok(TokenKey::generate()),
            _ => anyhow::bail!(
                "JWT_SIGNING_KEY is not set; every service and the gateway need the same key"
            ),
        }
    }
}

/// The shared signing key: mints and verifies service tokens.
#[derive(Clone)]
pub struct TokenKey(Arc<Keys>);

struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl TokenKey {
    pub fn from_secret(secret: &[u8]) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= MIN_KEY_BYTES,
            "the token signing key must be at least {MIN_KEY_BYTES} bytes"
        );
        Ok(Self(Arc::new(Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
        })))
    }

    /// A random key, for a process that both mints and verifies (the all-in-one).
    pub fn generate() -> Self {
        let mut secret = [0u8; 32];
        rand::rng().fill_bytes(&mut secret);
        Self::from_secret(&secret).expect("32 bytes")
    }

    pub fn mint(&self, caller: &Caller, lifetime: Duration) -> String {
        self.mint_expiring_at(
            caller,
            chrono::Utc::now().timestamp() + lifetime.as_secs() as i64,
        )
    }

    /// A token that expires at `exp` (Unix seconds); a past one makes an expired token.
    pub fn mint_expiring_at(&self, caller: &Caller, exp: i64) -> String {
        let claims = Claims {
            caller: caller.clone(),
            iss: ISSUER.into(),
            iat: chrono::Utc::now().timestamp(),
            exp,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.0.encoding)
            .expect("HS256 signing cannot fail")
    }

    pub fn verify(&self, token: &str) -> Result<Caller, Status> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.leeway = 5;
        jsonwebtoken::decode::<Claims>(token, &self.0.decoding, &validation)
            .map(|data| data.claims.caller)
            .map_err(|_| Status::unauthenticated("A valid service token is required"))
    }

    /// The caller of a request with `authorization: Bearer <token>`.
    pub fn caller<T>(&self, request: &tonic::Request<T>) -> Result<Caller, Status> {
        let header = request
            .metadata()
            .get("authorization")
            .and_then(|v| v.to_str().ok());
        let token = header
            .and_then(|h| h.strip_prefix("Bearer "))
            .ok_or_else(|| Status::unauthenticated("A service token is required"))?;
        self.verify(token)
    }

    /// The caller, who must hold `permission`.
    pub fn authorize<T>(
        &self,
        request: &tonic::Request<T>,
        permission: Permission,
    ) -> Result<Caller, Status> {
        let caller = self.caller(request)?;
        if caller.may(permission) {
            Ok(caller)
        } else {
            Err(Status::permission_denied(NOT_PERMITTED))
        }
    }
}

#[derive(Serialize)]
struct LinkClaims<'a, T> {
    #[serde(flatten)]
    claims: &'a T,
    iss: &'static str,
    aud: &'a str,
    exp: i64,
}

#[derive(Deserialize)]
struct VerifiedLink<T> {
    #[serde(flatten)]
    claims: T,
}

impl TokenKey {
    /// A signed token for a link or a cookie; `audience` names what it is for, so a token
    /// made for one purpose is refused for every other.
    pub fn sign_link<T: Serialize>(
        &self,
        audience: &str,
        claims: &T,
        lifetime: Duration,
    ) -> String {
        let exp = chrono::Utc::now().timestamp() + lifetime.as_secs() as i64;
        self.sign_link_expiring_at(audience, claims, exp)
    }

    /// A link token that expires at `exp` (Unix seconds); a past one makes an expired token.
    pub fn sign_link_expiring_at<T: Serialize>(
        &self,
        audience: &str,
        claims: &T,
        exp: i64,
    ) -> String {
        let claims = LinkClaims {
            claims,
            iss: LINK_ISSUER,
            aud: audience,
            exp,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.0.encoding)
            .expect("HS256 signing cannot fail")
    }

    /// The claims of a valid, unexpired link token made for `audience`.
    pub fn verify_link<T: serde::de::DeserializeOwned>(
        &self,
        audience: &str,
        token: &str,
    ) -> Option<T> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[LINK_ISSUER]);
        validation.set_audience(&[audience]);
        validation.leeway = 5;
        jsonwebtoken::decode::<VerifiedLink<T>>(token, &self.0.decoding, &validation)
            .ok()
            .map(|data| data.claims.claims)
    }
}

/// A token for the project's own tools (demo loader, seeder), valid for an hour.
pub fn tool_token(key: &TokenKey) -> String {
    let tools = Caller::with_role("tools", "tools@localhost", Role::Admin);
    key.mint(&tools, Duration::from_secs(3600))
}

/// How long a minted token lives: long enough for one call and its retries.
pub const CALL_TOKEN_LIFETIME: Duration = Duration::from_secs(60);

/// A client interceptor that sends a fixed token (tools such as the demo loader, tests).
#[derive(Clone)]
pub struct Bearer(tonic::metadata::MetadataValue<tonic::metadata::Ascii>);

impl Bearer {
    pub fn new(token: &str) -> Self {
        Self(format!("Bearer {token}").parse().expect("a JWT is ASCII"))
    }
}

impl tonic::service::Interceptor for Bearer {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, Status> {
        request
            .metadata_mut()
            .insert("authorization", self.0.clone());
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admin() -> Caller {
        Caller::with_role("u1", "a@example.com", Role::Admin)
    }

    #[test]
    fn roles_grant_what_the_office_needs_and_narrowing_never_widens() {
        use Permission::*;
        let agent = Role::Agent.permissions();
        assert!(agent.contains(&ShipmentsTrack) && !agent.contains(&ShipmentsDelete));
        let manager = Role::Manager.permissions();
        assert!(manager.contains(&UsersRead) && !manager.contains(&UsersManage));
        assert_eq!(Role::Admin.permissions().len(), Permission::ALL.len());
        assert!(Role::User.permissions().is_empty());
        assert_eq!(
            Permission::effective(Role::Agent, &["shipments.read".into(), "audit.read".into()]),
            vec![ShipmentsRead],
            "a name outside the role is ignored"
        );
        assert_eq!(
            Permission::effective(Role::Admin, &["all".into()]).len(),
            Permission::ALL.len(),
            "the first admin's legacy `all` narrows nothing"
        );
        for p in Permission::ALL {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
            assert_eq!(
                serde_json::to_string(&p).unwrap(),
                format!("\"{}\"", p.as_str())
            );
        }
    }

    #[test]
    fn a_minted_token_verifies_with_the_same_key_only() {
        let key = TokenKey::generate();
        let token = key.mint(&admin(), CALL_TOKEN_LIFETIME);
        assert_eq!(key.verify(&token).unwrap(), admin());
        assert!(
            TokenKey::generate().verify(&token).is_err(),
            "another key's token is refused"
        );
        assert!(
            key.verify(&format!("{token}x")).is_err(),
            "a tampered token is refused"
        );
    }

    #[test]
    fn an_expired_token_is_refused() {
        let key = TokenKey::generate();
        let token = key.mint_expiring_at(&admin(), chrono::Utc::now().timestamp() - 60);
        assert!(key.verify(&token).is_err());
    }

    #[test]
    fn short_keys_are_refused() {
        assert!(TokenKey::from_secret(b"too short").is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Grant {
        sub: String,
        party: String,
    }

    #[test]
    fn a_link_token_is_valid_only_for_its_own_purpose() {
        let key = TokenKey::generate();
        let grant = Grant {
            sub: "PSE123456789".into(),
            party: "receiver".into(),
        };
        let token = key.sign_link("tracking-access", &grant, Duration::from_secs(60));
        assert_eq!(
            key.verify_link::<Grant>("tracking-access", &token),
            Some(grant)
        );
        assert!(key.verify_link::<Grant>("unsubscribe", &token).is_none());
        assert!(key.verify(&token).is_err(), "never a service token");
        let service = key.mint(&admin(), CALL_TOKEN_LIFETIME);
        assert!(
            key.verify_link::<Caller>("tracking-access", &service)
                .is_none()
        );
        assert!(
            TokenKey::generate()
                .verify_link::<Grant>("tracking-access", &token)
                .is_none()
        );
    }
}
