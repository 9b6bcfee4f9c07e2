//! Service tokens: short-lived HS256 JWTs naming a user and their role. The gateway mints
//! one for each call it forwards; every service verifies signature, expiry and role itself,
//! so an internal tool needs a valid token too.

pub mod access;
pub mod invitation;
pub mod keyfile;

use secrecy::{ExposeSecret, SecretString};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use tonic::Status;

const ISSUER: &str = "logistics";
/// The issuer of link and cookie tokens, so none of them ever passes as a service token.
const LINK_ISSUER: &str = "logistics-links";
/// Smallest signing key accepted, in bytes (HS256 wants at least its hash size).
const MIN_KEY_BYTES: usize = 32;
/// The longest a link or cookie token may live (the unsubscribe links): a retired key keeps
/// verifying this long after it stopped signing.
pub const LONGEST_LINK_LIFETIME: Duration = Duration::from_secs(2 * 365 * 24 * 3600);

/// 32 random bytes: a new signing secret.
fn random_secret() -> [u8; 32] {
    let mut secret = [0u8; 32];
    rand::rng().fill_bytes(&mut secret);
    secret
}

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
    /// A customer's user who also manages the customer's users (portal only).
    CustomerAdmin,
    /// A customer's user: the portal, with that customer's records only.
    CustomerUser,
    /// On the road: finds and views shipments, records their events and proof of delivery.
    Courier,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::User,
        Role::Courier,
        Role::Agent,
        Role::Manager,
        Role::Admin,
        Role::CustomerAdmin,
        Role::CustomerUser,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Agent => "agent",
            Self::Manager => "manager",
            Self::Admin => "admin",
            Self::CustomerAdmin => "customer_admin",
            Self::CustomerUser => "customer_user",
            Self::Courier => "courier",
        }
    }

    /// A role of a customer's users, which never holds a staff permission.
    pub fn is_customer(self) -> bool {
        matches!(self, Self::CustomerAdmin | Self::CustomerUser)
    }

    /// The API's role; UNSPECIFIED and unknown numbers are None.
    pub fn from_proto(value: i32) -> Option<Self> {
        use logistics_proto::v1::Role as Pb;
        match Pb::try_from(value).ok()? {
            Pb::User => Some(Self::User),
            Pb::Agent => Some(Self::Agent),
            Pb::Manager => Some(Self::Manager),
            Pb::Admin => Some(Self::Admin),
            Pb::CustomerAdmin => Some(Self::CustomerAdmin),
            Pb::CustomerUser => Some(Self::CustomerUser),
            Pb::Courier => Some(Self::Courier),
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
            Self::CustomerAdmin => Pb::CustomerAdmin,
            Self::CustomerUser => Pb::CustomerUser,
            Self::Courier => Pb::Courier,
        }
    }

    /// Everything the role may do, unless an admin narrows it for one user.
    pub fn permissions(self) -> &'static [Permission] {
        use Permission::*;
        match self {
            Self::User | Self::CustomerAdmin | Self::CustomerUser => &[],
            Self::Courier => &[ShipmentsRead, ShipmentsTrack, DeliveriesRecord],
            Self::Agent => &[
                ShipmentsRead,
                ShipmentsTrack,
                DeliveriesRecord,
                PickupsManage,
                ExceptionsManage,
            ],
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
                CustomersRead,
                PickupsManage,
                ExceptionsManage,
            ],
            Self::Admin => Permission::all(),
        }
    }

    /// What a user with this role may do when an admin stored `narrowed` for them: the role's
    /// permissions, or those of them named (an empty list, or the first admin's legacy
    /// `all`, narrows nothing; names outside the role never widen it).
    pub fn narrowed(self, narrowed: &[String]) -> Vec<Permission> {
        let defaults = self.permissions();
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

impl std::str::FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|role| role.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "unknown role {text:?} (user, courier, agent, manager, admin, customer_admin or customer_user)"
                )
            })
    }
}

pub use logistics_proto::v1::{CustomerScope, Permission};

/// Permissions as their names (`shipments.read`) in tokens; an unknown name makes the token
/// invalid.
mod permission_names {
    use super::Permission;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(permissions: &[Permission], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(permissions.iter().map(|p| p.as_str()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Permission>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|name| {
                Permission::parse(name)
                    .ok_or_else(|| D::Error::custom(format!("unknown permission {name:?}")))
            })
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
    #[serde(default, with = "permission_names")]
    pub permissions: Vec<Permission>,
    /// The customer a customer's user acts for; None for staff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    /// The API key the call was made with, as the audit log names it (`Warehouse ERP
    /// (lk_7f3a9c)`); None for a session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
}

impl Caller {
    /// A caller with every permission of `role`.
    pub fn with_role(sub: impl Into<String>, email: impl Into<String>, role: Role) -> Self {
        Self {
            sub: sub.into(),
            email: email.into(),
            role,
            permissions: role.permissions().to_vec(),
            customer_id: None,
            api_key: None,
        }
    }

    /// A user of `customer_id` in one of the customer roles.
    pub fn of_customer(
        sub: impl Into<String>,
        email: impl Into<String>,
        role: Role,
        customer_id: impl Into<String>,
    ) -> Self {
        debug_assert!(role.is_customer());
        Self {
            customer_id: Some(customer_id.into()),
            ..Self::with_role(sub, email, role)
        }
    }

    /// The customer whose records alone this caller may see: Some for a customer's user.
    pub fn customer(&self) -> Option<&str> {
        self.customer_id
            .as_deref()
            .filter(|_| self.role.is_customer())
    }

    pub fn may(&self, permission: Permission) -> bool {
        self.permissions.contains(&permission)
    }
}

/// The message of a call refused for want of a permission.
/// How an API key's secret is kept and found: SHA-256, hex. A secret holds 256 random bits,
/// so a fast hash is enough (a slow one would only slow every call).
pub fn api_key_hash(secret: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How the audit log names an API key: its name and the first characters of its secret.
pub fn api_key_label(display_name: &str, secret_prefix: &str) -> String {
    format!("{display_name} ({secret_prefix})")
}

pub const NOT_PERMITTED: &str = "You do not have permission to do this.";

#[derive(Serialize, Deserialize)]
struct Claims {
    #[serde(flatten)]
    caller: Caller,
    iss: String,
    iat: i64,
    exp: i64,
}

/// A secret setting: `Debug` shows `[REDACTED]`.
fn secret(text: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(text))
}

/// The keys that sign service tokens, links and cookies, shared by the gateway and every
/// service.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Service tokens")]
pub struct TokenSettings {
    /// Base64 of at least 32 bytes (e.g. `openssl rand -base64 32`), the same on the gateway
    /// and every service. Required unless every service runs in the gateway's process (then,
    /// unset, the key is made once and kept in DATA_DIR/signing-keys.json).
    #[arg(long, env = "JWT_SIGNING_KEY", hide_env_values = true, value_parser = secret)]
    pub jwt_signing_key: Option<SecretString>,
    /// Keys that signed before JWT_SIGNING_KEY, comma-separated base64: what they signed still
    /// verifies, nothing new is signed with them. Keep one for two years (the unsubscribe
    /// links' lifetime) after it stopped signing.
    #[arg(
        long,
        env = "JWT_PREVIOUS_SIGNING_KEYS",
        hide_env_values = true,
        value_delimiter = ',',
        value_parser = secret
    )]
    pub jwt_previous_signing_keys: Vec<SecretString>,
}

impl TokenSettings {
    /// The configured keys; without JWT_SIGNING_KEY, those of the key file in `key_file_dir`
    /// (made there on first use) where one is given.
    pub fn key(&self, key_file_dir: Option<&std::path::Path>) -> anyhow::Result<TokenKey> {
        let previous: Vec<&str> = self
            .jwt_previous_signing_keys
            .iter()
            .map(|k| k.expose_secret().trim())
            .filter(|k| !k.is_empty())
            .collect();
        match self
            .jwt_signing_key
            .as_ref()
            .map(|k| k.expose_secret().trim())
        {
            Some(text) if !text.is_empty() => {
                let current = decode_secret("JWT_SIGNING_KEY", text)?;
                let retired = previous
                    .iter()
                    .enumerate()
                    .map(|(i, text)| {
                        decode_secret(&format!("JWT_PREVIOUS_SIGNING_KEYS (key {})", i + 1), text)
                    })
                    .collect::<anyhow::Result<Vec<_>>>()?;
                TokenKey::with_retired(&current, &retired)
            }
            _ if !previous.is_empty() => anyhow::bail!(
                "JWT_PREVIOUS_SIGNING_KEYS is set but JWT_SIGNING_KEY is not: set the key that \
                 signs now in JWT_SIGNING_KEY"
            ),
            _ => match key_file_dir {
                Some(dir) => keyfile::load_or_create(dir),
                None => anyhow::bail!(
                    "JWT_SIGNING_KEY is not set; every service and the gateway need the same key"
                ),
            },
        }
    }
}

/// A base64 secret of at least MIN_KEY_BYTES, or an error naming `field`.
fn decode_secret(field: &str, text: &str) -> anyhow::Result<Vec<u8>> {
    let secret = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|_| anyhow::anyhow!("{field} must be base64 (e.g. openssl rand -base64 32)"))?;
    anyhow::ensure!(
        secret.len() >= MIN_KEY_BYTES,
        "{field}: the token signing key must be at least {MIN_KEY_BYTES} bytes"
    );
    Ok(secret)
}

/// The signing keys: mint and verify service tokens, links and cookies. One key signs; every
/// key (it and the retired ones) verifies what names it by its id (`kid`).
#[derive(Clone)]
pub struct TokenKey(Arc<Keys>);

struct Keys {
    signing: Key,
    retired: Vec<Key>,
}

struct Key {
    id: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
    mac: Hmac<sha2::Sha256>,
}

impl Key {
    fn new(secret: &[u8]) -> Self {
        Self {
            id: key_id(secret),
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            mac: Hmac::new_from_slice(secret).expect("HMAC takes a key of any size"),
        }
    }

    /// The HMAC of a compact link: audience, subject and end, each on its own line.
    fn compact_mac(&self, audience: &str, subject: &str, exp: i64) -> Hmac<sha2::Sha256> {
        let mut mac = self.mac.clone();
        mac.update(format!("{LINK_ISSUER}\n{audience}\n{subject}\n{exp}").as_bytes());
        mac
    }
}

/// Bytes of HMAC a compact link keeps: 128 bits, 22 base64url characters.
const COMPACT_MAC_BYTES: usize = 16;

/// A key's id: the start of its SHA-256, so every process derives the same id from the same
/// secret and a token names its key without revealing it.
pub fn key_id(secret: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(secret)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl TokenKey {
    pub fn from_secret(secret: &[u8]) -> anyhow::Result<Self> {
        Self::with_retired(secret, &[])
    }

    /// `current` signs; `current` and every `retired` key verify.
    pub fn with_retired(current: &[u8], retired: &[Vec<u8>]) -> anyhow::Result<Self> {
        for secret in std::iter::once(current).chain(retired.iter().map(Vec::as_slice)) {
            anyhow::ensure!(
                secret.len() >= MIN_KEY_BYTES,
                "the token signing key must be at least {MIN_KEY_BYTES} bytes"
            );
        }
        Ok(Self(Arc::new(Keys {
            signing: Key::new(current),
            retired: retired.iter().map(|s| Key::new(s)).collect(),
        })))
    }

    /// A random key, for a process that both mints and verifies (the all-in-one).
    pub fn generate() -> Self {
        Self::from_secret(&random_secret()).expect("32 bytes")
    }

    /// The id (`kid`) of the key that signs.
    pub fn signing_id(&self) -> &str {
        &self.0.signing.id
    }

    fn header(&self) -> Header {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(self.0.signing.id.clone());
        header
    }

    /// The claims of `token` if one of the keys signed it and `validation` passes: the key its
    /// `kid` names, or (a token from before key ids) any key.
    fn decode<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        validation: &Validation,
    ) -> Option<T> {
        let kid = jsonwebtoken::decode_header(token).ok()?.kid;
        std::iter::once(&self.0.signing)
            .chain(&self.0.retired)
            .filter(|key| kid.as_deref().is_none_or(|kid| kid == key.id))
            .find_map(|key| jsonwebtoken::decode::<T>(token, &key.decoding, validation).ok())
            .map(|data| data.claims)
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
        jsonwebtoken::encode(&self.header(), &claims, &self.0.signing.encoding)
            .expect("HS256 signing cannot fail")
    }

    pub fn verify(&self, token: &str) -> Result<Caller, Status> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.leeway = 5;
        self.decode::<Claims>(token, &validation)
            .map(|claims| claims.caller)
            .ok_or_else(|| Status::unauthenticated("A valid service token is required"))
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
        jsonwebtoken::encode(&self.header(), &claims, &self.0.signing.encoding)
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
        self.decode::<VerifiedLink<T>>(token, &validation)
            .map(|link| link.claims)
    }
}

impl TokenKey {
    /// A short link token, `<end in base 36>.<22 characters>`: a 128-bit HMAC of `audience`,
    /// `subject` and the end `exp` (Unix seconds). Unlike `sign_link` it carries no claims, so
    /// the verifier must know `subject` already; it fits on one line of an e-mail.
    pub fn sign_compact(&self, audience: &str, subject: &str, exp: i64) -> String {
        let tag = self
            .0
            .signing
            .compact_mac(audience, subject, exp)
            .finalize();
        let tag = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(&tag.into_bytes()[..COMPACT_MAC_BYTES]);
        format!("{}.{tag}", to_base36(exp))
    }

    /// The end (Unix seconds) of a valid, unexpired `sign_compact` token for `audience` and
    /// `subject`, signed by the current key or a retired one.
    pub fn verify_compact(&self, audience: &str, subject: &str, token: &str) -> Option<i64> {
        let (exp, tag) = token.split_once('.')?;
        let exp = i64::from_str_radix(exp, 36).ok().filter(|exp| *exp > 0)?;
        let tag = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(tag)
            .ok()
            .filter(|tag| tag.len() == COMPACT_MAC_BYTES)?;
        if exp + 5 < chrono::Utc::now().timestamp() {
            return None;
        }
        std::iter::once(&self.0.signing)
            .chain(&self.0.retired)
            .any(|key| {
                key.compact_mac(audience, subject, exp)
                    .verify_truncated_left(&tag)
                    .is_ok()
            })
            .then_some(exp)
    }
}

fn to_base36(mut n: i64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n.rem_euclid(36)) as usize]);
        n = n.div_euclid(36);
        if n <= 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
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
        assert_eq!(Role::Admin.permissions().len(), Permission::all().len());
        assert!(Role::User.permissions().is_empty());
        // A courier records what happens on the road and sees no other back-office screen.
        assert_eq!(
            Role::Courier.permissions(),
            [ShipmentsRead, ShipmentsTrack, DeliveriesRecord]
        );
        assert_eq!("courier".parse::<Role>(), Ok(Role::Courier));
        assert_eq!(Role::from_proto(7), Some(Role::Courier));
        assert_eq!(
            Role::Agent.narrowed(&["shipments.read".into(), "audit.read".into()]),
            vec![ShipmentsRead],
            "a name outside the role is ignored"
        );
        assert_eq!(
            Role::Admin.narrowed(&["all".into()]).len(),
            Permission::all().len(),
            "the first admin's legacy `all` narrows nothing"
        );
        for &p in Permission::all() {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
        }
        // Tokens name permissions as the API does.
        let agent = Caller::with_role("u2", "b@example.com", Role::Agent);
        let json = serde_json::to_value(&agent).unwrap();
        assert_eq!(
            json["permissions"],
            serde_json::json!([
                "shipments.read",
                "shipments.track",
                "deliveries.record",
                "pickups.manage",
                "exceptions.manage"
            ])
        );
        assert_eq!(serde_json::from_value::<Caller>(json).unwrap(), agent);
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

    #[test]
    fn previous_keys_verify_what_they_signed_and_unknown_keys_nothing() {
        let (old, new) = ([1u8; 32], [2u8; 32]);
        let before = TokenKey::from_secret(&old).unwrap();
        let after = TokenKey::with_retired(&new, &[old.to_vec()]).unwrap();
        let grant = Grant {
            sub: "PSE123456789".into(),
            party: "receiver".into(),
        };
        let link = before.sign_link("tracking-access", &grant, Duration::from_secs(60));
        assert_eq!(after.verify_link("tracking-access", &link), Some(grant));
        let service = before.mint(&admin(), CALL_TOKEN_LIFETIME);
        assert_eq!(after.verify(&service).unwrap(), admin());
        assert_eq!(
            after
                .verify(&after.mint(&admin(), CALL_TOKEN_LIFETIME))
                .unwrap(),
            admin()
        );
        let stranger = TokenKey::from_secret(&[3u8; 32]).unwrap();
        assert!(
            after
                .verify(&stranger.mint(&admin(), CALL_TOKEN_LIFETIME))
                .is_err()
        );
        assert!(
            TokenKey::from_secret(&new)
                .unwrap()
                .verify(&service)
                .is_err(),
            "a key no longer listed verifies nothing"
        );

        // A token from before key ids (no `kid`) still verifies with any listed key.
        let claims = Claims {
            caller: admin(),
            iss: ISSUER.into(),
            iat: chrono::Utc::now().timestamp(),
            exp: chrono::Utc::now().timestamp() + 60,
        };
        let legacy = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(&old),
        )
        .unwrap();
        assert_eq!(after.verify(&legacy).unwrap(), admin());
        assert!(stranger.verify(&legacy).is_err());
    }

    #[test]
    fn a_compact_link_is_short_and_valid_only_for_its_audience_subject_and_keys() {
        let (old, new) = ([1u8; 32], [2u8; 32]);
        let before = TokenKey::from_secret(&old).unwrap();
        let after = TokenKey::with_retired(&new, &[old.to_vec()]).unwrap();
        let exp = chrono::Utc::now().timestamp() + 30 * 24 * 3600;
        let token = before.sign_compact("tracking-access", "PSE123456789 r", exp);
        assert!(token.len() <= 30, "{token}");
        assert_eq!(
            after.verify_compact("tracking-access", "PSE123456789 r", &token),
            Some(exp),
            "a retired key still verifies"
        );
        for (audience, subject, token) in [
            ("subscription-confirm", "PSE123456789 r", token.clone()),
            ("tracking-access", "PSE123456789 s", token.clone()),
            ("tracking-access", "PSE123456789 r", format!("{token}A")),
            (
                "tracking-access",
                "PSE123456789 r",
                token.replacen('.', "0.", 1),
            ),
        ] {
            assert_eq!(before.verify_compact(audience, subject, &token), None);
        }
        assert_eq!(
            TokenKey::generate().verify_compact("tracking-access", "PSE123456789 r", &token),
            None
        );
        let ended =
            before.sign_compact("tracking-access", "x", chrono::Utc::now().timestamp() - 60);
        assert_eq!(before.verify_compact("tracking-access", "x", &ended), None);
    }
}
