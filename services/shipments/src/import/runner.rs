//! The background run of a checked import: each valid row becomes a shipment with its
//! e-mails, audit entry and claims, a batch per commit, with its progress saved after each.

use audit::{Action, Actor, AuditEntry};

use super::report::{report_blob, report_columns, write_rejected};
use super::rows::{FileRows, ValidRow, check_row, column_of};
use super::{CellError, ImportRecord, ImportState, part_blob};
use crate::claims::REFERENCE_CLAIM;
use crate::domain::{Shipment, Status, TrackingNumber};
use crate::error::ShipmentError;
use crate::export::COLUMNS;
use crate::service::ShipmentsService;
use crate::store::Effects;

/// Rows written per commit while running: a commit writes every index page its rows touch,
/// and random keys (tracking numbers) touch a page each, so larger batches write less. Two
/// batches are in memory at most. 100,000 rows on glibc's malloc, time and the gateway's peak
/// RSS: 19.5 s and 142 MB in batches of 500, 15.7 s and 283 MB in batches of 2,000, 15.2 s and
/// 524 MB in batches of 5,000; on mimalloc, 13.1 to 14.8 s and 330 to 365 MB in batches of 5,000.
const BATCH_ROWS: usize = 5000;

/// The claims of a row: its external reference, else its place in this very file.
fn claims(row: &ValidRow, file_hash: &str) -> Vec<String> {
    if row.external_reference.is_empty() {
        vec![crate::claims::file_row(file_hash, row.row)]
    } else {
        vec![crate::claims::reference(&row.external_reference)]
    }
}

/// The rows of one commit, read and checked, with the writes of the valid ones made.
struct Batch {
    rows: Vec<(ValidRow, csv::StringRecord)>,
    writes: Vec<(Shipment, Effects)>,
    /// The rejected rows' lines of the report, without its header.
    report: csv::Writer<Vec<u8>>,
    rejected: i64,
}

impl ShipmentsService {
    /// Creates the shipments of every valid row, a batch per commit, saving the progress and
    /// the rejected rows' report after each. The next batch is read, checked and made while
    /// the last one is written.
    pub(super) async fn run_import(
        &self,
        mut record: ImportRecord,
        file_hash: &str,
        actor: Actor,
    ) -> Result<(), ShipmentError> {
        let rules = self.store.email_rules().await?;
        let mut file = FileRows::new(self, &record)?;
        let header = file.header().await?;
        let (report_header, kept) = report_columns(&header.names);
        let (batches, mut made) = tokio::sync::mpsc::channel::<Batch>(1);
        let file_name = record.file_name.clone();
        // Whether each customer id the file names exists, asked once per id.
        let mut customers = std::collections::HashMap::new();
        let make = async {
            // Owned here: the writer's loop ends when this drops it.
            let batches = batches;
            loop {
                // Made only once the writer has room: one batch written, one waiting.
                let Ok(room) = batches.reserve().await else {
                    return Ok(());
                };
                let now = crate::domain::now();
                let mut rows = Vec::with_capacity(BATCH_ROWS);
                let mut report = csv::Writer::from_writer(Vec::new());
                let mut rejected = 0;
                while rows.len() + (rejected as usize) < BATCH_ROWS {
                    let Some(line) = file.next().await? else {
                        break;
                    };
                    let row = file.record();
                    let checked = match check_row(&header, row, line, now) {
                        Ok(valid) => self.known_customer(valid, &mut customers).await?,
                        Err(errors) => Err(errors),
                    };
                    match checked {
                        Ok(valid) => rows.push((valid, row.clone())),
                        Err(errors) => {
                            rejected += 1;
                            write_rejected(&mut report, line, &errors, row, &kept);
                        }
                    }
                }
                if rows.is_empty() && rejected == 0 {
                    return Ok::<_, ShipmentError>(());
                }
                let writes = rows
                    .iter()
                    .map(|(row, _)| {
                        self.imported_shipment(row, &rules, file_hash, &file_name, &actor)
                    })
                    .collect();
                let batch = Batch {
                    rows,
                    writes,
                    report,
                    rejected,
                };
                room.send(batch);
            }
        };
        let write = async {
            while let Some(batch) = made.recv().await {
                self.write_batch(
                    batch,
                    &mut record,
                    &rules,
                    file_hash,
                    &actor,
                    (&report_header, &kept),
                )
                .await?;
            }
            Ok(())
        };
        tokio::try_join!(make, write)?;
        record.state = ImportState::Succeeded;
        record.updated_at = crate::domain::now();
        self.store.save_import(&record).await?;
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

    /// The row, or its rejection when it names a customer that does not exist.
    async fn known_customer(
        &self,
        row: ValidRow,
        known: &mut std::collections::HashMap<String, bool>,
    ) -> Result<Result<ValidRow, Vec<CellError>>, ShipmentError> {
        let id = &row.details.customer_id;
        if id.is_empty() {
            return Ok(Ok(row));
        }
        let exists = match known.get(id) {
            Some(exists) => *exists,
            None => {
                let exists = match self.check_customer(id).await {
                    Ok(()) => true,
                    Err(ShipmentError::Invalid(_)) => false,
                    Err(e) => return Err(e),
                };
                // Bounded: a file naming more ids than this asks again for the rest.
                if known.len() < 10_000 {
                    known.insert(id.clone(), exists);
                }
                exists
            }
        };
        Ok(if exists {
            Ok(row)
        } else {
            Err(vec![CellError::new("customer_id", "Customer not found")])
        })
    }

    /// Writes one batch, counts its outcomes into `record`, saves the report part of its
    /// rejected rows (the first with the report's header) and then the progress.
    async fn write_batch(
        &self,
        batch: Batch,
        record: &mut ImportRecord,
        rules: &crate::updates::EmailRules,
        file_hash: &str,
        actor: &Actor,
        (report_header, kept): (&[String], &[usize]),
    ) -> Result<(), ShipmentError> {
        let Batch {
            rows,
            writes,
            mut report,
            mut rejected,
        } = batch;
        let read = rows.len() as i64 + rejected;
        let mut outcome = self
            .create_rows(&rows, writes, rules, file_hash, &record.file_name, actor)
            .await?;
        for ((valid, raw), result) in rows.iter().zip(outcome.drain(..)) {
            match result {
                Ok(()) => record.created += 1,
                Err(
                    e @ (ShipmentError::AlreadyClaimed(_) | ShipmentError::DuplicateTrackingNumber),
                ) => match self.conflict(&e, valid).await? {
                    None => record.skipped += 1,
                    Some(conflict) => {
                        rejected += 1;
                        record.conflicts += 1;
                        write_rejected(&mut report, valid.row, &[conflict], raw, kept);
                    }
                },
                Err(e) => {
                    rejected += 1;
                    let message = match e {
                        ShipmentError::Invalid(v) => v
                            .into_iter()
                            .map(|v| CellError::new(&column_of(&v.field), v.description))
                            .collect(),
                        other => vec![CellError::new("row", other.to_string())],
                    };
                    write_rejected(&mut report, valid.row, &message, raw, kept);
                }
            }
        }
        record.processed_rows += read;
        if rejected > 0 {
            let mut part = Vec::new();
            if record.report_parts == 0 {
                part.extend_from_slice(crate::export::BOM);
                let mut head = csv::Writer::from_writer(&mut part);
                head.write_record(report_header).expect("writing to memory");
                head.flush().expect("writing to memory");
            }
            part.extend(report.into_inner().expect("writing to memory"));
            self.blobs
                .put(&report_blob(&record.id, record.report_parts), &part)
                .await?;
            record.report_parts += 1;
            record.rejected += rejected;
        }
        record.updated_at = crate::domain::now();
        self.store.save_import(record).await
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

    /// Writes one batch of rows (`writes` made from them); a generated tracking number that
    /// is taken is drawn again.
    async fn create_rows(
        &self,
        batch: &[(ValidRow, csv::StringRecord)],
        mut writes: Vec<(Shipment, Effects)>,
        rules: &crate::updates::EmailRules,
        file_hash: &str,
        file_name: &str,
        actor: &Actor,
    ) -> Result<Vec<Result<(), ShipmentError>>, ShipmentError> {
        let mut outcomes: Vec<Option<Result<(), ShipmentError>>> =
            (0..batch.len()).map(|_| None).collect();
        let mut pending: Vec<usize> = (0..batch.len()).collect();
        for attempt in 0..crate::service::TRACKING_NUMBER_ATTEMPTS {
            if pending.is_empty() {
                break;
            }
            if attempt > 0 {
                writes = pending
                    .iter()
                    .map(|&i| {
                        self.imported_shipment(&batch[i].0, rules, file_hash, file_name, actor)
                    })
                    .collect();
            }
            let results = self.store.insert_each(std::mem::take(&mut writes)).await?;
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
