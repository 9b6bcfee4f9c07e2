//! The `logistics.v1.WebhookService` RPC handlers (the admins' Webhooks screen: the company's
//! endpoints, which hear of every shipment) and `logistics.v1.CustomerWebhookService` (a
//! customer's own, which hear of its shipments only): one implementation, for one owner.

use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::{
    self as pb, customer_webhook_service_server::CustomerWebhookService,
    webhook_service_server::WebhookService,
};
use outbox::State;
use outbox::webhooks::{Delivery, Endpoint, Event, EventType, WebhookStore};
use service_auth::TokenKey;
use service_common::mask::Mask;
use service_common::paging;
use service_common::text::TextRule;
use service_common::timestamp;
use service_common::violations::{FieldViolation, Violations};
use tokio::sync::Notify;
use tonic::{Request, Response, Status};

use super::address::AddressPolicy;
use crate::error::NotificationError;

const DEFAULT_ENDPOINT_PAGE: usize = 50;
const DEFAULT_DELIVERY_PAGE: usize = 20;
const MAX_PAGE_SIZE: usize = 100;
/// The fields of an endpoint an update may name.
const UPDATABLE: &[&str] = &["url", "events", "description", "enabled"];
/// The longest a rotated-out secret keeps signing.
const MAX_OVERLAP_SECS: i64 = 7 * 24 * 3600;

#[derive(Clone)]
pub struct WebhooksService {
    pub store: Arc<dyn WebhookStore>,
    pub tokens: TokenKey,
    pub policy: AddressPolicy,
    /// Wakes the webhook worker when a delivery is queued here.
    pub wake: Arc<Notify>,
    pub audit: Arc<dyn audit::AuditLog>,
}

fn event_to_proto(t: EventType) -> pb::WebhookEventType {
    match t {
        EventType::ShipmentCreated => pb::WebhookEventType::ShipmentCreated,
        EventType::ShipmentStatusChanged => pb::WebhookEventType::ShipmentStatusChanged,
        EventType::ShipmentDelivered => pb::WebhookEventType::ShipmentDelivered,
        EventType::ShipmentUpdated => pb::WebhookEventType::ShipmentUpdated,
        EventType::ShipmentDeleted => pb::WebhookEventType::ShipmentDeleted,
        EventType::Test => pb::WebhookEventType::Test,
    }
}

fn state_to_proto(s: State) -> pb::WebhookDeliveryState {
    match s {
        State::Queued => pb::WebhookDeliveryState::Queued,
        State::Sending => pb::WebhookDeliveryState::Sending,
        State::Sent => pb::WebhookDeliveryState::Sent,
        State::Retrying => pb::WebhookDeliveryState::Retrying,
        State::Failed => pb::WebhookDeliveryState::Failed,
    }
}

pub fn endpoint_to_proto(e: &Endpoint) -> pb::WebhookEndpoint {
    let now = service_common::now();
    pb::WebhookEndpoint {
        id: e.id.clone(),
        url: e.url.clone(),
        events: e.events.iter().map(|&t| event_to_proto(t) as i32).collect(),
        description: e.description.clone(),
        enabled: e.enabled,
        disabled_reason: e.disabled_reason.clone(),
        failing_since: e.failing_since.map(timestamp::to_proto),
        active_secrets: e.signing_keys(now).len() as i32,
        previous_secret_expire_time: e.previous_secret_expires_at(now).map(timestamp::to_proto),
        create_time: Some(timestamp::to_proto(e.created_at)),
        update_time: Some(timestamp::to_proto(e.updated_at)),
    }
}

pub fn delivery_to_proto(d: &Delivery) -> pb::WebhookDelivery {
    pb::WebhookDelivery {
        id: d.id.clone(),
        endpoint_id: d.endpoint_id.clone(),
        event_id: d.event_id.clone(),
        event_type: event_to_proto(d.event_type) as i32,
        tracking_number: d.tracking_number.clone(),
        state: state_to_proto(d.state) as i32,
        attempts: d.attempts as i32,
        last_error: d.last_error.clone(),
        create_time: Some(timestamp::to_proto(d.created_at)),
        next_attempt_time: matches!(d.state, State::Queued | State::Retrying)
            .then(|| timestamp::to_proto(d.next_attempt_at)),
        payload: d.payload.clone(),
        attempt_log: d
            .log
            .iter()
            .map(|a| pb::WebhookAttempt {
                attempt_time: Some(timestamp::to_proto(a.at)),
                status_code: i32::from(a.status_code),
                response_excerpt: a.excerpt.clone(),
                error: a.error.clone(),
                duration_ms: a.duration_ms.min(i32::MAX as u32) as i32,
            })
            .collect(),
    }
}

/// The event types a request names: one or more subscribable ones, each once.
fn events(violations: &mut Violations, field: &'static str, values: &[i32]) -> Vec<EventType> {
    let mut out = Vec::new();
    for &value in values {
        let parsed = match pb::WebhookEventType::try_from(value) {
            Ok(pb::WebhookEventType::ShipmentCreated) => EventType::ShipmentCreated,
            Ok(pb::WebhookEventType::ShipmentStatusChanged) => EventType::ShipmentStatusChanged,
            Ok(pb::WebhookEventType::ShipmentDelivered) => EventType::ShipmentDelivered,
            Ok(pb::WebhookEventType::ShipmentUpdated) => EventType::ShipmentUpdated,
            Ok(pb::WebhookEventType::ShipmentDeleted) => EventType::ShipmentDeleted,
            _ => {
                violations.add(
                    field,
                    format!("{value} is not an event an endpoint can subscribe to"),
                );
                return Vec::new();
            }
        };
        if !out.contains(&parsed) {
            out.push(parsed);
        }
    }
    if out.is_empty() && !violations.iter().any(|v| v.field == field) {
        violations.add(field, "must name at least one event");
    }
    // Shown in one order whatever order they were ticked in.
    out.sort_by_key(|t| EventType::SUBSCRIBABLE.iter().position(|s| s == t));
    out
}

fn url(
    violations: &mut Violations,
    field: &'static str,
    policy: &AddressPolicy,
    value: &str,
) -> String {
    match policy.check_url(value) {
        Ok(url) => url.to_string(),
        Err(reason) => {
            violations.add(field, reason);
            String::new()
        }
    }
}

fn description(violations: &mut Violations, field: &'static str, value: &str) -> String {
    if value.trim().is_empty() {
        return String::new();
    }
    TextRule::line(200).check(value).unwrap_or_else(|reason| {
        violations.add(field, reason);
        String::new()
    })
}

/// An id from a request: our ids are short and plain, anything else cannot exist.
fn id(value: &str, missing: NotificationError) -> Result<String, NotificationError> {
    let value = value.trim();
    if value.is_empty()
        || value.len() > 64
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(missing);
    }
    Ok(value.to_owned())
}

fn endpoint_id(value: &str) -> Result<String, NotificationError> {
    id(value, outbox::OutboxError::EndpointNotFound.into())
}

/// The position in the endpoints' list a page token holds.
fn position(cursor: &str) -> Result<usize, paging::BadPageToken> {
    usize::try_from(paging::sequence(cursor)?).map_err(|_| paging::BadPageToken)
}

/// Whose endpoints a call reaches: the customer's of a customer's caller, else the company's
/// (empty).
fn owner(caller: &service_auth::Caller) -> String {
    caller.customer().unwrap_or_default().to_owned()
}

impl WebhooksService {
    /// The stored endpoint of `owner` the request names (NOT_FOUND for a malformed or unknown
    /// one, and for another owner's, exactly as for a missing one).
    async fn endpoint(&self, owner: &str, id: &str) -> Result<Endpoint, NotificationError> {
        let id = endpoint_id(id)?;
        let endpoint = self.store.endpoint(&id).await?;
        if endpoint.customer_id != owner {
            return Err(outbox::OutboxError::EndpointNotFound.into());
        }
        Ok(endpoint)
    }

    /// Records a change of the webhook settings; a lost entry is logged loudly, the change stays.
    async fn audit<T>(
        &self,
        request: &Request<T>,
        caller: &service_auth::Caller,
        target: &str,
        summary: String,
    ) {
        let actor = audit::Actor::of(request, caller);
        let entry = audit::AuditEntry::new(&actor, audit::Action::SettingsUpdate, "", target)
            .with_summary(summary);
        if let Err(e) = self.audit.append(&[entry]).await {
            tracing::error!(error = %e, "audit entry of a webhook change not written");
        }
    }
}

/// The calls of both services, for the caller's owner.
impl WebhooksService {
    async fn create_endpoint(
        &self,
        request: Request<pb::CreateWebhookEndpointRequest>,
    ) -> Result<Response<pb::CreateWebhookEndpointResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let r = request.get_ref();
        let mut violations = Violations::default();
        let url = url(&mut violations, "url", &self.policy, &r.url);
        let events = events(&mut violations, "events", &r.events);
        let description = description(&mut violations, "description", &r.description);
        violations
            .into_result(())
            .map_err(NotificationError::Invalid)?;
        let (mut endpoint, secret) = Endpoint::new(
            &url,
            events,
            &description,
            &owner(&caller),
            service_common::now(),
        );
        endpoint.added_by = caller.email.clone();
        self.store
            .create_endpoint(&endpoint)
            .await
            .map_err(NotificationError::from)?;
        tracing::info!(endpoint = %endpoint.id, %url, "webhook endpoint added");
        self.audit(
            &request,
            &caller,
            &endpoint.url,
            format!("Webhook endpoint added: {url}"),
        )
        .await;
        Ok(Response::new(pb::CreateWebhookEndpointResponse {
            endpoint: Some(endpoint_to_proto(&endpoint)),
            secret,
        }))
    }

    async fn list_endpoints(
        &self,
        request: Request<pb::ListWebhookEndpointsRequest>,
    ) -> Result<Response<pb::ListWebhookEndpointsResponse>, Status> {
        let owner = owner(&service_auth::access::caller(&request)?);
        let r = request.get_ref();
        let size = paging::page_size(r.page_size, DEFAULT_ENDPOINT_PAGE, MAX_PAGE_SIZE)
            .map_err(NotificationError::from)?;
        // A small, bounded list: the token is the position after the last one handed out.
        let start = paging::decode(&r.page_token)
            .and_then(|cursor| cursor.map(|c| position(&c)).transpose())
            .map_err(|e| NotificationError::from(outbox::OutboxError::from(e)))?
            .unwrap_or(0);
        let all: Vec<Endpoint> = self
            .store
            .endpoints()
            .await
            .map_err(NotificationError::from)?
            .into_iter()
            .filter(|e| e.customer_id == owner)
            .collect();
        let end = (start + size).min(all.len());
        let endpoints = all.get(start..end).unwrap_or_default();
        Ok(Response::new(pb::ListWebhookEndpointsResponse {
            endpoints: endpoints.iter().map(endpoint_to_proto).collect(),
            next_page_token: if end < all.len() {
                paging::encode(&end.to_string())
            } else {
                String::new()
            },
        }))
    }

    async fn update_endpoint(
        &self,
        request: Request<pb::UpdateWebhookEndpointRequest>,
    ) -> Result<Response<pb::WebhookEndpoint>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let r = request.get_ref();
        let given = r.endpoint.clone().unwrap_or_default();
        let mut violations = Violations::default();
        let mask = Mask::read(r.update_mask.as_ref(), UPDATABLE, &mut violations);
        let wants = |field: &str| mask.contains(field);
        let url =
            wants("url").then(|| url(&mut violations, "endpoint.url", &self.policy, &given.url));
        let events =
            wants("events").then(|| events(&mut violations, "endpoint.events", &given.events));
        let description = wants("description")
            .then(|| description(&mut violations, "endpoint.description", &given.description));
        let enabled = wants("enabled").then_some(given.enabled);
        violations
            .into_result(())
            .map_err(NotificationError::Invalid)?;
        let id = self.endpoint(&owner(&caller), &given.id).await?.id;
        let now = service_common::now();
        let updated = self
            .store
            .update_endpoint(
                &id,
                Arc::new(move |e: &mut Endpoint| {
                    if let Some(url) = &url {
                        e.url = url.clone();
                    }
                    if let Some(events) = &events {
                        e.events = events.clone();
                    }
                    if let Some(description) = &description {
                        e.description = description.clone();
                    }
                    if let Some(enabled) = enabled {
                        if enabled && !e.enabled {
                            // A fresh start: the old failures do not count against it.
                            e.failing_since = None;
                            e.disabled_reason.clear();
                        } else if !enabled && e.enabled {
                            e.disabled_reason = "Disabled by an admin".into();
                        }
                        e.enabled = enabled;
                    }
                    e.updated_at = now;
                    Ok(Vec::new())
                }),
            )
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        self.audit(
            &request,
            &caller,
            &updated.url,
            format!(
                "Webhook endpoint changed ({}): {}",
                mask.paths().collect::<Vec<_>>().join(", "),
                updated.url
            ),
        )
        .await;
        Ok(Response::new(endpoint_to_proto(&updated)))
    }

    async fn delete_endpoint(
        &self,
        request: Request<pb::DeleteWebhookEndpointRequest>,
    ) -> Result<Response<pb::DeleteWebhookEndpointResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let endpoint = self
            .endpoint(&owner(&caller), &request.get_ref().id)
            .await?;
        self.store
            .delete_endpoint(&endpoint.id)
            .await
            .map_err(NotificationError::from)?;
        self.audit(
            &request,
            &caller,
            &endpoint.url,
            format!("Webhook endpoint removed: {}", endpoint.url),
        )
        .await;
        Ok(Response::new(pb::DeleteWebhookEndpointResponse {}))
    }

    async fn rotate_secret(
        &self,
        request: Request<pb::RotateWebhookEndpointSecretRequest>,
    ) -> Result<Response<pb::RotateWebhookEndpointSecretResponse>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let r = request.get_ref();
        if !(0..=MAX_OVERLAP_SECS).contains(&r.overlap_seconds) {
            return Err(NotificationError::from(FieldViolation::new(
                "overlap_seconds",
                format!("must be between 0 and {MAX_OVERLAP_SECS} (7 days)"),
            ))
            .into());
        }
        let id = self.endpoint(&owner(&caller), &r.id).await?.id;
        let overlap = Duration::from_secs(r.overlap_seconds as u64);
        let now = service_common::now();
        let secret = Arc::new(std::sync::Mutex::new(String::new()));
        let kept = secret.clone();
        let updated = self
            .store
            .update_endpoint(
                &id,
                Arc::new(move |e: &mut Endpoint| {
                    *kept.lock().expect("not poisoned") = e.rotate(overlap, now);
                    Ok(Vec::new())
                }),
            )
            .await
            .map_err(NotificationError::from)?;
        let secret = secret.lock().expect("not poisoned").clone();
        self.audit(
            &request,
            &caller,
            &updated.url,
            format!(
                "Webhook secret rotated ({} s overlap): {}",
                r.overlap_seconds, updated.url
            ),
        )
        .await;
        Ok(Response::new(pb::RotateWebhookEndpointSecretResponse {
            endpoint: Some(endpoint_to_proto(&updated)),
            secret,
        }))
    }

    async fn send_test_event(
        &self,
        request: Request<pb::SendTestWebhookEventRequest>,
    ) -> Result<Response<pb::WebhookDelivery>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let endpoint = self
            .endpoint(&owner(&caller), &request.get_ref().endpoint_id)
            .await?;
        if !endpoint.enabled {
            return Err(NotificationError::Precondition(
                "This endpoint is disabled; enable it first.".into(),
            )
            .into());
        }
        let event = Event::new(
            EventType::Test,
            "",
            "",
            serde_json::json!({ "message": "A test event from the Webhooks screen.", "requestedBy": caller.email }),
            service_common::now(),
        );
        let delivery = Delivery::new(&endpoint.id, &event);
        self.store
            .enqueue(std::slice::from_ref(&delivery))
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        Ok(Response::new(delivery_to_proto(&delivery)))
    }

    async fn list_deliveries(
        &self,
        request: Request<pb::ListWebhookDeliveriesRequest>,
    ) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
        let owner = owner(&service_auth::access::caller(&request)?);
        let r = request.get_ref();
        let size = paging::page_size(r.page_size, DEFAULT_DELIVERY_PAGE, MAX_PAGE_SIZE)
            .map_err(NotificationError::from)?;
        let token = paging::decode(&r.page_token)
            .map_err(|e| NotificationError::from(outbox::OutboxError::from(e)))?;
        // Says NOT_FOUND for an endpoint that does not exist rather than an empty list.
        let endpoint = self.endpoint(&owner, &r.endpoint_id).await?;
        let page = self
            .store
            .deliveries(&endpoint.id, size, token.as_deref())
            .await
            .map_err(NotificationError::from)?;
        Ok(Response::new(pb::ListWebhookDeliveriesResponse {
            deliveries: page.deliveries.iter().map(delivery_to_proto).collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
        }))
    }

    async fn resend_delivery(
        &self,
        request: Request<pb::ResendWebhookDeliveryRequest>,
    ) -> Result<Response<pb::WebhookDelivery>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let id = id(
            &request.get_ref().id,
            outbox::OutboxError::DeliveryNotFound.into(),
        )?;
        // Another owner's delivery is missing, as its endpoint is.
        let queued = self
            .store
            .delivery(&id)
            .await
            .map_err(NotificationError::from)?;
        self.endpoint(&owner(&caller), &queued.endpoint_id)
            .await
            .map_err(|_| NotificationError::from(outbox::OutboxError::DeliveryNotFound))?;
        let delivery = self
            .store
            .resend(&id, service_common::now())
            .await
            .map_err(NotificationError::from)?;
        self.wake.notify_one();
        self.audit(
            &request,
            &caller,
            &delivery.event_id,
            format!(
                "Webhook delivery sent again: {} {}",
                delivery.event_type.as_str(),
                delivery.tracking_number
            ),
        )
        .await;
        Ok(Response::new(delivery_to_proto(&delivery)))
    }
}

/// The company's endpoints (staff with webhooks.manage) and a customer's own (its admins and
/// their keys) are the same calls: each service's proto says who reaches it, and the caller
/// says whose endpoints.
macro_rules! webhook_service {
    ($trait:ident) => {
        #[tonic::async_trait]
        impl $trait for WebhooksService {
            #[tracing::instrument(skip_all)]
            async fn create_webhook_endpoint(
                &self,
                request: Request<pb::CreateWebhookEndpointRequest>,
            ) -> Result<Response<pb::CreateWebhookEndpointResponse>, Status> {
                self.create_endpoint(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn list_webhook_endpoints(
                &self,
                request: Request<pb::ListWebhookEndpointsRequest>,
            ) -> Result<Response<pb::ListWebhookEndpointsResponse>, Status> {
                self.list_endpoints(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn update_webhook_endpoint(
                &self,
                request: Request<pb::UpdateWebhookEndpointRequest>,
            ) -> Result<Response<pb::WebhookEndpoint>, Status> {
                self.update_endpoint(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn delete_webhook_endpoint(
                &self,
                request: Request<pb::DeleteWebhookEndpointRequest>,
            ) -> Result<Response<pb::DeleteWebhookEndpointResponse>, Status> {
                self.delete_endpoint(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn rotate_webhook_endpoint_secret(
                &self,
                request: Request<pb::RotateWebhookEndpointSecretRequest>,
            ) -> Result<Response<pb::RotateWebhookEndpointSecretResponse>, Status> {
                self.rotate_secret(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn send_test_webhook_event(
                &self,
                request: Request<pb::SendTestWebhookEventRequest>,
            ) -> Result<Response<pb::WebhookDelivery>, Status> {
                self.send_test_event(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn list_webhook_deliveries(
                &self,
                request: Request<pb::ListWebhookDeliveriesRequest>,
            ) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
                self.list_deliveries(request).await
            }

            #[tracing::instrument(skip_all)]
            async fn resend_webhook_delivery(
                &self,
                request: Request<pb::ResendWebhookDeliveryRequest>,
            ) -> Result<Response<pb::WebhookDelivery>, Status> {
                self.resend_delivery(request).await
            }
        }
    };
}

webhook_service!(WebhookService);
webhook_service!(CustomerWebhookService);
