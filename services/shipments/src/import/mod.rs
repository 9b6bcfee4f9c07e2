//! Shipments from a CSV file in the export's layout: the file arrives in parts, is checked
//! row by row (a preview, nothing written), then runs in the background, where each valid row
//! becomes a shipment with its e-mails, audit entry and claims in one atomic write. A row
//! already imported (same external reference, same file row, same tracking number) is skipped,
//! so running a file twice creates nothing twice.

mod report;
mod rows;
mod rpc;
mod runner;
mod upload;

use chrono::{DateTime, Utc};

use crate::csv_input::Limits;
use crate::error::{FieldViolation, ShipmentError};
pub use crate::store::imports::{CellError, ImportRecord, ImportState, RowPreview};

/// The largest file an import takes.
pub const MAX_FILE_BYTES: i64 = 100_000_000;
/// The largest part of a file one call sends.
pub const MAX_PART_BYTES: usize = 1024 * 1024;

fn file_error(message: impl Into<String>) -> ShipmentError {
    FieldViolation::new("file", message).into()
}

fn part_blob(id: &str, part: i64) -> String {
    format!("imports/{id}/part-{part:06}")
}

/// The bounds of imports: of a file's rows, and of the files waiting to be run.
#[derive(Clone, Debug)]
pub struct ImportPolicy {
    pub limits: Limits,
    /// An upload not run this long after it began is deleted.
    pub pending_ttl: chrono::TimeDelta,
    /// Most bytes of files one user may have waiting to be run.
    pub pending_quota_bytes: i64,
}

impl ImportPolicy {
    /// An upload not run within its time: its file is (or will be) deleted.
    fn expired(&self, record: &ImportRecord, now: DateTime<Utc>) -> bool {
        record.expired
            || matches!(
                record.state,
                ImportState::Uploading | ImportState::Validated
            ) && now - record.created_at > self.pending_ttl
    }

    fn expired_message(&self) -> String {
        format!(
            "The file was not run within {} of its upload, so it was deleted; upload it again.",
            duration_text(self.pending_ttl)
        )
    }
}

/// `24 hours`, `90 minutes`, `45 seconds`.
fn duration_text(span: chrono::TimeDelta) -> String {
    let seconds = span.num_seconds();
    let (n, unit) = if seconds % 3600 == 0 {
        (seconds / 3600, "hour")
    } else if seconds % 60 == 0 {
        (seconds / 60, "minute")
    } else {
        (seconds, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

impl Default for ImportPolicy {
    fn default() -> Self {
        service_common::settings::defaults::<crate::Settings>().imports()
    }
}

/// An import id as a caller sends it; an id that cannot exist is not found.
fn import_id(value: &str) -> Result<String, ShipmentError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(FieldViolation::new("import_id", "is required").into());
    }
    if value.len() > 64 || !value.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ShipmentError::ImportNotFound);
    }
    Ok(value.to_owned())
}
