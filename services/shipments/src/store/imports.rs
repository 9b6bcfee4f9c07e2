//! Imports as their store keeps them: the record of each import, and the trait that saves them.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::utc_micros;
use crate::error::ShipmentError;

#[async_trait]
pub trait Imports: Send + Sync + 'static {
    /// Saves an import's record, replacing the one with its id.
    async fn save_import(&self, record: &ImportRecord) -> Result<(), ShipmentError>;
    /// NotFound when there is none.
    async fn get_import(&self, id: &str) -> Result<ImportRecord, ShipmentError>;
    /// Imports created before the one with id `before` (all, when None), newest first.
    async fn list_imports(
        &self,
        limit: usize,
        before: Option<&str>,
    ) -> Result<Vec<ImportRecord>, ShipmentError>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportState {
    Uploading,
    Validated,
    Running,
    Succeeded,
    Failed,
}

/// One import, as its store keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportRecord {
    pub id: String,
    pub file_name: String,
    pub state: ImportState,
    pub size_bytes: i64,
    pub uploaded_bytes: i64,
    /// How many parts of the file are in the blob store.
    pub parts: i64,
    /// How many parts the report of rejected rows has.
    pub report_parts: i64,
    pub total_rows: i64,
    pub valid_rows: i64,
    pub processed_rows: i64,
    pub created: i64,
    pub skipped: i64,
    pub rejected: i64,
    /// Rejected rows whose reference or number is a shipment with other data.
    #[serde(default)]
    pub conflicts: i64,
    /// Not run in time: its file is deleted.
    #[serde(default)]
    pub expired: bool,
    pub preview: Vec<RowPreview>,
    pub rejected_preview: Vec<RowPreview>,
    pub error: String,
    pub created_by: String,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
}

impl ImportRecord {
    /// A new import of a file of `size_bytes`, none of it uploaded yet.
    pub fn new(
        id: String,
        file_name: String,
        size_bytes: i64,
        created_by: String,
        now: DateTime<Utc>,
    ) -> Self {
        Self {
            id,
            file_name,
            state: ImportState::Uploading,
            size_bytes,
            uploaded_bytes: 0,
            parts: 0,
            report_parts: 0,
            total_rows: 0,
            valid_rows: 0,
            processed_rows: 0,
            created: 0,
            skipped: 0,
            rejected: 0,
            conflicts: 0,
            expired: false,
            preview: Vec::new(),
            rejected_preview: Vec::new(),
            error: String::new(),
            created_by,
            created_at: now,
            updated_at: now,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RowPreview {
    pub row: i64,
    pub tracking_number: String,
    pub external_reference: String,
    pub shipper_name: String,
    pub receiver_name: String,
    pub origin: String,
    pub destination: String,
    pub errors: Vec<CellError>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellError {
    pub column: String,
    pub message: String,
}

impl CellError {
    pub fn new(column: &str, message: impl Into<String>) -> Self {
        Self {
            column: column.to_owned(),
            message: message.into(),
        }
    }
}
