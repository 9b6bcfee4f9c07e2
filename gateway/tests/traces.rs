//! One browser request is one trace: the gateway's span continues the caller's W3C trace
//! context and every service call it makes is its child, in both run modes, as a local OTLP
//! receiver sees the exported spans.

mod common;

use std::sync::{Arc, Mutex};

use common::site::{self, Site};
use common::wire::{demo_shipment, frame, read_reply};
use logistics_proto::v1 as pb;
use prost::Message;

// The parts of OTLP's ExportTraceServiceRequest this test reads.
#[derive(Clone, PartialEq, Message)]
struct ExportTraceServiceRequest {
    #[prost(message, repeated, tag = "1")]
    resource_spans: Vec<ResourceSpans>,
}

#[derive(Clone, PartialEq, Message)]
struct ResourceSpans {
    #[prost(message, repeated, tag = "2")]
    scope_spans: Vec<ScopeSpans>,
}

#[derive(Clone, PartialEq, Message)]
struct ScopeSpans {
    #[prost(message, repeated, tag = "2")]
    spans: Vec<Span>,
}

#[derive(Clone, PartialEq, Message)]
struct Span {
    #[prost(bytes = "vec", tag = "1")]
    trace_id: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    span_id: Vec<u8>,
    #[prost(bytes = "vec", tag = "4")]
    parent_span_id: Vec<u8>,
    #[prost(string, tag = "5")]
    name: String,
    #[prost(message, repeated, tag = "9")]
    attributes: Vec<KeyValue>,
}

#[derive(Clone, PartialEq, Message)]
struct KeyValue {
    #[prost(string, tag = "1")]
    key: String,
    #[prost(message, optional, tag = "2")]
    value: Option<AnyValue>,
}

#[derive(Clone, PartialEq, Message)]
struct AnyValue {
    #[prost(string, tag = "1")]
    string_value: String,
}

impl Span {
    fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.key == key)
            .and_then(|a| a.value.as_ref())
            .map(|v| v.string_value.as_str())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An OTLP/HTTP receiver on a loopback port: every span it was sent.
async fn otlp_receiver() -> (String, Arc<Mutex<Vec<Span>>>) {
    let spans = Arc::new(Mutex::new(Vec::new()));
    let app = axum::Router::new().route(
        "/v1/traces",
        axum::routing::post({
            let spans = spans.clone();
            move |body: axum::body::Bytes| async move {
                let request = ExportTraceServiceRequest::decode(body).unwrap();
                let mut spans = spans.lock().unwrap();
                for resource in request.resource_spans {
                    for scope in resource.scope_spans {
                        spans.extend(scope.spans);
                    }
                }
                ""
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, spans)
}

/// A tracking lookup as a browser behind a tracing proxy makes it: with `traceparent`.
async fn lookup_with_trace(site: &Site, trace_id: &str, parent_id: &str) {
    let number = demo_shipment(&site.store).await.tracking_number.to_string();
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number,
        ..Default::default()
    };
    let response = reqwest::Client::new()
        .post(format!(
            "{}/logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
            site.base
        ))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("traceparent", format!("00-{trace_id}-{parent_id}-01"))
        .body(frame(&request.encode_to_vec()))
        .send()
        .await
        .unwrap();
    let (reply, _) = read_reply(response).await;
    assert_eq!(reply.grpc_status, Some(0), "{}", reply.message);
}

/// The spans of `trace_id`: the gateway's request span is the child of the caller's span, the
/// service's RPC span the child of the request span, and the handler's span the RPC's child.
fn assert_one_trace(spans: &[Span], trace_id: &str, caller_span: &str, mode: &str) {
    let trace: Vec<&Span> = spans
        .iter()
        .filter(|s| hex(&s.trace_id) == trace_id)
        .collect();
    let names: Vec<&str> = trace.iter().map(|s| s.name.as_str()).collect();
    let request = trace
        .iter()
        .find(|s| s.name == "request")
        .unwrap_or_else(|| panic!("{mode}: no request span in the trace: {names:?}"));
    assert_eq!(
        hex(&request.parent_span_id),
        caller_span,
        "{mode}: {names:?}"
    );
    let rpc = trace
        .iter()
        .find(|s| {
            s.name == "rpc" && s.attribute("rpc.method") == Some("GetShipmentByTrackingNumber")
        })
        .unwrap_or_else(|| panic!("{mode}: no rpc span in the trace: {names:?}"));
    assert_eq!(rpc.parent_span_id, request.span_id, "{mode}: {names:?}");
    assert!(
        trace.iter().any(|s| s.parent_span_id == rpc.span_id),
        "{mode}: the handler's span is a child of the rpc span: {names:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_browser_request_is_one_trace_through_the_services_in_both_modes() {
    let (endpoint, spans) = otlp_receiver().await;
    let telemetry = service_common::telemetry::init(
        "gateway",
        &service_common::settings::TelemetrySettings {
            otlp_endpoint: Some(endpoint),
            ..service_common::settings::defaults()
        },
    );
    let all_in_one = site::all_in_one().await;
    let distributed = site::distributed().await;

    let (one_trace, one_parent) = ("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    let (two_trace, two_parent) = ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    lookup_with_trace(&all_in_one, one_trace, one_parent).await;
    lookup_with_trace(&distributed, two_trace, two_parent).await;
    // Shutting the exporter down sends every finished span.
    tokio::task::spawn_blocking(move || drop(telemetry))
        .await
        .unwrap();

    let spans = spans.lock().unwrap().clone();
    assert_one_trace(&spans, one_trace, one_parent, "all-in-one");
    assert_one_trace(&spans, two_trace, two_parent, "distributed");
}
