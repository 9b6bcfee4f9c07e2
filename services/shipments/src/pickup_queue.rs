//! The staff's pickup queue (`PickupService`): assign, confirm (the customer is e-mailed),
//! collect (its pending shipments move to in transit) or fail a pickup.

use audit::{Action, AuditEntry};
use logistics_proto::v1::{self as pb, pickup_service_server::PickupService};
use service_common::text::TextRule;
use tonic::{Request, Response, Status};

use crate::domain::{HistoryRule, ShipmentPatch, Status as ShipmentStatus};
use crate::error::{FieldViolation, ShipmentError};
use crate::pickups::{self, Pickup, PickupSettings, PickupState};
use crate::portal::pickup_entry;
use crate::service::{ShipmentsService, id, verified};
use crate::store::Effects;

impl ShipmentsService {
    async fn pickup(&self, value: &str) -> Result<Pickup, ShipmentError> {
        let id = id("id", value).map_err(|_| ShipmentError::PickupNotFound)?;
        self.store.get_pickup(&id).await
    }

    /// Saves `after`, made from `before`, with its audit entry (and e-mails).
    async fn save_pickup(
        &self,
        before: &Pickup,
        mut after: Pickup,
        entry: AuditEntry,
        emails: Vec<outbox::Notification>,
    ) -> Result<pb::Pickup, ShipmentError> {
        after.updated_at = crate::domain::now();
        let effects = Effects {
            emails,
            audit: vec![entry.with_changes(audit::diff(before, &after, &["updatedAt"]))],
            ..Effects::default()
        };
        self.store.replace_pickup(before, &after, &effects).await?;
        Ok(after.to_proto())
    }
}

fn still_open(pickup: &Pickup) -> Result<(), ShipmentError> {
    if pickup.state.open() {
        Ok(())
    } else {
        Err(ShipmentError::Precondition(format!(
            "This pickup is {} already",
            pickup.state.as_str()
        )))
    }
}

#[tonic::async_trait]
impl PickupService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn list_pickups(
        &self,
        request: Request<pb::ListPickupsRequest>,
    ) -> Result<Response<pb::ListPickupsResponse>, Status> {
        let query = pickups::query(request.get_ref())?;
        Ok(Response::new(self.pickup_page(&query).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn assign_pickup(
        &self,
        request: Request<pb::AssignPickupRequest>,
    ) -> Result<Response<pb::Pickup>, Status> {
        let (_, actor) = verified(&request)?;
        let request = request.into_inner();
        let agent_id = id("agent_id", &request.agent_id).map_err(|_| {
            ShipmentError::from(FieldViolation::new("agent_id", "is not a user id"))
        })?;
        let agent_email = request.agent_email.trim().to_lowercase();
        if !service_common::is_email(&agent_email) {
            return Err(ShipmentError::from(FieldViolation::new(
                "agent_email",
                "Invalid email address format",
            ))
            .into());
        }
        let before = self.pickup(&request.id).await?;
        still_open(&before)?;
        let mut after = before.clone();
        after.agent_id = agent_id;
        after.agent_email = agent_email.clone();
        let entry = pickup_entry(&actor, Action::PickupAssign, &after)
            .with_summary(format!("Assigned to {agent_email}"));
        Ok(Response::new(
            self.save_pickup(&before, after, entry, Vec::new()).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_pickup(
        &self,
        request: Request<pb::ConfirmPickupRequest>,
    ) -> Result<Response<pb::Pickup>, Status> {
        let (_, actor) = verified(&request)?;
        let before = self.pickup(&request.get_ref().id).await?;
        if before.state != PickupState::Requested {
            return Err(ShipmentError::Precondition(
                "Only a requested pickup can be confirmed".into(),
            )
            .into());
        }
        let mut after = before.clone();
        after.state = PickupState::Confirmed;
        let email = outbox::emails::pickup_confirmed(
            &after.requested_by,
            &after.customer_name,
            &after.address,
            after.date,
            (after.window_start, after.window_end),
            after.parcel_count,
            after.language,
            crate::domain::now(),
        );
        let entry = pickup_entry(&actor, Action::PickupConfirm, &after);
        Ok(Response::new(
            self.save_pickup(&before, after, entry, vec![email]).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn complete_pickup(
        &self,
        request: Request<pb::CompletePickupRequest>,
    ) -> Result<Response<pb::Pickup>, Status> {
        let (_, actor) = verified(&request)?;
        let before = self.pickup(&request.get_ref().id).await?;
        still_open(&before)?;
        // Each pending shipment moves on its own atomic update, with its history entry and
        // e-mails; run again, the ones moved already are left alone.
        for shipment_id in &before.shipment_ids {
            let shipment = match self.store.get(shipment_id).await {
                Ok(shipment) => shipment,
                Err(ShipmentError::NotFound) => continue,
                Err(e) => return Err(e.into()),
            };
            if shipment.status != ShipmentStatus::Pending {
                continue;
            }
            let patch = ShipmentPatch {
                status: Some(ShipmentStatus::InTransit),
                current_location: Some(before.area.clone()),
                remarks: "Collected at the pickup address".into(),
                history: HistoryRule::AlwaysRecord,
                ..ShipmentPatch::default()
            };
            self.update(shipment_id, patch, actor.clone()).await?;
        }
        let mut after = before.clone();
        after.state = PickupState::Collected;
        let entry = pickup_entry(&actor, Action::PickupCollect, &after);
        Ok(Response::new(
            self.save_pickup(&before, after, entry, Vec::new()).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn fail_pickup(
        &self,
        request: Request<pb::FailPickupRequest>,
    ) -> Result<Response<pb::Pickup>, Status> {
        let (_, actor) = verified(&request)?;
        let reason = TextRule::paragraph(500)
            .check(&request.get_ref().reason)
            .map_err(|description| {
                ShipmentError::from(FieldViolation::new("reason", description))
            })?;
        let before = self.pickup(&request.get_ref().id).await?;
        still_open(&before)?;
        let mut after = before.clone();
        after.state = PickupState::Failed;
        after.failure_reason = reason.clone();
        let entry = pickup_entry(&actor, Action::PickupFail, &after).with_summary(reason);
        Ok(Response::new(
            self.save_pickup(&before, after, entry, Vec::new()).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn get_pickup_settings(
        &self,
        _request: Request<pb::GetPickupSettingsRequest>,
    ) -> Result<Response<pb::PickupSettings>, Status> {
        Ok(Response::new(
            self.store.pickup_settings().await?.to_proto(),
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn update_pickup_settings(
        &self,
        request: Request<pb::UpdatePickupSettingsRequest>,
    ) -> Result<Response<pb::PickupSettings>, Status> {
        let (_, actor) = verified(&request)?;
        let input = request.into_inner().settings.unwrap_or_default();
        let settings = PickupSettings::from_proto(&input)?;
        let before = self.store.pickup_settings().await?;
        let entry = AuditEntry::new(&actor, Action::SettingsUpdate, "pickups", "Pickup settings")
            .with_changes(audit::diff(&before, &settings, &[]));
        self.store.set_pickup_settings(&settings, &entry).await?;
        Ok(Response::new(settings.to_proto()))
    }
}
