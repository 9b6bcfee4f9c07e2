//! The daily digest of open exceptions, to the operations address (a setting), in the
//! team's language: once a day across every replica, from the digest hour on.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};

use crate::error::ShipmentError;
use crate::exceptions::{Assignee, ExceptionQuery, Kind, State};
use crate::store::ShipmentStore;

/// Most exceptions the digest lists; the rest are counted.
pub const MAX_LINES: usize = 50;

/// The queue's page, for the digest's link.
pub const QUEUE_PATH: &str = "/administration_and_development/exceptions";

/// Writes today's digest if it is due at `now` and no replica wrote it yet; whether this call
/// wrote it. A day with nothing open takes its turn without an e-mail.
pub async fn send_if_due(
    store: &dyn ShipmentStore,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<bool, ShipmentError> {
    let settings = store.exception_settings().await?;
    let local = now.with_timezone(&chrono::Local);
    if settings.operations_email.is_empty() || local.hour() < settings.digest_hour {
        return Ok(false);
    }
    let claim = format!("exception_digest:{}", local.date_naive());
    let query = ExceptionQuery {
        kind: None,
        state: State::Open,
        assignee: Assignee::Anyone,
        now,
        stalled_since: settings.stalled_since(now),
        page_size: MAX_LINES,
        after: None,
    };
    let (counts, _) = store.count_exceptions(&query, "").await?;
    if counts.iter().all(|(_, n)| *n == 0) {
        store.enqueue_once(&claim, &[]).await?;
        return Ok(false);
    }
    let page = store.list_exceptions(&query).await?;
    let keys: Vec<(String, u64)> = counts.iter().map(|(kind, n)| (key(*kind), *n)).collect();
    let counted: Vec<(&str, u64)> = keys.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    let line_keys: Vec<String> = page.exceptions.iter().map(|(e, _)| key(e.kind)).collect();
    let lines: Vec<(String, &str, chrono::NaiveDate)> = page
        .exceptions
        .iter()
        .zip(&line_keys)
        .map(|((e, shipment), kind)| {
            let number = shipment
                .as_ref()
                .map_or_else(|| e.shipment_id.clone(), |s| s.tracking_number.to_string());
            let since = e.since.with_timezone(&chrono::Local).date_naive();
            (number, kind.as_str(), since)
        })
        .collect();
    let more = page.total.saturating_sub(lines.len() as u64);
    let email = outbox::emails::exception_digest(
        &settings.operations_email,
        &counted,
        &lines,
        more,
        &format!("{}{QUEUE_PATH}", public_url.trim_end_matches('/')),
        settings.digest_language,
        now,
    );
    store.enqueue_once(&claim, &[email]).await
}

/// The message id of a kind's name in the digest.
fn key(kind: Kind) -> String {
    format!("email.digest.kind.{}", kind.as_str())
}

/// Checks every `every` whether today's digest is due, for as long as the service runs.
pub fn keep_sending(store: Arc<dyn ShipmentStore>, public_url: String, every: Duration) {
    tokio::spawn(async move {
        loop {
            if let Err(e) = send_if_due(store.as_ref(), &public_url, crate::domain::now()).await {
                tracing::warn!(error = %e, "exception digest not written");
            }
            tokio::time::sleep(every).await;
        }
    });
}
