//! Each request's id and metrics: `x-request-id` is taken from a trusted caller or made here,
//! set on the request (so the services log it too) and on the response, and every request is
//! counted by route and status with its latency.

use std::borrow::Cow;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use service_common::telemetry::{self, REQUEST_ID};
use tracing::Instrument;

/// The metrics label of the web app's files (every path no route matched).
const STATIC_FILES: &str = "static files";

/// Static files are logged at `debug` (they are most of the requests and say little); every
/// other request at `info`. The request id is on every response either way.
pub async fn request_id_and_metrics(mut request: Request, next: Next) -> Response {
    let value = telemetry::settle_request_id(request.headers_mut());
    let id = value.to_str().expect("checked or made as ASCII");
    // Routes, not raw paths: the label set stays bounded whatever a client asks for.
    let route: Cow<'static, str> = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(Cow::Borrowed(STATIC_FILES), |p| {
            Cow::Owned(p.as_str().to_owned())
        });
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.uri().path(), trace_id = tracing::field::Empty);
    // A caller's trace context (a proxy's, a client's) is continued; the services get ours.
    let trace_id = telemetry::continue_trace(&span, request.headers()).unwrap_or_default();
    for name in telemetry::TRACE_HEADERS {
        request.headers_mut().remove(name);
    }
    let started = Instant::now();
    let mut response = next.run(request).instrument(span).await;
    let elapsed = started.elapsed();
    let status: Cow<'static, str> = match response.status().as_u16() {
        200 => Cow::Borrowed("200"),
        304 => Cow::Borrowed("304"),
        404 => Cow::Borrowed("404"),
        code => Cow::Owned(code.to_string()),
    };
    let grpc_status = response
        .headers()
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    if route == STATIC_FILES {
        tracing::debug!(request_id = %id, %trace_id, %route, %status, elapsed_ms = elapsed.as_secs_f64() * 1e3, "request done");
    } else {
        tracing::info!(request_id = %id, %trace_id, %route, %status, grpc_status, elapsed_ms = elapsed.as_secs_f64() * 1e3, "request done");
    }
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
