//! Webhooks end to end: the notifications service (as `build` makes it) delivers events to a
//! local receiver that checks every signature the way the README tells receivers to.

use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::{
    self as pb, customer_webhook_service_client::CustomerWebhookServiceClient,
    notification_service_client::NotificationServiceClient,
    webhook_service_client::WebhookServiceClient,
};
use outbox::webhooks::{Event, EventType, WebhookStore};
use serde_json::json;
use service_auth::{Bearer, Caller, Role, TokenKey};
use service_common::settings::{SiteSettings, StoreConfig, defaults};
use test_servers::webhooks::TestWebhookReceiver;
use tokio::net::TcpListener;
use tonic::Code;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tonic_types::StatusExt;

struct Running {
    webhooks: WebhookServiceClient<InterceptedService<Channel, Bearer>>,
    /// As the admin of the customer `acme`.
    customer_webhooks: CustomerWebhookServiceClient<InterceptedService<Channel, Bearer>>,
    emails: NotificationServiceClient<InterceptedService<Channel, Bearer>>,
    /// Where shipment events are published, as the shipments service does with a change.
    store: Arc<dyn WebhookStore>,
    stop: tokio::sync::oneshot::Sender<()>,
    _dir: tempfile::TempDir,
}

/// The service on a loopback port with fast retries, its workers running.
async fn start(adjust: impl FnOnce(&mut notifications::Settings)) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let store = StoreConfig::Embedded {
        data_dir: dir.path().to_owned(),
    };
    let mut settings = notifications::Settings {
        webhook_allow_private_networks: true,
        notify_first_backoff_ms: 100,
        notify_max_backoff_ms: 200,
        notify_poll_ms: 20,
        alert_emails: Some("ops@example.com, cto@example.com".into()),
        ..defaults()
    };
    adjust(&mut settings);
    let key = TokenKey::generate();
    let built = notifications::build(&store, &defaults::<SiteSettings>(), &settings, key.clone())
        .await
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(service_common::serve(listener, built, async {
        let _ = stopped.await;
    }));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let token = key.mint(
        &Caller::with_role("u1", "admin@ship.example", Role::Admin),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    let customer_admin = key.mint(
        &Caller::of_customer("u2", "hooks@acme.example", Role::CustomerAdmin, "acme"),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    Running {
        webhooks: WebhookServiceClient::with_interceptor(channel.clone(), Bearer::new(&token)),
        customer_webhooks: CustomerWebhookServiceClient::with_interceptor(
            channel.clone(),
            Bearer::new(&customer_admin),
        ),
        emails: NotificationServiceClient::with_interceptor(channel, Bearer::new(&token)),
        store: notifications::open_webhooks(&store).await.unwrap(),
        stop,
        _dir: dir,
    }
}

fn all_events() -> Vec<i32> {
    vec![
        pb::WebhookEventType::ShipmentCreated as i32,
        pb::WebhookEventType::ShipmentStatusChanged as i32,
        pb::WebhookEventType::ShipmentDelivered as i32,
        pb::WebhookEventType::ShipmentUpdated as i32,
        pb::WebhookEventType::ShipmentDeleted as i32,
    ]
}

async fn register(running: &mut Running, url: &str) -> (pb::WebhookEndpoint, String) {
    let created = running
        .webhooks
        .create_webhook_endpoint(pb::CreateWebhookEndpointRequest {
            url: url.into(),
            events: all_events(),
            description: "ERP".into(),
        })
        .await
        .unwrap()
        .into_inner();
    (created.endpoint.unwrap(), created.secret)
}

fn shipment_event(kind: EventType, shipment: &str, status: &str) -> Event {
    Event::new(
        kind,
        shipment,
        "PSE123456789",
        json!({ "shipment": { "id": shipment, "trackingNumber": "PSE123456789", "status": status } }),
        service_common::now(),
    )
}

async fn deliveries(running: &mut Running, endpoint: &str) -> Vec<pb::WebhookDelivery> {
    running
        .webhooks
        .list_webhook_deliveries(pb::ListWebhookDeliveriesRequest {
            endpoint_id: endpoint.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .deliveries
}

/// Polls the endpoint's deliveries until `done` holds for them (up to 20 s).
async fn until(
    running: &mut Running,
    endpoint: &str,
    done: impl Fn(&[pb::WebhookDelivery]) -> bool,
) -> Vec<pb::WebhookDelivery> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let now = deliveries(running, endpoint).await;
        if done(&now) || std::time::Instant::now() > deadline {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn state(d: &pb::WebhookDelivery) -> pb::WebhookDeliveryState {
    pb::WebhookDeliveryState::try_from(d.state).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn shipment_events_arrive_signed_in_order_and_pass_the_readme_check() {
    let receiver = TestWebhookReceiver::start();
    let mut running = start(|_| {}).await;
    let (endpoint, secret) = register(&mut running, &receiver.url("/hooks/erp")).await;
    assert!(secret.starts_with("whsec_"));
    receiver.trust(&[&secret]);
    let created = shipment_event(EventType::ShipmentCreated, "s1", "pending");
    let moved = shipment_event(EventType::ShipmentStatusChanged, "s1", "in_transit");
    running
        .store
        .publish(std::slice::from_ref(&created))
        .await
        .unwrap();
    running
        .store
        .publish(std::slice::from_ref(&moved))
        .await
        .unwrap();

    let received = receiver.wait_for(2).await;
    assert_eq!(received.len(), 2);
    for (got, sent) in received.iter().zip([&created, &moved]) {
        assert_eq!(got["path"], "/hooks/erp");
        assert_eq!(
            got["verified_with"],
            json!([0]),
            "the README's check passes"
        );
        assert_eq!(got["headers"]["webhook-id"], sent.id.as_str());
        assert_eq!(got["headers"]["content-type"], "application/json");
        assert_eq!(got["body"]["type"], sent.event_type.as_str());
        assert_eq!(got["body"]["data"]["shipment"]["id"], "s1");
    }
    let listed = until(&mut running, &endpoint.id, |d| {
        d.iter().all(|d| state(d) == pb::WebhookDeliveryState::Sent)
    })
    .await;
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].event_id, moved.id, "newest first");
    assert_eq!(listed[0].attempt_log[0].status_code, 204);
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_receiver_is_retried_until_it_answers_and_can_be_resent() {
    let receiver = TestWebhookReceiver::start();
    receiver.answer("fail");
    let mut running = start(|_| {}).await;
    let (endpoint, secret) = register(&mut running, &receiver.url("/in")).await;
    receiver.trust(&[&secret]);
    running
        .store
        .publish(&[shipment_event(EventType::ShipmentCreated, "s1", "pending")])
        .await
        .unwrap();
    let retrying = until(&mut running, &endpoint.id, |d| {
        d.first().is_some_and(|d| d.attempt_log.len() >= 2)
    })
    .await;
    let first = &retrying[0];
    assert_eq!(state(first), pb::WebhookDeliveryState::Retrying);
    assert_eq!(first.attempt_log[0].status_code, 503);
    assert_eq!(first.attempt_log[0].response_excerpt, "answer 503");
    assert_eq!(first.last_error, "HTTP 503 Service Unavailable");
    assert!(first.next_attempt_time.is_some());

    receiver.answer("ok");
    let sent = until(&mut running, &endpoint.id, |d| {
        d.first()
            .is_some_and(|d| state(d) == pb::WebhookDeliveryState::Sent)
    })
    .await;
    assert_eq!(state(&sent[0]), pb::WebhookDeliveryState::Sent);
    let ids: Vec<_> = receiver
        .received()
        .iter()
        .map(|r| r["headers"]["webhook-id"].clone())
        .collect();
    assert!(
        ids.len() >= 3 && ids.iter().all(|id| *id == ids[0]),
        "one event id on every attempt"
    );

    let resent = running
        .webhooks
        .resend_webhook_delivery(pb::ResendWebhookDeliveryRequest {
            id: sent[0].id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(state(&resent), pb::WebhookDeliveryState::Queued);
    let again = receiver.wait_for(ids.len() + 1).await;
    assert_eq!(again.last().unwrap()["headers"]["webhook-id"], ids[0]);
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rotated_secret_signs_beside_the_new_one_for_the_overlap() {
    let receiver = TestWebhookReceiver::start();
    let mut running = start(|_| {}).await;
    let (endpoint, old) = register(&mut running, &receiver.url("/in")).await;
    let rotated = running
        .webhooks
        .rotate_webhook_endpoint_secret(pb::RotateWebhookEndpointSecretRequest {
            id: endpoint.id.clone(),
            overlap_seconds: 3600,
        })
        .await
        .unwrap()
        .into_inner();
    assert_ne!(rotated.secret, old);
    assert_eq!(rotated.endpoint.as_ref().unwrap().active_secrets, 2);
    receiver.trust(&[&old, &rotated.secret]);
    running
        .webhooks
        .send_test_webhook_event(pb::SendTestWebhookEventRequest {
            endpoint_id: endpoint.id.clone(),
        })
        .await
        .unwrap();
    let got = receiver.wait_for(1).await;
    assert_eq!(
        got[0]["verified_with"],
        json!([0, 1]),
        "either secret verifies"
    );
    assert_eq!(got[0]["body"]["type"], "webhook.test");

    let ended = running
        .webhooks
        .rotate_webhook_endpoint_secret(pb::RotateWebhookEndpointSecretRequest {
            id: endpoint.id.clone(),
            overlap_seconds: 0,
        })
        .await
        .unwrap()
        .into_inner();
    receiver.trust(&[&old, &rotated.secret, &ended.secret]);
    running
        .webhooks
        .send_test_webhook_event(pb::SendTestWebhookEventRequest {
            endpoint_id: endpoint.id.clone(),
        })
        .await
        .unwrap();
    let got = receiver.wait_for(2).await;
    assert_eq!(
        got[1]["verified_with"],
        json!([2]),
        "no overlap: only the newest signs"
    );
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_huge_and_redirecting_receivers_are_cut_short() {
    let receiver = TestWebhookReceiver::start();
    let mut running = start(|s| s.webhook_timeout_ms = 1000).await;
    let (endpoint, secret) = register(&mut running, &receiver.url("/in")).await;
    receiver.trust(&[&secret]);
    let test = |running: &mut Running| {
        let mut client = running.webhooks.clone();
        let id = endpoint.id.clone();
        async move {
            client
                .send_test_webhook_event(pb::SendTestWebhookEventRequest { endpoint_id: id })
                .await
                .unwrap()
                .into_inner()
                .id
        }
    };
    let settled = |id: String| {
        move |d: &[pb::WebhookDelivery]| d.iter().any(|d| d.id == id && !d.attempt_log.is_empty())
    };

    receiver.answer("huge");
    let huge = test(&mut running).await;
    let listed = until(&mut running, &endpoint.id, settled(huge.clone())).await;
    let d = listed.iter().find(|d| d.id == huge).unwrap();
    assert_eq!(state(d), pb::WebhookDeliveryState::Sent);
    assert_eq!(
        d.attempt_log[0].response_excerpt.len(),
        500,
        "kept: the first 500 characters"
    );

    receiver.answer("redirect");
    let redirected = test(&mut running).await;
    let listed = until(&mut running, &endpoint.id, settled(redirected.clone())).await;
    let d = listed.iter().find(|d| d.id == redirected).unwrap();
    assert_eq!(state(d), pb::WebhookDeliveryState::Failed);
    assert_eq!(d.attempt_log[0].status_code, 302);
    assert!(
        d.last_error.contains("redirects are not followed"),
        "{}",
        d.last_error
    );

    receiver.answer("slow");
    let slow = test(&mut running).await;
    let listed = until(&mut running, &endpoint.id, settled(slow.clone())).await;
    let d = listed.iter().find(|d| d.id == slow).unwrap();
    assert_eq!(state(d), pb::WebhookDeliveryState::Retrying);
    assert_eq!(d.attempt_log[0].error, "timed out");
    assert!(
        d.attempt_log[0].duration_ms < 5_000,
        "{}",
        d.attempt_log[0].duration_ms
    );
    let _ = running.stop.send(());
}

/// The alert e-mails queued: an endpoint's disabling and its alert are one write, so they are
/// here as soon as the endpoint reads disabled.
async fn queued_alerts(running: &mut Running) -> Vec<pb::Notification> {
    running
        .emails
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .notifications
        .into_iter()
        .filter(|n| n.template == pb::EmailTemplate::Alert as i32)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_customer_endpoint_failing_for_the_retry_window_is_disabled_and_its_admin_is_told() {
    let receiver = TestWebhookReceiver::start();
    receiver.answer("fail");
    let mut running = start(|s| s.notify_retry_for_secs = 0).await;
    let endpoint = running
        .customer_webhooks
        .create_webhook_endpoint(pb::CreateWebhookEndpointRequest {
            url: receiver.url("/acme"),
            events: all_events(),
            description: "Acme's ERP".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .endpoint
        .unwrap();
    running
        .store
        .publish(&[shipment_event(EventType::ShipmentCreated, "s1", "pending").of_customer("acme")])
        .await
        .unwrap();
    let listed = async |running: &mut Running| {
        running
            .customer_webhooks
            .list_webhook_endpoints(pb::ListWebhookEndpointsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .endpoints
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while listed(&mut running).await[0].enabled && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(listed(&mut running).await[0].id, endpoint.id);
    assert!(!listed(&mut running).await[0].enabled);

    // Its admin hears of it, with the portal's screen; the company's alert addresses do not.
    let alerts = queued_alerts(&mut running).await;
    let to: Vec<&str> = alerts.iter().map(|n| n.to_email.as_str()).collect();
    assert_eq!(to, ["hooks@acme.example"]);
    assert!(
        alerts[0]
            .text_body
            .contains("http://localhost:8080/portal/webhooks"),
        "{}",
        alerts[0].text_body
    );
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_failing_for_the_retry_window_is_disabled_and_the_admins_are_told() {
    let receiver = TestWebhookReceiver::start();
    receiver.answer("fail");
    // A window of no time: the first failure is the last.
    let mut running = start(|s| s.notify_retry_for_secs = 0).await;
    let (endpoint, _) = register(&mut running, &receiver.url("/in")).await;
    running
        .store
        .publish(&[shipment_event(EventType::ShipmentCreated, "s1", "pending")])
        .await
        .unwrap();
    let failed = until(&mut running, &endpoint.id, |d| {
        d.first()
            .is_some_and(|d| state(d) == pb::WebhookDeliveryState::Failed)
    })
    .await;
    assert!(
        failed[0].last_error.contains("gave up after 1 attempt"),
        "{}",
        failed[0].last_error
    );
    // The endpoint reads disabled before its delivery reads failed, and its alert with it.
    let alerts = queued_alerts(&mut running).await;
    let listed = running
        .webhooks
        .list_webhook_endpoints(pb::ListWebhookEndpointsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .endpoints;
    assert!(!listed[0].enabled);
    assert!(
        listed[0].disabled_reason.starts_with("Disabled on"),
        "{}",
        listed[0].disabled_reason
    );

    let refused = running
        .webhooks
        .send_test_webhook_event(pb::SendTestWebhookEventRequest {
            endpoint_id: endpoint.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);

    let mut to: Vec<&str> = alerts.iter().map(|n| n.to_email.as_str()).collect();
    to.sort();
    assert_eq!(to, ["cto@example.com", "ops@example.com"]);
    let alert = &alerts[0];
    assert!(
        alert.subject.contains(&receiver.url("/in")),
        "{}",
        alert.subject
    );
    assert!(
        alert
            .text_body
            .contains("http://localhost:8080/administration_and_development/webhooks"),
        "{}",
        alert.text_body
    );

    // Enabled again, it starts afresh.
    let enabled = running
        .webhooks
        .update_webhook_endpoint(pb::UpdateWebhookEndpointRequest {
            endpoint: Some(pb::WebhookEndpoint {
                id: endpoint.id.clone(),
                enabled: true,
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["enabled".into()],
            }),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        enabled.enabled && enabled.failing_since.is_none() && enabled.disabled_reason.is_empty()
    );
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_endpoints_are_refused_naming_the_field() {
    let mut running = start(|s| s.webhook_allow_private_networks = false).await;
    let long = format!("https://erp.example.com/{}", "a".repeat(10 * 1024));
    for (url, field) in [
        ("not a url", "url"),
        ("file:///etc/passwd", "url"),
        ("http://169.254.169.254/latest/meta-data/", "url"),
        ("http://[::1]/", "url"),
        ("http://localhost:8080/", "url"),
        ("https://admin:secret@erp.example.com/", "url"),
        (long.as_str(), "url"),
    ] {
        let status = running
            .webhooks
            .create_webhook_endpoint(pb::CreateWebhookEndpointRequest {
                url: url.into(),
                events: all_events(),
                description: String::new(),
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{url}");
        let fields: Vec<String> = status
            .get_details_bad_request()
            .unwrap()
            .field_violations
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(fields, [field], "{}", &url[..url.len().min(60)]);
    }
    let no_events = running
        .webhooks
        .create_webhook_endpoint(pb::CreateWebhookEndpointRequest {
            url: "https://erp.example.com/in".into(),
            events: vec![pb::WebhookEventType::Test as i32],
            description: "x".repeat(201),
        })
        .await
        .unwrap_err();
    let fields: Vec<String> = no_events
        .get_details_bad_request()
        .unwrap()
        .field_violations
        .into_iter()
        .map(|v| v.field)
        .collect();
    assert_eq!(fields, ["events", "description"]);
    assert!(
        running
            .webhooks
            .list_webhook_endpoints(pb::ListWebhookEndpointsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .endpoints
            .is_empty(),
        "nothing was saved"
    );
    let receiver = TestWebhookReceiver::start();
    let mut open = start(|_| {}).await;
    let (endpoint, _) = register(&mut open, &receiver.url("/in")).await;
    for (paths, url, field) in [
        (vec!["url"], "file:///etc/passwd", "endpoint.url"),
        (vec!["secrets"], "", "update_mask"),
        (vec![], "", "update_mask"),
    ] {
        let status = open
            .webhooks
            .update_webhook_endpoint(pb::UpdateWebhookEndpointRequest {
                endpoint: Some(pb::WebhookEndpoint {
                    id: endpoint.id.clone(),
                    url: url.into(),
                    ..Default::default()
                }),
                update_mask: Some(prost_types::FieldMask {
                    paths: paths.iter().map(|p| p.to_string()).collect(),
                }),
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        let fields: Vec<String> = status
            .get_details_bad_request()
            .unwrap()
            .field_violations
            .into_iter()
            .map(|v| v.field)
            .collect();
        assert_eq!(fields, [field], "{paths:?}");
    }
    let _ = open.stop.send(());
    let missing = running
        .webhooks
        .list_webhook_deliveries(pb::ListWebhookDeliveriesRequest {
            endpoint_id: "ep_missing".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        (missing.code(), missing.message()),
        (Code::NotFound, "Webhook endpoint not found")
    );
    let _ = running.stop.send(());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_name_that_resolves_to_a_private_address_is_refused_when_sending() {
    use notifications::webhooks::{AddressPolicy, WebhookSender};
    // Debian's hosts file names ::1 `ip6-localhost`; without it there is nothing to check.
    if tokio::net::lookup_host(("ip6-localhost", 0)).await.is_err() {
        return;
    }
    let sender = WebhookSender::new(
        AddressPolicy::default(),
        Duration::from_secs(2),
        "Test",
        None,
    )
    .unwrap();
    let (endpoint, _) = outbox::webhooks::Endpoint::new(
        "http://ip6-localhost:9/in",
        vec![EventType::ShipmentCreated],
        "",
        "",
        service_common::now(),
    );
    let event = shipment_event(EventType::ShipmentCreated, "s1", "pending");
    let delivery = outbox::webhooks::Delivery::new(&endpoint.id, &event);
    let (attempt, result) = sender
        .send(&endpoint, &delivery, service_common::now())
        .await;
    assert!(
        matches!(result, Err(notifications::transport::SendError::Refused(_))),
        "{result:?}"
    );
    assert!(
        attempt.error.contains("loopback, link-local or private"),
        "{}",
        attempt.error
    );
}
