//! What the gateway binary logs per request at the default level: one short line per request,
//! none from the in-process services on top, and public lookups as LOG_PUBLIC_REQUESTS says.

use crate::common;

use std::process::{Command, Stdio};

/// Starts the gateway with `log_public_requests` (unset: the default), makes `lookups` public
/// lookups, one quote, one fetch of the OpenAPI document and of a web app file, stops it; its
/// log.
async fn log_of(log_public_requests: Option<&str>, lookups: usize) -> String {
    let data = tempfile::tempdir().unwrap();
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("index.html"), "<!doctype html>").unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_gateway"));
    command
        .env_clear()
        .env("PORT", port.to_string())
        .env("DATA_DIR", data.path())
        .env("STATIC_DIR", files.path())
        .env("METRICS_ADDR", "off")
        .env("RUST_LOG", "info")
        .env("ADMIN_PASSWORD", "a long first password")
        .stderr(Stdio::piped())
        .stdout(Stdio::null());
    if let Some(value) = log_public_requests {
        command.env("LOG_PUBLIC_REQUESTS", value);
    }
    let child = command.spawn().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let mut up = false;
    for _ in 0..600 {
        if reqwest::get(format!("{base}/healthz")).await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(up, "the gateway did not start");
    for _ in 0..lookups {
        let reply = common::wire::track(&base, "PSE000000000000").await;
        assert_eq!(reply.http, 200);
    }
    // An instant quote is logged as a lookup is.
    let quote = reqwest::Client::new()
        .post(format!("{base}/logistics.v1.QuoteService/CreateQuote"))
        .header("content-type", "application/json")
        .body(r#"{"origin":{"country":"NG"},"destination":{"country":"GH"},"parcels":[{"weightKg":1,"count":1}]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(quote.status(), 200);
    for path in ["/openapi.json", "/index.html"] {
        assert_eq!(
            reqwest::get(format!("{base}{path}"))
                .await
                .unwrap()
                .status(),
            200
        );
    }
    // SIGTERM, as an orchestrator stops it: the log is complete once it exited.
    Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8(output.stderr).unwrap()
}

fn lookup_lines(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("GetShipmentByTrackingNumber"))
        .collect()
}

#[tokio::test]
async fn every_request_is_one_short_line_when_all_are_asked_for() {
    let log = log_of(Some("all"), 5).await;
    let lines = lookup_lines(&log);
    assert_eq!(lines.len(), 5, "{log}");
    for line in lines {
        assert!(line.len() <= 200, "{} bytes: {line}", line.len());
        assert!(
            line.contains("POST /logistics.v1.ShipmentService/GetShipmentByTrackingNumber 200"),
            "{line}"
        );
        assert!(line.contains(" trace="), "{line}");
        assert!(line.contains(" ms="), "{line}");
    }
    assert!(!log.contains("rpc done"), "{log}");
    assert!(
        log.contains("POST /logistics.v1.QuoteService/CreateQuote 200"),
        "{log}"
    );
}

#[tokio::test]
async fn public_lookups_are_silent_by_default_and_sampled_on_request() {
    let log = log_of(None, 5).await;
    assert_eq!(lookup_lines(&log), Vec::<&str>::new(), "{log}");
    assert!(!log.contains("CreateQuote"), "{log}");
    assert!(
        log.contains("GET /openapi.json 200"),
        "other requests are logged: {log}"
    );
    // Health probes and the web app's files say little and are most of the rest: debug only.
    assert!(!log.contains("GET /healthz"), "{log}");
    assert!(!log.contains("GET /index.html"), "{log}");
    let log = log_of(Some("sample:3"), 9).await;
    assert_eq!(lookup_lines(&log).len(), 3, "{log}");
}
