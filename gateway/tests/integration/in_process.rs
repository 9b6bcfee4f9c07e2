//! A unary call the gateway makes to a service in its own process, without HTTP, is answered
//! exactly as the service's HTTP path answers it: the same status, message, details, reply
//! bytes and headers, for a success, each kind of refusal and a message over the limit.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::BodyExt;
use logistics_proto::direct::Unary;
use logistics_proto::v1 as pb;
use prost::Message;
use service_auth::TokenKey;
use shipments::store::{ShipmentStore, SqliteShipmentStore};
use tower::ServiceExt;

use crate::common::wire::{demo_shipment, frame};

/// What a caller can tell of an answer.
#[derive(Debug, PartialEq)]
struct Answer {
    http: u16,
    headers: Vec<(String, String)>,
    grpc_status: Option<String>,
    grpc_message: Option<String>,
    details: Option<String>,
    body: Bytes,
}

async fn answer(response: http::Response<tonic::body::Body>) -> Answer {
    let (parts, body) = response.into_parts();
    let collected = body.collect().await.expect("an in-process body");
    let trailers = collected.trailers().cloned().unwrap_or_default();
    let field = |name: &str| {
        parts
            .headers
            .get(name)
            .or_else(|| trailers.get(name))
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let mut headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .filter(|(name, _)| !name.as_str().starts_with("grpc-"))
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
        .collect();
    headers.sort();
    Answer {
        http: parts.status.as_u16(),
        headers,
        grpc_status: field("grpc-status"),
        grpc_message: field("grpc-message"),
        details: field("grpc-status-details-bin"),
        body: collected.to_bytes(),
    }
}

/// A call to make both ways: what it is, its method, its token, its message, its status.
type Case<'a> = (&'a str, &'a str, Option<&'a str>, Vec<u8>, i32);

fn request<B>(method: &str, token: Option<&str>, body: B) -> http::Request<B> {
    let mut request = http::Request::post(format!("/logistics.v1.ShipmentService/{method}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.body(body).unwrap()
}

#[tokio::test]
async fn a_call_in_process_is_answered_as_over_http() {
    let data = tempfile::tempdir().unwrap();
    let store: Arc<dyn ShipmentStore> =
        Arc::new(SqliteShipmentStore::open(&data.path().join("shipments.sqlite3")).unwrap());
    let number = demo_shipment(&store).await.tracking_number.to_string();
    let tokens = TokenKey::generate();
    let blobs = Arc::new(shipments::blobs::FsBlobStore::open(&data.path().join("blobs")).unwrap());
    let server = shipments::server(
        store,
        blobs,
        tokens.clone(),
        &service_common::settings::defaults(),
        &service_common::settings::defaults(),
    );
    let staff = service_auth::tool_token(&tokens);
    let lookup = |number: &str| {
        pb::GetShipmentByTrackingNumberRequest {
            tracking_number: number.into(),
            ..Default::default()
        }
        .encode_to_vec()
    };
    // (case, method, token, request message, the gRPC status expected)
    let cases: [Case; 7] = [
        (
            "a lookup",
            "GetShipmentByTrackingNumber",
            None,
            lookup(&number),
            0,
        ),
        (
            "an unknown number",
            "GetShipmentByTrackingNumber",
            None,
            lookup("PSE000000000"),
            5,
        ),
        // Field 1 (a string) sent as a varint.
        (
            "an undecodable message",
            "GetShipmentByTrackingNumber",
            None,
            vec![0x08, 0x01],
            3,
        ),
        (
            "no token for a staff method",
            "GetShipment",
            None,
            Vec::new(),
            16,
        ),
        (
            "a bad token",
            "GetShipment",
            Some("not-a-token"),
            Vec::new(),
            16,
        ),
        (
            "field violations",
            "CreateShipment",
            Some(&staff),
            Vec::new(),
            3,
        ),
        (
            "a message over the limit",
            "GetShipmentByTrackingNumber",
            None,
            lookup(&"P".repeat(shipments::MAX_MESSAGE_BYTES)),
            11,
        ),
    ];
    for (case, method, token, message, code) in cases {
        let path = format!("/logistics.v1.ShipmentService/{method}");
        assert!(server.serves(&path), "{case}: {path} is unary");
        let over_http = server
            .clone()
            .oneshot(request(
                method,
                token,
                tonic::body::Body::new(http_body_util::Full::new(Bytes::from(frame(&message)))),
            ))
            .await
            .unwrap();
        let over_http = answer(over_http).await;
        let in_process = service_common::telemetry::in_process(
            &server,
            request(method, token, Bytes::from(message)),
        )
        .await;
        let in_process = answer(in_process).await;
        assert_eq!(
            over_http
                .grpc_status
                .as_deref()
                .map(|s| s.parse::<i32>().unwrap()),
            Some(code),
            "{case}: {over_http:?}"
        );
        assert_eq!(in_process, over_http, "{case}");
    }
    // A streaming method and an unknown one are left to the HTTP path.
    for path in [
        "/logistics.v1.ShipmentService/WatchShipment",
        "/logistics.v1.ShipmentService/NoSuchMethod",
        "/logistics.v1.QuoteService/CreateQuote",
    ] {
        assert!(!server.serves(path), "{path}");
    }
}
