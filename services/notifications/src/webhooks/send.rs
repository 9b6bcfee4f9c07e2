//! Sends one delivery: a JSON POST signed the Standard Webhooks way, no redirects followed,
//! every address the host resolves to checked, the answer read up to a limit.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use outbox::webhooks::{Attempt, Delivery, Endpoint};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use sha2::Sha256;

use super::address::{AddressPolicy, PRIVATE_REFUSED};
use crate::transport::{SendError, retry_after};

/// Of an answer, this much is read (the rest is dropped unread) ...
const READ_AT_MOST: usize = 64 * 1024;
/// ... and this much kept for the Webhooks screen.
const EXCERPT_CHARS: usize = 500;

/// `v1,<base64 of HMAC-SHA256(key, "{id}.{timestamp}.{body}")>` for a `whsec_` secret.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> String {
    let key = base64::engine::general_purpose::STANDARD
        .decode(secret.trim_start_matches("whsec_"))
        .unwrap_or_default();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC takes a key of any size");
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    format!(
        "v1,{}",
        base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
    )
}

/// Resolves host names like the system does, then refuses the answer if any address is one
/// the policy keeps out (so a public name cannot lead to a private address).
struct GuardedResolver {
    policy: AddressPolicy,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy;
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            if addrs.iter().any(|a| !policy.allows(a.ip())) {
                return Err(format!(
                    "{} resolves to an address that {PRIVATE_REFUSED}",
                    name.as_str()
                )
                .into());
            }
            let addrs: Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

/// Every address `url`'s host resolves to, refused if the policy keeps any of them out: the
/// check made before a request goes through a proxy, which resolves the name itself.
async fn check_target(policy: AddressPolicy, url: &reqwest::Url) -> Result<(), SendError> {
    let Some(url::Host::Domain(host)) = url.host() else {
        // An address literal was checked with the URL.
        return Ok(());
    };
    let port = url.port_or_known_default().unwrap_or(0);
    let addrs: Vec<SocketAddr> = match tokio::net::lookup_host((host, port)).await {
        Ok(addrs) => addrs.collect(),
        Err(e) => {
            return Err(SendError::Passing {
                error: format!("could not resolve {host}: {e}"),
                retry_after: None,
            });
        }
    };
    if addrs.is_empty() || addrs.iter().any(|a| !policy.allows(a.ip())) {
        return Err(SendError::Refused(format!(
            "{host} resolves to an address that {PRIVATE_REFUSED}"
        )));
    }
    Ok(())
}

#[derive(Clone)]
pub struct WebhookSender {
    http: reqwest::Client,
    policy: AddressPolicy,
    /// Deliveries go through this proxy (OUTBOUND_PROXY); never through one from the environment.
    proxied: bool,
    user_agent: String,
}

impl WebhookSender {
    pub fn new(
        policy: AddressPolicy,
        timeout: Duration,
        company: &str,
        proxy: Option<&reqwest::Url>,
    ) -> anyhow::Result<Self> {
        let builder = crate::transport::outbound_client(proxy)?
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .connect_timeout(timeout);
        // Through a proxy the only name resolved here is the proxy's, which the operator chose.
        let builder = match proxy {
            Some(_) => builder,
            None => builder.dns_resolver(Arc::new(GuardedResolver { policy })),
        };
        Ok(Self {
            http: builder.build()?,
            policy,
            proxied: proxy.is_some(),
            user_agent: format!("{company} webhooks"),
        })
    }

    /// Sends `delivery` to `endpoint` once, at `now`; says what happened for the log.
    pub async fn send(
        &self,
        endpoint: &Endpoint,
        delivery: &Delivery,
        now: DateTime<Utc>,
    ) -> (Attempt, Result<(), SendError>) {
        let started = Instant::now();
        let (status_code, excerpt, result) = self.exchange(endpoint, delivery, now).await;
        let attempt = Attempt {
            at: now,
            status_code,
            excerpt,
            error: result
                .as_ref()
                .err()
                .map(ToString::to_string)
                .unwrap_or_default(),
            duration_ms: started.elapsed().as_millis().min(u128::from(u32::MAX)) as u32,
        };
        (attempt, result)
    }

    async fn exchange(
        &self,
        endpoint: &Endpoint,
        delivery: &Delivery,
        now: DateTime<Utc>,
    ) -> (u16, String, Result<(), SendError>) {
        // Checked again: the setting may have changed since the endpoint was saved.
        let url = match self.policy.check_url(&endpoint.url) {
            Ok(url) => url,
            Err(reason) => {
                return (
                    0,
                    String::new(),
                    Err(SendError::Refused(format!("URL {reason}"))),
                );
            }
        };
        if self.proxied
            && !self.policy.allow_private
            && let Err(refused) = check_target(self.policy, &url).await
        {
            return (0, String::new(), Err(refused));
        }
        let timestamp = now.timestamp();
        let signatures: Vec<String> = endpoint
            .signing_keys(now)
            .into_iter()
            .map(|key| sign(key, &delivery.event_id, timestamp, &delivery.payload))
            .collect();
        let response = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::USER_AGENT, &self.user_agent)
            .header("webhook-id", &delivery.event_id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signatures.join(" "))
            .body(delivery.payload.clone())
            .send()
            .await;
        let mut response = match response {
            Ok(response) => response,
            Err(e) => {
                let cause = root_cause(&e);
                if cause.contains(PRIVATE_REFUSED) {
                    return (0, String::new(), Err(SendError::Refused(cause)));
                }
                let error = if e.is_timeout() {
                    "timed out".to_owned()
                } else if e.is_connect() {
                    format!("could not connect: {cause}")
                } else {
                    cause
                };
                return (
                    0,
                    String::new(),
                    Err(SendError::Passing {
                        error,
                        retry_after: None,
                    }),
                );
            }
        };
        let status = response.status();
        let wait = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, now));
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut body = Vec::new();
        // A slow or endless answer ends with the request's timeout; a huge one is cut here.
        while body.len() < READ_AT_MOST {
            match response.chunk().await {
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                _ => break,
            }
        }
        let excerpt: String = String::from_utf8_lossy(&body)
            .chars()
            .take(EXCERPT_CHARS)
            .collect();
        let code = status.as_u16();
        let said = format!(
            "HTTP {code} {}",
            status.canonical_reason().unwrap_or_default()
        )
        .trim_end()
        .to_owned();
        let result = if status.is_success() {
            Ok(())
        } else if status.is_redirection() {
            Err(SendError::Refused(match location {
                Some(to) => format!("{said}: redirects are not followed (to {to})"),
                None => format!("{said}: redirects are not followed"),
            }))
        } else if code == 408 || code == 429 || status.is_server_error() {
            Err(SendError::Passing {
                error: said,
                retry_after: wait,
            })
        } else {
            Err(SendError::Refused(said))
        };
        (code, excerpt, result)
    }
}

/// The innermost cause of an HTTP client error: what actually went wrong.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_the_standard_webhooks_example_does() {
        // The example of the Standard Webhooks specification.
        let signature = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }
}
