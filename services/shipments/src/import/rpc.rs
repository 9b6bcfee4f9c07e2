//! The import RPCs that read: one import, the list of imports, the parts of a report.

use logistics_proto::v1 as pb;

use super::report::report_blob;
use super::{ImportRecord, ImportState, RowPreview, import_id};
use crate::convert;
use crate::error::{FieldViolation, ShipmentError};
use crate::service::ShipmentsService;

impl ImportRecord {
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

impl ShipmentsService {
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
