//! Every unary method as plain JSON over HTTP, by the Connect protocol: `POST
//! /logistics.v1.ShipmentService/GetShipmentByTrackingNumber` with `Content-Type:
//! application/json`. Written once from the descriptors: the JSON is read into the method's
//! request message, the call goes through the same gateway as a browser's (access, limits,
//! sessions), and the answer or the error comes back as Connect JSON, with field violations.

use std::sync::LazyLock;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use bytes::{Buf, Bytes};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use http_body_util::BodyExt;
use prost::Message as _;
use prost_reflect::{DescriptorPool, DynamicMessage, MethodDescriptor, SerializeOptions};
use tonic::Code;
use tonic_types::StatusExt;
use tower::ServiceExt;

use crate::idempotency::{self, Answer, Claim};
use crate::rpc::RpcService;

/// What this entry point reads: Connect's unary JSON.
const JSON: &str = "application/json";

/// A JSON body's bound, beyond that of its binary form (numbers and names as text, bytes as
/// base64), checked before it is read.
const JSON_GROWTH: usize = 3;

/// The headers of the caller's request a call goes on with; the rest (a browser's
/// `content-type` among them) are the protocol's to set.
const KEPT: &[&str] = &[
    "authorization",
    "cookie",
    "origin",
    "host",
    "x-forwarded-for",
    "x-forwarded-proto",
    "x-request-id",
    "user-agent",
];

/// The JSON of replies seen lately, by method and reply bytes: a tracking number looked up again
/// and again is written out once. Bounded by the bytes it holds.
static REPLIES: LazyLock<moka::sync::Cache<(String, Bytes), Bytes>> = LazyLock::new(transcodings);

/// The largest message whose transcoding is kept: a lookup's, not a page of a list's.
const CACHED_BYTES: usize = 16 * 1024;

/// A cache of transcoded messages: 16 MB of them, each kept a minute at most.
fn transcodings() -> moka::sync::Cache<(String, Bytes), Bytes> {
    moka::sync::Cache::builder()
        .weigher(|key: &(String, Bytes), value: &Bytes| {
            u32::try_from(key.1.len() + value.len()).unwrap_or(u32::MAX)
        })
        .max_capacity(16 * 1024 * 1024)
        .time_to_live(std::time::Duration::from_secs(60))
        .build()
}

/// The binary form of request bodies seen lately, by method and JSON (the same lookup sent
/// again is read once). Bounded by the bytes it holds.
static REQUESTS: LazyLock<moka::sync::Cache<(String, Bytes), Bytes>> = LazyLock::new(transcodings);

/// The product's descriptors: its services, methods and messages, and their options.
pub(crate) static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    DescriptorPool::decode(logistics_proto::FILE_DESCRIPTOR_SET)
        .expect("the build wrote a valid descriptor set")
});

/// The path prefix of every service the product declares (`/logistics.v1.ShipmentService/`):
/// the gateway routes gRPC-web calls to each, and RpcGateway decides who may call what.
pub fn service_prefixes() -> Vec<String> {
    POOL.services()
        .map(|service| format!("/{}/", service.full_name()))
        .collect()
}

/// The method at `/package.Service/Method`, if the product has one.
fn method_at(path: &str) -> Option<MethodDescriptor> {
    let (service, method) = path.strip_prefix('/')?.split_once('/')?;
    POOL.get_service_by_name(service)?
        .methods()
        .find(|m| m.name() == method)
}

/// Whether a request is Connect's unary JSON (its content type, parameters aside).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case(JSON))
}

/// The Connect error body of `code` and `message`, with `details` as Connect carries them.
fn error(code: Code, message: &str, details: Vec<serde_json::Value>) -> Response {
    let status = match code {
        Code::Cancelled => StatusCode::from_u16(499).expect("a valid status"),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let mut body = serde_json::json!({ "code": code_name(code), "message": message });
    if !details.is_empty() {
        body["details"] = details.into();
    }
    (
        status,
        [
            (header::CONTENT_TYPE, JSON),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// Connect's name of a code: `invalid_argument`.
fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "canceled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

/// A status's field violations as Connect error details: the `google.rpc.BadRequest` bytes,
/// and the same in `debug` for people reading the JSON.
fn details_of(status: &tonic::Status) -> Vec<serde_json::Value> {
    let Some(bad) = status.get_details_bad_request() else {
        return Vec::new();
    };
    let violations: Vec<_> = bad
        .field_violations
        .iter()
        .map(|v| serde_json::json!({ "field": v.field, "description": v.description }))
        .collect();
    let proto = tonic_types::pb::BadRequest {
        field_violations: bad
            .field_violations
            .iter()
            .map(|v| tonic_types::pb::bad_request::FieldViolation {
                field: v.field.clone(),
                description: v.description.clone(),
                ..Default::default()
            })
            .collect(),
    };
    vec![serde_json::json!({
        "type": "google.rpc.BadRequest",
        "value": base64::engine::general_purpose::STANDARD_NO_PAD.encode(proto.encode_to_vec()),
        "debug": { "fieldViolations": violations },
    })]
}

/// Serves Connect JSON calls to the product's methods; anything else goes on to `next`.
pub async fn json_calls(
    axum::extract::State(gateway): axum::extract::State<RpcService>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    if !path.starts_with("/logistics.v1.") || !is_json(request.headers()) {
        return next.run(request).await;
    }
    if request.method() != http::Method::POST {
        return error(Code::Unimplemented, "Call with POST.", Vec::new());
    }
    let Some(method) = method_at(&path) else {
        return error(Code::Unimplemented, "There is no such method.", Vec::new());
    };
    if method.is_client_streaming() || method.is_server_streaming() {
        return error(
            Code::Unimplemented,
            "This method streams: call it with gRPC or gRPC-web.",
            Vec::new(),
        );
    }
    let limit = service_common::grpc_guard::FILE_UPLOADS
        .iter()
        .find(|(p, _)| *p == path)
        .map_or(crate::MAX_RPC_BODY_BYTES, |(_, size)| *size)
        * JSON_GROWTH;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > limit) {
        return error(
            Code::ResourceExhausted,
            "The request is too large.",
            Vec::new(),
        );
    }
    let (parts, body) = request.into_parts();
    let body = match http_body_util::Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            return error(
                Code::ResourceExhausted,
                "The request is too large.",
                Vec::new(),
            );
        }
    };
    let input = match proto_of(&method, &body) {
        Ok(input) => input,
        Err(e) => {
            return error(
                Code::InvalidArgument,
                &format!("The body is not a valid {}: {e}", method.input().name()),
                Vec::new(),
            );
        }
    };
    let claimed = match parts.headers.get(IDEMPOTENCY_KEY) {
        Some(value) if !service_auth::access::rule(&path).is_some_and(|r| r.idempotent) => {
            let Some(key) = value
                .to_str()
                .ok()
                .map(str::trim)
                .filter(|k| !k.is_empty() && k.len() <= idempotency::MAX_KEY_CHARS)
            else {
                return error(Code::InvalidArgument, BAD_KEY, Vec::new());
            };
            // A key's, a session's, or else the network's: nobody replays another's answer.
            let session = crate::session::id_from_cookies(
                parts
                    .headers
                    .get(header::COOKIE)
                    .and_then(|v| v.to_str().ok()),
            );
            let caller = crate::api_keys::secret(&parts.headers)
                .map(|secret| format!("key:{}", service_auth::api_key_hash(secret)))
                .or_else(|| session.map(|id| format!("session:{id}")))
                .unwrap_or_else(|| {
                    format!(
                        "client:{}",
                        gateway
                            .proxies
                            .client_key(&parts.headers, &parts.extensions)
                    )
                });
            let key = idempotency::store_key(&caller, &path, key);
            let fingerprint = idempotency::fingerprint(&body);
            match gateway.idempotency.claim(&key, &fingerprint).await {
                Ok(Claim::New) => Some((key, fingerprint)),
                Ok(Claim::Done(answer)) => return replay(answer),
                Ok(Claim::InProgress) => {
                    return error(Code::Aborted, KEY_IN_PROGRESS, Vec::new());
                }
                Ok(Claim::Mismatch) => return error(Code::InvalidArgument, KEY_REUSED, Vec::new()),
                Err(e) => {
                    tracing::warn!(error = %e, "idempotency store unavailable");
                    return error(Code::Unavailable, KEYS_DOWN, Vec::new());
                }
            }
        }
        _ => None,
    };
    let call = grpc_request(&parts, &path, &input);
    let keys = gateway.idempotency.clone();
    let Ok(response) = gateway.oneshot(call).await;
    let reply = answer(&method, response).await;
    let Some((key, fingerprint)) = claimed else {
        return reply;
    };
    let (reply_parts, reply_body) = reply.into_parts();
    let bytes = axum::body::to_bytes(reply_body, usize::MAX)
        .await
        .unwrap_or_default();
    let status = reply_parts.status;
    // A passing failure (an outage, a rate limit) may be tried again under the same key.
    let kept = if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        keys.release(&key).await
    } else {
        let answer = Answer {
            status: status.as_u16(),
            body: String::from_utf8_lossy(&bytes).into_owned(),
        };
        keys.finish(&key, &fingerprint, answer).await
    };
    if let Err(e) = kept {
        tracing::warn!(error = %e, "idempotency key not recorded");
    }
    Response::from_parts(reply_parts, axum::body::Body::from(bytes))
}

/// The header that makes a creating call safe to retry.
const IDEMPOTENCY_KEY: &str = "idempotency-key";
const BAD_KEY: &str = "Idempotency-Key must be 1 to 255 characters.";
const KEY_IN_PROGRESS: &str =
    "A request with this Idempotency-Key is still in progress. Try again in a moment.";
const KEY_REUSED: &str = "This Idempotency-Key was used with a different request.";
const KEYS_DOWN: &str = "Idempotency-Key cannot be checked right now. Try again in a moment.";

/// The first answer to a key, sent again.
fn replay(answer: Answer) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    (
        status,
        [
            (header::CONTENT_TYPE, JSON),
            (header::CACHE_CONTROL, "no-store"),
            (
                http::HeaderName::from_static("idempotency-replayed"),
                "true",
            ),
        ],
        answer.body,
    )
        .into_response()
}

/// The gRPC call of `message` to `path`, with the caller's headers that matter.
fn grpc_request(
    parts: &http::request::Parts,
    path: &str,
    message: &[u8],
) -> http::Request<tonic::body::Body> {
    let mut frame = Vec::with_capacity(message.len() + 5);
    frame.push(0);
    frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
    frame.extend_from_slice(message);
    let mut request = http::Request::post(path)
        .version(http::Version::HTTP_2)
        .body(tonic::body::Body::new(http_body_util::Full::new(
            Bytes::from(frame),
        )))
        .expect("a valid request");
    let headers = request.headers_mut();
    for name in KEPT {
        for value in parts.headers.get_all(*name) {
            headers.append(*name, value.clone());
        }
    }
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    headers.insert("te", HeaderValue::from_static("trailers"));
    *request.extensions_mut() = parts.extensions.clone();
    request
}

/// The gRPC answer as Connect JSON: the reply message, or the error with its details; the
/// cookies the call set (a session, a full-view grant) come along.
async fn answer(
    method: &MethodDescriptor,
    response: http::Response<tonic::body::Body>,
) -> Response {
    let (parts, body) = response.into_parts();
    let collected = match body.collect().await {
        Ok(collected) => collected,
        Err(e) => {
            return error(
                Code::Unavailable,
                &format!("The call failed: {e}"),
                Vec::new(),
            );
        }
    };
    let trailers = collected.trailers().cloned().unwrap_or_default();
    let mut data = collected.to_bytes();
    let status = tonic::Status::from_header_map(&trailers)
        .or_else(|| tonic::Status::from_header_map(&parts.headers));
    let mut reply = match status {
        Some(status) if status.code() != Code::Ok => {
            error(status.code(), status.message(), details_of(&status))
        }
        _ => {
            if data.len() < 5 {
                return error(Code::Internal, "The service sent no answer.", Vec::new());
            }
            data.advance(5);
            match json_of(method, data) {
                Ok(json) => (
                    StatusCode::OK,
                    [
                        (header::CONTENT_TYPE, JSON),
                        (header::CACHE_CONTROL, "no-store"),
                    ],
                    json,
                )
                    .into_response(),
                Err(e) => return error(Code::Internal, &e, Vec::new()),
            }
        }
    };
    for cookie in parts.headers.get_all(header::SET_COOKIE) {
        reply
            .headers_mut()
            .append(header::SET_COOKIE, cookie.clone());
    }
    reply
}

/// A request body of `method` as the binary message (an empty body is the empty message).
fn proto_of(method: &MethodDescriptor, body: &Bytes) -> Result<Bytes, String> {
    let key = (method.full_name().to_owned(), body.clone());
    if let Some(proto) = REQUESTS.get(&key) {
        return Ok(proto);
    }
    let message = if body.iter().all(u8::is_ascii_whitespace) {
        DynamicMessage::new(method.input())
    } else {
        let mut reader = serde_json::Deserializer::from_slice(body);
        let message =
            DynamicMessage::deserialize(method.input(), &mut reader).map_err(|e| e.to_string())?;
        reader.end().map_err(|e| e.to_string())?;
        message
    };
    let proto = Bytes::from(message.encode_to_vec());
    if key.1.len() <= CACHED_BYTES {
        REQUESTS.insert(key, proto.clone());
    }
    Ok(proto)
}

/// A reply message of `method` as JSON (the proto3 mapping, default values left out).
fn json_of(method: &MethodDescriptor, message: Bytes) -> Result<Bytes, String> {
    let key = (method.full_name().to_owned(), message);
    if let Some(json) = REPLIES.get(&key) {
        return Ok(json);
    }
    let decoded =
        DynamicMessage::decode(method.output(), key.1.clone()).map_err(|e| e.to_string())?;
    let mut json = serde_json::Serializer::new(Vec::new());
    let options = SerializeOptions::new().skip_default_fields(true);
    decoded
        .serialize_with_options(&mut json, &options)
        .map_err(|e| e.to_string())?;
    let json = Bytes::from(json.into_inner());
    if key.1.len() <= CACHED_BYTES {
        REPLIES.insert(key, json.clone());
    }
    Ok(json)
}
