//! Sends one notification: through the e-mail API (reqwest), the company's SMTP server, or
//! into the local outbox.

use std::sync::Arc;
use std::time::Duration;

use outbox::{Notification, Template};
use serde_json::json;
use service_common::settings::ExposeSecret;

use crate::config::{EmailApiConfig, MailConfig};
use crate::render::Renderer;
use crate::smtp::SmtpSender;

/// The version of the EmailJS browser library whose request the API expects.
pub const LIB_VERSION: &str = "4.4.1";
pub const SEND_PATH: &str = "/api/v1.0/email/send";

pub use crate::send_error::SendError;

/// An HTTP client builder that uses `proxy` when one is set and otherwise connects directly:
/// HTTP_PROXY, HTTPS_PROXY and ALL_PROXY in the environment are never used.
pub fn outbound_client(proxy: Option<&reqwest::Url>) -> anyhow::Result<reqwest::ClientBuilder> {
    let builder = reqwest::Client::builder();
    Ok(match proxy {
        Some(url) => builder.proxy(reqwest::Proxy::all(url.clone())?),
        None => builder.no_proxy(),
    })
}

#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // built once per process
pub enum Transport {
    LocalOutbox,
    EmailApi {
        config: EmailApiConfig,
        http: reqwest::Client,
    },
    Smtp(Arc<SmtpSender>),
    NotConfigured(String),
}

impl Transport {
    /// `timeout` bounds each API request or SMTP command; SMTP e-mails are written by
    /// `renderer`; API requests go through `proxy` when set.
    pub fn new(
        config: &MailConfig,
        timeout: Duration,
        renderer: Arc<Renderer>,
        proxy: Option<&reqwest::Url>,
    ) -> anyhow::Result<Self> {
        Ok(match config {
            MailConfig::LocalOutbox => Transport::LocalOutbox,
            MailConfig::Missing(_) | MailConfig::Invalid(_) => {
                Transport::NotConfigured(config.problem().unwrap_or_default())
            }
            MailConfig::Smtp(smtp) => {
                Transport::Smtp(Arc::new(SmtpSender::new(smtp, renderer, timeout)?))
            }
            MailConfig::EmailApi(api) => Transport::EmailApi {
                config: api.clone(),
                http: outbound_client(proxy)?
                    .timeout(timeout)
                    .connect_timeout(timeout)
                    .build()?,
            },
        })
    }

    pub fn problem(&self) -> Option<&str> {
        match self {
            Transport::NotConfigured(problem) => Some(problem),
            _ => None,
        }
    }

    pub fn is_local(&self) -> bool {
        matches!(self, Transport::LocalOutbox)
    }

    /// Sends `n` once. The notification id goes along as an idempotency key.
    pub async fn send(&self, n: &Notification) -> Result<(), SendError> {
        let (config, http) = match self {
            // The outbox row itself, marked sent, is the delivered e-mail the admin reads.
            Transport::LocalOutbox => return Ok(()),
            Transport::NotConfigured(problem) => {
                return Err(SendError::NotConfigured(problem.clone()));
            }
            Transport::Smtp(smtp) => return smtp.send(n).await,
            Transport::EmailApi { config, http } => (config, http),
        };
        let optional = |template: &Option<String>, variable: &str| {
            template.clone().ok_or_else(|| {
                SendError::NotConfigured(format!(
                    "Missing required environment variables: {variable}"
                ))
            })
        };
        let (account, template_id) = match n.template {
            Template::Shipper => (&config.shipments, config.shipper_template.clone()),
            Template::Receiver => (&config.shipments, config.receiver_template.clone()),
            Template::StatusUpdate => (
                &config.shipments,
                optional(&config.update_template, "EMAILJS_UPDATE_TEMPLATE_ID")?,
            ),
            Template::SubscriptionConfirmation => (
                &config.shipments,
                optional(
                    &config.subscription_template,
                    "EMAILJS_SUBSCRIPTION_TEMPLATE_ID",
                )?,
            ),
            Template::Contact => (&config.contact, config.contact_template.clone()),
            Template::Alert => (
                &config.shipments,
                optional(&config.alert_template, "EMAILJS_ALERT_TEMPLATE_ID")?,
            ),
            Template::CustomerInvitation => (
                &config.shipments,
                optional(
                    &config.invitation_template,
                    "EMAILJS_INVITATION_TEMPLATE_ID",
                )?,
            ),
            Template::PickupConfirmed => (
                &config.shipments,
                optional(&config.pickup_template, "EMAILJS_PICKUP_TEMPLATE_ID")?,
            ),
            Template::AccountRequestDeclined => (
                &config.shipments,
                optional(
                    &config.account_declined_template,
                    "EMAILJS_ACCOUNT_DECLINED_TEMPLATE_ID",
                )?,
            ),
            Template::ExceptionDigest => (
                &config.shipments,
                optional(&config.digest_template, "EMAILJS_DIGEST_TEMPLATE_ID")?,
            ),
        };
        let mut body = json!({
            "lib_version": LIB_VERSION,
            "user_id": account.public_key,
            "service_id": account.service_id,
            "template_id": template_id,
            "template_params": n.params,
        });
        if let Some(key) = &account.private_key {
            body["accessToken"] = json!(key.expose_secret());
        }
        let url = format!("{}{SEND_PATH}", config.base_url.trim_end_matches('/'));
        let response = http
            .post(url)
            .header("Idempotency-Key", &n.id)
            .json(&body)
            .send()
            .await
            .map_err(|e| SendError::Passing {
                error: format!(
                    "0 Network Error: {}",
                    if e.is_timeout() {
                        "timed out".to_owned()
                    } else {
                        e.to_string()
                    }
                ),
                retry_after: None,
            })?;
        let status = response.status();
        if status.as_u16() == 200 {
            return Ok(());
        }
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, chrono::Utc::now()));
        let text = response.text().await.unwrap_or_default();
        let reason = match status.as_u16() {
            451 => "Unavailable For Headless Browser",
            _ => status.canonical_reason().unwrap_or(""),
        };
        let said = format!(
            "{} {reason}{}",
            status.as_u16(),
            if text.is_empty() {
                String::new()
            } else {
                format!(": {}", text.chars().take(200).collect::<String>())
            }
        );
        if status.as_u16() == 429 || status.is_server_error() {
            Err(SendError::Passing {
                error: said,
                retry_after,
            })
        } else {
            Err(SendError::Refused(said))
        }
    }
}

/// A `Retry-After` value, in seconds or as an HTTP date, as a wait from `now`.
pub fn retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    Some((at.to_utc() - now).to_std().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-25T07:28:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(
            retry_after("Wed, 25 Nov 2026 07:30:30 GMT", now),
            Some(Duration::from_secs(150))
        );
        assert_eq!(
            retry_after("Wed, 25 Nov 2026 07:00:00 GMT", now),
            Some(Duration::ZERO),
            "a date in the past means now"
        );
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-5", now), None);
    }
}
