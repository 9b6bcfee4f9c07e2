//! The webhook worker: claims due deliveries one at a time and sends them, retried like
//! e-mail; an endpoint that keeps failing for the whole retry window is disabled and the
//! admins are told by e-mail.

use std::sync::Arc;

use outbox::webhooks::{Endpoint, WebhookStore};
use outbox::{Notification, Outcome};
use tokio::sync::Notify;

use super::send::WebhookSender;
use crate::worker::{Clock, RetryPolicy, work_until};

#[derive(Clone)]
pub struct WebhookWorker {
    pub webhooks: Arc<dyn WebhookStore>,
    pub sender: WebhookSender,
    pub policy: RetryPolicy,
    /// Notified when a delivery is queued here (a test event, a resend).
    pub wake: Arc<Notify>,
    /// Notified when an alert e-mail is queued.
    pub email_wake: Arc<Notify>,
    pub clock: Clock,
    pub alerts: Arc<Alerts>,
}

/// The e-mails that tell an endpoint's owner it was disabled.
pub struct Alerts {
    /// Who is told when one of the company's endpoints is disabled.
    pub to: Vec<String>,
    /// The Webhooks screen, linked from the alert.
    pub admin_url: String,
    /// The portal's Webhooks screen, linked from a customer's alert.
    pub portal_url: String,
}

impl WebhookWorker {
    /// Claims and sends one due delivery; false when none was due.
    pub async fn work_once(&self) -> Result<bool, outbox::OutboxError> {
        let Some(claimed) = self
            .webhooks
            .claim((self.clock)(), self.policy.lease)
            .await?
        else {
            return Ok(false);
        };
        let d = &claimed.delivery;
        let endpoint = match self.webhooks.endpoint(&d.endpoint_id).await {
            Ok(endpoint) => endpoint,
            // Deleted meanwhile: its deliveries went with it.
            Err(outbox::OutboxError::EndpointNotFound) => return Ok(true),
            Err(e) => return Err(e),
        };
        let (attempt, result) = self.sender.send(&endpoint, d, (self.clock)()).await;
        let ok = result.is_ok();
        let now = (self.clock)();
        let outcome = self.policy.decide(d.attempts, d.failing_since, result, now);
        let label = match &outcome {
            Outcome::Sent => "sent",
            Outcome::Retry { .. } => "retrying",
            Outcome::Failed { .. } => "failed",
        };
        metrics::counter!("webhooks_total", "outcome" => label).increment(1);
        match &outcome {
            Outcome::Sent => {
                tracing::info!(id = %d.id, event = d.event_type.as_str(), endpoint = %endpoint.id, "webhook delivered")
            }
            Outcome::Retry { at, error } => {
                tracing::warn!(id = %d.id, endpoint = %endpoint.id, %error, retry_at = %at, "webhook failed; will retry")
            }
            Outcome::Failed { error } => {
                tracing::error!(id = %d.id, endpoint = %endpoint.id, %error, "webhook failed for good")
            }
        }
        // The endpoint first: once a delivery reads failed for good, its endpoint reads disabled.
        self.record_result(&endpoint.id, ok, now).await?;
        if !self
            .webhooks
            .settle(&d.id, &claimed.claim, &outcome, attempt, now)
            .await?
        {
            tracing::warn!(id = %d.id, "lease ran out before the webhook was sent; another worker owns it now");
        }
        Ok(true)
    }

    /// Counts the endpoint's run of failures; disables it and alerts the admins once the
    /// run has lasted the retry window.
    async fn record_result(
        &self,
        endpoint_id: &str,
        ok: bool,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), outbox::OutboxError> {
        let window = self.policy.retry_for;
        let disabled = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = disabled.clone();
        let alerts = self.alerts.clone();
        // The alert is queued in the write that disables the endpoint: neither without the other.
        let updated = self
            .webhooks
            .update_endpoint(
                endpoint_id,
                Arc::new(move |e: &mut Endpoint| {
                    let now_disabled = e.record_result(ok, window, now);
                    flag.store(now_disabled, std::sync::atomic::Ordering::Relaxed);
                    Ok(if now_disabled {
                        alerts.for_disabled(e, now)
                    } else {
                        Vec::new()
                    })
                }),
            )
            .await;
        let endpoint = match updated {
            Ok(endpoint) => endpoint,
            Err(outbox::OutboxError::EndpointNotFound) => return Ok(()),
            Err(e) => return Err(e),
        };
        if disabled.load(std::sync::atomic::Ordering::Relaxed) {
            tracing::error!(endpoint = %endpoint.id, url = %endpoint.url, "webhook endpoint disabled after failing for the whole retry window");
            self.email_wake.notify_one();
        }
        Ok(())
    }

    /// Sends due deliveries until `shutdown` resolves.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        work_until(
            shutdown,
            &self.wake,
            self.policy.poll,
            "webhook outbox",
            || self.work_once(),
        )
        .await;
    }
}

impl Alerts {
    fn for_disabled(
        &self,
        endpoint: &Endpoint,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<Notification> {
        let since = endpoint
            .failing_since
            .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
            .unwrap_or_default();
        // A customer's endpoint is its admin's to mend, on the portal's screen.
        let (recipients, page) = if endpoint.customer_id.is_empty() || endpoint.added_by.is_empty()
        {
            (self.to.clone(), &self.admin_url)
        } else {
            (vec![endpoint.added_by.clone()], &self.portal_url)
        };
        recipients
            .iter()
            .map(|to| {
                outbox::emails::endpoint_disabled(
                    to,
                    &endpoint.url,
                    &endpoint.description,
                    &since,
                    page,
                    now,
                )
            })
            .collect()
    }
}
