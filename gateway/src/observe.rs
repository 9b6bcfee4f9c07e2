//! Each request's id and metrics: `x-request-id` is taken from a trusted caller or made here,
//! set on the request (so the services log it too) and on the response, and every request is
//! counted by route and status with its latency, and logged as one short line (public tracking
//! lookups and quotes as `LOG_PUBLIC_REQUESTS` says).

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use service_common::telemetry::{self, REQUEST_ID};
use tracing::Instrument;

/// Which public tracking lookups and quotes are logged (every other request is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublicRequestLog {
    All,
    /// Only server-side failures (HTTP 5xx, gRPC UNKNOWN, DEADLINE_EXCEEDED, INTERNAL,
    /// UNAVAILABLE, DATA_LOSS).
    Errors,
    /// One lookup in N, and every failure.
    Sample(u64),
}

impl std::str::FromStr for PublicRequestLog {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "all" => Ok(Self::All),
            "errors" => Ok(Self::Errors),
            _ => text
                .strip_prefix("sample:")
                .and_then(|n| n.parse::<u64>().ok())
                .filter(|n| *n > 0)
                .map(Self::Sample)
                .ok_or_else(|| {
                    format!(
                        "{text:?} is not `all`, `errors` or `sample:N` (N a whole number above 0)"
                    )
                }),
        }
    }
}

/// Public lookups seen, for `sample:N`.
static PUBLIC_LOOKUPS: AtomicU64 = AtomicU64::new(0);

impl PublicRequestLog {
    fn logs(self, failed: bool) -> bool {
        match self {
            Self::All => true,
            Self::Errors => failed,
            Self::Sample(n) => {
                failed
                    || PUBLIC_LOOKUPS
                        .fetch_add(1, Ordering::Relaxed)
                        .is_multiple_of(n)
            }
        }
    }
}

/// A failure on our side, rather than the caller's (a status the operator must look at).
fn server_failure(http_status: u16, grpc_status: &str) -> bool {
    http_status >= 500 || matches!(grpc_status, "2" | "4" | "13" | "14" | "15")
}

/// The metrics label of the web app's files (every path no route matched).
const STATIC_FILES: &str = "static files";

/// The health probe's route (Kubernetes asks it every few seconds).
pub const HEALTH: &str = "/healthz";

/// One line per request: static files and health probes at `debug` (they are most of the
/// requests and say little), public lookups as `public_requests` says, every other request
/// at `info`. The request id is on every response either way.
pub async fn request_id_and_metrics(
    State(public_requests): State<PublicRequestLog>,
    mut request: Request,
    next: Next,
) -> Response {
    let value = telemetry::settle_request_id(request.headers_mut());
    let id = value.to_str().expect("checked or made as ASCII");
    // Routes, not raw paths: the label set stays bounded whatever a client asks for.
    let route: Cow<'static, str> = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(Cow::Borrowed(STATIC_FILES), |p| {
            Cow::Owned(p.as_str().to_owned())
        });
    // A file of the web app and a health probe call no service, so their lines are at debug:
    // unless debug lines are written, their span and trace would show nowhere and cost a
    // quarter of a file's time.
    let quiet = (route == STATIC_FILES || route == HEALTH)
        && matches!(*request.method(), http::Method::GET | http::Method::HEAD);
    let traced = !quiet || tracing::enabled!(target: "request", tracing::Level::DEBUG);
    let (span, trace_id) = if traced {
        let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.uri().path(), trace_id = tracing::field::Empty);
        // A caller's trace context (a proxy's, a client's) is continued; the services get ours.
        let trace_id = telemetry::continue_trace(&span, request.headers()).unwrap_or_default();
        (span, trace_id)
    } else {
        (tracing::Span::none(), String::new())
    };
    for name in telemetry::TRACE_HEADERS {
        request.headers_mut().remove(name);
    }
    let method = request.method().clone();
    let public_lookup = crate::rpc::is_quiet_public_call(request.uri().path());
    let path = request.uri().path().to_owned();
    // This line says all the services in this process would: theirs go to debug.
    request.extensions_mut().insert(telemetry::LoggedByCaller);
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
    let failed = server_failure(response.status().as_u16(), grpc_status);
    let ms = (elapsed.as_secs_f64() * 1e5).round() / 100.0;
    let (grpc, grpc_code) = match grpc_status {
        "-" => ("", ""),
        code => (" grpc=", code),
    };
    if quiet && !failed {
        tracing::debug!(target: "request", %ms, trace = %trace_id, id = %id, "{method} {path} {status}{grpc}{grpc_code}");
    } else if !public_lookup || public_requests.logs(failed) {
        tracing::info!(target: "request", %ms, trace = %trace_id, id = %id, "{method} {path} {status}{grpc}{grpc_code}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_request_log_settings_parse_or_say_what_is_allowed() {
        assert_eq!("all".parse(), Ok(PublicRequestLog::All));
        assert_eq!("errors".parse(), Ok(PublicRequestLog::Errors));
        assert_eq!("sample:50".parse(), Ok(PublicRequestLog::Sample(50)));
        for bad in ["", "none", "sample:", "sample:0", "sample:-1", "ALL"] {
            let error = bad.parse::<PublicRequestLog>().unwrap_err();
            assert!(error.contains("sample:N"), "{bad}: {error}");
        }
    }

    #[test]
    fn failures_on_our_side_are_always_logged_client_errors_only_when_asked() {
        for (http, grpc) in [(500, "-"), (502, "-"), (200, "13"), (200, "14"), (200, "2")] {
            assert!(server_failure(http, grpc), "{http} {grpc}");
            assert!(PublicRequestLog::Errors.logs(true));
        }
        for (http, grpc) in [(200, "-"), (200, "0"), (200, "5"), (200, "8"), (404, "-")] {
            assert!(!server_failure(http, grpc), "{http} {grpc}");
        }
        assert!(!PublicRequestLog::Errors.logs(false));
        assert!(PublicRequestLog::All.logs(false));
        assert!(PublicRequestLog::Sample(1_000_000).logs(true));
    }
}
