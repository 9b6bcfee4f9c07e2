//! Shipments from a CSV file in the export's layout: the file arrives in parts, is checked
//! row by row (a preview, nothing written), then runs in the background, where each valid row
//! becomes a shipment with its e-mails, audit entry and claims in one atomic write. A row
//! already imported (same external reference, same file row, same tracking number) is skipped,
//! so running a file twice creates nothing twice.

use std::collections::HashMap;

use audit::{Action, Actor, AuditEntry};
use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use sha2::{Digest, Sha256};

use crate::convert;
use crate::csv_input::{Limits, Next, Rows};
use crate::domain::{Shipment, Status, TrackingNumber, utc_micros};
use crate::error::{FieldViolation, ShipmentError};
use crate::export::COLUMNS;
use crate::service::ShipmentsService;
use crate::store::Effects;

/// The largest file an import takes.
pub const MAX_FILE_BYTES: i64 = 100_000_000;
/// The largest part of a file one call sends.
pub const MAX_PART_BYTES: usize = 1024 * 1024;
/// The claim of a shipment's external reference (followed by it).
pub const REFERENCE_CLAIM: &str = "reference:";
/// Rows a preview shows, and rejected rows it lists.
const PREVIEW_ROWS: usize = 10;
const REJECTED_PREVIEW_ROWS: usize = 20;
/// Rows written per commit while running.
const BATCH_ROWS: usize = 500;
/// A running import whose record has not moved for this long has stopped (its process ended).
const STALLED_AFTER: chrono::TimeDelta = chrono::TimeDelta::minutes(2);

/// Columns a row may leave blank and a file may leave out.
const OPTIONAL_COLUMNS: [&str; 6] = [
    "tracking_number",
    "status",
    "current_location",
    "created_at",
    "external_reference",
    "language_code",
];
/// Columns the export writes that an import ignores (computed, or the store's own), and the
/// two a report of rejected rows adds in front, so a fixed report imports as it is.
const IGNORED_COLUMNS: [&str; 7] = [
    "total_volumetric_weight_kg",
    "total_volume_m3",
    "total_actual_weight_kg",
    "updated_at",
    "id",
    "row",
    "errors",
];

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
    fn new(column: &str, message: impl Into<String>) -> Self {
        Self {
            column: column.to_owned(),
            message: message.into(),
        }
    }
}

fn file_error(message: impl Into<String>) -> ShipmentError {
    FieldViolation::new("file", message).into()
}

fn part_blob(id: &str, part: i64) -> String {
    format!("imports/{id}/part-{part:06}")
}

fn report_blob(id: &str, part: i64) -> String {
    format!("imports/{id}/rejected-{part:06}")
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

/// An import's file read part by part from the blob store, one bounded row at a time; it
/// also hashes the bytes it reads.
struct FileRows {
    blobs: std::sync::Arc<dyn crate::blobs::BlobStore>,
    id: String,
    parts: i64,
    next_part: i64,
    rows: Rows,
    hash: Sha256,
}

impl FileRows {
    fn new(service: &ShipmentsService, record: &ImportRecord) -> Result<Self, ShipmentError> {
        if record.uploaded_bytes != record.size_bytes {
            return Err(ShipmentError::Precondition(format!(
                "The file is not fully uploaded ({} of {} bytes).",
                record.uploaded_bytes, record.size_bytes
            )));
        }
        Ok(Self {
            blobs: service.blobs.clone(),
            id: record.id.clone(),
            parts: record.parts,
            next_part: 0,
            rows: Rows::new(service.imports.limits),
            hash: Sha256::new(),
        })
    }

    /// The line of the next row (see `record`), or None at the end of the file.
    async fn next(&mut self) -> Result<Option<i64>, ShipmentError> {
        loop {
            match self.rows.next_row().map_err(file_error)? {
                Next::Row(line) => return Ok(Some(line)),
                Next::End => return Ok(None),
                Next::NeedInput if self.next_part == self.parts => self.rows.supply(None),
                Next::NeedInput => {
                    let data = self
                        .blobs
                        .get(&part_blob(&self.id, self.next_part))
                        .await?
                        .ok_or_else(|| {
                            ShipmentError::Precondition(
                                "This import's file is no longer kept; begin a new import.".into(),
                            )
                        })?;
                    self.hash.update(&data);
                    self.next_part += 1;
                    self.rows.supply(Some(data));
                }
            }
        }
    }

    fn record(&self) -> &csv::StringRecord {
        self.rows.record()
    }

    /// The header, as the file's first row; an empty file is refused.
    async fn header(&mut self) -> Result<Header, ShipmentError> {
        if self.next().await?.is_none() {
            return Err(file_error("The file is empty."));
        }
        if self.record().iter().all(|cell| cell.trim().is_empty()) {
            return Err(file_error(match self.next().await? {
                None => "The file is empty.",
                Some(_) => "The file's first line is blank: it must be the header.",
            }));
        }
        Header::parse(self.record(), self.rows.delimiter())
    }

    /// A short hash of the whole file, once it is read to the end.
    fn file_hash(&self) -> String {
        self.hash
            .clone()
            .finalize()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// Where each known column is in the file's header.
struct Header {
    names: Vec<String>,
    index: HashMap<&'static str, usize>,
}

impl Header {
    fn parse(record: &csv::StringRecord, delimiter: &str) -> Result<Self, ShipmentError> {
        let names: Vec<String> = record.iter().map(|n| n.trim().to_owned()).collect();
        let known = |name: &str| {
            COLUMNS.contains(&name)
                || OPTIONAL_COLUMNS.contains(&name)
                || IGNORED_COLUMNS.contains(&name)
        };
        let unknown: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| !known(n))
            .collect();
        if !unknown.is_empty() {
            let shown: Vec<String> = unknown.iter().take(10).map(|n| clip(n, 40)).collect();
            let separated = if delimiter == "comma" {
                String::new()
            } else {
                format!(" This file's cells were read as {delimiter}-separated.")
            };
            return Err(file_error(format!(
                "Unknown columns: {}. The template lists the columns.{separated}",
                shown.join(", ")
            )));
        }
        let mut index = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            let column = COLUMNS
                .iter()
                .chain(OPTIONAL_COLUMNS.iter())
                .find(|c| **c == name)
                .copied();
            if let Some(column) = column
                && index.insert(column, i).is_some()
            {
                return Err(file_error(format!("The column {column} appears twice.")));
            }
        }
        let missing: Vec<&str> = read_columns()
            .filter(|c| !OPTIONAL_COLUMNS.contains(c) && !index.contains_key(c))
            .collect();
        if !missing.is_empty() {
            return Err(file_error(format!(
                "Missing columns: {}.",
                missing.join(", ")
            )));
        }
        Ok(Self { names, index })
    }

    fn cell<'r>(&self, record: &'r csv::StringRecord, column: &str) -> &'r str {
        self.index
            .get(column)
            .and_then(|&i| record.get(i))
            .unwrap_or("")
    }
}

/// The columns an import reads, in the export's order: the template's header.
fn read_columns() -> impl Iterator<Item = &'static str> {
    COLUMNS.into_iter().filter(|c| !IGNORED_COLUMNS.contains(c))
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

/// A cell as typed: the apostrophe the export puts before a formula-like text (or before an
/// apostrophe so escaped) is dropped, exactly undoing it; the text is otherwise kept literally
/// (a formula is stored as text, never run).
fn literal(cell: &str) -> &str {
    if crate::export::is_escaped(cell) {
        &cell[1..]
    } else {
        cell
    }
}

/// A row that passed every check, ready to become a shipment.
pub(crate) struct ValidRow {
    pub row: i64,
    details: crate::domain::ShipmentDetails,
    tracking_number: Option<TrackingNumber>,
    status: Status,
    current_location: Option<String>,
    created_at: Option<DateTime<Utc>>,
    external_reference: String,
}

/// A proto field path of a shipment (as the create checks name it) as the CSV column.
fn column_of(field: &str) -> String {
    let field = field.split(['[', '.']).collect::<Vec<_>>();
    match field.as_slice() {
        ["shipper", rest, ..] => format!("shipper_{rest}"),
        ["receiver", rest, ..] => format!("receiver_{rest}"),
        ["packages", ..] => "packages".into(),
        ["type", ..] => "type_of_shipment".into(),
        ["mode", ..] => "shipment_mode".into(),
        ["total_freight_cents", ..] => "total_freight".into(),
        [first, ..] => (*first).to_owned(),
        [] => String::new(),
    }
}

/// One package of the `packages` cell, as the export writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PackageCell {
    quantity: i32,
    #[serde(default)]
    piece_type: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    length: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    weight: f64,
}

fn parse_date(text: &str) -> Option<pb::Date> {
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    Some(convert::date(date))
}

fn parse_time(text: &str) -> Option<pb::TimeOfDay> {
    let time = NaiveTime::parse_from_str(text, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(text, "%H:%M:%S"))
        .ok()?;
    use chrono::Timelike;
    Some(pb::TimeOfDay {
        hours: time.hour() as i32,
        minutes: time.minute() as i32,
    })
}

/// A decimal amount (`1250.50`) in cents, exactly.
fn parse_cents(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || fraction.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

fn parse_status(text: &str) -> Option<Status> {
    Status::parse(&text.trim().to_ascii_lowercase().replace(' ', "_"))
}

/// An enum cell by the name the export writes (`air_shipping`) or the label (`Air Shipping`).
fn enum_value(text: &str, names: &[&str]) -> Option<i32> {
    let wanted = text.trim().to_ascii_lowercase().replace(' ', "_");
    names
        .iter()
        .position(|n| *n == wanted)
        .map(|i| i as i32 + 1)
}

/// Checks one data row; `line` is its line in the file (the header is line 1).
fn check_row(
    header: &Header,
    record: &csv::StringRecord,
    line: i64,
    now: DateTime<Utc>,
) -> Result<ValidRow, Vec<CellError>> {
    let cell = |column: &str| literal(header.cell(record, column).trim()).to_owned();
    let mut errors = Vec::new();
    if record.len() != header.names.len() {
        errors.push(CellError::new(
            "row",
            format!(
                "has {} cells; the header has {}",
                record.len(),
                header.names.len()
            ),
        ));
        return Err(errors);
    }
    let mut input = pb::Shipment {
        shipper: Some(pb::Party {
            name: cell("shipper_name"),
            address: cell("shipper_address"),
            phone: cell("shipper_phone"),
            email: cell("shipper_email"),
        }),
        receiver: Some(pb::Party {
            name: cell("receiver_name"),
            address: cell("receiver_address"),
            phone: cell("receiver_phone"),
            email: cell("receiver_email"),
        }),
        origin: cell("origin"),
        destination: cell("destination"),
        carrier: cell("carrier"),
        product: cell("product"),
        comments: cell("comments"),
        language_code: cell("language_code"),
        ..Default::default()
    };
    let whole = |column: &str, errors: &mut Vec<CellError>| -> i32 {
        let text = cell(column);
        text.parse().unwrap_or_else(|_| {
            errors.push(CellError::new(column, "must be a whole number"));
            1
        })
    };
    input.package_count = whole("package_count", &mut errors);
    input.product_quantity = whole("product_quantity", &mut errors);
    let choice = |column: &str, names: &[&str], errors: &mut Vec<CellError>| -> i32 {
        enum_value(&cell(column), names).unwrap_or_else(|| {
            errors.push(CellError::new(
                column,
                format!("must be one of {}", names.join(", ")),
            ));
            1
        })
    };
    input.r#type = choice(
        "type_of_shipment",
        &["standard", "express", "economy"],
        &mut errors,
    );
    input.mode = choice(
        "shipment_mode",
        &["land_shipping", "air_shipping", "sea_shipping"],
        &mut errors,
    );
    input.payment_mode = choice(
        "payment_mode",
        &["bank_transfer", "credit_card", "cash", "check"],
        &mut errors,
    );
    match parse_cents(&cell("total_freight")) {
        Some(cents) => input.total_freight_cents = cents,
        None => errors.push(CellError::new(
            "total_freight",
            "must be an amount like 1250.50",
        )),
    }
    match cell("weight_kg").parse::<f64>() {
        Ok(weight) => input.weight_kg = weight,
        Err(_) => errors.push(CellError::new("weight_kg", "must be a number")),
    }
    for (column, slot) in [
        ("expected_delivery_date", &mut input.expected_delivery_date),
        ("pickup_date", &mut input.pickup_date),
    ] {
        *slot = parse_date(&cell(column));
        if slot.is_none() {
            errors.push(CellError::new(column, "must be a date like 2027-03-01"));
        }
    }
    for (column, slot) in [
        ("departure_time", &mut input.departure_time),
        ("pickup_time", &mut input.pickup_time),
    ] {
        *slot = parse_time(&cell(column));
        if slot.is_none() {
            errors.push(CellError::new(column, "must be a time like 14:30"));
        }
    }
    match serde_json::from_str::<Vec<PackageCell>>(&cell("packages")) {
        Ok(packages) => {
            input.packages = packages
                .into_iter()
                .map(|p| pb::Package {
                    quantity: p.quantity,
                    piece_type: p.piece_type,
                    description: p.description,
                    length_cm: p.length,
                    width_cm: p.width,
                    height_cm: p.height,
                    weight_kg: p.weight,
                })
                .collect()
        }
        Err(_) => errors.push(CellError::new(
            "packages",
            "must be a JSON array of packages, as in the template",
        )),
    }
    let details = convert::details_from_proto(&input).map_err(|violations| {
        violations
            .into_iter()
            .map(|v| CellError::new(&column_of(&v.field), v.description))
            .collect::<Vec<_>>()
    });
    let details = match details {
        Ok(details) => Some(details),
        Err(more) => {
            // A cell already refused above is named once.
            for e in more {
                if !errors.iter().any(|known| known.column == e.column) {
                    errors.push(e);
                }
            }
            None
        }
    };
    let number = cell("tracking_number");
    let tracking_number = if number.is_empty() {
        None
    } else {
        match TrackingNumber::parse(&number) {
            Ok(n) => Some(n),
            Err(e) => {
                errors.push(CellError::new("tracking_number", e.description));
                None
            }
        }
    };
    let status_text = cell("status");
    let status = if status_text.is_empty() {
        Status::Pending
    } else {
        parse_status(&status_text).unwrap_or_else(|| {
            errors.push(CellError::new(
                "status",
                "must be pending, in_transit, delivered, delayed or on_hold",
            ));
            Status::Pending
        })
    };
    let location = cell("current_location");
    let current_location = (!location.is_empty()).then(|| {
        TextRule::line(200).check(&location).unwrap_or_else(|e| {
            errors.push(CellError::new("current_location", e));
            location.clone()
        })
    });
    let created_text = cell("created_at");
    let created_at = if created_text.is_empty() {
        None
    } else {
        let parsed = DateTime::parse_from_rfc3339(&created_text)
            .map(|t| t.with_timezone(&Utc))
            .ok()
            .or_else(|| {
                NaiveDate::parse_from_str(&created_text, "%Y-%m-%d")
                    .ok()
                    .and_then(|d| d.and_hms_opt(0, 0, 0))
                    .map(|t| t.and_utc())
            })
            .filter(|t| t.year() >= 2000 && *t <= now);
        if parsed.is_none() {
            errors.push(CellError::new(
                "created_at",
                "must be a time between 2000 and now, like 2026-11-02T09:30:00Z",
            ));
        }
        parsed
    };
    let reference = cell("external_reference");
    let external_reference = TextRule::line(100)
        .optional()
        .check(&reference)
        .unwrap_or_else(|e| {
            errors.push(CellError::new("external_reference", e));
            reference.clone()
        });
    match details {
        Some(details) if errors.is_empty() => Ok(ValidRow {
            row: line,
            details,
            tracking_number,
            status,
            current_location,
            created_at,
            external_reference,
        }),
        _ => Err(errors),
    }
}

fn preview_of(header: &Header, record: &csv::StringRecord, line: i64) -> RowPreview {
    let cell = |column: &str| clip(literal(header.cell(record, column).trim()), 100);
    RowPreview {
        row: line,
        tracking_number: cell("tracking_number"),
        external_reference: cell("external_reference"),
        shipper_name: cell("shipper_name"),
        receiver_name: cell("receiver_name"),
        origin: cell("origin"),
        destination: cell("destination"),
        errors: Vec::new(),
    }
}

/// The counts and previews of a file's check, and the file's hash.
async fn check_file(
    mut file: FileRows,
    now: DateTime<Utc>,
    record: &mut ImportRecord,
) -> Result<String, ShipmentError> {
    let header = file.header().await?;
    let (mut total, mut valid) = (0, 0);
    let mut preview = Vec::new();
    let mut rejected_preview = Vec::new();
    while let Some(line) = file.next().await? {
        let row = file.record();
        total += 1;
        let outcome = check_row(&header, row, line, now);
        let errors = outcome.as_ref().err().cloned().unwrap_or_default();
        if errors.is_empty() {
            valid += 1;
        }
        if preview.len() < PREVIEW_ROWS
            || (!errors.is_empty() && rejected_preview.len() < REJECTED_PREVIEW_ROWS)
        {
            let mut shown = preview_of(&header, row, line);
            shown.errors = errors.clone();
            if preview.len() < PREVIEW_ROWS {
                preview.push(shown.clone());
            }
            if !errors.is_empty() && rejected_preview.len() < REJECTED_PREVIEW_ROWS {
                rejected_preview.push(shown);
            }
        }
    }
    if total == 0 {
        return Err(file_error("The file has a header but no rows."));
    }
    record.total_rows = total;
    record.valid_rows = valid;
    record.rejected = total - valid;
    record.preview = preview;
    record.rejected_preview = rejected_preview;
    Ok(file.file_hash())
}

impl ImportRecord {
    /// The record as a caller sees it: a run whose process ended shows as failed.
    fn seen(mut self, now: DateTime<Utc>, policy: &ImportPolicy) -> Self {
        if policy.expired(&self, now) {
            self.state = ImportState::Failed;
            self.error = policy.expired_message();
        }
        if self.state == ImportState::Running && now - self.updated_at > STALLED_AFTER {
            self.state = ImportState::Failed;
            self.error = "The import stopped before the end (the service restarted). Run the \
                          same file again: rows already imported are skipped."
                .into();
        }
        self
    }

    pub fn to_proto(&self) -> pb::ShipmentImport {
        let row = |r: &RowPreview| pb::ShipmentImportRow {
            row: r.row as i32,
            tracking_number: r.tracking_number.clone(),
            external_reference: r.external_reference.clone(),
            shipper_name: r.shipper_name.clone(),
            receiver_name: r.receiver_name.clone(),
            origin: r.origin.clone(),
            destination: r.destination.clone(),
            errors: r
                .errors
                .iter()
                .map(|e| pb::ShipmentImportError {
                    column: e.column.clone(),
                    message: e.message.clone(),
                })
                .collect(),
        };
        let state = match self.state {
            ImportState::Uploading => pb::ShipmentImportState::Uploading,
            ImportState::Validated => pb::ShipmentImportState::Validated,
            ImportState::Running => pb::ShipmentImportState::Running,
            ImportState::Succeeded => pb::ShipmentImportState::Succeeded,
            ImportState::Failed => pb::ShipmentImportState::Failed,
        };
        pb::ShipmentImport {
            id: self.id.clone(),
            file_name: self.file_name.clone(),
            state: state as i32,
            size_bytes: self.size_bytes,
            uploaded_bytes: self.uploaded_bytes,
            total_rows: self.total_rows as i32,
            valid_rows: self.valid_rows as i32,
            processed_rows: self.processed_rows as i32,
            created_count: self.created as i32,
            skipped_count: self.skipped as i32,
            rejected_count: self.rejected as i32,
            conflict_count: self.conflicts as i32,
            preview: self.preview.iter().map(row).collect(),
            rejected_preview: self.rejected_preview.iter().map(row).collect(),
            error: self.error.clone(),
            created_by: self.created_by.clone(),
            create_time: Some(convert::timestamp(self.created_at)),
            update_time: Some(convert::timestamp(self.updated_at)),
        }
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

/// The claims of a row: its external reference, else its place in this very file.
fn claims(row: &ValidRow, file_hash: &str) -> Vec<String> {
    if row.external_reference.is_empty() {
        vec![format!("row:{file_hash}:{}", row.row)]
    } else {
        vec![format!("{REFERENCE_CLAIM}{}", row.external_reference)]
    }
}

impl ShipmentsService {
    pub(crate) async fn create_import(
        &self,
        request: pb::CreateShipmentImportRequest,
        actor: &Actor,
    ) -> Result<ImportRecord, ShipmentError> {
        let mut v = convert::Violations::default();
        let file_name = v.text("file_name", &request.file_name, TextRule::line(200));
        if request.size_bytes <= 0 {
            v.add("size_bytes", "The file is empty.");
        } else if request.size_bytes > MAX_FILE_BYTES {
            v.add("size_bytes", "The file is larger than 100 MB.");
        }
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let now = crate::domain::now();
        let _one_at_a_time = self.imports_lock.lock().await;
        let waiting = self.pending_bytes(&actor.email, now).await?;
        let quota = self.imports.pending_quota_bytes;
        if waiting + request.size_bytes > quota {
            let mb = |bytes: i64| format!("{:.1} MB", bytes as f64 / 1e6);
            return Err(ShipmentError::Precondition(format!(
                "Your import files not yet run take {}; with this one ({}) they would pass \
                 the limit of {} per person. Run them first; a file not run is deleted {} \
                 after its upload.",
                mb(waiting),
                mb(request.size_bytes),
                mb(quota),
                duration_text(self.imports.pending_ttl)
            )));
        }
        let record = ImportRecord::new(
            crate::domain::new_id(),
            file_name,
            request.size_bytes,
            actor.email.clone(),
            now,
        );
        self.store.save_import(&record).await?;
        Ok(record)
    }

    /// The bytes of `user`'s uploads not yet run and not expired (those are all newer than the
    /// time an upload is kept, and the list is newest first).
    async fn pending_bytes(&self, user: &str, now: DateTime<Utc>) -> Result<i64, ShipmentError> {
        let mut total = 0;
        let mut before: Option<String> = None;
        loop {
            let page = self.store.list_imports(100, before.as_deref()).await?;
            let Some(last) = page.last() else {
                return Ok(total);
            };
            before = Some(last.id.clone());
            for record in &page {
                if now - record.created_at > self.imports.pending_ttl {
                    return Ok(total);
                }
                if record.created_by == user
                    && matches!(
                        record.state,
                        ImportState::Uploading | ImportState::Validated
                    )
                {
                    total += record.size_bytes;
                }
            }
        }
    }

    /// Deletes the files of uploads not run in time and marks them expired; the number swept.
    pub async fn sweep_pending_imports(&self, now: DateTime<Utc>) -> Result<usize, ShipmentError> {
        let mut swept = 0;
        let mut before: Option<String> = None;
        loop {
            let page = self.store.list_imports(100, before.as_deref()).await?;
            let Some(last) = page.last() else {
                return Ok(swept);
            };
            before = Some(last.id.clone());
            for found in page {
                if found.expired || !self.imports.expired(&found, now) {
                    continue;
                }
                let _one_at_a_time = self.imports_lock.lock().await;
                let mut record = self.store.get_import(&found.id).await?;
                if record.expired || !self.imports.expired(&record, now) {
                    continue;
                }
                for part in 0..record.parts {
                    self.blobs.delete(&part_blob(&record.id, part)).await?;
                }
                record.state = ImportState::Failed;
                record.expired = true;
                record.error = self.imports.expired_message();
                record.updated_at = now;
                self.store.save_import(&record).await?;
                swept += 1;
            }
        }
    }

    /// Sweeps now, then again every quarter of the time an upload is kept (at most hourly).
    pub async fn keep_sweeping_pending_imports(&self) {
        let every = (self.imports.pending_ttl / 4)
            .to_std()
            .unwrap_or_default()
            .clamp(
                std::time::Duration::from_secs(15),
                std::time::Duration::from_secs(3600),
            );
        match self.sweep_pending_imports(crate::domain::now()).await {
            Ok(swept) => tracing::info!(swept, "expired import uploads deleted"),
            Err(e) => tracing::warn!(error = %e, "expired import uploads not swept"),
        }
        let service = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                if let Err(e) = service.sweep_pending_imports(crate::domain::now()).await {
                    tracing::warn!(error = %e, "expired import uploads not swept");
                }
            }
        });
    }

    pub(crate) async fn append_import_data(
        &self,
        request: pb::AppendShipmentImportDataRequest,
    ) -> Result<ImportRecord, ShipmentError> {
        let id = import_id(&request.import_id)?;
        let _one_at_a_time = self.imports_lock.lock().await;
        let mut record = self.store.get_import(&id).await?;
        if self.imports.expired(&record, crate::domain::now()) {
            return Err(ShipmentError::Precondition(self.imports.expired_message()));
        }
        if record.state != ImportState::Uploading {
            return Err(ShipmentError::Precondition(
                "This import's file is complete; begin a new import.".into(),
            ));
        }
        let length = request.data.len() as i64;
        if request.data.is_empty() || request.data.len() > MAX_PART_BYTES {
            return Err(FieldViolation::new("data", "must be 1 byte to 1 MiB").into());
        }
        // The last part sent again (its answer was lost): already here.
        if request.offset + length == record.uploaded_bytes
            && request.offset < record.uploaded_bytes
        {
            return Ok(record);
        }
        if request.offset != record.uploaded_bytes {
            return Err(FieldViolation::new(
                "offset",
                format!(
                    "must be {} (the bytes received so far)",
                    record.uploaded_bytes
                ),
            )
            .into());
        }
        if record.uploaded_bytes + length > record.size_bytes {
            return Err(FieldViolation::new(
                "data",
                format!("goes past the file's size of {} bytes", record.size_bytes),
            )
            .into());
        }
        self.blobs
            .put(&part_blob(&id, record.parts), &request.data)
            .await?;
        record.parts += 1;
        record.uploaded_bytes += length;
        record.updated_at = crate::domain::now();
        self.store.save_import(&record).await?;
        Ok(record)
    }

    pub(crate) async fn start_import(
        &self,
        request: pb::StartShipmentImportRequest,
        actor: Actor,
    ) -> Result<ImportRecord, ShipmentError> {
        let id = import_id(&request.import_id)?;
        let _one_at_a_time = self.imports_lock.lock().await;
        let mut record = self.store.get_import(&id).await?;
        if self.imports.expired(&record, crate::domain::now()) {
            return Err(ShipmentError::Precondition(self.imports.expired_message()));
        }
        if !matches!(
            record.state,
            ImportState::Uploading | ImportState::Validated
        ) {
            return Err(ShipmentError::Precondition(
                "This import has already run; begin a new import to run the file again.".into(),
            ));
        }
        let now = crate::domain::now();
        let (checked, file_hash) = {
            let mut checked = record.clone();
            let file = FileRows::new(self, &record)?;
            // The check is long work: on a thread of its own, which awaits the parts itself.
            let runtime = tokio::runtime::Handle::current();
            tokio::task::spawn_blocking(move || {
                runtime
                    .block_on(check_file(file, now, &mut checked))
                    .map(|hash| (checked, hash))
            })
            .await
            .map_err(|e| ShipmentError::Internal(e.to_string()))??
        };
        record = checked;
        record.updated_at = now;
        if request.validate_only {
            record.state = ImportState::Validated;
            self.store.save_import(&record).await?;
            return Ok(record);
        }
        record.state = ImportState::Running;
        record.rejected = 0;
        self.store.save_import(&record).await?;
        let begun = AuditEntry::new(&actor, Action::ShipmentImport, "", &record.file_name)
            .with_summary(format!(
                "Import begun: {} rows, {} valid",
                record.total_rows, record.valid_rows
            ));
        self.store.record(&[begun]).await?;
        let service = self.clone();
        let running = record.clone();
        tokio::spawn(async move {
            let id = running.id.clone();
            if let Err(e) = service.run_import(running, &file_hash, actor).await {
                tracing::error!(import = %id, error = %e, "import failed");
                if let Ok(mut record) = service.store.get_import(&id).await {
                    record.state = ImportState::Failed;
                    record.error = format!(
                        "The import stopped: {e}. Run the same file again: rows already imported are skipped."
                    );
                    record.updated_at = crate::domain::now();
                    let _ = service.store.save_import(&record).await;
                }
            }
        });
        Ok(record)
    }

    /// Creates the shipments of every valid row, a batch per commit, saving the progress and
    /// the rejected rows' report after each.
    async fn run_import(
        &self,
        mut record: ImportRecord,
        file_hash: &str,
        actor: Actor,
    ) -> Result<(), ShipmentError> {
        let rules = self.store.email_rules().await?;
        let mut file = FileRows::new(self, &record)?;
        let header = file.header().await?;
        let mut report_header = vec!["row".to_owned(), "errors".to_owned()];
        report_header.extend(
            header
                .names
                .iter()
                .filter(|n| *n != "row" && *n != "errors")
                .cloned(),
        );
        let kept: Vec<usize> = header
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| *n != "row" && *n != "errors")
            .map(|(i, _)| i)
            .collect();
        let mut done = false;
        while !done {
            let now = crate::domain::now();
            let mut batch = Vec::with_capacity(BATCH_ROWS);
            let report_start = if record.report_parts == 0 {
                crate::export::BOM.to_vec()
            } else {
                Vec::new()
            };
            let mut report = csv::Writer::from_writer(report_start);
            if record.report_parts == 0 {
                report
                    .write_record(&report_header)
                    .expect("writing to memory");
            }
            let mut rejected_now = 0;
            while batch.len() + (rejected_now as usize) < BATCH_ROWS {
                let Some(line) = file.next().await? else {
                    done = true;
                    break;
                };
                let row = file.record();
                match check_row(&header, row, line, now) {
                    Ok(valid) => batch.push((valid, row.clone())),
                    Err(errors) => {
                        rejected_now += 1;
                        write_rejected(&mut report, line, &errors, row, &kept);
                    }
                }
            }
            let read = batch.len() as i64 + rejected_now;
            let mut outcome = self
                .create_rows(&batch, &rules, file_hash, &record.file_name, &actor)
                .await?;
            for ((valid, raw), result) in batch.iter().zip(outcome.drain(..)) {
                match result {
                    Ok(()) => record.created += 1,
                    Err(
                        e @ (ShipmentError::AlreadyClaimed(_)
                        | ShipmentError::DuplicateTrackingNumber),
                    ) => match self.conflict(&e, valid).await? {
                        None => record.skipped += 1,
                        Some(conflict) => {
                            rejected_now += 1;
                            record.conflicts += 1;
                            write_rejected(&mut report, valid.row, &[conflict], raw, &kept);
                        }
                    },
                    Err(e) => {
                        rejected_now += 1;
                        let message = match e {
                            ShipmentError::Invalid(v) => v
                                .into_iter()
                                .map(|v| CellError::new(&column_of(&v.field), v.description))
                                .collect(),
                            other => vec![CellError::new("row", other.to_string())],
                        };
                        write_rejected(&mut report, valid.row, &message, raw, &kept);
                    }
                }
            }
            record.processed_rows += read;
            if rejected_now > 0 {
                let bytes = report.into_inner().expect("writing to memory");
                self.blobs
                    .put(&report_blob(&record.id, record.report_parts), &bytes)
                    .await?;
                record.report_parts += 1;
                record.rejected += rejected_now;
            }
            record.updated_at = crate::domain::now();
            if done {
                record.state = ImportState::Succeeded;
            }
            self.store.save_import(&record).await?;
        }
        let finished = AuditEntry::new(&actor, Action::ShipmentImport, "", &record.file_name)
            .with_summary(format!(
                "Import finished: {} created, {} skipped, {} rejected ({} conflicts)",
                record.created, record.skipped, record.rejected, record.conflicts
            ));
        self.store.record(&[finished]).await?;
        for part in 0..record.parts {
            self.blobs.delete(&part_blob(&record.id, part)).await?;
        }
        tracing::info!(import = %record.id, created = record.created, skipped = record.skipped, rejected = record.rejected, conflicts = record.conflicts, "import finished");
        Ok(())
    }

    /// For a row refused as already imported (its reference claimed, or its tracking number
    /// taken): None when the shipment holding it has the row's data, else the conflict naming
    /// the columns that differ.
    async fn conflict(
        &self,
        refusal: &ShipmentError,
        row: &ValidRow,
    ) -> Result<Option<CellError>, ShipmentError> {
        let (column, existing) = match (refusal, &row.tracking_number) {
            (ShipmentError::AlreadyClaimed(claim), _) if claim.starts_with(REFERENCE_CLAIM) => {
                let Some(id) = self.store.claim_holder(claim).await? else {
                    return Ok(None);
                };
                ("external_reference", self.store.get(&id).await)
            }
            (ShipmentError::DuplicateTrackingNumber, Some(number)) => (
                "tracking_number",
                self.store.find_by_tracking_number(number).await,
            ),
            _ => return Ok(None),
        };
        let existing = match existing {
            Ok(existing) => existing,
            // Deleted in between: the next run creates it.
            Err(ShipmentError::NotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let differing = differing_columns(&existing, row);
        if differing.is_empty() {
            return Ok(None);
        }
        let held = if column == "external_reference" {
            format!("The reference {}", row.external_reference)
        } else {
            "The tracking number".to_owned()
        };
        Ok(Some(CellError::new(
            column,
            format!(
                "conflict: {held} is already shipment {} with other data in {}; nothing was \
                 changed",
                existing.tracking_number,
                differing.join(", ")
            ),
        )))
    }

    /// Writes one batch of rows; a generated tracking number that is taken is drawn again.
    async fn create_rows(
        &self,
        batch: &[(ValidRow, csv::StringRecord)],
        rules: &crate::updates::EmailRules,
        file_hash: &str,
        file_name: &str,
        actor: &Actor,
    ) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
        let mut outcomes: Vec<Option<Result<(), ShipmentError>>> =
            (0..batch.len()).map(|_| None).collect();
        let mut pending: Vec<usize> = (0..batch.len()).collect();
        for _ in 0..crate::service::TRACKING_NUMBER_ATTEMPTS {
            if pending.is_empty() {
                break;
            }
            let writes: Vec<(Shipment, Effects)> = pending
                .iter()
                .map(|&i| self.imported_shipment(&batch[i].0, rules, file_hash, file_name, actor))
                .collect();
            let results = self.store.insert_each(&writes).await?;
            let mut again = Vec::new();
            for (&i, result) in pending.iter().zip(results) {
                match result {
                    Err(ShipmentError::DuplicateTrackingNumber)
                        if batch[i].0.tracking_number.is_none() =>
                    {
                        again.push(i)
                    }
                    other => outcomes[i] = Some(other),
                }
            }
            pending = again;
        }
        Ok(outcomes
            .into_iter()
            .map(|o| {
                o.unwrap_or_else(|| {
                    Err(ShipmentError::Internal(
                        "no free tracking number found".into(),
                    ))
                })
            })
            .collect())
    }

    fn imported_shipment(
        &self,
        row: &ValidRow,
        rules: &crate::updates::EmailRules,
        file_hash: &str,
        file_name: &str,
        actor: &Actor,
    ) -> (Shipment, Effects) {
        let at = row.created_at.unwrap_or_else(crate::domain::now);
        let number = row
            .tracking_number
            .clone()
            .unwrap_or_else(TrackingNumber::generate);
        let mut shipment = Shipment::create(row.details.clone(), number, at, &actor.email);
        shipment.external_reference = row.external_reference.clone();
        if let Some(location) = &row.current_location {
            shipment.current_location = location.clone();
        }
        shipment.status = row.status;
        if row.status == Status::Delivered {
            shipment.delivered_at = Some(at);
        }
        if let Some(first) = shipment.shipment_history.first_mut() {
            first.status = row.status;
            first.location = shipment.current_location.clone();
        }
        let effects = Effects {
            emails: crate::emails::notifications(&shipment, &self.links, rules),
            events: crate::webhooks::created(&shipment, crate::domain::now()),
            audit: vec![
                AuditEntry::new(
                    actor,
                    Action::ShipmentCreate,
                    &shipment.id,
                    shipment.tracking_number.as_str(),
                )
                .with_summary(format!(
                    "Imported from {file_name}, line {}: {} → {}",
                    row.row, shipment.details.origin, shipment.details.destination
                )),
            ],
            claims: claims(row, file_hash),
        };
        (shipment, effects)
    }

    pub(crate) async fn get_import(&self, id: &str) -> Result<ImportRecord, ShipmentError> {
        let id = import_id(id)?;
        Ok(self
            .store
            .get_import(&id)
            .await?
            .seen(crate::domain::now(), &self.imports))
    }

    pub(crate) async fn list_imports(
        &self,
        request: &pb::ListShipmentImportsRequest,
    ) -> Result<pb::ListShipmentImportsResponse, ShipmentError> {
        let size = match request.page_size {
            0 => 10,
            1..=50 => request.page_size as usize,
            _ => return Err(FieldViolation::new("page_size", "must be from 1 to 50").into()),
        };
        let before = if request.page_token.is_empty() {
            None
        } else {
            Some(import_id(&request.page_token).map_err(|_| {
                ShipmentError::from(FieldViolation::new(
                    "page_token",
                    "is not a page token of this list",
                ))
            })?)
        };
        let now = crate::domain::now();
        let mut found = self.store.list_imports(size + 1, before.as_deref()).await?;
        let next = if found.len() > size {
            found.truncate(size);
            found.last().map(|r| r.id.clone()).unwrap_or_default()
        } else {
            String::new()
        };
        Ok(pb::ListShipmentImportsResponse {
            imports: found
                .into_iter()
                .map(|r| r.seen(now, &self.imports).to_proto())
                .collect(),
            next_page_token: next,
        })
    }

    /// The parts of the report of rejected rows, in order.
    pub(crate) async fn import_report(
        &self,
        id: &str,
    ) -> Result<(ImportRecord, Vec<String>), ShipmentError> {
        let record = self.get_import(id).await?;
        if !matches!(record.state, ImportState::Succeeded | ImportState::Failed) {
            return Err(ShipmentError::Precondition(
                "The import has not finished yet.".into(),
            ));
        }
        let parts = (0..record.report_parts)
            .map(|part| report_blob(&record.id, part))
            .collect();
        Ok((record, parts))
    }
}

/// The columns in which a row's data differs from `existing`: the shipment's details, and its
/// tracking number when the row gives one; not its life since (status, place, times).
fn differing_columns(existing: &Shipment, row: &ValidRow) -> Vec<&'static str> {
    let mut candidate = existing.clone();
    candidate.details = row.details.clone();
    if let Some(number) = &row.tracking_number {
        candidate.tracking_number = number.clone();
    }
    let (was, would_be) = (crate::export::row(existing), crate::export::row(&candidate));
    COLUMNS
        .iter()
        .zip(was.iter().zip(&would_be))
        .filter(|(_, (a, b))| a != b)
        .map(|(column, _)| *column)
        .collect()
}

fn write_rejected(
    report: &mut csv::Writer<Vec<u8>>,
    line: i64,
    errors: &[CellError],
    row: &csv::StringRecord,
    kept: &[usize],
) {
    let reasons = errors
        .iter()
        .map(|e| format!("{}: {}", e.column, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    let mut cells = vec![line.to_string(), reasons];
    cells.extend(
        kept.iter()
            .map(|&i| crate::export::text_cell(row.get(i).unwrap_or(""))),
    );
    report.write_record(&cells).expect("writing to memory");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_read_to_the_cent() {
        assert_eq!(parse_cents("1250.50"), Some(125_050));
        assert_eq!(parse_cents("12.5"), Some(1_250));
        assert_eq!(parse_cents("7"), Some(700));
        for bad in ["", "1.234", "-1", "1,50", "abc", ".5"] {
            assert_eq!(parse_cents(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn exported_formula_escapes_are_undone_and_other_text_is_kept() {
        assert_eq!(literal("'=HYPERLINK(\"x\")"), "=HYPERLINK(\"x\")");
        assert_eq!(literal("=HYPERLINK(\"x\")"), "=HYPERLINK(\"x\")");
        assert_eq!(literal("'+1 555"), "+1 555");
        assert_eq!(literal("O'Neil"), "O'Neil");
        assert_eq!(literal("'quoted'"), "'quoted'");
        for text in [
            "+44 20 7946 0958",
            "'=x",
            "''=x",
            "'",
            "''",
            "'quoted'",
            "@a",
            "-",
            "plain",
        ] {
            assert_eq!(literal(&crate::export::text_cell(text)), text, "{text:?}");
        }
    }

    #[test]
    fn field_paths_name_their_columns() {
        assert_eq!(column_of("shipper.email"), "shipper_email");
        assert_eq!(column_of("packages[2].quantity"), "packages");
        assert_eq!(column_of("type"), "type_of_shipment");
        assert_eq!(column_of("total_freight_cents"), "total_freight");
        assert_eq!(column_of("origin"), "origin");
    }

    #[test]
    fn the_template_has_every_column_an_import_reads() {
        let template = include_str!("../../../frontend/public/shipments-import-template.csv");
        let header: Vec<&str> = template.lines().next().unwrap().split(',').collect();
        assert_eq!(header, read_columns().collect::<Vec<_>>());
    }
}
