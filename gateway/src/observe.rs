//! Each request's id and metrics: `x-request-id` is taken from a trusted caller or made here,
//! set on the request (so the services log it too) and on the response, and every request is
//! counted by route and status with its latency.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use http::HeaderValue;
use rand::Rng;
use service_common::telemetry::REQUEST_ID;
use tracing::Instrument;

fn new_request_id() -> String {
    let bytes: [u8; 8] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An id a client sent is kept only if it looks like one (no log injection, bounded size).
fn usable(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub async fn request_id_and_metrics(mut request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|id| usable(id))
        .map(str::to_owned)
        .unwrap_or_else(new_request_id);
    let value = HeaderValue::from_str(&id).expect("request ids are ASCII");
    request.headers_mut().insert(REQUEST_ID, value.clone());
    // Routes, not raw paths: the label set stays bounded whatever a client asks for.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("static files", |p| p.as_str())
        .to_owned();
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.uri().path());
    let started = Instant::now();
    let mut response = next.run(request).instrument(span).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16().to_string();
    let grpc_status = response
        .headers()
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info!(request_id = %id, %route, %status, grpc_status, elapsed_ms = elapsed.as_secs_f64() * 1e3, "request done");
    // The gRPC status of trailers-only answers (RPC errors), "-" otherwise (a success, whose
    // status follows in the body, or no RPC): alerts on INTERNAL look at grpc_status="13".
    let grpc_status = grpc_status_label(grpc_status);
    metrics::counter!("http_requests_total", "route" => route.clone(), "status" => status, "grpc_status" => grpc_status)
        .increment(1);
    metrics::histogram!("http_request_duration_seconds", "route" => route)
        .record(elapsed.as_secs_f64());
    response.headers_mut().insert(REQUEST_ID, value);
    response
}

/// A status code (0 to 16) as it is, anything else as "-": the label set stays bounded.
fn grpc_status_label(value: &str) -> &'static str {
    const CODES: [&str; 17] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
    ];
    CODES.iter().find(|c| **c == value).copied().unwrap_or("-")
}
