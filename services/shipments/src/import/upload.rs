//! An import's life before and around its run: created, its file appended part by part,
//! checked, started; uploads not run in time are swept.

use audit::{Action, Actor, AuditEntry};
use chrono::{DateTime, Utc};
use logistics_proto::v1 as pb;
use service_common::text::TextRule;

use super::rows::{FileRows, check_file};
use super::{
    ImportPolicy, ImportRecord, ImportState, MAX_FILE_BYTES, MAX_PART_BYTES, duration_text,
    import_id, part_blob,
};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::service::ShipmentsService;

/// A running import whose record has not moved for this long has stopped (its process ended).
const STALLED_AFTER: chrono::TimeDelta = chrono::TimeDelta::minutes(2);

impl ImportRecord {
    /// The record as a caller sees it: a run whose process ended shows as failed.
    pub(super) fn seen(mut self, now: DateTime<Utc>, policy: &ImportPolicy) -> Self {
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
}

impl ShipmentsService {
    pub(crate) async fn create_import(
        &self,
        request: pb::CreateShipmentImportRequest,
        actor: &Actor,
    ) -> Result<ImportRecord, ShipmentError> {
        let mut v = Violations::default();
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
}
