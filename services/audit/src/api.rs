//! `logistics.v1.AuditService`: the audit log for those holding `audit.read`.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use logistics_proto::v1::{self as pb, audit_service_server::AuditService};
use service_common::paging;
use service_common::timestamp;
use service_common::violations::FieldViolation;
use tonic::{Request, Response, Status};

use crate::Action;
use crate::store::{AuditLog, AuditQuery, ListError};

#[derive(Clone)]
pub struct AuditApi {
    log: Arc<dyn AuditLog>,
}

impl AuditApi {
    pub fn new(log: Arc<dyn AuditLog>) -> Self {
        Self { log }
    }
}

/// INVALID_ARGUMENT naming the field, as every service reports it.
fn invalid(field: &str, description: &str) -> Status {
    FieldViolation::new(field, description).into()
}

fn time(field: &str, t: Option<prost_types::Timestamp>) -> Result<Option<DateTime<Utc>>, Status> {
    t.map(|t| timestamp::from_proto(&t).ok_or_else(|| invalid(field, "is not a valid time")))
        .transpose()
}

fn optional(text: &str, field: &str) -> Result<Option<String>, Status> {
    let text = text.trim();
    if text.chars().count() > 254 {
        return Err(invalid(field, "must be at most 254 characters"));
    }
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

#[tonic::async_trait]
impl AuditService for AuditApi {
    #[tracing::instrument(skip_all)]
    async fn list_audit_entries(
        &self,
        request: Request<pb::ListAuditEntriesRequest>,
    ) -> Result<Response<pb::ListAuditEntriesResponse>, Status> {
        let request = request.into_inner();
        let page_size = paging::page_size(request.page_size, 50, 100).map_err(Status::from)?;
        let after = paging::decode(&request.page_token)
            .map_err(|bad| Status::from(FieldViolation::from(bad)))?;
        let action = match request.action.trim() {
            "" => None,
            name => Some(
                Action::parse(name).ok_or_else(|| invalid("action", "is not a known action"))?,
            ),
        };
        let from = time("start_time", request.start_time)?;
        let until = time("end_time", request.end_time)?;
        if let (Some(from), Some(until)) = (from, until)
            && from >= until
        {
            return Err(invalid("end_time", "must be after start_time"));
        }
        let query = AuditQuery {
            actor: optional(&request.actor, "actor")?,
            action,
            target: optional(&request.target, "target")?,
            from,
            until,
            page_size,
            after,
        };
        let page = self.log.list(&query).await.map_err(|e| match e {
            ListError::BadCursor => FieldViolation::from(paging::BadPageToken).into(),
            ListError::Store(fault) => {
                tracing::warn!(error = %fault, "audit log unavailable");
                Status::unavailable("The audit log is unavailable right now.")
            }
        })?;
        Ok(Response::new(pb::ListAuditEntriesResponse {
            entries: page.entries.iter().map(|e| e.to_proto()).collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
        }))
    }
}
