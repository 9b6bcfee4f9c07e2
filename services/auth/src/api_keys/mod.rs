//! API keys: made by a customer's admins and by staff, kept as a hash of their secret, and
//! checked by the gateway for every call that carries one (`logistics.v1.ApiKeyService`).

pub mod store;

use std::collections::BTreeMap;
use std::sync::Arc;

use audit::{Action, Actor, AuditEntry, AuditLog};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use logistics_proto::v1::{self as pb, api_key_service_server::ApiKeyService};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use service_auth::{Caller, CustomerScope, Permission, Role};
use service_common::{paging, timestamp};
use tonic::{Request, Response, Status};

use crate::domain::{now, utc_micros};
use crate::error::AuthError;
use crate::service::user_to_proto;
use crate::store::UserStore;
use service_common::optional_utc_micros;
pub use store::{ApiKeyStore, MongoApiKeyStore, SqliteApiKeyStore};

/// What every secret begins with, so a leaked one is recognised (and a scanner can find it).
pub const SECRET_PREFIX: &str = "lk_";
/// Random bytes in a secret: 256 bits, so a fast hash is all its storage needs.
const SECRET_BYTES: usize = 32;
/// Keys not revoked one owner may hold.
pub const MAX_UNREVOKED: u64 = 25;
/// The longest expiry a key may be given.
const LONGEST_LIFETIME_DAYS: i64 = 366;
/// Days of daily usage a key keeps.
const USAGE_DAYS: usize = 14;
/// The most calls one report may add: a gateway lets through far fewer in 2 s.
const MAX_REPORTED_CALLS: i64 = 1_000_000;

/// Calls per minute a key may make, shown on its screen (set by the gateway's
/// API_KEY_RATE_LIMIT_PER_MINUTE, which passes it here).
#[derive(Clone, Copy, Debug)]
pub struct KeyRateLimit(pub u32);

/// Who manages a key: a customer (any of its admins), or one staff user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    Customer(String),
    Staff(String),
}

/// The stored key (collection `api_keys`): never its secret, only the secret's hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    pub id: String,
    pub display_name: String,
    pub scopes: Vec<String>,
    /// SHA-256 of the secret, hex.
    pub secret_hash: String,
    /// The secret's first characters, to tell keys apart.
    pub secret_prefix: String,
    pub creator_id: String,
    pub creator_email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(
        default,
        with = "optional_utc_micros",
        skip_serializing_if = "Option::is_none"
    )]
    pub expires_at: Option<DateTime<Utc>>,
    #[serde(
        default,
        with = "optional_utc_micros",
        skip_serializing_if = "Option::is_none"
    )]
    pub revoked_at: Option<DateTime<Utc>>,
    #[serde(
        default,
        with = "optional_utc_micros",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_used_at: Option<DateTime<Utc>>,
    /// Calls per day (YYYY-MM-DD, UTC), the last 14 days that had any.
    #[serde(default)]
    pub usage: BTreeMap<String, i64>,
    /// Goes up with every usage write: concurrent writers retry rather than lose counts.
    #[serde(default)]
    pub usage_version: i64,
}

impl ApiKey {
    pub fn owner(&self) -> Owner {
        match &self.customer_id {
            Some(customer) => Owner::Customer(customer.clone()),
            None => Owner::Staff(self.creator_id.clone()),
        }
    }

    /// Whether calls with it are refused at `at`.
    pub fn is_dead(&self, at: DateTime<Utc>) -> bool {
        self.revoked_at.is_some() || self.expires_at.is_some_and(|expiry| expiry <= at)
    }

    /// Adds `calls` made up to `at` to the day of `at`.
    fn count_calls(&mut self, calls: i64, at: DateTime<Utc>) {
        *self
            .usage
            .entry(at.format("%Y-%m-%d").to_string())
            .or_default() += calls;
        while self.usage.len() > USAGE_DAYS {
            let oldest = self.usage.keys().next().cloned().expect("not empty");
            self.usage.remove(&oldest);
        }
        if self.last_used_at.is_none_or(|last| last < at) {
            self.last_used_at = Some(at);
        }
        self.usage_version += 1;
    }

    /// How the audit log names it, and the calls made with it.
    pub fn label(&self) -> String {
        service_auth::api_key_label(&self.display_name, &self.secret_prefix)
    }

    fn to_proto(&self, limit: KeyRateLimit) -> pb::ApiKey {
        pb::ApiKey {
            id: self.id.clone(),
            display_name: self.display_name.clone(),
            scopes: self.scopes.clone(),
            secret_prefix: self.secret_prefix.clone(),
            creator_email: self.creator_email.clone(),
            customer_id: self.customer_id.clone().unwrap_or_default(),
            create_time: Some(timestamp::to_proto(self.created_at)),
            expire_time: self.expires_at.map(timestamp::to_proto),
            revoke_time: self.revoked_at.map(timestamp::to_proto),
            last_use_time: self.last_used_at.map(timestamp::to_proto),
            daily_usage: self
                .usage
                .iter()
                .rev()
                .map(|(date, calls)| pb::ApiKeyDailyUsage {
                    date: date.clone(),
                    calls: *calls,
                })
                .collect(),
            rate_limit_per_minute: i32::try_from(limit.0).unwrap_or(i32::MAX),
        }
    }
}

use service_auth::api_key_hash as secret_hash;

/// A new secret: the prefix and 256 random bits, base64url.
fn new_secret() -> String {
    let mut bytes = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    format!("{SECRET_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether `text` has a secret's shape (checked before any lookup).
fn looks_like_secret(text: &str) -> bool {
    text.len() == SECRET_PREFIX.len() + 43
        && text.starts_with(SECRET_PREFIX)
        && text[SECRET_PREFIX.len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The owner of the keys `caller` manages, or PermissionDenied: a customer's admin manages
/// the customer's keys, an office role their own; a customer user, a courier or a staff `user`
/// none.
fn owner_of(caller: &Caller) -> Result<Owner, AuthError> {
    match (caller.role, &caller.customer_id) {
        (Role::CustomerAdmin, Some(customer)) => Ok(Owner::Customer(customer.clone())),
        (Role::Agent | Role::Manager | Role::Admin, None) => Ok(Owner::Staff(caller.sub.clone())),
        _ => Err(AuthError::NotPermitted),
    }
}

/// The scopes asked for, each one `caller` may give, deduplicated in the proto's order.
fn scopes(caller: &Caller, asked: &[String]) -> Result<Vec<String>, AuthError> {
    let allowed: Vec<&'static str> = if caller.role.is_customer() {
        CustomerScope::all().iter().map(|s| s.as_str()).collect()
    } else {
        Permission::all()
            .iter()
            .filter(|p| caller.permissions.contains(p))
            .map(|p| p.as_str())
            .collect()
    };
    if asked.is_empty() {
        return Err(AuthError::invalid(
            "api_key.scopes",
            "choose at least one scope",
        ));
    }
    if let Some(bad) = asked.iter().find(|s| !allowed.contains(&s.as_str())) {
        let bad: String = bad.chars().take(40).collect();
        return Err(AuthError::invalid(
            "api_key.scopes",
            format!(
                "{bad:?} is not a scope you may give (one of: {})",
                allowed.join(", ")
            ),
        ));
    }
    Ok(allowed
        .into_iter()
        .filter(|s| asked.iter().any(|a| a == s))
        .map(str::to_owned)
        .collect())
}

#[derive(Clone)]
pub struct ApiKeyApi {
    keys: Arc<dyn ApiKeyStore>,
    users: Arc<dyn UserStore>,
    audit: Arc<dyn AuditLog>,
    limit: KeyRateLimit,
}

impl ApiKeyApi {
    pub fn new(
        keys: Arc<dyn ApiKeyStore>,
        users: Arc<dyn UserStore>,
        audit: Arc<dyn AuditLog>,
        limit: KeyRateLimit,
    ) -> Self {
        Self {
            keys,
            users,
            audit,
            limit,
        }
    }

    async fn record(&self, entry: AuditEntry) {
        if let Err(e) = self.audit.append(std::slice::from_ref(&entry)).await {
            tracing::error!(error = %e, action = entry.action.as_str(), "audit entry not written");
        }
    }

    /// The new key and its secret.
    async fn create(
        &self,
        caller: &Caller,
        input: pb::ApiKey,
    ) -> Result<(ApiKey, String), AuthError> {
        let owner = owner_of(caller)?;
        let display_name = service_common::text::TextRule::line(100)
            .check(&input.display_name)
            .map_err(|description| AuthError::invalid("api_key.display_name", description))?;
        let scopes = scopes(caller, &input.scopes)?;
        let created_at = now();
        let expires_at = match &input.expire_time {
            None => None,
            Some(t) => {
                let at = timestamp::from_proto(t).filter(|at| {
                    *at > created_at && *at <= created_at + Duration::days(LONGEST_LIFETIME_DAYS)
                });
                Some(at.ok_or_else(|| {
                    AuthError::invalid(
                        "api_key.expire_time",
                        "must be in the future and within a year",
                    )
                })?)
            }
        };
        if self.keys.count_unrevoked(&owner).await? >= MAX_UNREVOKED {
            return Err(AuthError::TooMany(format!(
                "At most {MAX_UNREVOKED} API keys may be in use: revoke one first."
            )));
        }
        let secret = new_secret();
        let key = ApiKey {
            id: service_common::new_id(),
            display_name,
            scopes,
            secret_hash: secret_hash(&secret),
            secret_prefix: secret[..SECRET_PREFIX.len() + 6].to_owned(),
            creator_id: caller.sub.clone(),
            creator_email: caller.email.clone(),
            customer_id: caller.customer_id.clone(),
            created_at,
            expires_at,
            revoked_at: None,
            last_used_at: None,
            usage: BTreeMap::new(),
            usage_version: 0,
        };
        self.keys.insert(&key).await?;
        Ok((key, secret))
    }

    /// The key `id` if `caller` manages it; NotFound for anyone else's.
    async fn managed(&self, caller: &Caller, id: &str) -> Result<ApiKey, AuthError> {
        let owner = owner_of(caller)?;
        if id.is_empty() || id.len() > 64 {
            return Err(AuthError::ApiKeyNotFound);
        }
        let key = self.keys.get(id).await?;
        if key.owner() != owner {
            return Err(AuthError::ApiKeyNotFound);
        }
        Ok(key)
    }

    async fn authenticate(
        &self,
        request: pb::AuthenticateApiKeyRequest,
    ) -> Result<pb::AuthenticateApiKeyResponse, AuthError> {
        if !looks_like_secret(&request.secret) {
            return Err(AuthError::ApiKeyInvalid);
        }
        let Some(key) = self
            .keys
            .find_by_hash(&secret_hash(&request.secret))
            .await?
        else {
            return Err(AuthError::ApiKeyInvalid);
        };
        let at = now();
        if request.calls > 0 {
            let used_at = request
                .last_use_time
                .as_ref()
                .and_then(timestamp::from_proto)
                .filter(|t| *t <= at)
                .unwrap_or(at);
            self.keys
                .add_usage(&key.id, request.calls.min(MAX_REPORTED_CALLS), used_at)
                .await?;
        }
        if key.is_dead(at) {
            return Err(AuthError::ApiKeyInvalid);
        }
        let creator = match self.users.get(&key.creator_id).await {
            Ok(user) => user,
            Err(AuthError::NotFound) => return Err(AuthError::ApiKeyInvalid),
            Err(e) => return Err(e),
        };
        Ok(pb::AuthenticateApiKeyResponse {
            api_key: Some(key.to_proto(self.limit)),
            creator: Some(user_to_proto(&creator)),
        })
    }
}

#[tonic::async_trait]
impl ApiKeyService for ApiKeyApi {
    #[tracing::instrument(skip_all)]
    async fn list_api_keys(
        &self,
        request: Request<pb::ListApiKeysRequest>,
    ) -> Result<Response<pb::ListApiKeysResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let owner = owner_of(&caller)?;
        let request = request.into_inner();
        let page_size = paging::page_size(request.page_size, 50, 100).map_err(AuthError::from)?;
        let after = paging::decode(&request.page_token).map_err(AuthError::from)?;
        let page = self.keys.list(&owner, page_size, after.as_deref()).await?;
        Ok(Response::new(pb::ListApiKeysResponse {
            api_keys: page.keys.iter().map(|k| k.to_proto(self.limit)).collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn create_api_key(
        &self,
        request: Request<pb::CreateApiKeyRequest>,
    ) -> Result<Response<pb::CreateApiKeyResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let input = request.into_inner().api_key.unwrap_or_default();
        let (key, secret) = self.create(&caller, input).await?;
        self.record(
            AuditEntry::new(&actor, Action::ApiKeyCreate, &key.id, key.label())
                .with_summary(format!("Scopes: {}", key.scopes.join(", "))),
        )
        .await;
        Ok(Response::new(pb::CreateApiKeyResponse {
            api_key: Some(key.to_proto(self.limit)),
            secret,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_api_key(
        &self,
        request: Request<pb::RevokeApiKeyRequest>,
    ) -> Result<Response<pb::ApiKey>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = Actor::of(&request, &caller);
        let id = request.into_inner().id;
        let key = self.managed(&caller, &id).await?;
        if key.revoked_at.is_some() {
            return Ok(Response::new(key.to_proto(self.limit)));
        }
        let revoked = self.keys.revoke(&key.id, now()).await?;
        self.record(AuditEntry::new(
            &actor,
            Action::ApiKeyRevoke,
            &key.id,
            key.label(),
        ))
        .await;
        Ok(Response::new(revoked.to_proto(self.limit)))
    }

    #[tracing::instrument(skip_all)]
    async fn authenticate_api_key(
        &self,
        request: Request<pb::AuthenticateApiKeyRequest>,
    ) -> Result<Response<pb::AuthenticateApiKeyResponse>, Status> {
        Ok(Response::new(
            self.authenticate(request.into_inner()).await?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_have_their_shape_and_are_kept_as_a_hash() {
        let secret = new_secret();
        assert!(looks_like_secret(&secret), "{secret}");
        assert_ne!(new_secret(), secret);
        assert_eq!(secret_hash(&secret).len(), 64);
        assert!(!looks_like_secret("lk_short"));
        assert!(!looks_like_secret(&secret.replace("lk_", "xx_")));
    }

    #[test]
    fn usage_keeps_the_last_fourteen_days_and_the_latest_use() {
        let mut key = ApiKey {
            id: "k".into(),
            display_name: "ERP".into(),
            scopes: vec![],
            secret_hash: String::new(),
            secret_prefix: "lk_abcdef".into(),
            creator_id: "u".into(),
            creator_email: "a@example.com".into(),
            customer_id: None,
            created_at: now(),
            expires_at: None,
            revoked_at: None,
            last_used_at: None,
            usage: BTreeMap::new(),
            usage_version: 0,
        };
        let start = now();
        for day in 0..20 {
            key.count_calls(2, start + Duration::days(day));
        }
        key.count_calls(1, start + Duration::days(19));
        key.count_calls(1, start);
        assert_eq!(key.usage.len(), 14);
        assert_eq!(key.usage.values().last(), Some(&3));
        assert_eq!(key.last_used_at, Some(start + Duration::days(19)));
    }

    #[test]
    fn scopes_are_what_the_caller_may_give() {
        let manager = Caller::with_role("u", "m@example.com", Role::Manager);
        assert_eq!(
            scopes(
                &manager,
                &[
                    "shipments.read".into(),
                    "shipments.create".into(),
                    "shipments.read".into()
                ]
            )
            .unwrap(),
            vec!["shipments.read", "shipments.create"]
        );
        assert!(scopes(&manager, &["users.manage".into()]).is_err());
        assert!(scopes(&manager, &[]).is_err());
        let customer = Caller::of_customer("u", "c@example.com", Role::CustomerAdmin, "c1");
        assert!(scopes(&customer, &["shipments.book".into()]).is_ok());
        assert!(scopes(&customer, &["shipments.create".into()]).is_err());
        assert!(
            owner_of(&Caller::of_customer(
                "u",
                "c@example.com",
                Role::CustomerUser,
                "c1"
            ))
            .is_err()
        );
        assert!(owner_of(&Caller::with_role("u", "u@example.com", Role::User)).is_err());
        // A courier's phone signs in as the courier; no key to leak from it.
        assert!(owner_of(&Caller::with_role("u", "c@example.com", Role::Courier)).is_err());
    }
}
