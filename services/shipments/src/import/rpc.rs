//! The import RPCs that read: one import, the list of imports, the parts of a report.

use logistics_proto::v1 as pb;

use super::report::report_blob;
use super::{ImportRecord, ImportState, RowPreview, import_id};
use crate::error::ShipmentError;
use crate::service::ShipmentsService;
use service_common::paging::{self, BadPageToken, Keyset};

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
            create_time: Some(service_common::timestamp::to_proto(self.created_at)),
            update_time: Some(service_common::timestamp::to_proto(self.updated_at)),
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
        let keyset = Keyset::new(paging::page_size(request.page_size, 10, 50)?);
        let before = match paging::decode(&request.page_token)? {
            Some(cursor) => Some(import_id(&cursor).map_err(|_| BadPageToken)?),
            None => None,
        };
        let now = crate::domain::now();
        let found = self
            .store
            .list_imports(keyset.page_size + 1, before.as_deref())
            .await?;
        let (found, next) = keyset.page(found, |r| paging::encode(&r.id));
        let next = next.unwrap_or_default();
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
