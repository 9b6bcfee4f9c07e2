//! The import's parser: an uploaded file's rows, read part by part from the blob store, each
//! checked into a shipment's details or the errors of its cells.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use logistics_proto::v1 as pb;
use service_common::text::TextRule;
use sha2::{Digest, Sha256};

use super::{CellError, ImportRecord, RowPreview, file_error, part_blob};
use crate::convert;
use crate::csv_input::{Next, Rows};
use crate::details;
use crate::domain::{Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::export::COLUMNS;
use crate::service::ShipmentsService;

const PREVIEW_ROWS: usize = 10;
const REJECTED_PREVIEW_ROWS: usize = 20;

/// Columns a row may leave blank and a file may leave out.
const OPTIONAL_COLUMNS: [&str; 7] = [
    "tracking_number",
    "status",
    "current_location",
    "created_at",
    "external_reference",
    "language_code",
    "customer_id",
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

/// An import's file read part by part from the blob store, one bounded row at a time; it
/// also hashes the bytes it reads.
pub(super) struct FileRows {
    blobs: std::sync::Arc<dyn crate::blobs::BlobStore>,
    id: String,
    parts: i64,
    next_part: i64,
    rows: Rows,
    hash: Sha256,
}

impl FileRows {
    pub(super) fn new(
        service: &ShipmentsService,
        record: &ImportRecord,
    ) -> Result<Self, ShipmentError> {
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
    pub(super) async fn next(&mut self) -> Result<Option<i64>, ShipmentError> {
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

    pub(super) fn record(&self) -> &csv::StringRecord {
        self.rows.record()
    }

    /// The header, as the file's first row; an empty file is refused.
    pub(super) async fn header(&mut self) -> Result<Header, ShipmentError> {
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
pub(super) struct Header {
    pub(super) names: Vec<String>,
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
pub(super) struct ValidRow {
    pub row: i64,
    pub details: crate::domain::ShipmentDetails,
    pub tracking_number: Option<TrackingNumber>,
    pub status: Status,
    pub current_location: Option<String>,
    pub created_at: Option<DateTime<Utc>>,
    pub external_reference: String,
}

/// A proto field path of a shipment (as the create checks name it) as the CSV column.
pub(super) fn column_of(field: &str) -> String {
    let path = field.split('[').next().unwrap_or_default();
    match details::PATHS.iter().position(|p| *p == path) {
        Some(i) => details::COLUMNS[i].to_owned(),
        None => path.split('.').next().unwrap_or_default().to_owned(),
    }
}

fn parse_status(text: &str) -> Option<Status> {
    Status::parse(&text.trim().to_ascii_lowercase().replace(' ', "_"))
}

/// Checks one data row; `line` is its line in the file (the header is line 1).
pub(super) fn check_row(
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
    let mut input = pb::Shipment::default();
    for column in details::COLUMNS {
        if let Err(message) = details::parse_cell(column, &cell(column), &mut input) {
            errors.push(CellError::new(column, message));
        }
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
pub(super) async fn check_file(
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let template = include_str!("../../../../frontend/public/shipments-import-template.csv");
        let header: Vec<&str> = template.lines().next().unwrap().split(',').collect();
        assert_eq!(header, read_columns().collect::<Vec<_>>());
    }
}
