//! The `logistics.v1.NotificationService` RPC handlers.

use service_common::paging;
use service_common::text::TextRule;
use service_common::timestamp;
use service_common::violations::{FieldViolation, Violations};
use std::sync::Arc;

use logistics_proto::v1::{self as pb, notification_service_server::NotificationService};
use outbox::emails::ContactMessage;
use outbox::{Filter, Notification, OutboxError, OutboxStore, State, Template};
use service_auth::TokenKey;
use tokio::sync::Notify;
use tonic::{Request, Response, Status};

use crate::error::NotificationError;
use crate::render::Renderer;
use crate::transport::Transport;

const DEFAULT_PAGE_SIZE: usize = 50;
const MAX_PAGE_SIZE: usize = 100;

#[derive(Clone)]
pub struct NotificationsService {
    pub store: Arc<dyn OutboxStore>,
    pub transport: Transport,
    pub tokens: TokenKey,
    /// Wakes the worker when an e-mail is queued.
    pub wake: Arc<Notify>,
    /// The site's public URL, for the tracking links of the test e-mails.
    pub public_url: String,
    /// Where retries are recorded.
    pub audit: Arc<dyn audit::AuditLog>,
    /// Writes the text part shown in the outbox, when the product writes its e-mails itself.
    pub renderer: Option<Arc<Renderer>>,
}

/// Checks one contact field by the services' one text rule.
fn text(violations: &mut Violations, field: &'static str, value: &str, rule: TextRule) -> String {
    rule.check(value).unwrap_or_else(|description| {
        violations.add(field, description);
        value.trim().to_owned()
    })
}

pub fn contact_message(
    request: &pb::SendContactMessageRequest,
) -> Result<ContactMessage, NotificationError> {
    let mut violations = Violations::default();
    let name = text(&mut violations, "name", &request.name, TextRule::line(100));
    let email = text(
        &mut violations,
        "email",
        &request.email,
        TextRule::line(254),
    );
    if !email.is_empty()
        && !violations.iter().any(|v| v.field == "email")
        && !service_common::is_email(&email)
    {
        violations.add("email", "is not a valid email address");
    }
    let subject = text(
        &mut violations,
        "subject",
        &request.subject,
        TextRule::line(200),
    );
    let message = text(
        &mut violations,
        "message",
        &request.message,
        TextRule::paragraph(5000),
    );
    violations
        .into_result(())
        .map_err(NotificationError::Invalid)?;
    Ok(ContactMessage {
        name,
        email,
        subject,
        message,
    })
}

pub fn notification_to_proto(n: &Notification) -> pb::Notification {
    pb::Notification {
        id: n.id.clone(),
        template: match n.template {
            Template::Shipper => pb::EmailTemplate::Shipper,
            Template::Receiver => pb::EmailTemplate::Receiver,
            Template::Contact => pb::EmailTemplate::Contact,
            Template::StatusUpdate => pb::EmailTemplate::StatusUpdate,
            Template::SubscriptionConfirmation => pb::EmailTemplate::SubscriptionConfirmation,
            Template::Alert => pb::EmailTemplate::Alert,
            Template::CustomerInvitation => pb::EmailTemplate::CustomerInvitation,
            Template::PickupConfirmed => pb::EmailTemplate::PickupConfirmed,
            Template::AccountRequestDeclined => pb::EmailTemplate::AccountRequestDeclined,
            Template::ExceptionDigest => pb::EmailTemplate::ExceptionDigest,
        } as i32,
        to_email: n.to_email.clone(),
        to_name: n.to_name.clone(),
        subject: n.subject.clone(),
        template_params: n.params.clone().into_iter().collect(),
        state: match n.state {
            State::Queued => pb::NotificationState::Queued,
            State::Sending => pb::NotificationState::Sending,
            State::Sent => pb::NotificationState::Sent,
            State::Retrying => pb::NotificationState::Retrying,
            State::Failed => pb::NotificationState::Failed,
        } as i32,
        attempts: n.attempts as i32,
        last_error: n.last_error.clone(),
        tracking_number: n.tracking_number.clone(),
        create_time: Some(timestamp::to_proto(n.created_at)),
        update_time: Some(timestamp::to_proto(n.updated_at)),
        next_attempt_time: Some(timestamp::to_proto(n.next_attempt_at)),
        send_time: n.sent_at.map(timestamp::to_proto),
        text_body: String::new(),
    }
}

/// The list's state filter; UNSPECIFIED means every state.
fn state_filter(value: i32) -> Result<Option<State>, NotificationError> {
    let invalid =
        || NotificationError::from(FieldViolation::new("state", "is not a notification state"));
    Ok(
        match pb::NotificationState::try_from(value).map_err(|_| invalid())? {
            pb::NotificationState::Unspecified => None,
            pb::NotificationState::Queued => Some(State::Queued),
            pb::NotificationState::Sending => Some(State::Sending),
            pb::NotificationState::Sent => Some(State::Sent),
            pb::NotificationState::Retrying => Some(State::Retrying),
            pb::NotificationState::Failed => Some(State::Failed),
        },
    )
}

/// The search text of a list or a bulk retry; blank means none.
fn query(value: &str) -> Result<Option<String>, NotificationError> {
    let text = TextRule::line(200)
        .optional()
        .check(value)
        .map_err(|description| {
            NotificationError::from(FieldViolation::new("query", description))
        })?;
    Ok(Some(text).filter(|t| !t.is_empty()))
}

impl NotificationsService {
    /// `n` for the outbox view, with the text the product writes for it, if it writes one.
    fn with_text_body(&self, n: &Notification) -> pb::Notification {
        let mut shown = notification_to_proto(n);
        if let Some(renderer) = &self.renderer {
            // A contact message whose content was removed has nothing left to render.
            shown.text_body = renderer
                .render(n.template, &n.params)
                .map(|r| r.text)
                .unwrap_or_default();
        }
        shown
    }
}

#[tonic::async_trait]
impl NotificationService for NotificationsService {
    #[tracing::instrument(skip_all)]
    async fn send_contact_message(
        &self,
        request: Request<pb::SendContactMessageRequest>,
    ) -> Result<Response<pb::SendContactMessageResponse>, Status> {
        let request = request.into_inner();
        if !request.website.is_empty() {
            tracing::info!("contact form with the hidden field filled: dropped");
            return Ok(Response::new(pb::SendContactMessageResponse {}));
        }
        let message = contact_message(&request)?;
        if let Some(problem) = self.transport.problem() {
            return Err(NotificationError::NotConfigured(problem.to_owned()).into());
        }
        self.store
            .enqueue(&[message.notification(service_common::now())])
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        tracing::info!("contact message queued");
        Ok(Response::new(pb::SendContactMessageResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn list_notifications(
        &self,
        request: Request<pb::ListNotificationsRequest>,
    ) -> Result<Response<pb::ListNotificationsResponse>, Status> {
        let request = request.into_inner();
        let page_size = paging::page_size(request.page_size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
            .map_err(NotificationError::from)?;
        let filter = Filter {
            state: state_filter(request.state)?,
            text: query(&request.query)?,
        };
        let token = paging::decode(&request.page_token)
            .map_err(|e| NotificationError::from(OutboxError::from(e)))?;
        let page = self
            .store
            .list(&filter, page_size, token.as_deref())
            .await
            .map_err(NotificationError::from)?;
        let backlog = self
            .store
            .backlog()
            .await
            .map_err(NotificationError::from)?;
        Ok(Response::new(pb::ListNotificationsResponse {
            notifications: page
                .notifications
                .iter()
                .map(|n| self.with_text_body(n))
                .collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
            backlog: backlog.min(i32::MAX as u64) as i32,
        }))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn retry_notification(
        &self,
        request: Request<pb::RetryNotificationRequest>,
    ) -> Result<Response<pb::Notification>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = audit::Actor::of(&request, &caller);
        let retried = self
            .store
            .retry(&request.get_ref().id, service_common::now())
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        tracing::info!("failed e-mail queued again");
        let entry = audit::AuditEntry::new(
            &actor,
            audit::Action::EmailRetry,
            &retried.id,
            &retried.to_email,
        )
        .with_summary(retried.subject.clone());
        // The retry is saved; a lost entry is logged loudly, not reported as a failed retry.
        if let Err(e) = self.audit.append(&[entry]).await {
            tracing::error!(error = %e, "audit entry of an e-mail retry not written");
        }
        Ok(Response::new(self.with_text_body(&retried)))
    }

    #[tracing::instrument(skip_all)]
    async fn retry_failed_notifications(
        &self,
        request: Request<pb::RetryFailedNotificationsRequest>,
    ) -> Result<Response<pb::RetryFailedNotificationsResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let actor = audit::Actor::of(&request, &caller);
        let text = query(&request.get_ref().query)?;
        let retried = self
            .store
            .retry_failed(text.as_deref(), service_common::now())
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        tracing::info!(retried, "failed e-mails queued again");
        let target = text.clone().unwrap_or_default();
        let entry = audit::AuditEntry::new(&actor, audit::Action::EmailRetry, "", &target)
            .with_summary(format!(
                "{retried} failed e-mails queued again{}",
                text.map(|t| format!(" (matching \"{t}\")"))
                    .unwrap_or_default()
            ));
        if let Err(e) = self.audit.append(&[entry]).await {
            tracing::error!(error = %e, "audit entry of an e-mail retry not written");
        }
        Ok(Response::new(pb::RetryFailedNotificationsResponse {
            retried_count: retried as i64,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn send_test_emails(
        &self,
        request: Request<pb::SendTestEmailsRequest>,
    ) -> Result<Response<pb::SendTestEmailsResponse>, Status> {
        let admin = service_auth::access::caller(&request)?;
        if let Some(problem) = self.transport.problem() {
            return Err(NotificationError::NotConfigured(problem.to_owned()).into());
        }
        let now = service_common::now();
        let sample = crate::sample::shipment(&admin.email, now.date_naive());
        let mut failures = Vec::new();
        let mut sent = Vec::new();
        for (mut n, what) in [
            (sample.to_shipper(&self.public_url, now), "shipper"),
            (sample.to_receiver(&self.public_url, now), "receiver"),
        ] {
            n.attempts = 1;
            let outcome = match self.transport.send(&n).await {
                Ok(()) => outbox::Outcome::Sent,
                Err(e) => {
                    failures.push(format!("Failed to send {what} email: {e}"));
                    outbox::Outcome::Failed {
                        error: e.to_string(),
                    }
                }
            };
            n.settle(&outcome, service_common::now());
            sent.push(n);
        }
        // Both show in the outbox view, sent or failed.
        self.store
            .enqueue(&sent)
            .await
            .map_err(NotificationError::from)?;
        if !failures.is_empty() {
            tracing::warn!(failures = ?failures, "test e-mails failed");
            return Err(NotificationError::SendFailed(failures.join("; ")).into());
        }
        tracing::info!(to = %admin.email, "test e-mails sent");
        Ok(Response::new(pb::SendTestEmailsResponse {
            to_email: admin.email,
        }))
    }
}
