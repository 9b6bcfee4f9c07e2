//! Malformed calls are the caller's fault: they answer INVALID_ARGUMENT (RESOURCE_EXHAUSTED
//! for size) with a short message, never INTERNAL, are neither counted nor logged as server
//! errors, and the site keeps serving. Only the gRPC and gRPC-web content types reach the RPC
//! handlers, over HTTP/1.1 and HTTP/2 alike, through the gateway (both set-ups) and directly
//! on a service's port.

mod common;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use logistics_proto::v1 as pb;
use prost::Message;
use service_common::grpc_guard;
use shipments::store::ShipmentStore;

const LOOKUP: &str = "logistics.v1.ShipmentService/GetShipmentByTrackingNumber";

const OK: i32 = 0;
const INVALID_ARGUMENT: i32 = 3;
const RESOURCE_EXHAUSTED: i32 = 8;
const INTERNAL: i32 = 13;

use common::site::{all_in_one, distributed};
use common::wire::{Reply, demo_shipment, frame, read_reply};

async fn demo_tracking_number(store: &Arc<dyn ShipmentStore>) -> String {
    demo_shipment(store)
        .await
        .tracking_number
        .as_str()
        .to_owned()
}

// ---- Calls on the wire. ----

fn lookup_message(number: &str) -> Vec<u8> {
    pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    }
    .encode_to_vec()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Wire {
    /// gRPC-web, as connect-web sends it, over HTTP/1.1 (to the gateway).
    GrpcWebHttp1,
    /// gRPC-web over HTTP/2 with prior knowledge (to the gateway).
    GrpcWebHttp2,
    /// Native gRPC over HTTP/2 with prior knowledge (h2c), as internal tools call a service.
    GrpcHttp2,
}

fn client(http2: bool) -> reqwest::Client {
    let builder = reqwest::Client::builder().timeout(Duration::from_secs(20));
    if http2 {
        builder.http2_prior_knowledge().build().unwrap()
    } else {
        builder.http1_only().build().unwrap()
    }
}

/// POSTs `body` to `base/path` with `content_type` and `headers` and reads the answer:
/// gRPC status from the headers (trailers-only answers) or a gRPC-web trailers frame.
async fn post(
    http2: bool,
    url: &str,
    content_type: &str,
    body: reqwest::Body,
    headers: &[(&str, &str)],
) -> Reply {
    let mut request = client(http2).post(url).header("content-type", content_type);
    if content_type.starts_with("application/grpc-web") {
        request = request.header("x-grpc-web", "1");
    } else if content_type.starts_with("application/grpc") {
        request = request.header("te", "trailers");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    read_reply(request.body(body).send().await.unwrap()).await.0
}

/// A call of the public tracking lookup on `base` (the gateway or a service) over `wire`.
async fn call(wire: Wire, base: &str, body: impl Into<reqwest::Body>) -> Reply {
    call_with(wire, base, body, &[]).await
}

async fn call_with(
    wire: Wire,
    base: &str,
    body: impl Into<reqwest::Body>,
    headers: &[(&str, &str)],
) -> Reply {
    let (http2, content_type) = match wire {
        Wire::GrpcWebHttp1 => (false, "application/grpc-web+proto"),
        Wire::GrpcWebHttp2 => (true, "application/grpc-web+proto"),
        Wire::GrpcHttp2 => (true, "application/grpc"),
    };
    post(
        http2,
        &format!("{base}/{LOOKUP}"),
        content_type,
        body.into(),
        headers,
    )
    .await
}

/// A body sent in chunks with no Content-Length: `head`, then zeros for up to `max` bytes
/// (far more than any limit), so only a server that stops reading answers in time.
fn endless_body(head: Vec<u8>, max: usize) -> reqwest::Body {
    let chunk = Bytes::from(vec![0u8; 16 * 1024]);
    let chunks = std::iter::once(Bytes::from(head))
        .chain(std::iter::repeat_n(chunk, max / (16 * 1024)))
        .map(Ok::<_, std::io::Error>);
    reqwest::Body::wrap_stream(futures::stream::iter(chunks))
}

fn header(flag: u8, len: u32) -> Vec<u8> {
    let mut out = vec![flag];
    out.extend_from_slice(&len.to_be_bytes());
    out
}

// ---- What the server must answer: the client's fault, with a short message. ----

/// Metrics of this test process (every gateway and service here records into it).
fn metrics() -> &'static metrics_exporter_prometheus::PrometheusHandle {
    static HANDLE: OnceLock<metrics_exporter_prometheus::PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        metrics_exporter_prometheus::PrometheusBuilder::new()
            .install_recorder()
            .unwrap()
    })
}

/// Warnings and errors logged in this test process, from the first call on.
fn loud_logs() -> &'static Mutex<Vec<String>> {
    static LOGS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        use tracing_subscriber::Layer;
        use tracing_subscriber::layer::SubscriberExt;
        let _ = tracing::subscriber::set_global_default(
            tracing_subscriber::registry()
                .with(LoudLogs.with_filter(tracing_subscriber::filter::LevelFilter::WARN)),
        );
        Mutex::new(Vec::new())
    })
}

/// Keeps every event it sees (warnings and errors, by its filter).
struct LoudLogs;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for LoudLogs {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                self.0.push_str(&format!(" {}={v:?}", f.name()));
            }
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        let meta = event.metadata();
        let line = format!("{} {}:{}", meta.level(), meta.target(), fields.0);
        loud_logs().lock().unwrap().push(line);
    }
}

fn assert_client_fault(case: &str, reply: &Reply, code: i32, message: &str) {
    assert_ne!(reply.grpc_status, Some(INTERNAL), "{case}: {reply:?}");
    assert_eq!(
        reply.http, 200,
        "{case}: a gRPC error, not an HTTP one: {reply:?}"
    );
    assert_eq!(reply.grpc_status, Some(code), "{case}: {reply:?}");
    assert!(
        reply.message.starts_with(message),
        "{case}: message {:?} should start with {message:?}",
        reply.message
    );
    assert!(
        reply.message.len() <= 160,
        "{case}: a short message: {:?}",
        reply.message
    );
    assert!(reply.body.is_none(), "{case}: no reply message: {reply:?}");
}

/// Every malformed call over `wire` to `base` gets its client error, and the same server then
/// still answers a good lookup of `number`. `limit` is the body limit of what is called.
async fn malformed_calls_are_client_errors(wire: Wire, base: &str, number: &str, limit: usize) {
    let good = lookup_message(number);
    // Field 1 (a string) sent as a varint.
    let wrong_wire_type = frame(&[0x08, 0x01]);
    // Field 1 with bytes that are not UTF-8.
    let bad_utf8 = frame(&[0x0a, 0x02, 0xff, 0xfe]);
    // A header announcing 100 bytes, then 10.
    let mut truncated = header(0, 100);
    truncated.extend_from_slice(&[0x0a; 10]);
    // The compressed flag, with no grpc-encoding header.
    let mut compressed = header(1, good.len() as u32);
    compressed.extend_from_slice(&good);
    // Two messages on a unary call.
    let mut two = frame(&good);
    two.extend_from_slice(&frame(&lookup_message("PSE000000000")));
    let cases: Vec<(&str, Vec<u8>, i32, &str)> = vec![
        (
            "wrong wire type",
            wrong_wire_type,
            INVALID_ARGUMENT,
            logistics_proto::codec::UNDECODABLE,
        ),
        (
            "invalid UTF-8",
            bad_utf8,
            INVALID_ARGUMENT,
            logistics_proto::codec::UNDECODABLE,
        ),
        (
            "no message",
            Vec::new(),
            INVALID_ARGUMENT,
            grpc_guard::MISSING_MESSAGE,
        ),
        (
            "truncated frame",
            truncated,
            INVALID_ARGUMENT,
            grpc_guard::TRUNCATED,
        ),
        (
            "3 bytes of garbage",
            vec![0xde, 0xad, 0xbe],
            INVALID_ARGUMENT,
            grpc_guard::TRUNCATED,
        ),
        (
            "compressed flag without grpc-encoding",
            compressed,
            INVALID_ARGUMENT,
            grpc_guard::COMPRESSED_WITHOUT_ENCODING,
        ),
        (
            "garbage flag",
            [&header(0x42, good.len() as u32)[..], &good].concat(),
            INVALID_ARGUMENT,
            grpc_guard::BAD_FLAG,
        ),
        (
            "two messages on a unary call",
            two,
            INVALID_ARGUMENT,
            grpc_guard::NOT_ONE_MESSAGE,
        ),
    ];
    for (case, body, code, message) in cases {
        let reply = call(wire, base, body).await;
        assert_client_fault(&format!("{wire:?} {case}"), &reply, code, message);
    }
    if wire == Wire::GrpcWebHttp1 {
        // gRPC-web text whose base64 does not decode: a body that cannot be read.
        let reply = post(
            false,
            &format!("{base}/{LOOKUP}"),
            "application/grpc-web-text",
            "AAAAAA!!not base64!!".into(),
            &[],
        )
        .await;
        assert_client_fault(
            "gRPC-web text with bad base64",
            &reply,
            INVALID_ARGUMENT,
            grpc_guard::UNREADABLE,
        );
    }
    // A chunked body (no Content-Length) over the limit: a frame header within the service's
    // message limit, then more bytes than the body limit, sent for as long as it is read.
    let reply = tokio::time::timeout(
        Duration::from_secs(15),
        call(
            wire,
            base,
            endless_body(header(0, 1024 * 1024 - 1), 64 * limit),
        ),
    )
    .await
    .expect("an over-long body is refused without reading it all");
    assert_client_fault(
        &format!("{wire:?} chunked body over the limit"),
        &reply,
        RESOURCE_EXHAUSTED,
        grpc_guard::TOO_LARGE,
    );
    // Still serving, and a good call is answered.
    let reply = call(wire, base, frame(&good)).await;
    assert_ne!(reply.grpc_status, Some(INTERNAL), "{reply:?}");
    let found = pb::Shipment::decode(reply.body.expect("a shipment")).unwrap();
    assert_eq!(found.tracking_number, number);
}

/// No INTERNAL and no server error was counted, the client errors were counted as such by the
/// layers the calls went through (the gateway, the service), and nothing was logged as a
/// warning or an error.
fn nothing_counted_or_logged_as_a_server_error(through_gateway: bool, service_metrics: bool) {
    let rendered = metrics().render();
    for line in rendered.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            !line.contains("code=\"13\"") && !line.contains("grpc_status=\"13\""),
            "counted as INTERNAL: {line}"
        );
        assert!(
            !(line.starts_with("http_requests_total") && line.contains("status=\"5")),
            "counted as a server error: {line}"
        );
    }
    if through_gateway {
        assert!(
            rendered
                .lines()
                .any(|l| l.starts_with("http_requests_total") && l.contains("grpc_status=\"3\"")),
            "the gateway labels calls with their gRPC status:\n{rendered}"
        );
    }
    if service_metrics {
        assert!(
            rendered
                .lines()
                .any(|l| l.starts_with("rpc_requests_total") && l.contains("code=\"3\"")),
            "the service counts INVALID_ARGUMENT:\n{rendered}"
        );
    }
    let loud = loud_logs().lock().unwrap().clone();
    assert!(loud.is_empty(), "logged as warnings or errors: {loud:#?}");
}

#[tokio::test]
async fn all_in_one_malformed_grpc_web_calls_are_client_errors() {
    metrics();
    loud_logs();
    let site = all_in_one().await;
    let number = demo_tracking_number(&site.store).await;
    malformed_calls_are_client_errors(
        Wire::GrpcWebHttp1,
        &site.base,
        &number,
        gateway::MAX_RPC_BODY_BYTES,
    )
    .await;
    nothing_counted_or_logged_as_a_server_error(true, false);
}

#[tokio::test]
async fn distributed_malformed_grpc_web_calls_are_client_errors() {
    metrics();
    loud_logs();
    let site = distributed().await;
    let number = demo_tracking_number(&site.store).await;
    malformed_calls_are_client_errors(
        Wire::GrpcWebHttp1,
        &site.base,
        &number,
        gateway::MAX_RPC_BODY_BYTES,
    )
    .await;
    nothing_counted_or_logged_as_a_server_error(true, true);
}

#[tokio::test]
async fn malformed_grpc_calls_to_a_service_port_are_client_errors() {
    metrics();
    loud_logs();
    let site = distributed().await;
    let number = demo_tracking_number(&site.store).await;
    malformed_calls_are_client_errors(
        Wire::GrpcHttp2,
        site.shipments_url.as_deref().unwrap(),
        &number,
        grpc_guard::SERVICE_MAX_BODY_BYTES,
    )
    .await;
    nothing_counted_or_logged_as_a_server_error(false, true);
}

// ---- Content types. ----

const FORM_TYPES: [&str; 3] = [
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/plain",
];

/// A form post (what any page may send cross-site without a preflight) never reaches the
/// handler: the lookup of an existing number does not return the shipment.
async fn form_posts_are_refused(http2: bool, base: &str, number: &str) {
    for content_type in FORM_TYPES {
        let reply = post(
            http2,
            &format!("{base}/{LOOKUP}"),
            content_type,
            frame(&lookup_message(number)).into(),
            &[],
        )
        .await;
        let case = format!("{content_type} over HTTP/{}", if http2 { 2 } else { 1 });
        assert!(reply.body.is_none(), "{case}: the handler ran: {reply:?}");
        assert_ne!(reply.grpc_status, Some(OK), "{case}: {reply:?}");
        assert_ne!(reply.grpc_status, Some(INTERNAL), "{case}: {reply:?}");
        if http2 {
            assert_eq!(reply.http, 415, "{case}: {reply:?}");
        } else {
            assert!((400..500).contains(&reply.http), "{case}: {reply:?}");
        }
    }
}

/// The gRPC and gRPC-web content types are still served, on both protocols.
async fn rpc_content_types_are_served(base: &str, number: &str, wires: &[Wire]) {
    for wire in wires {
        let reply = call(*wire, base, frame(&lookup_message(number))).await;
        let found = pb::Shipment::decode(reply.body.expect("a shipment")).unwrap();
        assert_eq!(found.tracking_number, number, "{wire:?}");
    }
    // gRPC-web in text (base64) form too.
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(frame(&lookup_message(number)));
    let response = client(false)
        .post(format!("{base}/{LOOKUP}"))
        .header("content-type", "application/grpc-web-text")
        .header("x-grpc-web", "1")
        .body(text)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    // Without `Accept: application/grpc-web-text` the answer is binary gRPC-web.
    let body = response.bytes().await.unwrap();
    assert!(
        body.windows(number.len()).any(|w| w == number.as_bytes()),
        "grpc-web-text is served"
    );
}

#[tokio::test]
async fn all_in_one_serves_only_rpc_content_types_on_every_protocol() {
    let site = all_in_one().await;
    let number = demo_tracking_number(&site.store).await;
    form_posts_are_refused(false, &site.base, &number).await;
    form_posts_are_refused(true, &site.base, &number).await;
    rpc_content_types_are_served(
        &site.base,
        &number,
        &[Wire::GrpcWebHttp1, Wire::GrpcWebHttp2, Wire::GrpcHttp2],
    )
    .await;
}

#[tokio::test]
async fn distributed_serves_only_rpc_content_types_on_every_protocol() {
    let site = distributed().await;
    let number = demo_tracking_number(&site.store).await;
    form_posts_are_refused(false, &site.base, &number).await;
    form_posts_are_refused(true, &site.base, &number).await;
    rpc_content_types_are_served(
        &site.base,
        &number,
        &[Wire::GrpcWebHttp1, Wire::GrpcWebHttp2, Wire::GrpcHttp2],
    )
    .await;
}

#[tokio::test]
async fn a_service_port_serves_only_grpc_content_types() {
    let site = distributed().await;
    let number = demo_tracking_number(&site.store).await;
    let service = site.shipments_url.as_deref().unwrap();
    form_posts_are_refused(true, service, &number).await;
    // gRPC-web is the gateway's business; a service speaks gRPC.
    let reply = call(
        Wire::GrpcWebHttp2,
        service,
        frame(&lookup_message(number.as_str())),
    )
    .await;
    assert!(reply.body.is_none(), "{reply:?}");
    assert_eq!(reply.http, 415, "{reply:?}");
    for content_type in ["application/grpc", "application/grpc+proto"] {
        let reply = post(
            true,
            &format!("{service}/{LOOKUP}"),
            content_type,
            frame(&lookup_message(&number)).into(),
            &[],
        )
        .await;
        let found = pb::Shipment::decode(reply.body.expect("a shipment")).unwrap();
        assert_eq!(found.tracking_number, number, "{content_type}");
    }
}
