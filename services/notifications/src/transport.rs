//! Sends one notification: through the e-mail API (reqwest), or into the local outbox.

use std::time::Duration;

use outbox::{Notification, Template};
use serde_json::json;

use crate::config::{EmailApiConfig, MailConfig};

/// The version of the EmailJS browser library whose request the API expects.
pub const LIB_VERSION: &str = "4.4.1";
pub const SEND_PATH: &str = "/api/v1.0/email/send";

/// Why a send did not succeed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SendError {
    /// 429, 5xx, a timeout or a network failure: worth trying again.
    #[error("{0}")]
    Passing(String),
    /// 400, 403 and the like: trying again would fail the same way.
    #[error("{0}")]
    Refused(String),
    /// Sending is impossible until the configuration is fixed.
    #[error("{0}")]
    NotConfigured(String),
}

#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // built once per process
pub enum Transport {
    LocalOutbox,
    EmailApi {
        config: EmailApiConfig,
        http: reqwest::Client,
    },
    NotConfigured(String),
}

impl Transport {
    /// `timeout` bounds each API request.
    pub fn new(config: &MailConfig, timeout: Duration) -> anyhow::Result<Self> {
        Ok(match config {
            MailConfig::LocalOutbox => Transport::LocalOutbox,
            MailConfig::Missing(_) => {
                Transport::NotConfigured(config.problem().unwrap_or_default())
            }
            MailConfig::EmailApi(api) => Transport::EmailApi {
                config: api.clone(),
                http: reqwest::Client::builder()
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
        };
        let mut body = json!({
            "lib_version": LIB_VERSION,
            "user_id": account.public_key,
            "service_id": account.service_id,
            "template_id": template_id,
            "template_params": n.params,
        });
        if let Some(key) = &account.private_key {
            body["accessToken"] = json!(key);
        }
        let url = format!("{}{SEND_PATH}", config.base_url.trim_end_matches('/'));
        let response = http
            .post(url)
            .header("Idempotency-Key", &n.id)
            .json(&body)
            .send()
            .await
            .map_err(|e| {
                SendError::Passing(format!(
                    "0 Network Error: {}",
                    if e.is_timeout() {
                        "timed out".to_owned()
                    } else {
                        e.to_string()
                    }
                ))
            })?;
        let status = response.status();
        if status.as_u16() == 200 {
            return Ok(());
        }
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
            Err(SendError::Passing(said))
        } else {
            Err(SendError::Refused(said))
        }
    }
}
