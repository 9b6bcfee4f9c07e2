//! Changing many shipments at once: each on its own, with its own history entry, audit entry
//! and e-mails, so one refusal never holds the others back.

use audit::{Action, Actor, AuditEntry};
use logistics_proto::v1 as pb;
use service_common::text::TextRule;

use crate::convert;
use crate::domain::{HistoryRule, ShipmentPatch};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::service::{ShipmentsService, list_query};

/// The most shipments one batch may change.
pub const MAX_BATCH: usize = 1_000;

/// The most tracking events one call may record: a phone's queue goes in a few calls.
pub const MAX_EVENTS: usize = 100;

impl ShipmentsService {
    pub(crate) async fn batch_update_tracking(
        &self,
        request: pb::BatchUpdateShipmentTrackingRequest,
        actor: Actor,
    ) -> Result<pb::BatchUpdateShipmentTrackingResponse, ShipmentError> {
        let mut v = Violations::default();
        let status = convert::status_from_proto("status", request.status, &mut v);
        let location = v.text(
            "current_location",
            &request.current_location,
            TextRule::line(200),
        );
        let remarks = v.text("remarks", &request.remarks, TextRule::line(500).optional());
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let ids = self.batch_ids(&request).await?;
        let patch = ShipmentPatch {
            status: Some(status),
            current_location: Some(location),
            remarks,
            remarks_public: request.remarks_public,
            history: HistoryRule::AlwaysRecord,
            ..ShipmentPatch::default()
        };
        let mut updated = 0;
        let mut failures = Vec::new();
        for id in &ids {
            match self.update(id, patch.clone(), actor.clone()).await {
                Ok(_) => updated += 1,
                Err(e) => failures.push(pb::BatchUpdateFailure {
                    id: id.clone(),
                    tracking_number: String::new(),
                    message: failure_message(&e),
                }),
            }
        }
        for failure in &mut failures {
            if let Ok(found) = self.store.get(&failure.id).await {
                failure.tracking_number = found.tracking_number.to_string();
            }
        }
        // One entry for the batch itself, beside each shipment's own.
        let summary = AuditEntry::new(
            &actor,
            Action::BatchUpdate,
            "",
            format!("{} shipments", ids.len()),
        )
        .with_summary(format!(
            "Status: {} at {} — {updated} changed, {} failed",
            crate::updates::status_label(status),
            request.current_location.trim(),
            failures.len()
        ));
        self.store.record(&[summary]).await?;
        tracing::info!(updated, failed = failures.len(), "batch status change");
        Ok(pb::BatchUpdateShipmentTrackingResponse {
            updated_count: updated,
            failures,
        })
    }

    /// Records each event in order, on its own; stops at the first the store could not take,
    /// so the caller sends it and those after it again.
    pub(crate) async fn record_events(
        &self,
        request: pb::RecordTrackingEventsRequest,
        actor: Actor,
    ) -> Result<pb::RecordTrackingEventsResponse, ShipmentError> {
        if request.events.is_empty() || request.events.len() > MAX_EVENTS {
            return Err(FieldViolation::new(
                "events",
                format!("must hold 1 to {MAX_EVENTS} events"),
            )
            .into());
        }
        let mut results = Vec::with_capacity(request.events.len());
        for event in &request.events {
            let outcome = match crate::service::tracking_event(event) {
                Ok((id, patch)) => self.update(&id, patch, actor.clone()).await.map(|_| ()),
                Err(e) => Err(e),
            };
            match outcome {
                Ok(()) => results.push(pb::TrackingEventResult {
                    recorded: true,
                    message: String::new(),
                }),
                Err(e @ (ShipmentError::Unavailable(_) | ShipmentError::Internal(_))) => {
                    tracing::warn!(error = %e, tried = results.len(), "tracking events stopped");
                    break;
                }
                Err(e) => results.push(pb::TrackingEventResult {
                    recorded: false,
                    message: failure_message(&e),
                }),
            }
        }
        Ok(pb::RecordTrackingEventsResponse { results })
    }

    /// The ids of the batch: as given, or those the filter matches; 1 to `MAX_BATCH`.
    async fn batch_ids(
        &self,
        request: &pb::BatchUpdateShipmentTrackingRequest,
    ) -> Result<Vec<String>, ShipmentError> {
        let too_many = |field: &str| {
            ShipmentError::from(FieldViolation::new(
                field,
                format!("matches more than {MAX_BATCH} shipments; narrow it down"),
            ))
        };
        if !request.ids.is_empty() {
            if request.ids.len() > MAX_BATCH {
                return Err(FieldViolation::new(
                    "ids",
                    format!("must name at most {MAX_BATCH} shipments"),
                )
                .into());
            }
            let mut ids: Vec<String> = request.ids.iter().map(|id| id.trim().to_owned()).collect();
            ids.sort();
            ids.dedup();
            if ids.iter().any(|id| id.is_empty() || id.len() > 64) {
                return Err(FieldViolation::new("ids", "must be shipment ids").into());
            }
            return Ok(ids);
        }
        let Some(filter) = &request.filter else {
            return Err(
                FieldViolation::new("ids", "name at least one shipment, or give a filter").into(),
            );
        };
        let mut query = list_query(filter, "filter.")?;
        query.page_size = MAX_BATCH + 1;
        query.after = None;
        let page = self.store.list(&query).await?;
        if page.shipments.len() > MAX_BATCH {
            return Err(too_many("filter"));
        }
        if page.shipments.is_empty() {
            return Err(FieldViolation::new("filter", "matches no shipments").into());
        }
        Ok(page.shipments.into_iter().map(|s| s.id).collect())
    }
}

/// What the batch's report says of one refused shipment.
fn failure_message(e: &ShipmentError) -> String {
    match e {
        ShipmentError::NotFound => "Shipment not found".into(),
        ShipmentError::Invalid(violations) => violations
            .iter()
            .map(|v| format!("{}: {}", v.field, v.description))
            .collect::<Vec<_>>()
            .join("; "),
        ShipmentError::Unavailable(_) => {
            "The shipment store is unavailable. Please try again.".into()
        }
        other => other.to_string(),
    }
}
