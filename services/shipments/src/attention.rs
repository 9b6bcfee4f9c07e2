//! What needs staff's attention: the exceptions queue (`ShipmentExceptionService`) and the
//! internal notes (`ShipmentNoteService`).

use audit::{Action, AuditEntry};
use logistics_proto::v1::{
    self as pb, shipment_exception_service_server::ShipmentExceptionService,
    shipment_note_service_server::ShipmentNoteService,
};
use tonic::{Request, Response, Status};

use crate::convert::TimeChecks;
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::exceptions::{self, ExceptionQuery, ExceptionSettings, ShipmentException, State};
use crate::notes::{self, ShipmentNote};
use crate::service::{ShipmentsService, id, verified};

impl ShipmentsService {
    /// The open exception `value` names, in the queue now; NOT_FOUND for anything else.
    async fn open_exception(&self, value: &str) -> Result<ShipmentException, ShipmentError> {
        let (shipment_id, kind) =
            exceptions::parse_id(value.trim()).ok_or(ShipmentError::ExceptionNotFound)?;
        let found = self
            .store
            .get_exception(&shipment_id, kind)
            .await?
            .ok_or(ShipmentError::ExceptionNotFound)?;
        let settings = self.store.exception_settings().await?;
        if !exceptions::due(&found, &settings, crate::domain::now()) {
            return Err(ShipmentError::ExceptionNotFound);
        }
        if found.state == State::Resolved {
            return Err(ShipmentError::Precondition(
                "This exception is resolved already".into(),
            ));
        }
        Ok(found)
    }

    /// Saves a changed exception with its audit entry and answers it beside its shipment.
    async fn save_exception(
        &self,
        before: &ShipmentException,
        after: ShipmentException,
        entry: AuditEntry,
    ) -> Result<pb::ShipmentException, ShipmentError> {
        let entry = entry.with_changes(audit::diff(before, &after, &[]));
        self.store.replace_exception(before, &after, &entry).await?;
        let shipment = self.store.get(&after.shipment_id).await.ok();
        Ok(after.to_proto(shipment.as_ref()))
    }
}

fn exception_entry(actor: &audit::Actor, action: Action, e: &ShipmentException) -> AuditEntry {
    AuditEntry::new(actor, action, e.id(), e.kind.label())
}

#[tonic::async_trait]
impl ShipmentExceptionService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn list_shipment_exceptions(
        &self,
        request: Request<pb::ListShipmentExceptionsRequest>,
    ) -> Result<Response<pb::ListShipmentExceptionsResponse>, Status> {
        let (caller, _) = verified(&request)?;
        let settings = self.store.exception_settings().await?;
        let query = ExceptionQuery::of(
            request.get_ref(),
            &caller.sub,
            &settings,
            crate::domain::now(),
        )?;
        let page = self.store.list_exceptions(&query).await?;
        Ok(Response::new(pb::ListShipmentExceptionsResponse {
            exceptions: page
                .exceptions
                .iter()
                .map(|(e, shipment)| e.to_proto(shipment.as_ref()))
                .collect(),
            next_page_token: page
                .next
                .map(|c| service_common::paging::encode(&c))
                .unwrap_or_default(),
            total_size: page.total as i64,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_shipment_exception_counts(
        &self,
        request: Request<pb::GetShipmentExceptionCountsRequest>,
    ) -> Result<Response<pb::ShipmentExceptionCounts>, Status> {
        let (caller, _) = verified(&request)?;
        let settings = self.store.exception_settings().await?;
        let query = ExceptionQuery::of(
            &pb::ListShipmentExceptionsRequest::default(),
            &caller.sub,
            &settings,
            crate::domain::now(),
        )?;
        let (by_kind, mine) = self.store.count_exceptions(&query, &caller.sub).await?;
        Ok(Response::new(pb::ShipmentExceptionCounts {
            counts: by_kind
                .into_iter()
                .map(|(kind, count)| pb::ShipmentExceptionCount {
                    kind: kind.to_proto().into(),
                    count: count as i64,
                })
                .collect(),
            mine: mine as i64,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn assign_shipment_exception(
        &self,
        request: Request<pb::AssignShipmentExceptionRequest>,
    ) -> Result<Response<pb::ShipmentException>, Status> {
        let (_, actor) = verified(&request)?;
        let request = request.into_inner();
        let (assignee_id, assignee_email) = if request.assignee_id.trim().is_empty() {
            (String::new(), String::new())
        } else {
            let assignee_id = id("assignee_id", &request.assignee_id).map_err(|_| {
                ShipmentError::from(FieldViolation::new("assignee_id", "is not a user id"))
            })?;
            let email = request.assignee_email.trim().to_lowercase();
            if email.len() > 254 || !service_common::is_email(&email) {
                return Err(ShipmentError::from(FieldViolation::new(
                    "assignee_email",
                    "Invalid email address format",
                ))
                .into());
            }
            (assignee_id, email)
        };
        let before = self.open_exception(&request.id).await?;
        let after = ShipmentException {
            assignee_id,
            assignee_email: assignee_email.clone(),
            ..before.clone()
        };
        let summary = if assignee_email.is_empty() {
            "Assigned to nobody".to_owned()
        } else {
            format!("Assigned to {assignee_email}")
        };
        let entry = exception_entry(&actor, Action::ExceptionAssign, &after).with_summary(summary);
        Ok(Response::new(
            self.save_exception(&before, after, entry).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn resolve_shipment_exception(
        &self,
        request: Request<pb::ResolveShipmentExceptionRequest>,
    ) -> Result<Response<pb::ShipmentException>, Status> {
        let (_, actor) = verified(&request)?;
        let reason = exceptions::reason(&request.get_ref().reason).map_err(ShipmentError::from)?;
        let before = self.open_exception(&request.get_ref().id).await?;
        let after = ShipmentException {
            state: State::Resolved,
            resolution: reason.clone(),
            resolved_at: Some(crate::domain::now()),
            resolved_by: actor.email.clone(),
            ..before.clone()
        };
        let entry = exception_entry(&actor, Action::ExceptionResolve, &after).with_summary(reason);
        Ok(Response::new(
            self.save_exception(&before, after, entry).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn get_exception_settings(
        &self,
        _request: Request<pb::GetExceptionSettingsRequest>,
    ) -> Result<Response<pb::ExceptionSettings>, Status> {
        Ok(Response::new(
            self.store.exception_settings().await?.to_proto(),
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn update_exception_settings(
        &self,
        request: Request<pb::UpdateExceptionSettingsRequest>,
    ) -> Result<Response<pb::ExceptionSettings>, Status> {
        let (_, actor) = verified(&request)?;
        let input = request.into_inner().settings.unwrap_or_default();
        let settings = ExceptionSettings::from_proto(&input)?;
        let before = self.store.exception_settings().await?;
        let entry = AuditEntry::new(
            &actor,
            Action::SettingsUpdate,
            "exceptions",
            "Exception settings",
        )
        .with_changes(audit::diff(&before, &settings, &[]));
        self.store.set_exception_settings(&settings, &entry).await?;
        Ok(Response::new(settings.to_proto()))
    }
}

#[tonic::async_trait]
impl ShipmentNoteService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn create_shipment_note(
        &self,
        request: Request<pb::CreateShipmentNoteRequest>,
    ) -> Result<Response<pb::ShipmentNote>, Status> {
        let (caller, actor) = verified(&request)?;
        let request = request.into_inner();
        let mut v = Violations::default();
        let shipment_id = id("shipment_id", &request.shipment_id)
            .map_err(|_| v.add("shipment_id", "is not a shipment id"))
            .ok();
        let text = notes::text(&request.text)
            .map_err(|bad| v.add(bad.field, bad.description))
            .ok();
        let (Some(shipment_id), Some(text)) = (shipment_id, text) else {
            return Err(ShipmentError::Invalid(v).into());
        };
        let shipment = self.store.get(&shipment_id).await?;
        let note = ShipmentNote {
            id: crate::domain::new_id(),
            shipment_id,
            text,
            author_id: caller.sub.clone(),
            author_email: caller.email.clone(),
            created_at: crate::domain::now(),
        };
        let entry = AuditEntry::new(
            &actor,
            Action::ShipmentNote,
            &shipment.id,
            shipment.tracking_number.as_str(),
        )
        .with_summary(note.text.clone());
        self.store.insert_note(&note, &entry).await?;
        Ok(Response::new(note.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn list_shipment_notes(
        &self,
        request: Request<pb::ListShipmentNotesRequest>,
    ) -> Result<Response<pb::ListShipmentNotesResponse>, Status> {
        let request = request.into_inner();
        let mut v = Violations::default();
        let page_size = v.page_size(request.page_size);
        let shipment_id = id("shipment_id", &request.shipment_id)
            .map_err(|_| v.add("shipment_id", "is not a shipment id"))
            .ok();
        let after = service_common::paging::decode(&request.page_token)
            .map_err(|bad| {
                let bad = FieldViolation::from(bad);
                v.add(bad.field, bad.description)
            })
            .ok()
            .flatten();
        let Some(shipment_id) = shipment_id else {
            return Err(ShipmentError::Invalid(v).into());
        };
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        // A shipment that is gone is NOT_FOUND, not an empty list.
        self.store.get(&shipment_id).await?;
        let (found, next) = self
            .store
            .list_notes(&shipment_id, page_size, after)
            .await?;
        Ok(Response::new(pb::ListShipmentNotesResponse {
            notes: found.iter().map(ShipmentNote::to_proto).collect(),
            next_page_token: next
                .map(|c| service_common::paging::encode(&c))
                .unwrap_or_default(),
        }))
    }
}
