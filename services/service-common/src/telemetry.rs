//! Logs, metrics and traces, set up the same way in every binary:
//! - logs: `RUST_LOG` filter; JSON lines when `LOG_FORMAT=json` (distributed mode);
//! - metrics: a Prometheus endpoint at `METRICS_ADDR` (`/metrics`), per process;
//! - traces: exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
//!
//! Every RPC runs in a span carrying its `request_id` (the gateway's `x-request-id`) and its
//! `trace_id`: the W3C trace context (`traceparent`) goes from the gateway with every call to
//! a service, in process or over the network, so one browser request is one trace, and every
//! log line written while serving it names that trace.

use std::task::{Context, Poll};
use std::time::Instant;

use logistics_proto::direct::Unary;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{TraceContextExt, TraceId, TracerProvider as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::settings::{LogFormat, TelemetrySettings};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// The header that carries a request's id from the gateway to the services.
pub const REQUEST_ID: &str = "x-request-id";

/// Whether a request id a caller sent may be kept: at most 64 characters of
/// `[A-Za-z0-9._-]`, so it cannot break a log line, a JSON document or an audit entry.
pub fn acceptable_request_id(id: &[u8]) -> bool {
    (1..=64).contains(&id.len())
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A fresh request id: 16 hex digits.
pub fn new_request_id() -> http::HeaderValue {
    use rand::Rng;
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes: [u8; 8] = rand::rng().random();
    let mut id = [0u8; 16];
    for (i, b) in bytes.iter().enumerate() {
        id[2 * i] = HEX[usize::from(b >> 4)];
        id[2 * i + 1] = HEX[usize::from(b & 0x0f)];
    }
    http::HeaderValue::from_bytes(&id).expect("hex is a header value")
}

/// The request's id if the caller sent an acceptable one, else a fresh one; set on the request
/// so whatever reads it later (logs, the audit log) sees the same safe value.
pub fn settle_request_id(headers: &mut http::HeaderMap) -> http::HeaderValue {
    let value = headers
        .get(REQUEST_ID)
        .filter(|v| acceptable_request_id(v.as_bytes()))
        .cloned()
        .unwrap_or_else(new_request_id);
    headers.insert(REQUEST_ID, value.clone());
    value
}

/// Set on a request by a caller in the same process that logs the call itself: the service
/// then logs it at debug level only (one line per request, not two).
#[derive(Clone, Copy, Debug)]
pub struct LoggedByCaller;

/// Keeps the trace exporter alive; flushes it on drop.
pub struct Telemetry {
    traces: Option<SdkTracerProvider>,
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        if let Some(provider) = self.traces.take() {
            let _ = provider.shutdown();
        }
    }
}

/// Sets up logs (on stderr) and traces for the binary `service`.
pub fn init(service: &'static str, settings: &TelemetrySettings) -> Telemetry {
    let filter = EnvFilter::try_new(&settings.log_filter).unwrap_or_else(|e| {
        eprintln!(
            "RUST_LOG {:?} is not a log filter ({e}); using info",
            settings.log_filter
        );
        EnvFilter::new("info")
    });
    let json = settings.log_format == LogFormat::Json;
    let logs = if json {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .json()
            .with_current_span(true)
            // The whole list: the request's span, which holds `trace_id`, is an outer one.
            .with_span_list(true)
            .boxed()
    } else {
        // Colours only on a terminal: piped logs (files, systemd, the e2e runner) stay plain.
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .boxed()
    };
    // Spans get trace ids whether or not they are exported, so the logs always carry them.
    let mut traces = SdkTracerProvider::builder().with_resource(
        opentelemetry_sdk::Resource::builder()
            .with_service_name(service)
            .build(),
    );
    let endpoint = settings.otlp_endpoint.as_deref().filter(|e| !e.is_empty());
    if let Some(endpoint) = endpoint {
        use opentelemetry_otlp::WithExportConfig;
        match opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
            .build()
        {
            Ok(exporter) => traces = traces.with_batch_exporter(exporter),
            Err(e) => eprintln!("traces are not exported: {e}"),
        }
    } else {
        // Nothing exports them: spans keep their ids for the logs but record nothing.
        traces = traces.with_sampler(opentelemetry_sdk::trace::Sampler::AlwaysOff);
    }
    let traces = traces.build();
    // A trace needs the spans' ids, names, fields and times; the per-poll busy/idle timing,
    // source locations and thread names cost each request allocations that no view reads.
    let otel = tracing_opentelemetry::layer()
        .with_tracer(traces.tracer(service))
        .with_tracked_inactivity(false)
        .with_location(false)
        .with_threads(false)
        .with_context_activation(false);
    // One filter for both layers: a span is checked once, not once per layer.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(logs)
        .with(otel)
        .try_init();
    if endpoint.is_some() {
        tracing::info!("exporting traces to OTEL_EXPORTER_OTLP_ENDPOINT");
    }
    Telemetry {
        traces: Some(traces),
    }
}

struct HeaderInjector<'a>(&'a mut http::HeaderMap);

impl Injector for HeaderInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) = (
            http::HeaderName::from_bytes(key.as_bytes()),
            http::HeaderValue::from_str(&value),
        ) {
            self.0.insert(name, value);
        }
    }
}

struct HeaderExtractor<'a>(&'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

/// The headers of the W3C trace context.
pub const TRACE_HEADERS: [&str; 2] = ["traceparent", "tracestate"];

/// Writes the current span's trace context into the headers of an outgoing call.
pub fn inject_trace_context(headers: &mut http::HeaderMap) {
    for name in TRACE_HEADERS {
        headers.remove(name);
    }
    let context = tracing::Span::current().context();
    TraceContextPropagator::new().inject_context(&context, &mut HeaderInjector(headers));
}

/// Makes `span` (not entered yet, with an empty `trace_id` field) a child of the caller's trace
/// context in `headers`, if they carry a valid one, and records the trace id in the span, so
/// every log line written inside it names the trace. The trace id, when there is one.
pub fn continue_trace(span: &tracing::Span, headers: &http::HeaderMap) -> Option<String> {
    let parent = TraceContextPropagator::new().extract(&HeaderExtractor(headers));
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    }
    let trace_id = span.context().span().span_context().trace_id();
    (trace_id != TraceId::INVALID).then(|| {
        let id = trace_id.to_string();
        span.record("trace_id", tracing::field::display(&id));
        id
    })
}

/// Serves this process's Prometheus metrics at `METRICS_ADDR` (default `default_addr`)
/// under `/metrics`; `METRICS_ADDR=off` turns the endpoint off. A busy port is logged, not fatal.
pub fn serve_metrics(settings: &TelemetrySettings, default_addr: &str) {
    let addr = settings
        .metrics_addr
        .clone()
        .unwrap_or_else(|| default_addr.to_owned());
    if addr != "off" {
        match addr.parse::<std::net::SocketAddr>() {
            Ok(socket) => {
                match metrics_exporter_prometheus::PrometheusBuilder::new()
                    .with_http_listener(socket)
                    .set_buckets(&[
                        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                    ])
                    .and_then(|b| b.install())
                {
                    Ok(()) => {
                        describe_metrics();
                        tracing::info!(%addr, "Prometheus metrics at http://{addr}/metrics")
                    }
                    Err(e) => tracing::warn!(%addr, error = %e, "metrics endpoint not started"),
                }
            }
            Err(_) => {
                tracing::warn!(%addr, "METRICS_ADDR is not an address; metrics endpoint not started")
            }
        }
    }
}

/// The HELP text of every metric the product's processes write (the all-in-one gateway
/// writes them all); `scripts/check-metrics.py` fails on a metric without one.
pub fn describe_metrics() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "http_requests_total",
        "HTTP requests the gateway answered, by route, HTTP status and gRPC status"
    );
    describe_histogram!(
        "http_request_duration_seconds",
        Unit::Seconds,
        "Time the gateway took to answer a request, by route"
    );
    describe_counter!(
        "rpc_requests_total",
        "gRPC calls a service answered, by service, method and status code"
    );
    describe_histogram!(
        "rpc_request_duration_seconds",
        Unit::Seconds,
        "Time a service took to answer a gRPC call, by service and method"
    );
    describe_counter!(
        "session_store_errors_total",
        "Calls to the session store (Redis) that failed"
    );
    describe_counter!(
        "emails_total",
        "E-mails the outbox worker tried to send, by outcome"
    );
    describe_gauge!(
        "mail_transport_ready",
        "1 when the e-mail transport is configured and ready, else 0"
    );
    describe_gauge!("outbox_backlog", "E-mails waiting in the outbox to be sent");
    describe_counter!("webhooks_total", "Webhook deliveries attempted, by outcome");
}

/// A tower layer for gRPC servers: a span per call with its method and request id, and the
/// metrics `rpc_requests_total{service,method,code}` and `rpc_request_duration_seconds`.
#[derive(Clone, Copy, Default)]
pub struct RpcTelemetryLayer;

impl<S> tower::Layer<S> for RpcTelemetryLayer {
    type Service = RpcTelemetry<S>;
    fn layer(&self, inner: S) -> Self::Service {
        RpcTelemetry { inner }
    }
}

#[derive(Clone)]
pub struct RpcTelemetry<S> {
    inner: S,
}

/// The gRPC status code of an answer, as the `code` label: from a trailers-only answer's
/// headers, `0` for an answer whose status follows in the trailers, `http_<status>` for a call
/// refused at the HTTP level (415 for a content type that is not gRPC, 405 for a GET).
fn rpc_code<R>(response: &http::Response<R>) -> String {
    match response.headers().get("grpc-status") {
        Some(code) => code.to_str().unwrap_or("unknown").to_owned(),
        None if response.status() == http::StatusCode::OK => "0".to_owned(),
        None => format!("http_{}", response.status().as_u16()),
    }
}

/// `/pkg.Service/Method` → (`pkg.Service`, `Method`).
fn split_path(path: &str) -> (String, String) {
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    (
        parts.next().unwrap_or_default().to_owned(),
        parts.next().unwrap_or_default().to_owned(),
    )
}

impl<S, B, R> tower::Service<http::Request<B>> for RpcTelemetry<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>> + Send,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let (service, method) = split_path(request.uri().path());
        let logged_by_caller = request.extensions().get::<LoggedByCaller>().is_some();
        let span = rpc_span(
            &service,
            &method,
            (!logged_by_caller).then(|| request.headers_mut()),
        );
        let started = Instant::now();
        let future = self.inner.call(request);
        Box::pin(
            async move {
                let result = future.await;
                // Errors travel in the headers (trailers-only answers); a success in the trailers.
                let code = match &result {
                    Ok(response) => rpc_code(response),
                    Err(_) => "transport".to_owned(),
                };
                rpc_done(service, method, code, started, logged_by_caller);
                result
            }
            .instrument(span),
        )
    }
}

/// The span of a call: for one from another process, with the request id it settles in
/// `remote` and the trace it continues; for one from this process, which runs inside its
/// caller's request span (the holder of both), a light one.
fn rpc_span(service: &str, method: &str, remote: Option<&mut http::HeaderMap>) -> tracing::Span {
    let Some(headers) = remote else {
        return tracing::info_span!("rpc", rpc.service = %service, rpc.method = %method);
    };
    let request_id = settle_request_id(headers);
    let request_id = request_id.to_str().expect("checked or made as ASCII");
    let span = tracing::info_span!("rpc", rpc.service = %service, rpc.method = %method, request_id = %request_id, trace_id = tracing::field::Empty);
    continue_trace(&span, headers);
    span
}

/// Counts and times a finished call and logs it (at debug level when its caller logs it).
fn rpc_done(
    service: String,
    method: String,
    code: String,
    started: Instant,
    logged_by_caller: bool,
) {
    let elapsed = started.elapsed().as_secs_f64();
    metrics::counter!("rpc_requests_total", "service" => service.clone(), "method" => method.clone(), "code" => code.clone()).increment(1);
    metrics::histogram!("rpc_request_duration_seconds", "service" => service, "method" => method)
        .record(elapsed);
    if logged_by_caller {
        tracing::debug!(code = %code, elapsed_ms = elapsed * 1e3, "rpc done");
    } else {
        tracing::info!(code = %code, elapsed_ms = elapsed * 1e3, "rpc done");
    }
}

/// A unary call to a server in this process, made without HTTP (see `logistics_proto::direct`)
/// and observed as [`RpcTelemetry`] observes one from this process; answered as the server's
/// HTTP path answers it.
pub async fn in_process(
    server: &dyn Unary,
    request: http::Request<bytes::Bytes>,
) -> http::Response<tonic::body::Body> {
    let (service, method) = split_path(request.uri().path());
    let span = rpc_span(&service, &method, None);
    let started = Instant::now();
    let call = server.unary(request);
    async move {
        let response = crate::direct::answer(call.await);
        rpc_done(service, method, rpc_code(&response), started, true);
        response
    }
    .instrument(span)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_short_id_of_safe_characters_is_kept() {
        for kept in ["lb-7f3a.01", "a", "A_b-C.9", &"x".repeat(64)] {
            let mut headers = http::HeaderMap::new();
            headers.insert(REQUEST_ID, kept.parse().unwrap());
            assert_eq!(settle_request_id(&mut headers), kept);
            assert_eq!(headers[REQUEST_ID], kept);
        }
        let hostile: [&[u8]; 8] = [
            b"line\nbreak",
            b"line\r\nx-admin: 1",
            br#"{"actor":"admin"}"#,
            "ünïcödé".as_bytes(),
            b"tab\there",
            b"",
            b"a b",
            &[b'y'; 10 * 1024],
        ];
        for id in hostile {
            assert!(!acceptable_request_id(id), "{id:?}");
            let mut headers = http::HeaderMap::new();
            if let Ok(value) = http::HeaderValue::from_bytes(id) {
                headers.insert(REQUEST_ID, value);
            }
            let settled = settle_request_id(&mut headers);
            assert_eq!(settled.len(), 16, "{id:?} replaced by a fresh id");
            assert!(acceptable_request_id(settled.as_bytes()));
            assert_eq!(
                headers[REQUEST_ID], settled,
                "what the logs and services read"
            );
        }
    }
}
