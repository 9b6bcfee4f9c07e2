//! Outbound HTTP and proxies: with HTTP_PROXY, HTTPS_PROXY and ALL_PROXY pointing at a real
//! forwarding proxy for the whole test process, webhooks and the e-mail API connect directly
//! and the webhook address checks hold; a proxy named by OUTBOUND_PROXY is used, and a target
//! that resolves to a private address is refused before the proxy hears of it.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use notifications::config::{Account, EmailApiConfig, MailConfig};
use notifications::transport::SendError;
use notifications::webhooks::{AddressPolicy, WebhookSender};
use outbox::webhooks::{Delivery, Endpoint, Event, EventType};
use service_common::settings::from_flags;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Request lines seen by a server, shared with the test that started it.
type Seen = Arc<Mutex<Vec<String>>>;

/// Reads a request head (up to the blank line) from `stream`.
async fn read_head(stream: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            return Some((head, buf[end + 4..].to_vec()));
        }
    }
}

/// A forwarding HTTP proxy: CONNECT tunnels, and absolute-form requests sent on to the host
/// they name, resolved by the proxy itself (as a company proxy inside the network would).
async fn start_proxy() -> (SocketAddr, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                let Some((head, rest)) = read_head(&mut client).await else {
                    return;
                };
                let line = head.lines().next().unwrap_or_default().to_owned();
                log.lock().unwrap().push(line.clone());
                let mut parts = line.split(' ');
                let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                if method == "CONNECT" {
                    let Ok(mut upstream) = TcpStream::connect(target).await else {
                        let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                        return;
                    };
                    let _ = client.write_all(b"HTTP/1.1 200 OK\r\n\r\n").await;
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                    return;
                }
                let Ok(url) = reqwest::Url::parse(target) else {
                    return;
                };
                let host = format!(
                    "{}:{}",
                    url.host_str().unwrap_or_default(),
                    url.port_or_known_default().unwrap_or(80)
                );
                let Ok(mut upstream) = TcpStream::connect(host).await else {
                    let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                    return;
                };
                let origin_form = head.replacen(target, url.path(), 1);
                let _ = upstream.write_all(origin_form.as_bytes()).await;
                let _ = upstream.write_all(b"\r\n\r\n").await;
                let _ = upstream.write_all(&rest).await;
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            });
        }
    });
    (addr, seen)
}

/// An HTTP server on `ip` that records each request line and answers 200.
async fn start_listener(ip: std::net::IpAddr) -> (SocketAddr, Seen) {
    let listener = TcpListener::bind((ip, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                if let Some((head, _)) = read_head(&mut stream).await {
                    log.lock()
                        .unwrap()
                        .push(head.lines().next().unwrap_or_default().to_owned());
                    let _ = stream
                        .write_all(
                            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
                        )
                        .await;
                }
            });
        }
    });
    (addr, seen)
}

/// The proxy the environment names, one per test process, on its own runtime so it outlives
/// each test's.
fn env_proxy() -> &'static Seen {
    static PROXY: OnceLock<Seen> = OnceLock::new();
    PROXY.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            runtime.block_on(async {
                tx.send(start_proxy().await).unwrap();
                std::future::pending::<()>().await
            });
        });
        let (addr, seen) = rx.recv().unwrap();
        let url = format!("http://{addr}");
        // SAFETY: set once, before any client of this process reads the environment.
        unsafe {
            for name in [
                "HTTP_PROXY",
                "HTTPS_PROXY",
                "ALL_PROXY",
                "http_proxy",
                "https_proxy",
            ] {
                std::env::set_var(name, &url);
            }
            std::env::remove_var("NO_PROXY");
            std::env::remove_var("no_proxy");
        }
        seen
    })
}

/// This machine's own name and the private address it resolves to: a host name (not
/// `localhost`, not an address literal) that the URL check alone cannot refuse.
async fn own_name() -> (String, std::net::IpAddr) {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_owned();
    let ip = tokio::net::lookup_host((name.as_str(), 0))
        .await
        .unwrap_or_else(|e| panic!("this machine's name {name} must resolve: {e}"))
        .map(|a| a.ip())
        .find(std::net::IpAddr::is_ipv4)
        .unwrap_or_else(|| panic!("{name} has no IPv4 address"));
    assert!(
        !AddressPolicy::default().allows(ip),
        "{name} resolves to the public address {ip}; the test needs a private one"
    );
    (name, ip)
}

fn delivery_to(url: &str) -> (Endpoint, Delivery) {
    let (endpoint, _) = Endpoint::new(
        url,
        vec![EventType::ShipmentCreated],
        "",
        "",
        service_common::now(),
    );
    let event = Event::new(
        EventType::ShipmentCreated,
        "s1",
        "PSE000000000",
        serde_json::json!({ "shipment": { "id": "s1" } }),
        service_common::now(),
    );
    let delivery = Delivery::new(&endpoint.id, &event);
    (endpoint, delivery)
}

fn seen_path(seen: &Seen, path: &str) -> bool {
    seen.lock().unwrap().iter().any(|line| line.contains(path))
}

#[tokio::test(flavor = "multi_thread")]
async fn proxy_variables_do_not_carry_a_webhook_to_a_private_address() {
    let env_proxy = env_proxy();
    let (name, ip) = own_name().await;
    let (internal, internal_seen) = start_listener(ip).await;
    let sender = WebhookSender::new(
        AddressPolicy::default(),
        Duration::from_secs(5),
        "Test",
        None,
    )
    .unwrap();
    for scheme in ["http", "https"] {
        let path = format!("/internal-{scheme}");
        let (endpoint, delivery) =
            delivery_to(&format!("{scheme}://{name}:{}{path}", internal.port()));
        let (attempt, result) = sender
            .send(&endpoint, &delivery, service_common::now())
            .await;
        assert!(
            matches!(&result, Err(SendError::Refused(e)) if e.contains("loopback, link-local or private")),
            "{scheme}: {result:?}"
        );
        assert_eq!(attempt.status_code, 0);
        let port = format!(":{}", internal.port());
        assert!(!seen_path(env_proxy, &port), "{scheme}: the proxy was used");
    }
    assert!(
        internal_seen.lock().unwrap().is_empty(),
        "the internal listener was reached"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_configured_proxy_is_used_and_private_targets_are_refused_before_it() {
    let env_proxy = env_proxy();
    let (name, ip) = own_name().await;
    let (internal, internal_seen) = start_listener(ip).await;
    let (proxy, proxy_seen) = start_proxy().await;
    let proxy_url = reqwest::Url::parse(&format!("http://{proxy}")).unwrap();
    let sender = WebhookSender::new(
        AddressPolicy::default(),
        Duration::from_secs(5),
        "Test",
        Some(&proxy_url),
    )
    .unwrap();
    let (endpoint, delivery) = delivery_to(&format!("http://{name}:{}/via-proxy", internal.port()));
    let (_, result) = sender
        .send(&endpoint, &delivery, service_common::now())
        .await;
    assert!(
        matches!(&result, Err(SendError::Refused(e)) if e.contains("loopback, link-local or private")),
        "{result:?}"
    );
    assert!(
        proxy_seen.lock().unwrap().is_empty(),
        "the proxy heard of it"
    );
    assert!(internal_seen.lock().unwrap().is_empty());

    // With private networks allowed (an on-premises ERP), the same delivery goes through the
    // configured proxy, never the one in the environment.
    let allowing = WebhookSender::new(
        AddressPolicy {
            allow_private: true,
        },
        Duration::from_secs(5),
        "Test",
        Some(&proxy_url),
    )
    .unwrap();
    let (_, result) = allowing
        .send(&endpoint, &delivery, service_common::now())
        .await;
    assert_eq!(result, Ok(()));
    assert!(
        seen_path(&proxy_seen, "/via-proxy"),
        "{:?}",
        proxy_seen.lock().unwrap()
    );
    assert!(seen_path(&internal_seen, "/via-proxy"));
    assert!(!seen_path(env_proxy, "/via-proxy"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_email_api_connects_directly_whatever_the_environment_says() {
    let env_proxy = env_proxy();
    let (api, api_seen) = start_listener([127, 0, 0, 1].into()).await;
    let account = Account {
        public_key: "pk".into(),
        private_key: None,
        service_id: "svc".into(),
    };
    let config = MailConfig::EmailApi(EmailApiConfig {
        base_url: format!("http://{api}/direct"),
        shipments: account.clone(),
        shipper_template: "tpl".into(),
        receiver_template: "tpl".into(),
        update_template: None,
        alert_template: None,
        subscription_template: None,
        invitation_template: None,
        pickup_template: None,
        digest_template: None,
        account_declined_template: None,
        contact: account,
        contact_template: "tpl".into(),
    });
    let renderer = Arc::new(
        notifications::render::Renderer::new(notifications::brand::Brand::spec_default()).unwrap(),
    );
    let transport =
        notifications::Transport::new(&config, Duration::from_secs(5), renderer, None).unwrap();
    let n = notifications::sample::shipment("ada@example.com", chrono::NaiveDate::MIN)
        .to_shipper("https://ship.example", service_common::now());
    transport.send(&n).await.unwrap();
    assert!(seen_path(&api_seen, "/direct/api/v1.0/email/send"));
    assert!(
        !seen_path(env_proxy, "/direct/"),
        "the environment's proxy was used"
    );
}

#[test]
fn outbound_proxy_must_be_an_http_url() {
    let with =
        |value: &str| from_flags::<notifications::Settings>(&["--outbound-proxy", value]).unwrap();
    assert_eq!(
        with("http://proxy.example:3128")
            .outbound_proxy()
            .unwrap()
            .map(|u| u.to_string()),
        Some("http://proxy.example:3128/".to_owned())
    );
    assert_eq!(with("  ").outbound_proxy().unwrap(), None);
    for bad in [
        "socks5://proxy.example:1080",
        "proxy.example:3128",
        "http://",
    ] {
        let error = with(bad).outbound_proxy().unwrap_err().to_string();
        assert!(
            error.starts_with("OUTBOUND_PROXY must be"),
            "{bad}: {error}"
        );
    }
}
