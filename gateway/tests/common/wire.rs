//! gRPC-web on the wire, as a browser speaks it: framing a message, and reading an answer
//! whose status is in the headers (trailers-only) or in a trailers frame of the body.

use std::sync::Arc;

use bytes::{Buf, Bytes, BytesMut};
use logistics_proto::v1::shipment_service_client::ShipmentServiceClient;
use service_auth::TokenKey;
use shipments::store::ShipmentStore;

/// What a call answered: status, message and the reply message bytes.
#[derive(Debug)]
pub struct Reply {
    pub http: u16,
    pub grpc_status: Option<i32>,
    pub message: String,
    /// The reply message, when one came.
    pub body: Option<Bytes>,
}

/// One uncompressed gRPC frame holding `message`.
pub fn frame(message: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8];
    out.extend_from_slice(&(message.len() as u32).to_be_bytes());
    out.extend_from_slice(message);
    out
}

/// A gRPC-web call of `path` (service/method, under `logistics.v1.`) as the browser makes it;
/// the reply and the `Set-Cookie` header.
pub async fn call(base: &str, path: &str, message: impl prost::Message) -> (Reply, Option<String>) {
    let response = reqwest::Client::new()
        .post(format!("{base}/logistics.v1.{path}"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .body(frame(&message.encode_to_vec()))
        .send()
        .await
        .unwrap();
    let (reply, headers) = read_reply(response).await;
    let cookie = headers
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_owned());
    (reply, cookie)
}

/// A visitor's tracking lookup of `number`.
pub async fn track(base: &str, number: &str) -> Reply {
    let request = logistics_proto::v1::GetShipmentByTrackingNumberRequest {
        tracking_number: number.to_owned(),
        ..Default::default()
    };
    call(base, "ShipmentService/GetShipmentByTrackingNumber", request)
        .await
        .0
}

/// Signs in; the reply and the session cookie it set, if any.
pub async fn sign_in(base: &str, email: &str, password: &str) -> (Reply, Option<String>) {
    let request = logistics_proto::v1::CreateSessionRequest {
        email: email.into(),
        password: password.into(),
    };
    call(base, "SessionService/CreateSession", request).await
}

/// The answer of a gRPC or gRPC-web call, and its headers.
pub async fn read_reply(response: reqwest::Response) -> (Reply, reqwest::header::HeaderMap) {
    let http = response.status().as_u16();
    let headers = response.headers().clone();
    let mut grpc_status = headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let mut message = headers
        .get("grpc-message")
        .map(|v| percent_decode(v.to_str().unwrap()))
        .unwrap_or_default();
    let mut bytes = BytesMut::from(&response.bytes().await.unwrap_or_default()[..]);
    let mut body = None;
    while bytes.len() >= 5 {
        let flag = bytes.get_u8();
        let len = bytes.get_u32() as usize;
        if len > bytes.len() {
            break; // not a gRPC-web frame: an HTTP-level error body
        }
        let chunk = bytes.split_to(len).freeze();
        if flag & 0x80 == 0 {
            body = Some(chunk);
        } else {
            for line in String::from_utf8_lossy(&chunk).split("\r\n") {
                if let Some(v) = line.strip_prefix("grpc-status:") {
                    grpc_status = v.trim().parse().ok();
                }
                if let Some(v) = line.strip_prefix("grpc-message:") {
                    message = percent_decode(v.trim());
                }
            }
        }
    }
    (
        Reply {
            http,
            grpc_status,
            message,
            body,
        },
        headers,
    )
}

/// `grpc-message` is percent-encoded.
pub fn percent_decode(text: &str) -> String {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first of the demo shipments, loaded into `store` through the service API.
pub async fn demo_shipment(store: &Arc<dyn ShipmentStore>) -> shipments::domain::Shipment {
    demo_shipments(store).await.remove(0)
}

/// The demo shipments, loaded into `store` through the service API.
pub async fn demo_shipments(store: &Arc<dyn ShipmentStore>) -> Vec<shipments::domain::Shipment> {
    let key = TokenKey::generate();
    let blobs_dir = tempfile::tempdir().unwrap();
    let blobs = Arc::new(shipments::blobs::FsBlobStore::open(blobs_dir.path()).unwrap());
    let server = shipments::server(
        store.clone(),
        blobs,
        key.clone(),
        &service_common::settings::defaults(),
        &service_common::settings::defaults(),
    );
    let mut client = ShipmentServiceClient::with_interceptor(
        server,
        service_auth::Bearer::new(&service_auth::tool_token(&key)),
    );
    shipments::demo::load(&mut client).await.unwrap()
}
