//! What the gateway's tests call it with: gRPC-web requests as a browser sends them, a
//! sign-in, and the gRPC status codes they answer.

use crate::common;

use logistics_proto::v1 as pb;
use prost::Message;

use common::site::{Site, all_in_one_with};
use common::wire::{Reply, frame, read_reply};

pub async fn all_in_one(lookups_per_minute: u64) -> Site {
    all_in_one_with(|s| s.tracking_lookups_per_minute = lookups_per_minute).await
}

pub async fn grpc_web(
    base: &str,
    method: &str,
    body: Vec<u8>,
) -> (Reply, reqwest::header::HeaderMap) {
    raw_call(
        base,
        &format!("logistics.v1.ShipmentService/{method}"),
        body,
        &[],
    )
    .await
}

pub async fn call(
    base: &str,
    path: &str,
    message: Vec<u8>,
    headers: &[(&str, &str)],
) -> (Reply, reqwest::header::HeaderMap) {
    raw_call(base, path, frame(&message), headers).await
}

/// A gRPC-web call of `path` (service/method) with a framed body and extra headers.
pub async fn raw_call(
    base: &str,
    path: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (Reply, reqwest::header::HeaderMap) {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/{path}"))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    read_reply(request.body(body).send().await.unwrap()).await
}

pub async fn lookup(base: &str, number: &str) -> Reply {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    };
    grpc_web(
        base,
        "GetShipmentByTrackingNumber",
        frame(&request.encode_to_vec()),
    )
    .await
    .0
}

pub const OK: i32 = 0;
pub const INVALID_ARGUMENT: i32 = 3;
pub const NOT_FOUND: i32 = 5;
pub const PERMISSION_DENIED: i32 = 7;
pub const FAILED_PRECONDITION: i32 = 9;
pub const RESOURCE_EXHAUSTED: i32 = 8;
pub const UNAVAILABLE: i32 = 14;
pub const UNAUTHENTICATED: i32 = 16;

/// Signs in through the gateway with extra request headers; the reply and its headers.
pub async fn sign_in_with(
    base: &str,
    email: &str,
    password: &str,
    headers: &[(&str, &str)],
) -> (Reply, reqwest::header::HeaderMap) {
    let request = pb::CreateSessionRequest {
        email: email.into(),
        password: password.into(),
    };
    call(
        base,
        "logistics.v1.SessionService/CreateSession",
        request.encode_to_vec(),
        headers,
    )
    .await
}

/// Signs in through the gateway; the reply and the `Set-Cookie` header.
pub async fn sign_in(base: &str, email: &str, password: &str) -> (Reply, Option<String>) {
    let (reply, headers) = sign_in_with(base, email, password, &[]).await;
    (
        reply,
        headers
            .get("set-cookie")
            .map(|v| v.to_str().unwrap().to_owned()),
    )
}

/// The `Set-Cookie` header that sets the cookie `name`, with its attributes.
pub fn set_cookie<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.split_once('=').is_some_and(|(n, _)| n == name))
}

/// `session=<id>` from a `Set-Cookie` header.
pub fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}

pub async fn list_shipments(base: &str, headers: &[(&str, &str)]) -> Reply {
    call(
        base,
        "logistics.v1.ShipmentService/ListShipments",
        pb::ListShipmentsRequest::default().encode_to_vec(),
        headers,
    )
    .await
    .0
}

/// Signs `email` in; the `session=<id>` pair of the cookie it gets.
pub async fn signed_in(site: &Site, email: &str, password: &str) -> String {
    let (reply, cookie) = sign_in(&site.base, email, password).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    cookie_pair(&cookie.unwrap())
}

pub async fn dark_mode(base: &str, headers: &[(&str, &str)], set: Option<bool>) -> Reply {
    let (path, message) = match set {
        None => (
            "GetPreferences",
            pb::GetPreferencesRequest {}.encode_to_vec(),
        ),
        Some(dark) => (
            "UpdatePreferences",
            pb::UpdatePreferencesRequest {
                preferences: Some(pb::Preferences {
                    is_dark_mode: Some(dark),
                }),
                update_mask: None,
            }
            .encode_to_vec(),
        ),
    };
    call(
        base,
        &format!("logistics.v1.PreferenceService/{path}"),
        message,
        headers,
    )
    .await
    .0
}
