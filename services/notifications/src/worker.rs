//! The outbox worker: claims due e-mails one at a time and sends them, with exponential
//! backoff on passing failures and a dead-letter state after the last attempt.

use std::sync::Arc;
use std::time::Duration;

use outbox::{OutboxStore, Outcome};
use tokio::sync::Notify;

use crate::transport::{SendError, Transport};

#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// Attempts before an e-mail goes to the failed (dead-letter) state.
    pub max_attempts: u32,
    /// The wait after the first failure; doubled after each further one.
    pub first_backoff: Duration,
    pub max_backoff: Duration,
    /// How long a worker holds a claimed e-mail; longer than any one send may take.
    pub lease: Duration,
    /// How often an idle worker looks for due e-mails (new ones wake it at once).
    pub poll: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 6,
            first_backoff: Duration::from_secs(2),
            max_backoff: Duration::from_secs(600),
            lease: Duration::from_secs(60),
            poll: Duration::from_millis(500),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempts + 1`.
    pub fn backoff(&self, attempts: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempts.saturating_sub(1).min(20));
        self.first_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    fn outcome(&self, attempts: u32, result: Result<(), SendError>) -> Outcome {
        let now = service_common::now();
        match result {
            Ok(()) => Outcome::Sent,
            Err(SendError::Passing(error)) if attempts < self.max_attempts => Outcome::Retry {
                at: now + chrono::Duration::from_std(self.backoff(attempts)).unwrap_or_default(),
                error,
            },
            Err(SendError::Passing(error)) => Outcome::Failed {
                error: format!("{error} (gave up after {attempts} attempts)"),
            },
            Err(SendError::Refused(error) | SendError::NotConfigured(error)) => {
                Outcome::Failed { error }
            }
        }
    }
}

/// How often the worker reports the outbox backlog (`outbox_backlog` gauge).
const BACKLOG_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Worker {
    pub store: Arc<dyn OutboxStore>,
    pub transport: Transport,
    pub policy: RetryPolicy,
    /// Notified when an e-mail is queued, so it goes out without waiting for the next poll.
    pub wake: Arc<Notify>,
}

impl Worker {
    /// Claims and sends one due e-mail; false when none was due.
    pub async fn work_once(&self) -> Result<bool, outbox::OutboxError> {
        let Some(claimed) = self
            .store
            .claim(service_common::now(), self.policy.lease)
            .await?
        else {
            return Ok(false);
        };
        let n = &claimed.notification;
        let result = self.transport.send(n).await;
        let outcome = self.policy.outcome(n.attempts, result);
        let result_label = match &outcome {
            Outcome::Sent => "sent",
            Outcome::Retry { .. } => "retrying",
            Outcome::Failed { .. } => "failed",
        };
        metrics::counter!("emails_total", "outcome" => result_label).increment(1);
        match &outcome {
            Outcome::Sent => {
                tracing::info!(id = %n.id, template = ?n.template, attempts = n.attempts, "e-mail sent")
            }
            Outcome::Retry { at, error } => {
                tracing::warn!(id = %n.id, %error, retry_at = %at, "e-mail send failed; will retry")
            }
            Outcome::Failed { error } => {
                tracing::error!(id = %n.id, %error, "e-mail failed for good")
            }
        }
        if !self
            .store
            .settle(&n.id, &claimed.claim, &outcome, service_common::now())
            .await?
        {
            tracing::warn!(id = %n.id, "lease ran out before the send finished; another worker owns the e-mail now");
        }
        Ok(true)
    }

    /// Sends due e-mails until `shutdown` resolves. Sending stops while the configuration is
    /// incomplete: nothing is lost, the e-mails wait in the outbox.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        if let Some(problem) = self.transport.problem() {
            tracing::error!("{problem}; e-mails wait in the outbox until it is fixed");
            shutdown.await;
            return;
        }
        tokio::pin!(shutdown);
        let mut backlog_measured = std::time::Instant::now() - BACKLOG_EVERY;
        loop {
            if backlog_measured.elapsed() >= BACKLOG_EVERY {
                backlog_measured = std::time::Instant::now();
                if let Ok(backlog) = self.store.backlog().await {
                    metrics::gauge!("outbox_backlog").set(backlog as f64);
                }
            }
            let idle = match self.work_once().await {
                Ok(true) => false,
                Ok(false) => true,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox unavailable");
                    true
                }
            };
            if idle {
                tokio::select! {
                    _ = &mut shutdown => return,
                    _ = self.wake.notified() => {}
                    _ = tokio::time::sleep(self.policy.poll) => {}
                }
            } else if futures_ready(&mut shutdown).await {
                return;
            }
        }
    }
}

/// Whether `shutdown` has already resolved, without waiting for it.
async fn futures_ready(
    shutdown: &mut std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
) -> bool {
    tokio::select! {
        biased;
        _ = shutdown => true,
        _ = std::future::ready(()) => false,
    }
}
