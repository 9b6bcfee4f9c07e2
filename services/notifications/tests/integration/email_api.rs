//! The notifications service against a local HTTP server that speaks the e-mail API's
//! protocol: it records every request and answers what each test scripts (200, 400, 403,
//! 429, 500, or no answer at all).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State as AxumState;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use chrono::{DateTime, Utc};
use logistics_proto::v1::{self as pb, notification_service_client::NotificationServiceClient};
use notifications::config::{Account, EmailApiConfig};
use notifications::{MailConfig, RetryPolicy, Transport, Worker};
use outbox::emails::ShipmentEmail;
use outbox::{OutboxStore, SqliteOutbox, State};
use serde_json::{Value, json};
use service_auth::{Bearer, Caller, TokenKey};
use service_common::settings::from_flags;
use tokio::net::TcpListener;
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt;

/// What the mock API answers to one request.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Status(u16),
    /// A status with a `Retry-After` header.
    RetryAfter(u16, &'static str),
    /// Never answers: the client's timeout has to end the request.
    Hang,
}

#[derive(Clone, Debug)]
struct Received {
    idempotency_key: String,
    body: Value,
    at: std::time::Instant,
    answered: Answer,
}

#[derive(Clone, Default)]
struct MockApi {
    script: Arc<Mutex<VecDeque<Answer>>>,
    received: Arc<Mutex<Vec<Received>>>,
    /// Every answer waits this long (to let concurrent workers overlap).
    delay: Arc<Mutex<Duration>>,
}

impl MockApi {
    async fn start() -> (Self, String) {
        let api = MockApi::default();
        let app = axum::Router::new()
            .route("/api/v1.0/email/send", post(send))
            .with_state(api.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (api, url)
    }

    fn script(&self, answers: &[Answer]) {
        self.script.lock().unwrap().extend(answers.iter().copied());
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits (bounded) until `n` requests have arrived.
    async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..500 {
            if self.received.lock().unwrap().len() >= n {
                return self.received();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("expected {n} requests, got {:?}", self.received());
    }
}

async fn send(
    AxumState(api): AxumState<MockApi>,
    headers: HeaderMap,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let answer = api
        .script
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Answer::Status(200));
    api.received.lock().unwrap().push(Received {
        idempotency_key: headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
        body: serde_json::from_str(&body).unwrap_or(Value::Null),
        at: std::time::Instant::now(),
        answered: answer,
    });
    let delay = *api.delay.lock().unwrap();
    tokio::time::sleep(delay).await;
    match answer {
        Answer::Status(200) => (StatusCode::OK, "OK").into_response(),
        Answer::Status(code) => (StatusCode::from_u16(code).unwrap(), "nope").into_response(),
        Answer::RetryAfter(code, after) => (
            StatusCode::from_u16(code).unwrap(),
            [("retry-after", after)],
            "later",
        )
            .into_response(),
        Answer::Hang => std::future::pending().await,
    }
}

fn api_config(base_url: &str) -> MailConfig {
    MailConfig::EmailApi(EmailApiConfig {
        base_url: base_url.to_owned(),
        shipments: Account {
            public_key: "pk-ship".into(),
            private_key: Some("secret-ship".into()),
            service_id: "svc-ship".into(),
        },
        shipper_template: "tpl-shipper".into(),
        update_template: Some("tpl-update".into()),
        subscription_template: None,
        invitation_template: None,
        pickup_template: None,
        digest_template: None,
        account_declined_template: None,
        alert_template: None,
        receiver_template: "tpl-receiver".into(),
        contact: Account {
            public_key: "pk-contact".into(),
            private_key: None,
            service_id: "svc-contact".into(),
        },
        contact_template: "tpl-contact".into(),
    })
}

fn renderer() -> Arc<notifications::render::Renderer> {
    Arc::new(
        notifications::render::Renderer::new(notifications::brand::Brand::spec_default()).unwrap(),
    )
}

fn fast_policy() -> RetryPolicy {
    RetryPolicy {
        retry_for: Duration::from_secs(10),
        first_backoff: Duration::from_millis(40),
        max_backoff: Duration::from_secs(1),
        lease: Duration::from_millis(600),
        poll: Duration::from_millis(10),
    }
}

struct Running {
    client: NotificationServiceClient<Channel>,
    admin:
        NotificationServiceClient<tonic::service::interceptor::InterceptedService<Channel, Bearer>>,
    channel: Channel,
    store: Arc<dyn OutboxStore>,
    worker: Worker,
    _dir: tempfile::TempDir,
}

/// The service on a loopback port; the worker is the test's to start.
async fn start(config: MailConfig, policy: RetryPolicy) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn OutboxStore> = Arc::new(SqliteOutbox::open(dir.path()).unwrap());
    let transport = Transport::new(&config, Duration::from_millis(300), renderer(), None).unwrap();
    let key = TokenKey::generate();
    let (service, worker) = notifications::service_and_worker(
        store.clone(),
        std::sync::Arc::new(audit::SqliteAuditLog::open(dir.path()).unwrap()),
        transport,
        key.clone(),
        policy,
        "https://ship.example".into(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut built = service_common::Built::new(notifications::server(service));
    built.problem = config.problem();
    tokio::spawn(service_common::serve(
        listener,
        built,
        std::future::pending(),
    ));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let admin_token = key.mint(
        &Caller::with_role("u1", "admin@ship.example", service_auth::Role::Admin),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    Running {
        client: NotificationServiceClient::new(channel.clone()),
        admin: NotificationServiceClient::with_interceptor(
            channel.clone(),
            Bearer::new(&admin_token),
        ),
        channel,
        store,
        worker,
        _dir: dir,
    }
}

/// A clock the test moves by hand.
#[derive(Clone)]
struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    fn at(start: DateTime<Utc>) -> Self {
        Self(Arc::new(Mutex::new(start)))
    }

    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap()
    }

    fn clock(&self) -> notifications::Clock {
        let time = self.0.clone();
        Arc::new(move || *time.lock().unwrap())
    }
}

/// `worker` with `policy`, reading the time from a clock the test moves, starting at `start`.
fn on_a_manual_clock(
    worker: &Worker,
    start: DateTime<Utc>,
    policy: RetryPolicy,
) -> (Worker, ManualClock) {
    let clock = ManualClock::at(start);
    let worker = Worker {
        policy,
        clock: clock.clock(),
        ..worker.clone()
    };
    (worker, clock)
}

/// Runs `worker` at each moment the e-mail falls due (calling `before` with that moment) until
/// it is sent or failed; returns it and the time of each attempt.
async fn run_when_due(
    worker: &Worker,
    clock: &ManualClock,
    store: &Arc<dyn OutboxStore>,
    id: &str,
    mut before: impl FnMut(DateTime<Utc>),
) -> (outbox::Notification, Vec<DateTime<Utc>>) {
    let mut attempts = Vec::new();
    for _ in 0..1000 {
        let n = store.get(id).await.unwrap();
        if matches!(n.state, State::Sent | State::Failed) {
            return (n, attempts);
        }
        let due = n.next_attempt_at.max(clock.now());
        *clock.0.lock().unwrap() = due;
        before(due);
        assert!(worker.work_once().await.unwrap(), "{id} was due at {due}");
        attempts.push(due);
    }
    panic!("{id} still not settled after 1000 attempts");
}

fn spawn_worker(worker: &Worker) -> tokio::task::JoinHandle<()> {
    tokio::spawn(worker.clone().run(std::future::pending()))
}

fn contact(name: &str) -> pb::SendContactMessageRequest {
    pb::SendContactMessageRequest {
        name: name.into(),
        email: "vee@example.com".into(),
        subject: "Rates to Lagos".into(),
        message: "How much for 2 pallets?".into(),
        website: String::new(),
    }
}

fn sample() -> ShipmentEmail {
    ShipmentEmail {
        tracking_number: "PSE123456789".into(),
        status: "pending".into(),
        current_location: "Auckland".into(),
        origin: "Auckland".into(),
        destination: "Sydney".into(),
        expected_delivery_date: "2026-12-24".into(),
        shipper_name: "Ada Shipper".into(),
        shipper_email: "ada@example.com".into(),
        receiver_name: "Rita Receiver".into(),
        receiver_email: "rita@example.com".into(),
        language: Default::default(),
        packages: vec![
            "2 x Bale - Merino wool (100 x 50 x 50 cm, 5 kg)".into(),
            "1 x Box - Socks (30 x 20 x 10 cm, 1 kg)".into(),
        ],
    }
}

/// Waits (bounded) until the notification reaches `state`.
async fn wait_for_state(
    store: &Arc<dyn OutboxStore>,
    id: &str,
    state: State,
) -> outbox::Notification {
    for _ in 0..500 {
        let n = store.get(id).await.unwrap();
        if n.state == state {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "{id} never reached {state:?}: {:?}",
        store.get(id).await.unwrap()
    );
}

#[tokio::test]
async fn each_email_is_sent_with_exactly_the_specified_json() {
    let (api, url) = MockApi::start().await;
    let mut running = start(api_config(&url), fast_policy()).await;
    let shipment = sample().notifications("https://ship.example/", service_common::now());
    running.store.enqueue(&shipment).await.unwrap();
    running
        .client
        .send_contact_message(contact("Vee"))
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let received = api.wait_for(3).await;
    let body_for = |template: &str| {
        received
            .iter()
            .find(|r| r.body["template_id"] == template)
            .unwrap()
            .body
            .clone()
    };
    assert_eq!(
        body_for("tpl-shipper"),
        json!({
            "lib_version": "4.4.1",
            "user_id": "pk-ship",
            "service_id": "svc-ship",
            "template_id": "tpl-shipper",
            "accessToken": "secret-ship",
            "template_params": {
                "to_name": "Ada Shipper",
                "tracking": "PSE123456789",
                "status": "pending",
                "location": "Auckland",
                "origin": "Auckland",
                "destination": "Sydney",
                "delivery": "2026-12-24",
                "receiver": "Rita Receiver",
                "receiver_email": "rita@example.com",
                "packages": "2 x Bale - Merino wool (100 x 50 x 50 cm, 5 kg)\n1 x Box - Socks (30 x 20 x 10 cm, 1 kg)",
                "url": "https://ship.example/track/PSE123456789",
                "to_email": "ada@example.com",
                "subject": "Shipment Created"
            }
        })
    );
    assert_eq!(
        body_for("tpl-receiver"),
        json!({
            "lib_version": "4.4.1",
            "user_id": "pk-ship",
            "service_id": "svc-ship",
            "template_id": "tpl-receiver",
            "accessToken": "secret-ship",
            "template_params": {
                "to_name": "Rita Receiver",
                "tracking_number": "PSE123456789",
                "origin": "Auckland",
                "destination": "Sydney",
                "expected_delivery_date": "2026-12-24",
                "tracking_url": "https://ship.example/track/PSE123456789",
                "to_email": "rita@example.com",
                "subject": "Package Incoming"
            }
        })
    );
    assert_eq!(
        body_for("tpl-contact"),
        json!({
            "lib_version": "4.4.1",
            "user_id": "pk-contact",
            "service_id": "svc-contact",
            "template_id": "tpl-contact",
            "template_params": {
                "from_name": "Vee",
                "from_email": "vee@example.com",
                "subject": "Rates to Lagos",
                "message": "How much for 2 pallets?",
                "reply_to": "vee@example.com"
            }
        })
    );
    let ids: Vec<&str> = received
        .iter()
        .map(|r| r.idempotency_key.as_str())
        .collect();
    assert!(
        ids.iter().all(|id| id.len() == 24),
        "each request carries its notification id as idempotency key: {ids:?}"
    );
    for n in &shipment {
        wait_for_state(&running.store, &n.id, State::Sent).await;
    }
}

#[tokio::test]
async fn passing_failures_are_retried_with_growing_waits_until_sent() {
    let (api, url) = MockApi::start().await;
    api.script(&[
        Answer::Status(500),
        Answer::Status(429),
        Answer::Hang,
        Answer::Status(200),
    ]);
    let running = start(api_config(&url), fast_policy()).await;
    let n = sample().to_receiver("https://ship.example", service_common::now());
    running
        .store
        .enqueue(std::slice::from_ref(&n))
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let sent = wait_for_state(&running.store, &n.id, State::Sent).await;
    assert_eq!(sent.attempts, 4);
    let received = api.received();
    assert_eq!(received.len(), 4);
    assert!(
        received.iter().all(|r| r.idempotency_key == n.id),
        "the same idempotency key on every attempt"
    );
    // Backoff 40 ms, then 80 ms, then 160 ms (plus the 300 ms timeout of the hung request).
    let gaps: Vec<Duration> = received.windows(2).map(|w| w[1].at - w[0].at).collect();
    assert!(gaps[0] >= Duration::from_millis(40), "{gaps:?}");
    assert!(gaps[1] >= Duration::from_millis(80), "{gaps:?}");
    assert!(gaps[2] >= Duration::from_millis(300 + 160), "{gaps:?}");
}

#[tokio::test]
async fn refusals_fail_at_once_and_exhausted_retries_become_dead_letters_an_admin_can_retry() {
    let (api, url) = MockApi::start().await;
    api.script(&[Answer::Status(400)]);
    let mut running = start(api_config(&url), fast_policy()).await;
    let refused = sample().to_shipper("https://ship.example", service_common::now());
    running
        .store
        .enqueue(std::slice::from_ref(&refused))
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let failed = wait_for_state(&running.store, &refused.id, State::Failed).await;
    assert_eq!(
        (failed.attempts, failed.last_error.as_str()),
        (1, "400 Bad Request: nope")
    );

    // An hour of 503s, on a clock the test moves: waits of 10, 20 and 30 minutes (each plus up
    // to a quarter), then the last try when the hour is up.
    let (hourly, clock) = on_a_manual_clock(
        &running.worker,
        service_common::now(),
        RetryPolicy {
            retry_for: Duration::from_secs(3600),
            first_backoff: Duration::from_secs(600),
            max_backoff: Duration::from_secs(1800),
            ..fast_policy()
        },
    );
    _worker.abort();
    api.script(&[Answer::Status(503); 10]);
    let exhausted = sample().to_receiver("https://ship.example", clock.now());
    running
        .store
        .enqueue(std::slice::from_ref(&exhausted))
        .await
        .unwrap();
    let (dead, attempts) =
        run_when_due(&hourly, &clock, &running.store, &exhausted.id, |_| {}).await;
    assert_eq!(dead.state, State::Failed);
    assert_eq!(dead.attempts, 4);
    assert_eq!(
        dead.last_error,
        "503 Service Unavailable: nope (gave up after 4 attempts in 1 hour)"
    );
    assert_eq!(attempts[3] - attempts[0], chrono::Duration::hours(1));
    api.script.lock().unwrap().clear();
    let _worker = spawn_worker(&running.worker);

    // An admin queues it again; the API now accepts it.
    let retried = running
        .admin
        .retry_notification(pb::RetryNotificationRequest {
            id: exhausted.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(retried.state, pb::NotificationState::Queued as i32);
    wait_for_state(&running.store, &exhausted.id, State::Sent).await;
    let refused_again = running
        .admin
        .retry_notification(pb::RetryNotificationRequest {
            id: exhausted.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused_again.code(), Code::FailedPrecondition);
    let listed = running
        .admin
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.notifications.len(), 2);
    assert_eq!(listed.backlog, 0);
    let anonymous = running
        .client
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn an_email_claimed_by_a_worker_that_dies_is_sent_by_another() {
    let (api, url) = MockApi::start().await;
    api.script(&[Answer::Hang]);
    // A long API timeout: the first worker is killed while its request hangs.
    let running = start(api_config(&url), fast_policy()).await;
    let slow = Worker {
        transport: Transport::new(&api_config(&url), Duration::from_secs(60), renderer(), None)
            .unwrap(),
        // Another process: its own record of unsettled e-mails.
        unsettled: Default::default(),
        ..running.worker.clone()
    };
    let n = sample().to_shipper("https://ship.example", service_common::now());
    running
        .store
        .enqueue(std::slice::from_ref(&n))
        .await
        .unwrap();
    let dying = spawn_worker(&slow);
    api.wait_for(1).await;
    dying.abort();
    let _ = dying.await;
    assert_eq!(
        running.store.get(&n.id).await.unwrap().state,
        State::Sending
    );

    let _replacement = spawn_worker(&running.worker);
    let sent = wait_for_state(&running.store, &n.id, State::Sent).await;
    assert_eq!(sent.attempts, 2);
    let answered_ok = api
        .received()
        .iter()
        .filter(|r| matches!(r.answered, Answer::Status(200)))
        .count();
    assert_eq!(answered_ok, 1, "delivered exactly once after the restart");
}

#[tokio::test]
async fn two_workers_never_send_the_same_email_twice() {
    let (api, url) = MockApi::start().await;
    *api.delay.lock().unwrap() = Duration::from_millis(5);
    let running = start(api_config(&url), fast_policy()).await;
    let emails: Vec<_> = (0..15)
        .flat_map(|_| sample().notifications("https://ship.example", service_common::now()))
        .collect();
    running.store.enqueue(&emails).await.unwrap();
    let second = Worker {
        transport: Transport::new(&api_config(&url), Duration::from_secs(5), renderer(), None)
            .unwrap(),
        // Another process: its own record of unsettled e-mails.
        unsettled: Default::default(),
        ..running.worker.clone()
    };
    let _a = spawn_worker(&running.worker);
    let _b = spawn_worker(&second);
    for n in &emails {
        wait_for_state(&running.store, &n.id, State::Sent).await;
    }
    let mut keys: Vec<String> = api
        .received()
        .into_iter()
        .map(|r| r.idempotency_key)
        .collect();
    assert_eq!(keys.len(), 30);
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 30, "no e-mail sent twice");
}

#[tokio::test]
async fn missing_configuration_is_named_and_keeps_the_service_unready() {
    let partial = from_flags::<notifications::MailSettings>(&["--emailjs-public-key", "pk"])
        .unwrap()
        .config();
    let mut running = start(partial, fast_policy()).await;
    let status = running
        .client
        .send_contact_message(contact("Vee"))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(
        status.message(),
        "Missing required environment variables: EMAILJS_SERVICE_ID, EMAILJS_SHIPPER_TEMPLATE_ID, EMAILJS_RECEIVER_TEMPLATE_ID, \
         CONTACT_EMAILJS_PUBLIC_KEY, CONTACT_EMAILJS_SERVICE_ID, CONTACT_EMAILJS_TEMPLATE_ID"
    );
    let test = running
        .admin
        .send_test_emails(pb::SendTestEmailsRequest {})
        .await
        .unwrap_err();
    assert_eq!(test.code(), Code::FailedPrecondition);
    let mut health = tonic_health::pb::health_client::HealthClient::new(running.channel.clone());
    let answer = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "logistics.v1.NotificationService".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        answer.status,
        tonic_health::pb::health_check_response::ServingStatus::NotServing as i32
    );
    assert_eq!(
        running.store.backlog().await.unwrap(),
        0,
        "nothing queued that cannot be sent"
    );
}

/// The (field, description) pairs of an INVALID_ARGUMENT answer.
fn violations(status: &tonic::Status) -> Vec<(String, String)> {
    status
        .get_details_bad_request()
        .unwrap()
        .field_violations
        .into_iter()
        .map(|v| (v.field, v.description))
        .collect()
}

#[tokio::test]
async fn contact_messages_are_validated_field_by_field_and_robots_are_dropped() {
    let (api, url) = MockApi::start().await;
    let mut running = start(api_config(&url), fast_policy()).await;
    let empty = pb::SendContactMessageRequest {
        email: "not-an-address".into(),
        ..Default::default()
    };
    let status = running
        .client
        .send_contact_message(empty)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let fields = violations(&status);
    assert_eq!(
        fields,
        [
            ("name".to_owned(), "is required".to_owned()),
            (
                "email".to_owned(),
                "is not a valid email address".to_owned()
            ),
            ("subject".to_owned(), "is required".to_owned()),
            ("message".to_owned(), "is required".to_owned()),
        ]
    );
    let long = pb::SendContactMessageRequest {
        message: "x".repeat(5001),
        ..contact("Vee")
    };
    let status = running.client.send_contact_message(long).await.unwrap_err();
    assert_eq!(
        status.get_details_bad_request().unwrap().field_violations[0].description,
        "must be at most 5000 characters"
    );
    // A header line smuggled into the subject, NUL and a terminal escape are refused.
    let hostile = pb::SendContactMessageRequest {
        name: "Eve\u{0}".into(),
        subject: "Hi\r\nBcc: victim@example.com".into(),
        message: "\u{1b}[2Jcleared".into(),
        ..contact("Eve")
    };
    let status = running
        .client
        .send_contact_message(hostile)
        .await
        .unwrap_err();
    let fields = violations(&status);
    assert_eq!(
        fields,
        [
            (
                "name".to_owned(),
                "must not contain control characters".to_owned()
            ),
            ("subject".to_owned(), "must be one line".to_owned()),
            (
                "message".to_owned(),
                "must not contain control characters".to_owned()
            ),
        ]
    );

    let robot = pb::SendContactMessageRequest {
        website: "http://spam.example".into(),
        ..contact("Bot")
    };
    running.client.send_contact_message(robot).await.unwrap();
    assert_eq!(
        running.store.backlog().await.unwrap(),
        0,
        "nothing written for invalid or robot messages"
    );
    assert!(api.received().is_empty());
}

#[tokio::test]
async fn the_email_test_sends_both_samples_to_the_admin_now() {
    let (api, url) = MockApi::start().await;
    api.script(&[Answer::Status(200), Answer::Status(403)]);
    let mut running = start(api_config(&url), fast_policy()).await;
    let failed = running
        .admin
        .send_test_emails(pb::SendTestEmailsRequest {})
        .await
        .unwrap_err();
    assert_eq!(failed.code(), Code::Unavailable);
    assert_eq!(
        failed.message(),
        "Failed to send receiver email: 403 Forbidden: nope"
    );

    let ok = running
        .admin
        .send_test_emails(pb::SendTestEmailsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ok.to_email, "admin@ship.example");
    let received = api.received();
    let shipper = &received[2].body["template_params"];
    assert_eq!(shipper["to_email"], "admin@ship.example");
    let in_a_week = (chrono::Utc::now().date_naive() + chrono::Days::new(7))
        .format("%Y-%m-%d")
        .to_string();
    assert_eq!(shipper["delivery"], in_a_week.as_str());
    assert_eq!(
        received[3].body["template_params"]["expected_delivery_date"],
        in_a_week.as_str()
    );
    let listed = running
        .admin
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner();
    let states: Vec<i32> = listed.notifications.iter().map(|n| n.state).collect();
    assert_eq!(
        states
            .iter()
            .filter(|s| **s == pb::NotificationState::Sent as i32)
            .count(),
        3
    );
    assert_eq!(
        states
            .iter()
            .filter(|s| **s == pb::NotificationState::Failed as i32)
            .count(),
        1
    );
}

#[tokio::test]
async fn update_emails_use_their_own_template_and_an_unset_one_is_named() {
    let (api, url) = MockApi::start().await;
    let running = start(api_config(&url), fast_policy()).await;
    let update = outbox::emails::StatusUpdate {
        tracking_number: "PSE123456789".into(),
        status: "In Transit".into(),
        location: "Rotterdam, Netherlands".into(),
        remarks: "Arrived at the hub".into(),
        at: chrono::DateTime::parse_from_rfc3339("2026-11-23T09:15:00Z")
            .unwrap()
            .to_utc(),
        expected_delivery: "2026-12-03".into(),
        progress: 2,
    };
    let recipient = outbox::emails::UpdateRecipient {
        email: "fan@example.com".into(),
        name: String::new(),
        tracking_url: "https://ship.example/track/PSE123456789".into(),
        unsubscribe_url: Some("https://ship.example/track/PSE123456789?unsubscribe=t".into()),
        language: Default::default(),
    };
    let now = service_common::now();
    let update = update.to(&recipient, now);
    // This configuration has no EMAILJS_SUBSCRIPTION_TEMPLATE_ID.
    let confirmation = outbox::emails::subscription_confirmation(
        "PSE123456789",
        "fan@example.com",
        "https://ship.example/track/PSE123456789?confirm=t",
        Default::default(),
        now,
    );
    running
        .store
        .enqueue(&[update.clone(), confirmation.clone()])
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let received = api.wait_for(1).await;
    assert_eq!(received[0].body["template_id"], "tpl-update");
    assert_eq!(
        received[0].body["template_params"]["unsubscribe_url"],
        "https://ship.example/track/PSE123456789?unsubscribe=t"
    );
    assert_eq!(
        received[0].body["template_params"]["subject"],
        "Shipment PSE123456789: In Transit"
    );
    let failed = wait_for_state(&running.store, &confirmation.id, State::Failed).await;
    assert_eq!(
        failed.last_error,
        "Missing required environment variables: EMAILJS_SUBSCRIPTION_TEMPLATE_ID"
    );
    wait_for_state(&running.store, &update.id, State::Sent).await;
}

fn invitation(now: DateTime<Utc>) -> outbox::Notification {
    outbox::emails::customer_invitation(
        "ana@acme.example",
        "Ana Ruiz",
        "Acme Imports",
        "https://ship.example/fr/invitation#k2Jf8sLq0PzW3mNv",
        chrono::DateTime::parse_from_rfc3339("2026-11-30T16:18:00Z")
            .unwrap()
            .to_utc(),
        outbox::language::Language::Fr,
        now,
    )
}

#[tokio::test]
async fn an_invitation_is_sent_with_its_own_template_and_parameters() {
    let (api, url) = MockApi::start().await;
    let MailConfig::EmailApi(mut config) = api_config(&url) else {
        unreachable!()
    };
    config.invitation_template = Some("tpl-invitation".into());
    let mut running = start(MailConfig::EmailApi(config), fast_policy()).await;
    let invited = invitation(service_common::now());
    running
        .store
        .enqueue(std::slice::from_ref(&invited))
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let received = api.wait_for(1).await;
    assert_eq!(received[0].idempotency_key, invited.id);
    assert_eq!(received[0].body["template_id"], "tpl-invitation");
    assert_eq!(received[0].body["service_id"], "svc-ship");
    assert_eq!(
        received[0].body["template_params"],
        json!({
            "to_name": "Ana Ruiz",
            "to_email": "ana@acme.example",
            "subject": "Invitation à rejoindre Acme Imports",
            "customer_name": "Acme Imports",
            "accept_url": "https://ship.example/fr/invitation#k2Jf8sLq0PzW3mNv",
            "expire_time": "30 nov. 2026, 16:18 UTC",
            "language": "fr",
        })
    );
    wait_for_state(&running.store, &invited.id, State::Sent).await;
    let listed = running
        .admin
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        listed.notifications[0].template,
        pb::EmailTemplate::CustomerInvitation as i32
    );
    assert_eq!(listed.notifications[0].to_name, "Ana Ruiz");
}

#[tokio::test]
async fn an_invitation_without_its_template_fails_naming_the_setting() {
    let (api, url) = MockApi::start().await;
    // This configuration has no EMAILJS_INVITATION_TEMPLATE_ID.
    let running = start(api_config(&url), fast_policy()).await;
    let invited = invitation(service_common::now());
    running
        .store
        .enqueue(std::slice::from_ref(&invited))
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let failed = wait_for_state(&running.store, &invited.id, State::Failed).await;
    assert_eq!(
        failed.last_error,
        "Missing required environment variables: EMAILJS_INVITATION_TEMPLATE_ID"
    );
    assert!(api.received().is_empty(), "nothing reached the e-mail API");
}

fn pickup(now: DateTime<Utc>) -> outbox::Notification {
    outbox::emails::pickup_confirmed(
        "ana@acme.example",
        "Acme Imports",
        "12 Harbour Road, Rotterdam",
        chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
        (
            chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            chrono::NaiveTime::from_hms_opt(12, 30, 0).unwrap(),
        ),
        3,
        outbox::language::Language::Es,
        now,
    )
}

fn declined(now: DateTime<Utc>) -> outbox::Notification {
    outbox::emails::account_request_declined(
        "li@blue.example",
        "Li Wei",
        "Blue Harbour Trading",
        "We do not serve this region yet.",
        outbox::language::Language::En,
        now,
    )
}

#[tokio::test]
async fn a_confirmed_pickup_and_a_declined_request_are_sent_with_their_own_templates() {
    let (api, url) = MockApi::start().await;
    let MailConfig::EmailApi(mut config) = api_config(&url) else {
        unreachable!()
    };
    config.pickup_template = Some("tpl-pickup".into());
    config.account_declined_template = Some("tpl-declined".into());
    let mut running = start(MailConfig::EmailApi(config), fast_policy()).await;
    let (pickup, declined) = (
        pickup(service_common::now()),
        declined(service_common::now()),
    );
    running
        .store
        .enqueue(&[pickup.clone(), declined.clone()])
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    let received = api.wait_for(2).await;
    let sent = |id: &str| {
        received
            .iter()
            .find(|r| r.idempotency_key == id)
            .unwrap_or_else(|| panic!("{id} was not sent"))
            .body
            .clone()
    };
    let to_customer = sent(&pickup.id);
    assert_eq!(to_customer["template_id"], "tpl-pickup");
    assert_eq!(to_customer["service_id"], "svc-ship");
    assert_eq!(
        to_customer["template_params"],
        json!({
            "to_email": "ana@acme.example",
            "subject": "Su recogida del 3 dic 2026 está confirmada",
            "customer_name": "Acme Imports",
            "address": "12 Harbour Road, Rotterdam",
            "pickup_date": "3 dic 2026",
            "pickup_window": "09:00–12:30",
            "parcel_count": "3",
            "parcels": "3 bultos",
            "language": "es",
        })
    );
    let to_visitor = sent(&declined.id);
    assert_eq!(to_visitor["template_id"], "tpl-declined");
    assert_eq!(to_visitor["service_id"], "svc-ship");
    assert_eq!(
        to_visitor["template_params"],
        json!({
            "to_name": "Li Wei",
            "to_email": "li@blue.example",
            "subject": "Your account request for Blue Harbour Trading",
            "company_name": "Blue Harbour Trading",
            "reason": "We do not serve this region yet.",
        })
    );
    wait_for_state(&running.store, &pickup.id, State::Sent).await;
    wait_for_state(&running.store, &declined.id, State::Sent).await;
    let listed = running
        .admin
        .list_notifications(pb::ListNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner();
    let template_of = |id: &str| {
        listed
            .notifications
            .iter()
            .find(|n| n.id == id)
            .map(|n| n.template)
    };
    assert_eq!(
        template_of(&pickup.id),
        Some(pb::EmailTemplate::PickupConfirmed as i32)
    );
    assert_eq!(
        template_of(&declined.id),
        Some(pb::EmailTemplate::AccountRequestDeclined as i32)
    );
}

#[tokio::test]
async fn a_pickup_or_declined_request_without_its_template_fails_naming_the_setting() {
    let (api, url) = MockApi::start().await;
    // This configuration has neither EMAILJS_PICKUP_TEMPLATE_ID nor
    // EMAILJS_ACCOUNT_DECLINED_TEMPLATE_ID.
    let running = start(api_config(&url), fast_policy()).await;
    let (pickup, declined) = (
        pickup(service_common::now()),
        declined(service_common::now()),
    );
    running
        .store
        .enqueue(&[pickup.clone(), declined.clone()])
        .await
        .unwrap();
    let _worker = spawn_worker(&running.worker);
    for (id, setting) in [
        (&pickup.id, "EMAILJS_PICKUP_TEMPLATE_ID"),
        (&declined.id, "EMAILJS_ACCOUNT_DECLINED_TEMPLATE_ID"),
    ] {
        let failed = wait_for_state(&running.store, id, State::Failed).await;
        assert_eq!(
            failed.last_error,
            format!("Missing required environment variables: {setting}")
        );
    }
    assert!(api.received().is_empty(), "nothing reached the e-mail API");
}

#[tokio::test]
async fn an_email_queued_during_a_two_hour_outage_is_delivered_once_the_api_is_back() {
    let (api, url) = MockApi::start().await;
    let running = start(api_config(&url), fast_policy()).await;
    let start_time = service_common::now();
    // The shipped policy: 2 s doubling up to an hour, for a day.
    let (worker, clock) = on_a_manual_clock(&running.worker, start_time, RetryPolicy::default());
    api.script(&[Answer::Status(503); 1000]);
    let n = sample().to_shipper("https://ship.example", start_time);
    running
        .store
        .enqueue(std::slice::from_ref(&n))
        .await
        .unwrap();
    let back_at = start_time + chrono::Duration::hours(2);
    let (sent, attempts) = run_when_due(&worker, &clock, &running.store, &n.id, |now| {
        if now >= back_at {
            api.script.lock().unwrap().clear();
        }
    })
    .await;
    assert_eq!(sent.state, State::Sent);
    let delivered_at = *attempts.last().unwrap();
    assert!(
        delivered_at >= back_at && delivered_at <= back_at + chrono::Duration::minutes(75),
        "delivered at the first attempt after the outage, at most an hour and a quarter later: {delivered_at}"
    );
    let policy = RetryPolicy::default();
    for (i, gap) in attempts.windows(2).map(|w| w[1] - w[0]).enumerate() {
        let backoff = chrono::Duration::from_std(policy.backoff(i as u32 + 1)).unwrap();
        assert!(
            gap >= backoff && gap <= backoff + backoff / 4,
            "wait {i} was {gap}, its backoff {backoff} plus up to a quarter"
        );
    }
    let oks = api
        .received()
        .iter()
        .filter(|r| matches!(r.answered, Answer::Status(200)))
        .count();
    assert_eq!(oks, 1, "delivered exactly once");
    assert_eq!(sent.attempts as usize, api.received().len());
    assert_eq!(
        sent.failing_since, None,
        "a sent e-mail is no longer failing"
    );
}

#[tokio::test]
async fn the_api_is_retried_for_a_day_then_the_email_fails() {
    let (api, url) = MockApi::start().await;
    let running = start(api_config(&url), fast_policy()).await;
    let (worker, clock) = on_a_manual_clock(
        &running.worker,
        service_common::now(),
        RetryPolicy::default(),
    );
    api.script(&[Answer::Status(502); 1000]);
    let n = sample().to_receiver("https://ship.example", clock.now());
    running
        .store
        .enqueue(std::slice::from_ref(&n))
        .await
        .unwrap();
    let (failed, attempts) = run_when_due(&worker, &clock, &running.store, &n.id, |_| {}).await;
    assert_eq!(failed.state, State::Failed);
    assert_eq!(
        *attempts.last().unwrap() - attempts[0],
        chrono::Duration::hours(24),
        "the last try comes when the day is up"
    );
    assert_eq!(
        failed.last_error,
        format!(
            "502 Bad Gateway: nope (gave up after {} attempts in 24 hours)",
            attempts.len()
        )
    );
}

#[tokio::test]
async fn retry_after_is_honoured_in_seconds_and_as_a_date() {
    let (api, url) = MockApi::start().await;
    let running = start(api_config(&url), fast_policy()).await;
    let (worker, clock) = on_a_manual_clock(
        &running.worker,
        "2026-11-25T07:28:00Z".parse().unwrap(),
        RetryPolicy::default(),
    );
    // The API's date is the real one (it cannot see the test's clock), so the date is far ahead.
    let later = (Utc::now() + chrono::Duration::minutes(30))
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string()
        .leak();
    api.script(&[
        Answer::RetryAfter(429, "600"),
        Answer::RetryAfter(503, later),
        Answer::Status(200),
    ]);
    let n = sample().to_shipper("https://ship.example", clock.now());
    running
        .store
        .enqueue(std::slice::from_ref(&n))
        .await
        .unwrap();
    let (sent, attempts) = run_when_due(&worker, &clock, &running.store, &n.id, |_| {}).await;
    assert_eq!(sent.state, State::Sent);
    let gaps: Vec<_> = attempts.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps[0] >= chrono::Duration::seconds(600), "{gaps:?}");
    assert!(
        gaps[1] >= chrono::Duration::minutes(29) && gaps[1] <= chrono::Duration::minutes(31),
        "{gaps:?}"
    );
}

#[tokio::test]
async fn the_outbox_is_filtered_and_every_failed_email_of_a_filter_is_retried_at_once() {
    let (api, url) = MockApi::start().await;
    let mut running = start(api_config(&url), fast_policy()).await;
    let now = service_common::now();
    let failed_for = |tracking: &str, to: &str| {
        let mut n = outbox::Notification::new(
            outbox::Template::StatusUpdate,
            to,
            "Ada",
            Default::default(),
            now,
        );
        n.tracking_number = tracking.into();
        n.settle(
            &outbox::Outcome::Failed {
                error: "503 Service Unavailable".into(),
            },
            now,
        );
        n
    };
    let lagos = failed_for("PSE111111111", "ada@lagos.example");
    let accra = failed_for("PSE222222222", "kofi@accra.example");
    let queued = sample().to_shipper("https://ship.example", now);
    running
        .store
        .enqueue(&[lagos.clone(), accra.clone(), queued.clone()])
        .await
        .unwrap();

    let list = |state: pb::NotificationState, query: &str| pb::ListNotificationsRequest {
        state: state as i32,
        query: query.into(),
        ..Default::default()
    };
    let ids = |r: pb::ListNotificationsResponse| -> Vec<String> {
        r.notifications.into_iter().map(|n| n.id).collect()
    };
    let failed = running
        .admin
        .list_notifications(list(pb::NotificationState::Failed, ""))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(failed), [accra.id.clone(), lagos.id.clone()]);
    let by_address = running
        .admin
        .list_notifications(list(pb::NotificationState::Unspecified, "LAGOS"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(by_address), [lagos.id.as_str()]);
    let by_number = running
        .admin
        .list_notifications(list(pb::NotificationState::Failed, "2222"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(by_number), [accra.id.as_str()]);
    for (request, field, description) in [
        (
            list(pb::NotificationState::Failed, &"x".repeat(201)),
            "query",
            "must be at most 200 characters",
        ),
        (
            pb::ListNotificationsRequest {
                state: 42,
                ..Default::default()
            },
            "state",
            "is not a notification state",
        ),
    ] {
        let bad = running.admin.list_notifications(request).await.unwrap_err();
        assert_eq!(
            violations(&bad),
            [(field.to_owned(), description.to_owned())]
        );
    }

    let retried = running
        .admin
        .retry_failed_notifications(pb::RetryFailedNotificationsRequest {
            query: "accra".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(retried.retried_count, 1);
    let accra_now = running.store.get(&accra.id).await.unwrap();
    assert_eq!((accra_now.state, accra_now.attempts), (State::Queued, 0));
    assert_eq!(
        running.store.get(&lagos.id).await.unwrap().state,
        State::Failed
    );
    let all = running
        .admin
        .retry_failed_notifications(pb::RetryFailedNotificationsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.retried_count, 1, "only the one still failed");
    let _worker = spawn_worker(&running.worker);
    for n in [&lagos, &accra, &queued] {
        wait_for_state(&running.store, &n.id, State::Sent).await;
    }
    assert_eq!(api.received().len(), 3);
    let anonymous = running
        .client
        .retry_failed_notifications(pb::RetryFailedNotificationsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
}
