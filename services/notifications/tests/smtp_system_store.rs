//! SMTP over TLS trusts the system's certificate store: a company CA installed there (here by
//! SSL_CERT_FILE, which the store is read from as OpenSSL reads it) is enough, without
//! SMTP_CA_FILE. Its own test process, as it changes the environment.

use std::sync::Arc;
use std::time::Duration;

use notifications::config::{MailConfig, SmtpConfig, SmtpTls};
use notifications::render::Renderer;
use test_servers::smtp::TestSmtpServer;

#[tokio::test]
async fn a_ca_in_the_system_store_is_trusted() {
    let server = TestSmtpServer::start_tls("accept", "starttls");
    // SAFETY: the only test of this process, before any TLS configuration is built.
    unsafe { std::env::set_var("SSL_CERT_FILE", server.ca_file()) };
    let config = MailConfig::Smtp(SmtpConfig {
        host: "127.0.0.1".into(),
        port: server.port,
        tls: SmtpTls::Starttls,
        username: None,
        password: None,
        from: "no-reply@northwind.example".parse().unwrap(),
        contact_inbox: None,
        ca_file: None,
        helo_name: None,
        allow_plaintext_auth: false,
    });
    let renderer = Arc::new(Renderer::new(notifications::brand::Brand::spec_default()).unwrap());
    let transport =
        notifications::Transport::new(&config, Duration::from_secs(5), renderer, None).unwrap();
    let n = notifications::sample::shipment("ada@example.com", chrono::NaiveDate::MIN)
        .to_shipper("https://ship.example", service_common::now());
    transport.send(&n).await.unwrap();
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0]["tls"], true);
}
