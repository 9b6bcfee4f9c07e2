//! E-mail over SMTP against a real SMTP server (aiosmtpd, `test_servers::smtp`) started
//! by each test: what arrives is parsed and checked, and a server that refuses, greylists, drops
//! the connection or requires authentication gets the outcome the retry policy expects.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use notifications::brand::Brand;
use notifications::config::{MailConfig, SmtpConfig, SmtpTls};
use notifications::render::Renderer;
use notifications::transport::SendError;
use notifications::{RetryPolicy, Transport};
use outbox::emails::{ContactMessage, StatusUpdate, UpdateRecipient};
use outbox::language::Language;
use outbox::{Notification, Outcome};
use serde_json::Value;
use service_common::settings::from_flags;
use test_servers::smtp::TestSmtpServer;

struct SmtpServer(TestSmtpServer);

impl SmtpServer {
    fn start(mode: &str) -> Self {
        Self(TestSmtpServer::start(mode))
    }

    fn received(&self) -> Vec<Value> {
        self.0.received()
    }

    fn transport(&self, credentials: Option<(&str, &str)>) -> Transport {
        self.transport_with(renderer(), credentials)
    }

    fn transport_with(
        &self,
        renderer: Arc<Renderer>,
        credentials: Option<(&str, &str)>,
    ) -> Transport {
        let mut config = self.config(credentials);
        // The test server has no TLS: a password over it is this test's own choice.
        config.allow_plaintext_auth = true;
        Transport::new(
            &MailConfig::Smtp(config),
            Duration::from_secs(5),
            renderer,
            None,
        )
        .unwrap()
    }

    fn config(&self, credentials: Option<(&str, &str)>) -> SmtpConfig {
        SmtpConfig {
            host: "127.0.0.1".into(),
            port: self.0.port,
            tls: SmtpTls::None,
            username: credentials.map(|c| c.0.to_owned()),
            password: credentials.map(|c| c.1.into()),
            from: "Northwind Freight <no-reply@northwind.example>"
                .parse()
                .unwrap(),
            contact_inbox: Some("Sales desk <sales@northwind.example>".parse().unwrap()),
            ca_file: None,
            helo_name: None,
            allow_plaintext_auth: false,
        }
    }
}

fn brand() -> Brand {
    Brand {
        name: "Northwind Freight".into(),
        support_email: "help@northwind.example".into(),
        address: "1 Harbour Road, Rotterdam".into(),
        logo_url: Some("https://ship.example/brand/logo.png".into()),
        primary_color: "#0f766e".into(),
        messages: Default::default(),
    }
}

fn renderer() -> Arc<Renderer> {
    Arc::new(Renderer::new(brand()).unwrap())
}

fn header<'a>(message: &'a Value, name: &str) -> Vec<&'a str> {
    message["headers"][name]
        .as_array()
        .map(|values| values.iter().map(|v| v.as_str().unwrap()).collect())
        .unwrap_or_default()
}

fn shipper_email(to_name: &str) -> Notification {
    let mut shipment = notifications::sample::shipment("ada@example.com", chrono::NaiveDate::MIN);
    shipment.shipper_name = to_name.into();
    shipment.packages = vec!["2 x Box - <b>Tiles</b> & grout (50 x 40 x 30 cm, 12.5 kg)".into()];
    shipment.to_shipper("https://ship.example", service_common::now())
}

#[tokio::test]
async fn each_email_arrives_as_text_and_html_with_the_brand_and_its_headers() {
    let server = SmtpServer::start("accept");
    let transport = server.transport(None);
    let shipper = shipper_email("Ada Lovelace");
    transport.send(&shipper).await.unwrap();
    let contact = ContactMessage {
        name: "Vee Visitor".into(),
        email: "vee@example.com".into(),
        subject: "Rates to Lagos".into(),
        message: "How much for <2> pallets?".into(),
    }
    .notification(service_common::now());
    transport.send(&contact).await.unwrap();
    let update = StatusUpdate {
        tracking_number: "PSE000000000".into(),
        status: "In Transit".into(),
        location: "Rotterdam, Netherlands".into(),
        remarks: String::new(),
        at: chrono::DateTime::parse_from_rfc3339("2026-11-25T09:30:00Z")
            .unwrap()
            .to_utc(),
        expected_delivery: "2026-12-03".into(),
        progress: 2,
    }
    .to(
        &UpdateRecipient {
            email: "sub@example.com".into(),
            name: String::new(),
            tracking_url: "https://ship.example/track/PSE000000000".into(),
            unsubscribe_url: Some("https://ship.example/unsubscribe?token=abc".into()),
            language: Default::default(),
        },
        service_common::now(),
    );
    transport.send(&update).await.unwrap();

    let received = server.received();
    assert_eq!(received.len(), 3);
    let [shipped, asked, moved] = [&received[0], &received[1], &received[2]];

    assert_eq!(shipped["rcpt_tos"], serde_json::json!(["ada@example.com"]));
    assert_eq!(
        header(shipped, "from"),
        ["Northwind Freight <no-reply@northwind.example>"]
    );
    assert_eq!(header(shipped, "to"), ["Ada Lovelace <ada@example.com>"]);
    assert_eq!(header(shipped, "subject"), ["Shipment Created"]);
    assert_eq!(
        header(shipped, "message-id"),
        [format!("<{}@northwind.example>", shipper.id).as_str()]
    );
    assert_eq!(shipped["content_type"], "multipart/alternative");
    let text = shipped["text"].as_str().unwrap();
    let html = shipped["html"].as_str().unwrap();
    assert!(
        text.contains("Your shipment PSE000000000 has been created."),
        "{text}"
    );
    assert!(text.contains("Track your shipment: https://ship.example/track/PSE000000000"));
    assert!(
        text.contains("2 x Box - <b>Tiles</b> & grout"),
        "text is not escaped"
    );
    assert!(text.contains("Northwind Freight, 1 Harbour Road, Rotterdam"));
    assert!(
        html.contains(r#"<a href="https://ship.example/track/PSE000000000""#),
        "{html}"
    );
    assert!(
        html.contains("2 x Box - &lt;b&gt;Tiles&lt;/b&gt; &amp; grout"),
        "{html}"
    );
    assert!(html.contains(r#"<img src="https://ship.example/brand/logo.png""#));
    assert!(html.contains("#0f766e"));
    assert!(html.contains("mailto:help@northwind.example"));
    assert!(header(shipped, "list-unsubscribe").is_empty());
    assert!(header(shipped, "list-unsubscribe-post").is_empty());

    assert_eq!(
        header(asked, "to"),
        ["Sales desk <sales@northwind.example>"]
    );
    assert_eq!(header(asked, "reply-to"), ["Vee Visitor <vee@example.com>"]);
    assert_eq!(header(asked, "subject"), ["Contact form: Rates to Lagos"]);
    assert!(
        asked["text"]
            .as_str()
            .unwrap()
            .contains("How much for <2> pallets?")
    );
    assert!(
        asked["html"]
            .as_str()
            .unwrap()
            .contains("How much for &lt;2&gt; pallets?")
    );

    assert_eq!(header(moved, "to"), ["sub@example.com"]);
    assert_eq!(
        header(moved, "list-unsubscribe"),
        ["<https://ship.example/unsubscribe?token=abc>"]
    );
    assert_eq!(
        header(moved, "list-unsubscribe-post"),
        ["List-Unsubscribe=One-Click"]
    );
    assert_eq!(
        moved["text"].as_str().unwrap().lines().next(),
        Some("Hello,")
    );
    assert!(
        moved["html"]
            .as_str()
            .unwrap()
            .contains("Stop these updates")
    );
}

#[tokio::test]
async fn each_email_is_written_in_its_recipients_language_with_the_companys_own_wording() {
    let server = SmtpServer::start("accept");
    let mut brand = brand();
    brand.messages.insert(
        Language::Es,
        [(
            "email.update.action".to_owned(),
            "Vea su envío en Northwind".to_owned(),
        )]
        .into(),
    );
    let transport = server.transport_with(Arc::new(Renderer::new(brand).unwrap()), None);
    let now = service_common::now();
    let update = StatusUpdate {
        tracking_number: "PSE000000000".into(),
        status: "in_transit".into(),
        location: "Rotterdam, Netherlands".into(),
        remarks: String::new(),
        at: chrono::DateTime::parse_from_rfc3339("2026-11-25T09:30:00Z")
            .unwrap()
            .to_utc(),
        expected_delivery: "2026-12-03".into(),
        progress: 2,
    }
    .to(
        &UpdateRecipient {
            email: "sub@example.com".into(),
            name: String::new(),
            tracking_url: "https://ship.example/es/track/PSE000000000".into(),
            unsubscribe_url: Some(
                "https://ship.example/es/track/PSE000000000?unsubscribe=t".into(),
            ),
            language: Language::Es,
        },
        now,
    );
    let mut shipment = notifications::sample::shipment("ada@example.com", chrono::NaiveDate::MIN);
    shipment.language = Language::Ar;
    let shipper = shipment.to_shipper("https://ship.example", now);
    transport.send(&update).await.unwrap();
    transport.send(&shipper).await.unwrap();

    let received = server.received();
    let (spanish, arabic) = (&received[0], &received[1]);
    assert_eq!(
        header(spanish, "subject"),
        ["Envío PSE000000000: En tránsito"]
    );
    let text = spanish["text"].as_str().unwrap();
    assert_eq!(text.lines().next(), Some("Hola:"));
    assert!(
        text.contains("El estado del envío PSE000000000 es ahora: En tránsito."),
        "{text}"
    );
    assert!(text.contains("Vea su envío en Northwind: https://ship.example/es/track/PSE000000000"));
    let html = spanish["html"].as_str().unwrap();
    assert!(html.contains(r#"<html lang="es" dir="ltr">"#), "{html}");
    assert!(html.contains("Dejar de recibir estas novedades"), "{html}");

    assert_eq!(header(arabic, "subject"), ["تم إنشاء الشحنة"]);
    let text = arabic["text"].as_str().unwrap();
    assert!(text.contains("تم إنشاء شحنتك PSE000000000."), "{text}");
    assert!(
        text.contains("https://ship.example/ar/track/PSE000000000"),
        "{text}"
    );
    assert!(text.contains("الحالة: قيد الانتظار"), "{text}");
    let html = arabic["html"].as_str().unwrap();
    assert!(html.contains(r#"<html lang="ar" dir="rtl">"#), "{html}");
    // The number reads left to right inside the Arabic sentence.
    assert!(
        html.contains(
            r#"<strong><span dir="ltr" style="unicode-bidi:isolate">PSE000000000</span></strong>"#
        ),
        "{html}"
    );
}

#[tokio::test]
async fn an_invitation_arrives_to_the_invitee_by_name_with_its_link_and_the_company() {
    let server = SmtpServer::start("accept");
    let transport = server.transport(None);
    let url = outbox::emails::invitation_url("https://ship.example", Language::Ar, "k2Jf8sLq");
    let invited = outbox::emails::customer_invitation(
        "ana@acme.example",
        "Ana Ruiz",
        "Acme Imports",
        &url,
        chrono::DateTime::parse_from_rfc3339("2026-11-30T16:18:00Z")
            .unwrap()
            .to_utc(),
        Language::Ar,
        service_common::now(),
    );
    transport.send(&invited).await.unwrap();

    let received = server.received();
    let message = &received[0];
    assert_eq!(message["rcpt_tos"], serde_json::json!(["ana@acme.example"]));
    assert_eq!(header(message, "to"), ["Ana Ruiz <ana@acme.example>"]);
    assert_eq!(
        header(message, "subject"),
        ["دعوة للانضمام إلى Acme Imports"]
    );
    let text = message["text"].as_str().unwrap();
    assert!(
        text.contains("دعتك Northwind Freight للانضمام إلى Acme Imports"),
        "{text}"
    );
    assert!(
        text.contains("عيّن كلمة المرور: https://ship.example/ar/invitation#k2Jf8sLq"),
        "{text}"
    );
    let html = message["html"].as_str().unwrap();
    assert!(html.contains(r#"<html lang="ar" dir="rtl">"#), "{html}");
    assert!(
        html.contains(r#"<a href="https://ship.example/ar/invitation#k2Jf8sLq""#),
        "{html}"
    );
    assert!(html.contains("Acme Imports"), "{html}");
    assert!(header(message, "list-unsubscribe").is_empty());
}

#[tokio::test]
async fn a_confirmed_pickup_arrives_with_the_date_window_address_and_parcels() {
    let server = SmtpServer::start("accept");
    let transport = server.transport(None);
    let pickup = outbox::emails::pickup_confirmed(
        "ana@acme.example",
        "Acme Imports",
        "12 Harbour Road, Rotterdam",
        chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
        (
            chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            chrono::NaiveTime::from_hms_opt(12, 30, 0).unwrap(),
        ),
        1,
        Language::En,
        service_common::now(),
    );
    transport.send(&pickup).await.unwrap();

    let received = server.received();
    let message = &received[0];
    assert_eq!(message["rcpt_tos"], serde_json::json!(["ana@acme.example"]));
    assert_eq!(
        header(message, "subject"),
        ["Your pickup on Dec 3, 2026 is confirmed"]
    );
    let text = message["text"].as_str().unwrap();
    for shown in [
        "Hello,",
        "Northwind Freight confirmed the pickup for Acme Imports:",
        "Dec 3, 2026",
        "09:00–12:30",
        "12 Harbour Road, Rotterdam",
        "Parcels: 1 parcel",
        "Please have the parcels ready and labelled.",
    ] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
    assert!(!text.contains("1 parcels"), "{text}");
    let html = message["html"].as_str().unwrap();
    assert!(html.contains(r#"<html lang="en" dir="ltr">"#), "{html}");
    assert!(html.contains("Acme Imports"), "{html}");
    assert!(html.contains("09:00–12:30"), "{html}");
    assert!(header(message, "list-unsubscribe").is_empty());
}

#[tokio::test]
async fn a_declined_request_arrives_to_the_contact_by_name_with_the_reason_in_arabic() {
    let server = SmtpServer::start("accept");
    let transport = server.transport(None);
    let declined = outbox::emails::account_request_declined(
        "li@blue.example",
        "Li Wei",
        "Blue Harbour Trading",
        "We do not serve this region yet.",
        Language::Ar,
        service_common::now(),
    );
    transport.send(&declined).await.unwrap();

    let received = server.received();
    let message = &received[0];
    assert_eq!(message["rcpt_tos"], serde_json::json!(["li@blue.example"]));
    assert_eq!(header(message, "to"), ["Li Wei <li@blue.example>"]);
    assert_eq!(
        header(message, "subject"),
        ["طلبك لفتح حساب باسم Blue Harbour Trading"]
    );
    let text = message["text"].as_str().unwrap();
    for shown in [
        "مرحبًا Li Wei،",
        "شكرًا لاهتمامك بالشحن مع Northwind Freight. يتعذّر علينا فتح حساب باسم Blue Harbour Trading في الوقت الحالي.",
        "السبب: We do not serve this region yet.",
        "يمكنك الرد على هذه الرسالة أو مراسلتنا عبر صفحة الاتصال.",
    ] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
    let html = message["html"].as_str().unwrap();
    assert!(html.contains(r#"<html lang="ar" dir="rtl">"#), "{html}");
    assert!(
        html.contains(
            r#"<span dir="auto" style="unicode-bidi:isolate">We do not serve this region yet.</span>"#
        ),
        "{html}"
    );
}

#[tokio::test]
async fn line_breaks_in_names_never_become_headers() {
    let server = SmtpServer::start("accept");
    let transport = server.transport(None);
    transport
        .send(&shipper_email("Eve\r\nBcc: victim@example.com"))
        .await
        .unwrap();
    let received = server.received();
    assert_eq!(
        received[0]["rcpt_tos"],
        serde_json::json!(["ada@example.com"])
    );
    assert!(header(&received[0], "bcc").is_empty());
    assert_eq!(
        header(&received[0], "to"),
        ["\"Eve Bcc: victim@example.com\" <ada@example.com>"]
    );
}

/// What the retry policy makes of one attempt's result.
fn outcome(n: &Notification, result: Result<(), SendError>) -> Outcome {
    let mut attempted = n.clone();
    attempted.attempts = 1;
    RetryPolicy::default().outcome(&attempted, result, service_common::now())
}

#[tokio::test]
async fn a_refusal_fails_at_once_and_greylisting_is_tried_again() {
    let refusing = SmtpServer::start("refuse");
    let n = shipper_email("Ada");
    let refused = refusing.transport(None).send(&n).await;
    assert!(
        matches!(&refused, Err(SendError::Refused(e)) if e.contains("550")),
        "{refused:?}"
    );
    assert!(matches!(outcome(&n, refused), Outcome::Failed { .. }));

    let greylisting = SmtpServer::start("greylist");
    let transport = greylisting.transport(None);
    let first = transport.send(&n).await;
    assert!(
        matches!(&first, Err(SendError::Passing { error, .. }) if error.contains("451")),
        "{first:?}"
    );
    assert!(matches!(outcome(&n, first), Outcome::Retry { .. }));
    transport.send(&n).await.unwrap();
    assert_eq!(greylisting.received().len(), 1);
}

#[tokio::test]
async fn a_dropped_connection_or_no_server_is_tried_again() {
    let dropping = SmtpServer::start("drop");
    let n = shipper_email("Ada");
    let dropped = dropping.transport(None).send(&n).await;
    assert!(
        matches!(dropped, Err(SendError::Passing { .. })),
        "{dropped:?}"
    );

    let port = dropping.0.port;
    drop(dropping);
    let config = MailConfig::Smtp(SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        tls: SmtpTls::None,
        username: None,
        password: None,
        from: "no-reply@northwind.example".parse().unwrap(),
        contact_inbox: None,
        ca_file: None,
        helo_name: None,
        allow_plaintext_auth: false,
    });
    let nobody = Transport::new(&config, Duration::from_secs(2), renderer(), None).unwrap();
    let unreachable = nobody.send(&n).await;
    assert!(
        matches!(unreachable, Err(SendError::Passing { .. })),
        "{unreachable:?}"
    );
}

#[tokio::test]
async fn a_server_that_requires_authentication_takes_the_right_account_only() {
    let server = SmtpServer::start("auth");
    let n = shipper_email("Ada");
    let anonymous = server.transport(None).send(&n).await;
    assert!(anonymous.is_err(), "{anonymous:?}");
    let wrong = server.transport(Some(("ada", "wrong"))).send(&n).await;
    assert!(
        matches!(&wrong, Err(SendError::Refused(e)) if e.contains("535")),
        "{wrong:?}"
    );
    server
        .transport(Some(("ada", "s3cret")))
        .send(&n)
        .await
        .unwrap();
    assert_eq!(server.received().len(), 1);
}

/// `config` with `tls` to a server of the same mode, as ada / s3cret.
fn over_tls(server: &SmtpServer, tls: SmtpTls, ca: bool) -> SmtpConfig {
    SmtpConfig {
        tls,
        ca_file: ca.then(|| server.0.ca_file()),
        ..server.config(Some(("ada", "s3cret")))
    }
}

fn send_with(config: SmtpConfig) -> Result<(), SendError> {
    let transport = Transport::new(
        &MailConfig::Smtp(config),
        Duration::from_secs(5),
        renderer(),
        None,
    )
    .unwrap();
    tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(transport.send(&shipper_email("Ada")))
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn starttls_and_implicit_tls_trust_a_private_ca_given_in_smtp_ca_file() {
    for (mode, tls) in [
        ("starttls", SmtpTls::Starttls),
        ("implicit", SmtpTls::Implicit),
    ] {
        let server = SmtpServer(TestSmtpServer::start_tls("auth", mode));
        send_with(over_tls(&server, tls, true)).unwrap_or_else(|e| panic!("{mode}: {e}"));
        let received = server.received();
        assert_eq!(received.len(), 1, "{mode}");
        assert_eq!(received[0]["tls"], true, "{mode}");
        assert_eq!(
            received[0]["rcpt_tos"],
            serde_json::json!(["ada@example.com"])
        );
        // The EHLO name: MAIL_FROM's domain, unless SMTP_HELO_NAME says otherwise.
        assert_eq!(received[0]["helo"], "northwind.example", "{mode}");
        send_with(SmtpConfig {
            helo_name: Some("mx-out.northwind.example".into()),
            ..over_tls(&server, tls, true)
        })
        .unwrap();
        assert_eq!(server.received()[1]["helo"], "mx-out.northwind.example");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn without_the_ca_the_server_is_not_trusted_and_the_error_says_what_to_do() {
    for (mode, tls) in [
        ("starttls", SmtpTls::Starttls),
        ("implicit", SmtpTls::Implicit),
    ] {
        let server = SmtpServer(TestSmtpServer::start_tls("auth", mode));
        let result = send_with(over_tls(&server, tls, false));
        let Err(SendError::Passing { error, .. }) = &result else {
            panic!("{mode}: {result:?}")
        };
        assert!(error.contains("UnknownIssuer"), "{mode}: {error}");
        assert!(
            error.contains("install the company's CA in the system store or set SMTP_CA_FILE"),
            "{mode}: {error}"
        );
        assert!(server.received().is_empty());
    }
}

#[tokio::test]
async fn a_password_is_never_sent_without_tls_unless_allowed() {
    let server = SmtpServer::start("auth");
    let refused = Transport::new(
        &MailConfig::Smtp(server.config(Some(("ada", "s3cret")))),
        Duration::from_secs(5),
        renderer(),
        None,
    )
    .err()
    .expect("a password over plain SMTP is refused at start")
    .to_string();
    assert!(
        refused.contains("SMTP_TLS=none would send SMTP_PASSWORD unencrypted")
            && refused.contains("SMTP_ALLOW_PLAINTEXT_AUTH=true"),
        "{refused}"
    );
    // The same from the settings as an operator writes them.
    let port = server.0.port.to_string();
    let flags = [
        "--mail-transport",
        "smtp",
        "--smtp-host",
        "127.0.0.1",
        "--smtp-port",
        &port,
        "--smtp-tls",
        "none",
        "--smtp-username",
        "ada",
        "--smtp-password",
        "s3cret",
        "--mail-from",
        "no-reply@northwind.example",
    ];
    let settings: notifications::Settings = from_flags(&flags).unwrap();
    let refused = Transport::new(&settings.mail(), Duration::from_secs(5), renderer(), None);
    assert!(refused.is_err());
    let allowed: notifications::Settings =
        from_flags(&[&flags[..], &["--smtp-allow-plaintext-auth", "true"]].concat()).unwrap();
    Transport::new(&allowed.mail(), Duration::from_secs(5), renderer(), None)
        .unwrap()
        .send(&shipper_email("Ada"))
        .await
        .unwrap();
    assert_eq!(server.received().len(), 1);
    assert_eq!(server.received()[0]["tls"], false);
}

#[tokio::test]
async fn an_unusable_ca_file_is_refused_at_start_naming_it() {
    let server = SmtpServer::start("accept");
    let dir = tempfile::tempdir().unwrap();
    let not_pem = dir.path().join("ca.der");
    std::fs::write(&not_pem, [0x30, 0x82, 0x01]).unwrap();
    for (path, problem) in [
        (dir.path().join("missing.pem"), "No such file"),
        (not_pem, "holds no PEM certificate"),
    ] {
        let config = SmtpConfig {
            tls: SmtpTls::Starttls,
            ca_file: Some(path),
            ..server.config(None)
        };
        let error = Transport::new(
            &MailConfig::Smtp(config),
            Duration::from_secs(5),
            renderer(),
            None,
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(
            error.starts_with("SMTP_CA_FILE ") && error.contains(problem),
            "{error}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_worker_sends_over_a_few_kept_open_connections() {
    let server = SmtpServer::start("accept");
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn outbox::OutboxStore> =
        Arc::new(outbox::SqliteOutbox::open(dir.path()).unwrap());
    let emails: Vec<Notification> = (0..24)
        .map(|i| shipper_email(&format!("Ada {i}")))
        .collect();
    store.enqueue(&emails).await.unwrap();
    let worker = notifications::Worker {
        store: store.clone(),
        transport: server.transport(None),
        policy: RetryPolicy::default(),
        wake: Arc::new(tokio::sync::Notify::new()),
        clock: notifications::worker::system_clock(),
        concurrency: 4,
        unsettled: Default::default(),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(worker.clone().run(async {
        let _ = stopped.await;
    }));
    worker.wake.notify_one();
    while store.backlog().await.unwrap() > 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let _ = stop.send(());
    running.await.unwrap();
    let received = server.received();
    assert_eq!(received.len(), 24);
    let mut connections: Vec<u64> = received
        .iter()
        .map(|m| m["peer_port"].as_u64().unwrap())
        .collect();
    connections.sort();
    connections.dedup();
    // At most a few more than the 4 senders: the pool takes a connection back asynchronously.
    assert!(
        connections.len() <= 8,
        "24 e-mails over {} connections: {:?}",
        connections.len(),
        received
            .iter()
            .map(|m| m["peer_port"].clone())
            .collect::<Vec<_>>()
    );
}

/// The real store, its `settle` unavailable while `down` is set (an outage), counting claims.
struct Outage {
    store: Arc<dyn outbox::OutboxStore>,
    down: std::sync::atomic::AtomicBool,
    claims: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl outbox::OutboxStore for Outage {
    async fn enqueue(&self, items: &[Notification]) -> Result<(), outbox::OutboxError> {
        self.store.enqueue(items).await
    }
    async fn claim_batch(
        &self,
        now: chrono::DateTime<chrono::Utc>,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<outbox::Claimed>, outbox::OutboxError> {
        let claimed = self.store.claim_batch(now, lease, limit).await?;
        self.claims.fetch_add(claimed.len(), Ordering::SeqCst);
        Ok(claimed)
    }
    async fn settle_batch(
        &self,
        settlements: &[outbox::Settlement],
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<bool>, outbox::OutboxError> {
        if self.down.load(Ordering::SeqCst) {
            return Err(outbox::OutboxError::Unavailable("the store is away".into()));
        }
        self.store.settle_batch(settlements, now).await
    }
    async fn list(
        &self,
        filter: &outbox::Filter,
        page_size: usize,
        page_token: Option<&str>,
    ) -> Result<outbox::Page, outbox::OutboxError> {
        self.store.list(filter, page_size, page_token).await
    }
    async fn get(&self, id: &str) -> Result<Notification, outbox::OutboxError> {
        self.store.get(id).await
    }
    async fn retry(
        &self,
        id: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Notification, outbox::OutboxError> {
        self.store.retry(id, now).await
    }
    async fn retry_failed(
        &self,
        text: Option<&str>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<u64, outbox::OutboxError> {
        self.store.retry_failed(text, now).await
    }
    async fn backlog(&self) -> Result<u64, outbox::OutboxError> {
        self.store.backlog().await
    }
}

/// A sender sends an e-mail, then cannot record it through a store outage longer than the
/// lease; the sender of the same process that claims it again records it instead of resending.
async fn an_email_sent_but_unrecorded_is_recorded_not_resent(store: Arc<dyn outbox::OutboxStore>) {
    let server = SmtpServer::start("accept");
    let email = shipper_email("Ada");
    store.enqueue(std::slice::from_ref(&email)).await.unwrap();
    let outage = Arc::new(Outage {
        store: store.clone(),
        down: true.into(),
        claims: 0.into(),
    });
    let worker = notifications::Worker {
        store: outage.clone(),
        transport: server.transport(None),
        policy: RetryPolicy {
            lease: Duration::from_secs(1),
            ..RetryPolicy::default()
        },
        wake: Arc::new(tokio::sync::Notify::new()),
        clock: notifications::worker::system_clock(),
        concurrency: 2,
        unsettled: Default::default(),
    };
    let first = tokio::spawn({
        let worker = worker.clone();
        async move { worker.work_once().await.unwrap() }
    });
    // The other sender starts once the first holds the e-mail, so it cannot claim it first.
    for _ in 0..1000 {
        if outage.claims.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        outage.claims.load(Ordering::SeqCst),
        1,
        "claimed by the first"
    );
    // The other sender asks until the lease has run out and the e-mail is due again.
    let second = tokio::spawn({
        let worker = worker.clone();
        async move {
            for _ in 0..1000 {
                if worker.work_once().await.unwrap() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            panic!("the e-mail never came due again");
        }
    });
    for _ in 0..1000 {
        if outage.claims.load(Ordering::SeqCst) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(outage.claims.load(Ordering::SeqCst), 2, "claimed again");
    outage.down.store(false, Ordering::SeqCst);
    second.await.unwrap();
    assert!(first.await.unwrap());
    assert_eq!(server.received().len(), 1, "sent once");
    let recorded = store.get(&email.id).await.unwrap();
    assert_eq!(recorded.state, outbox::State::Sent);
    assert_eq!(recorded.attempts, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_an_email_sent_but_unrecorded_is_recorded_not_resent() {
    let dir = tempfile::tempdir().unwrap();
    an_email_sent_but_unrecorded_is_recorded_not_resent(Arc::new(
        outbox::SqliteOutbox::open(dir.path()).unwrap(),
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_an_email_sent_but_unrecorded_is_recorded_not_resent() {
    if let Some((uri, database)) = test_servers::mongodb() {
        let store = outbox::MongoOutbox::connect(&uri, &database).await.unwrap();
        an_email_sent_but_unrecorded_is_recorded_not_resent(Arc::new(store)).await;
    }
}
