//! Requests as such: malformed and oversized bodies, a stopped service, request ids and the
//! client's address behind trusted proxies.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;
use tokio::net::TcpListener;

use crate::calls::*;
use common::site::all_in_one_with;
use common::wire::{demo_shipment, frame};

#[tokio::test]
async fn malformed_and_oversized_bodies_get_errors_and_the_gateway_keeps_serving() {
    let site = all_in_one(1000).await;
    let shipment = demo_shipment(&site.store).await;
    // Not protobuf at all.
    let (reply, _) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(b"\xff\xff\xff\xff garbage"),
    )
    .await;
    assert!(matches!(reply.grpc_status, Some(s) if s != OK), "{reply:?}");
    // A frame that announces more bytes than it carries.
    let mut truncated = vec![0u8, 0, 0, 1, 0];
    truncated.extend_from_slice(b"short");
    let (reply, _) = grpc_web(&site.base, "GetShipmentByTrackingNumber", truncated).await;
    assert!(
        reply.grpc_status != Some(OK) && reply.body.is_none(),
        "{reply:?}"
    );
    // A 1 MB tracking number is over the body limit.
    let huge = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: "9".repeat(1024 * 1024),
        ..Default::default()
    };
    let (reply, _) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(&huge.encode_to_vec()),
    )
    .await;
    assert!(
        reply.http == 413 || matches!(reply.grpc_status, Some(s) if s != OK),
        "{reply:?}"
    );
    // A plain GET on an RPC path is not a call.
    let get = reqwest::get(format!(
        "{}/logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
        site.base
    ))
    .await
    .unwrap();
    assert!(get.status().is_client_error());
    // Still serving.
    assert_eq!(
        lookup(&site.base, shipment.tracking_number.as_str())
            .await
            .grpc_status,
        Some(OK)
    );
}

#[tokio::test]
async fn a_stopped_shipment_service_gives_unavailable_within_a_second() {
    // Nothing listens on this port once the listener is dropped.
    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let site = all_in_one_with(|s| {
        let url = Some(format!("http://{closed}"));
        s.shipments_url = url.clone();
        s.auth_url = url.clone();
        s.notifications_url = url.clone();
        s.preferences_url = url;
    })
    .await;
    let base = site.base.clone();
    let started = Instant::now();
    let reply = lookup(&base, "PSE000000001").await;
    assert_eq!(reply.grpc_status, Some(UNAVAILABLE), "{reply:?}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(
        reqwest::get(format!("{base}/track"))
            .await
            .unwrap()
            .status(),
        200,
        "pages keep serving"
    );
}

#[tokio::test]
async fn every_answer_carries_a_request_id_kept_from_a_sane_caller() {
    let site = all_in_one(60).await;
    let request_id = |response: &reqwest::Response| {
        response
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let client = reqwest::Client::new();
    let made = client
        .get(format!("{}/track", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(request_id(&made).len(), 16, "the gateway makes one");
    let kept = client
        .get(format!("{}/", site.base))
        .header("x-request-id", "lb-7f3a-01")
        .send()
        .await
        .unwrap();
    assert_eq!(request_id(&kept), "lb-7f3a-01");
    let odd = client
        .get(format!("{}/", site.base))
        .header("x-request-id", "a b\"c")
        .send()
        .await
        .unwrap();
    assert_ne!(
        request_id(&odd),
        "a b\"c",
        "an unusable id is replaced, never logged"
    );
    let (_, headers) = grpc_web(
        &site.base,
        "GetShipmentByTrackingNumber",
        frame(
            &pb::GetShipmentByTrackingNumberRequest {
                tracking_number: "PSE000000000".into(),
                ..Default::default()
            }
            .encode_to_vec(),
        ),
    )
    .await;
    assert_eq!(
        headers.get("x-request-id").unwrap().len(),
        16,
        "gRPC-web answers too"
    );
}

#[test]
fn the_client_ip_is_the_rightmost_entry_of_the_trusted_hops() {
    use gateway::rpc::TrustedProxies;
    let mut extensions = http::Extensions::new();
    extensions.insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
        [10, 0, 0, 9],
        443,
    ))));
    let headers = |xff: &[&str]| {
        let mut h = http::HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    };
    let ip = |hops: usize, xff: &[&str]| {
        TrustedProxies {
            hops,
            secure_cookie: false,
        }
        .client_ip(&headers(xff), &extensions)
        .unwrap()
        .to_string()
    };
    // A client that sends its own X-Forwarded-For cannot choose its address.
    assert_eq!(ip(1, &["6.6.6.6, 203.0.113.7"]), "203.0.113.7");
    assert_eq!(
        ip(1, &["6.6.6.6", "203.0.113.7"]),
        "203.0.113.7",
        "repeated headers are one list"
    );
    assert_eq!(ip(2, &["6.6.6.6, 203.0.113.7, 10.0.0.2"]), "203.0.113.7");
    assert_eq!(
        ip(2, &["203.0.113.7"]),
        "203.0.113.7",
        "fewer entries than hops"
    );
    assert_eq!(
        ip(0, &["6.6.6.6"]),
        "10.0.0.9",
        "no trusted proxy: the socket's peer"
    );
    assert_eq!(ip(1, &[]), "10.0.0.9");
    assert_eq!(ip(1, &["not an address"]), "10.0.0.9");
}
