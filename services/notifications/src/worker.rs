//! The outbox worker: claims due e-mails and sends several at once, with exponential
//! backoff and jitter on passing failures for a day by default, then a dead-letter state.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use outbox::{Notification, OutboxStore, Outcome, Settlement};
use tokio::sync::Notify;

use crate::transport::{SendError, Transport};

#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// How long an e-mail is retried after its first passing failure before it goes to the
    /// failed (dead-letter) state.
    pub retry_for: Duration,
    /// The wait after the first failure; doubled after each further one, plus up to a
    /// quarter more at random, so e-mails that failed together do not all return together.
    pub first_backoff: Duration,
    pub max_backoff: Duration,
    /// How long a worker holds a claimed e-mail; longer than any one send may take.
    pub lease: Duration,
    /// How often an idle worker looks for due e-mails (new ones wake it at once).
    pub poll: Duration,
}

impl RetryPolicy {
    /// The wait before attempt `attempts + 1`, before jitter.
    pub fn backoff(&self, attempts: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempts.saturating_sub(1).min(20));
        self.first_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    /// The backoff with its jitter, and never sooner than the server asked.
    fn wait(&self, attempts: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self.backoff(attempts);
        let jitter = backoff.mul_f64(rand::random_range(0.0..=0.25));
        (backoff + jitter).max(retry_after.unwrap_or_default())
    }

    /// What attempt `n.attempts` of `n` came to at `now`.
    pub fn outcome(
        &self,
        n: &Notification,
        result: Result<(), SendError>,
        now: DateTime<Utc>,
    ) -> Outcome {
        self.decide(n.attempts, n.failing_since, result, now)
    }

    /// What attempt number `attempts` came to at `now`, for something failing since
    /// `failing_since` (an e-mail or a webhook delivery).
    pub fn decide(
        &self,
        attempts: u32,
        failing_since: Option<DateTime<Utc>>,
        result: Result<(), SendError>,
        now: DateTime<Utc>,
    ) -> Outcome {
        match result {
            Ok(()) => Outcome::Sent,
            Err(SendError::Passing { error, retry_after }) => {
                let window =
                    chrono::Duration::from_std(self.retry_for).unwrap_or(chrono::Duration::MAX);
                let give_up_at = failing_since
                    .unwrap_or(now)
                    .checked_add_signed(window)
                    .unwrap_or(DateTime::<Utc>::MAX_UTC);
                if now >= give_up_at {
                    return Outcome::Failed {
                        error: format!(
                            "{error} (gave up after {} in {})",
                            count(attempts.into(), "attempt"),
                            humanize(self.retry_for)
                        ),
                    };
                }
                let wait = chrono::Duration::from_std(self.wait(attempts, retry_after))
                    .unwrap_or(chrono::Duration::MAX);
                // The last try comes when the window closes, not after it.
                let at = now
                    .checked_add_signed(wait)
                    .unwrap_or(give_up_at)
                    .min(give_up_at);
                Outcome::Retry { at, error }
            }
            Err(SendError::Refused(error) | SendError::NotConfigured(error)) => {
                Outcome::Failed { error }
            }
        }
    }
}

/// "24 hours", "90 minutes", "45 seconds": the retry window in an error message.
fn humanize(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 3600 && secs.is_multiple_of(3600) {
        count(secs / 3600, "hour")
    } else if secs >= 60 && secs.is_multiple_of(60) {
        count(secs / 60, "minute")
    } else if secs >= 1 || d.is_zero() {
        count(secs, "second")
    } else {
        count(d.as_millis() as u64, "millisecond")
    }
}

/// "1 attempt", "3 attempts".
fn count(n: u64, unit: &str) -> String {
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// Where the worker reads the time: the system clock, or a test's.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

pub fn system_clock() -> Clock {
    Arc::new(service_common::now)
}

/// The waits between tries to record an e-mail's outcome while the store is away.
const SETTLE_FIRST_WAIT: Duration = Duration::from_millis(100);
const SETTLE_MAX_WAIT: Duration = Duration::from_secs(2);

/// E-mails one sender marks sent at once on the local outbox (where sending is recording).
const LOCAL_BATCH: usize = 1024;

/// How often the worker reports the outbox backlog (`outbox_backlog` gauge).
const BACKLOG_EVERY: Duration = Duration::from_secs(5);

/// E-mails this process sent but could not yet record as sent (the store was away). A sender of
/// this process that claims one again after its lease ran out records that outcome instead of
/// sending the e-mail a second time.
pub type Unsettled = Arc<std::sync::Mutex<std::collections::HashMap<String, Outcome>>>;

#[derive(Clone)]
pub struct Worker {
    pub store: Arc<dyn OutboxStore>,
    pub transport: Transport,
    pub policy: RetryPolicy,
    /// Notified when an e-mail is queued, so it goes out without waiting for the next poll.
    pub wake: Arc<Notify>,
    pub clock: Clock,
    /// How many e-mails are sent at once (each over its own pooled SMTP connection or request).
    pub concurrency: usize,
    /// Shared by the senders of one process; each process has its own.
    pub unsettled: Unsettled,
}

impl Worker {
    /// Claims due e-mails, sends them one after another and records their outcomes in one
    /// write; false when none was due. On the local outbox, where recording is sending, a batch
    /// is marked sent in one write; otherwise one e-mail at a time, so each goes to the next
    /// free sender.
    pub async fn work_once(&self) -> Result<bool, outbox::OutboxError> {
        if self.transport.is_local() {
            let delivered = self
                .store
                .deliver_local((self.clock)(), LOCAL_BATCH)
                .await?;
            for n in &delivered {
                metrics::counter!("emails_total", "outcome" => "sent").increment(1);
                tracing::info!(id = %n.id, template = ?n.template, attempts = n.attempts, "e-mail sent");
            }
            return Ok(!delivered.is_empty());
        }
        let claimed = self
            .store
            .claim_batch((self.clock)(), self.policy.lease, 1)
            .await?;
        if claimed.is_empty() {
            return Ok(false);
        }
        let mut settlements = Vec::with_capacity(claimed.len());
        for c in claimed {
            let outcome = self.attempt(&c.notification).await;
            settlements.push(Settlement {
                id: c.notification.id,
                claim: c.claim,
                outcome,
            });
        }
        for (s, settled) in settlements.iter().zip(self.settle(&settlements).await?) {
            if !settled {
                tracing::warn!(id = %s.id, "lease ran out before the send finished; another worker owns the e-mail now");
            }
        }
        Ok(true)
    }

    /// Sends `n` once, unless this process sent it already and could not record it yet.
    async fn attempt(&self, n: &Notification) -> Outcome {
        let earlier = self.unsettled_mut().remove(&n.id);
        if let Some(outcome) = earlier {
            tracing::info!(id = %n.id, "e-mail sent before its lease ran out; recording that instead of sending it again");
            return outcome;
        }
        let result = self.transport.send(n).await;
        let outcome = self.policy.outcome(n, result, (self.clock)());
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
        outcome
    }

    /// Records what became of claimed e-mails, waiting out an outage of the store: an e-mail
    /// that went out but stayed unrecorded would be sent again once its lease ran out.
    async fn settle(&self, settlements: &[Settlement]) -> Result<Vec<bool>, outbox::OutboxError> {
        let mut wait = SETTLE_FIRST_WAIT;
        loop {
            match self.store.settle_batch(settlements, (self.clock)()).await {
                Err(outbox::OutboxError::Unavailable(error)) => {
                    self.unsettled_mut().extend(
                        settlements
                            .iter()
                            .map(|s| (s.id.clone(), s.outcome.clone())),
                    );
                    tracing::warn!(e_mails = settlements.len(), %error, "cannot record the e-mails' outcomes yet; trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(SETTLE_MAX_WAIT);
                }
                // Recorded: no sender needs the outcome any more. Taken over (false): the
                // entry stays for this process's sender that claimed it, if one did.
                Ok(settled) => {
                    let mut unsettled = self.unsettled_mut();
                    for (s, _) in settlements.iter().zip(&settled).filter(|(_, done)| **done) {
                        unsettled.remove(&s.id);
                    }
                    return Ok(settled);
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn unsettled_mut(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Outcome>> {
        self.unsettled.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends due e-mails, `concurrency` at once, until `shutdown` resolves. Sending stops while
    /// the configuration is incomplete: nothing is lost, the e-mails wait in the outbox.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        // 0 while the mail settings are incomplete: nothing is sent, so no other e-mail metric moves.
        let ready = metrics::gauge!("mail_transport_ready");
        if let Some(problem) = self.transport.problem() {
            ready.set(0.0);
            tracing::error!("{problem}; e-mails wait in the outbox until it is fixed");
            shutdown.await;
            return;
        }
        ready.set(1.0);
        let (stop, stopped) = tokio::sync::watch::channel(false);
        // Dropped (and so aborted) with this future; each sender finishes its e-mail at shutdown.
        let mut senders = tokio::task::JoinSet::new();
        for index in 0..self.concurrency.max(1) {
            let mut stopped = stopped.clone();
            senders.spawn(self.clone().send_until(index == 0, async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            }));
        }
        shutdown.await;
        let _ = stop.send(true);
        while senders.join_next().await.is_some() {}
    }

    /// One sender: claims and sends until `shutdown`; the first also reports the backlog.
    async fn send_until(self, reports: bool, shutdown: impl std::future::Future<Output = ()>) {
        let mut backlog_measured = std::time::Instant::now() - BACKLOG_EVERY;
        work_until(shutdown, &self.wake, self.policy.poll, "outbox", || {
            let measure = reports && backlog_measured.elapsed() >= BACKLOG_EVERY;
            if measure {
                backlog_measured = std::time::Instant::now();
            }
            let worker = self.clone();
            async move {
                if measure && let Ok(backlog) = worker.store.backlog().await {
                    metrics::gauge!("outbox_backlog").set(backlog as f64);
                }
                let sent = worker.work_once().await;
                if matches!(sent, Ok(true)) && worker.concurrency > 1 {
                    // More may be due: an idle sibling takes the next one meanwhile.
                    worker.wake.notify_one();
                }
                sent
            }
        })
        .await;
    }
}

/// Runs `step` (one claim and send; true when something was due) until `shutdown` resolves,
/// waiting for `wake` or `poll` whenever nothing was due or the store failed.
pub(crate) async fn work_until<F, Fut>(
    shutdown: impl std::future::Future<Output = ()>,
    wake: &Notify,
    poll: Duration,
    store: &str,
    mut step: F,
) where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool, outbox::OutboxError>>,
{
    tokio::pin!(shutdown);
    loop {
        let idle = match step().await {
            Ok(true) => false,
            Ok(false) => true,
            Err(e) => {
                tracing::warn!(error = %e, "{store} unavailable");
                true
            }
        };
        if idle {
            tokio::select! {
                _ = &mut shutdown => return,
                _ = wake.notified() => {}
                _ = tokio::time::sleep(poll) => {}
            }
        } else if futures_ready(&mut shutdown).await {
            return;
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
