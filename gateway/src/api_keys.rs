//! Calls made with an API key (`Authorization: Bearer lk_…`): the auth service says whose key
//! it is, again after at most `RECHECK_AFTER`, so a revoked key, a disabled creator or a
//! suspended customer is refused within seconds; the key's scopes decide which methods it
//! reaches, within its calls per minute; the calls it made are reported back as its usage.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use chrono::{DateTime, Utc};
use http::HeaderMap;
use logistics_proto::v1::{self as pb, api_key_service_client::ApiKeyServiceClient};
use service_auth::access::{Audience, KeyScope};
use service_auth::{Caller, NOT_PERMITTED};
use tonic::{Code, Status};

use crate::access::{CurrentUser, RECHECK_AFTER};
use crate::limits::RateLimit;
use crate::upstream::Upstream;

/// How often the calls counted since the last check are reported for keys no longer in use.
const REPORT_EVERY: Duration = Duration::from_secs(5);

pub const INVALID_KEY: &str = "This API key is not valid.";
const NOT_FOR_KEYS: &str = "This method cannot be called with an API key.";

/// The secret of a call's `Authorization: Bearer …`, if it has one.
pub fn secret(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, secret) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| secret.trim())
}

/// Whether the call carries credentials of its own rather than a browser's cookie.
pub fn carries_key(headers: &HeaderMap) -> bool {
    headers.contains_key(http::header::AUTHORIZATION)
}

/// A key as the auth service last described it, with its creator as stored then.
#[derive(Clone)]
struct Holder {
    key: pb::ApiKey,
    creator: CurrentUser,
}

/// Calls let through since the key was last checked.
#[derive(Clone, Copy)]
struct Pending {
    calls: i64,
    last: DateTime<Utc>,
}

#[derive(Clone)]
pub struct ApiKeys {
    auth: Upstream,
    /// By the secret's hash: never the secret itself as a key of a long-lived map.
    holders: moka::sync::Cache<String, Holder>,
    /// By secret: what to report at the next check.
    pending: Arc<Mutex<HashMap<String, Pending>>>,
    per_minute: Arc<RateLimit>,
}

impl ApiKeys {
    /// Keys checked with the auth service at `auth`, counted per minute in `per_minute`
    /// (whose own limit is unused: each key's comes from the auth service).
    pub fn new(auth: Upstream, per_minute: RateLimit) -> Self {
        let keys = Self {
            auth,
            holders: moka::sync::Cache::builder()
                .max_capacity(100_000)
                .time_to_live(RECHECK_AFTER)
                .build(),
            pending: Arc::default(),
            per_minute: Arc::new(per_minute),
        };
        keys.keep_reporting();
        keys
    }

    pub fn forget(&self) {
        self.holders.invalidate_all();
    }

    /// Reports the calls of keys that went quiet, every few seconds, while these keys exist.
    fn keep_reporting(&self) {
        let (Ok(runtime), pending) = (
            tokio::runtime::Handle::try_current(),
            Arc::downgrade(&self.pending),
        ) else {
            return;
        };
        let auth = self.auth.clone();
        runtime.spawn(async move {
            let mut every = tokio::time::interval(REPORT_EVERY);
            loop {
                every.tick().await;
                let Some(drained) = take_all(&pending) else {
                    return;
                };
                for (secret, calls) in drained {
                    // A failed report is dropped: usage is a figure for people, not a bill.
                    let _ = authenticate(&auth, &secret, Some(calls)).await;
                }
            }
        });
    }

    /// The caller a call with `secret` is made as, for a method of `audience` needing
    /// `scope`: refused when the key is not valid, lacks the scope, its creator may no
    /// longer call the method, or it made its calls for this minute.
    pub async fn caller(
        &self,
        secret: &str,
        audience: Audience,
        scope: Option<KeyScope>,
        customer_state: impl AsyncFnOnce(CurrentUser) -> Result<CurrentUser, Status>,
    ) -> Result<Caller, Status> {
        let Some(scope) = scope else {
            return Err(Status::permission_denied(NOT_FOR_KEYS));
        };
        let hash = service_auth::api_key_hash(secret);
        let holder = match self.holders.get(&hash) {
            Some(holder) => holder,
            None => {
                let calls = self.pending.lock().expect("not poisoned").remove(secret);
                let holder = self.fetch(secret, calls, customer_state).await?;
                self.holders.insert(hash, holder.clone());
                holder
            }
        };
        let Holder { key, creator } = holder;
        if creator.disabled {
            return Err(Status::unauthenticated(INVALID_KEY));
        }
        if !key.scopes.iter().any(|s| s == scope.as_str()) {
            return Err(Status::permission_denied(format!(
                "This API key does not have the scope \"{}\".",
                scope.as_str()
            )));
        }
        if !creator.admitted_to(audience) {
            return Err(Status::permission_denied(NOT_PERMITTED));
        }
        // Fails open, as the other limits do: a store outage must not stop integrations.
        let limit = u64::try_from(key.rate_limit_per_minute).unwrap_or(0);
        if self.per_minute.count_hit(&key.id).await.unwrap_or(0) > limit {
            return Err(Status::resource_exhausted(format!(
                "Too many calls with this API key: at most {limit} a minute."
            )));
        }
        let now = Utc::now();
        self.pending
            .lock()
            .expect("not poisoned")
            .entry(secret.to_owned())
            .and_modify(|p| {
                p.calls += 1;
                p.last = now;
            })
            .or_insert(Pending {
                calls: 1,
                last: now,
            });
        let mut caller = creator.caller();
        // A staff key holds the scopes it was given of what its creator may do now.
        caller
            .permissions
            .retain(|p| key.scopes.iter().any(|s| s == p.as_str()));
        caller.api_key = Some(service_auth::api_key_label(
            &key.display_name,
            &key.secret_prefix,
        ));
        Ok(caller)
    }

    async fn fetch(
        &self,
        secret: &str,
        calls: Option<Pending>,
        customer_state: impl AsyncFnOnce(CurrentUser) -> Result<CurrentUser, Status>,
    ) -> Result<Holder, Status> {
        let reply = authenticate(&self.auth, secret, calls).await?;
        let (Some(key), Some(creator)) = (reply.api_key, reply.creator) else {
            return Err(Status::unauthenticated(INVALID_KEY));
        };
        let creator =
            CurrentUser::from_proto(creator).ok_or_else(|| Status::unauthenticated(INVALID_KEY))?;
        Ok(Holder {
            key,
            creator: customer_state(creator).await?,
        })
    }
}

/// Everything pending, emptied; None once the keys it belonged to are gone.
fn take_all(pending: &Weak<Mutex<HashMap<String, Pending>>>) -> Option<Vec<(String, Pending)>> {
    let pending = pending.upgrade()?;
    let mut pending = pending.lock().expect("not poisoned");
    Some(pending.drain().collect())
}

/// Asks the auth service whose key `secret` is, reporting `calls` made with it.
async fn authenticate(
    auth: &Upstream,
    secret: &str,
    calls: Option<Pending>,
) -> Result<pb::AuthenticateApiKeyResponse, Status> {
    let request = pb::AuthenticateApiKeyRequest {
        secret: secret.to_owned(),
        calls: calls.map_or(0, |p| p.calls),
        last_use_time: calls.map(|p| service_common::timestamp::to_proto(p.last)),
    };
    match ApiKeyServiceClient::new(auth.clone())
        .authenticate_api_key(request)
        .await
    {
        Ok(reply) => Ok(reply.into_inner()),
        Err(status) if status.code() == Code::Unauthenticated => {
            Err(Status::unauthenticated(INVALID_KEY))
        }
        Err(status) => {
            tracing::warn!(error = %status.message(), "API keys unavailable");
            Err(Status::unavailable(
                "API keys cannot be checked right now. Please try again shortly.",
            ))
        }
    }
}
