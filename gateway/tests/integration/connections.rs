//! Connections to the gateway are bounded: slow or idle clients are disconnected at the limits
//! the settings give, the number of connections is capped, and a call that needs a session is
//! refused from its headers before any of its body is read. Raw sockets on a real listener.

use crate::common;

use std::time::Duration;

use common::site::{self, ADMIN_PASSWORD, CLERK_EMAIL};
use common::wire;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long a test waits for something the server must do before calling it a failure.
const BOUND: Duration = Duration::from_secs(30);

async fn connect(base: &str) -> TcpStream {
    TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Reads until the server closes the connection; what it sent before that.
async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout(BOUND, stream.read(&mut buffer)).await {
            Err(_) => panic!("the server kept the connection open; it sent {received:?}"),
            Ok(Ok(0)) | Ok(Err(_)) => return received,
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Reads one response head (up to the blank line).
async fn response_head(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let mut byte = [0u8; 1];
    while !received.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(BOUND, stream.read(&mut byte)).await {
            Err(_) => panic!("no answer; got {:?}", String::from_utf8_lossy(&received)),
            Ok(Ok(0)) | Ok(Err(_)) => panic!(
                "closed before an answer; got {:?}",
                String::from_utf8_lossy(&received)
            ),
            Ok(Ok(_)) => received.push(byte[0]),
        }
    }
    String::from_utf8(received).unwrap().to_ascii_lowercase()
}

async fn healthz(base: &str) -> u16 {
    reqwest::get(format!("{base}/healthz"))
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn half_sent_request_heads_are_closed_at_the_header_timeout_while_healthz_answers() {
    let site = site::all_in_one_with(|s| {
        s.header_timeout = Duration::from_secs(1);
        s.idle_timeout = Duration::from_secs(3600);
    })
    .await;
    let mut held = Vec::new();
    for i in 0..300 {
        let mut stream = connect(&site.base).await;
        let half = if i % 2 == 0 {
            &b"GET /healthz HTT"[..]
        } else {
            &b"POST /logistics.v1.ShipmentService/ListShipments HTTP/1.1\r\nHost: x\r\nX-Slow: "[..]
        };
        stream.write_all(half).await.unwrap();
        held.push(stream);
    }
    assert_eq!(healthz(&site.base).await, 200);
    // A client dripping its head a byte at a time is held no longer than one that stopped.
    let mut dripping = connect(&site.base).await;
    dripping
        .write_all(b"GET / HTTP/1.1\r\nX-a: ")
        .await
        .unwrap();
    let dripped = tokio::time::timeout(BOUND, async {
        while dripping.write_all(b"a").await.is_ok() {
            let mut buffer = [0u8; 16];
            if let Ok(Ok(0) | Err(_)) =
                tokio::time::timeout(Duration::from_millis(100), dripping.read(&mut buffer)).await
            {
                return;
            }
        }
    })
    .await;
    assert!(dripped.is_ok(), "a dripping head was held past the bound");
    for stream in &mut held {
        assert_eq!(until_closed(stream).await, b"", "closed without an answer");
    }
    assert_eq!(healthz(&site.base).await, 200);
}

#[tokio::test]
async fn idle_connections_are_closed_at_the_idle_timeout() {
    let site = site::all_in_one_with(|s| {
        s.idle_timeout = Duration::from_secs(1);
        s.header_timeout = Duration::from_secs(3600);
    })
    .await;
    // A keep-alive connection after its answer, and one that never sent anything.
    let mut kept = connect(&site.base).await;
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    assert!(response_head(&mut kept).await.starts_with("http/1.1 200"));
    let mut silent = connect(&site.base).await;
    until_closed(&mut kept).await;
    assert_eq!(until_closed(&mut silent).await, b"");
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_fails_the_request() {
    let site = site::all_in_one_with(|s| s.body_timeout = Duration::from_secs(1)).await;
    let mut stream = connect(&site.base).await;
    stream
        .write_all(
            b"POST /logistics.v1.ShipmentService/GetShipmentByTrackingNumber HTTP/1.1\r\n\
              Host: x\r\ncontent-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n\
              content-length: 100\r\n\r\n\0\0\0\0\x5f",
        )
        .await
        .unwrap();
    let head = response_head(&mut stream).await;
    assert!(head.contains("grpc-status: 3\r\n"), "{head}");
    assert!(
        head.contains("grpc-message: the%20request%20body%20could%20not%20be%20read"),
        "{head}"
    );
    until_closed(&mut stream).await;
}

/// The head of a 9 MiB upload of `path` and its first frame header, the rest never sent.
async fn start_upload(base: &str, path: &str, cookie: Option<&str>) -> TcpStream {
    let size = 9 * 1024 * 1024;
    let cookie = cookie.map_or(String::new(), |c| format!("cookie: {c}\r\n"));
    let mut stream = connect(base).await;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/grpc-web+proto\r\n\
         x-grpc-web: 1\r\n{cookie}content-length: {size}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(size as u32 - 5).to_be_bytes());
    frame.extend_from_slice(&[0; 1000]);
    stream.write_all(&frame).await.unwrap();
    stream
}

#[tokio::test]
async fn uploads_without_the_right_session_are_refused_before_their_body_is_read() {
    let site = site::all_in_one().await;
    for path in [
        "/logistics.v1.ShipmentService/RecordProofOfDelivery",
        "/logistics.v1.ShipmentService/AppendShipmentImportData",
        "/logistics.v1.ShipmentService/CreateShipment",
        "/logistics.v1.PreferenceService/GetPreferences",
    ] {
        // The answer comes while 9 MiB are still to be sent: the body was not waited for.
        let mut stream = start_upload(&site.base, path, None).await;
        let head = response_head(&mut stream).await;
        assert!(head.contains("grpc-status: 16\r\n"), "{path}: {head}");
        let mut stream = start_upload(&site.base, path, Some("session=forged")).await;
        let head = response_head(&mut stream).await;
        assert!(head.contains("grpc-status: 16\r\n"), "{path}: {head}");
    }
    // Signed in, without the permission: refused as well, before the body.
    let (_, cookie) = wire::sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let cookie = cookie.expect("the clerk signs in");
    let cookie = cookie.split(';').next().unwrap();
    for path in [
        "/logistics.v1.ShipmentService/RecordProofOfDelivery",
        "/logistics.v1.ShipmentService/AppendShipmentImportData",
    ] {
        let mut stream = start_upload(&site.base, path, Some(cookie)).await;
        let head = response_head(&mut stream).await;
        assert!(head.contains("grpc-status: 7\r\n"), "{path}: {head}");
    }
}

#[tokio::test]
async fn connections_over_the_cap_wait_for_a_free_slot() {
    let site = site::all_in_one_with(|s| s.max_connections = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = connect(&site.base).await;
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        assert!(response_head(&mut stream).await.starts_with("http/1.1 200"));
        held.push(stream);
    }
    let mut fourth = connect(&site.base).await;
    fourth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut byte = [0u8; 1];
    assert!(
        tokio::time::timeout(Duration::from_millis(300), fourth.read(&mut byte))
            .await
            .is_err(),
        "a fourth connection was served while three were open"
    );
    held.pop();
    assert!(response_head(&mut fourth).await.starts_with("http/1.1 200"));
}
