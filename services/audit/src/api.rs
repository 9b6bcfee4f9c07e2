//! `logistics.v1.AuditService`: the audit log for those holding `audit.read`.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use logistics_proto::v1::{self as pb, audit_service_server::AuditService};
use service_common::store::page_token;
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
    use tonic_types::{ErrorDetails, StatusExt};
    let details = ErrorDetails::with_bad_request_violation(field, description);
    Status::with_error_details(
        tonic::Code::InvalidArgument,
        format!("{field}: {description}"),
        details,
    )
}

fn time(field: &str, t: Option<prost_types::Timestamp>) -> Result<Option<DateTime<Utc>>, Status> {
    t.map(|t| {
        DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32)
            .ok_or_else(|| invalid(field, "is not a valid time"))
    })
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
        let page_size = match request.page_size {
            0 => 50,
            n @ 1..=100 => n as usize,
            _ => return Err(invalid("page_size", "must be from 1 to 100")),
        };
        let after = page_token::decode(&request.page_token)
            .map_err(|_| invalid(page_token::FIELD, page_token::INVALID))?;
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
            ListError::BadCursor => invalid(page_token::FIELD, page_token::INVALID),
            ListError::Store(fault) => {
                tracing::warn!(error = %fault, "audit log unavailable");
                Status::unavailable("The audit log is unavailable right now.")
            }
        })?;
        Ok(Response::new(pb::ListAuditEntriesResponse {
            entries: page.entries.iter().map(|e| e.to_proto()).collect(),
            next_page_token: page
                .next
                .as_deref()
                .map(page_token::encode)
                .unwrap_or_default(),
        }))
    }
}
