//! A tower layer in front of RPC handlers whose calls carry exactly one request message (every
//! `logistics.v1` method is unary). Malformed calls are the caller's fault, so it answers them
//! as such, before tonic could call them INTERNAL (its own fault) or half-read them:
//!
//! - a method other than POST: HTTP 405; a content type other than `application/grpc` or
//!   `application/grpc+proto` (a form post, say): HTTP 415 with `Accept-Post`, as Connect's
//!   servers do. No handler runs, whatever the HTTP version.
//! - a body over the limit: RESOURCE_EXHAUSTED, as soon as its `Content-Length`, its frame
//!   header or the bytes read so far (chunked bodies) say so; the rest is never read.
//! - a body that is not exactly one well-formed gRPC frame (no message, a frame cut short,
//!   garbage, a second message, a compressed flag without `grpc-encoding`, an invalid flag), or
//!   that could not be read: INVALID_ARGUMENT with a short message.
//!
//! Errors are trailers-only gRPC answers (`Status::into_http`); behind tonic-web's
//! `GrpcWebLayer` they become gRPC-web answers. They are logged at debug level only: they are
//! counted as what they are by the telemetry around (the gRPC status), never as errors.
//! A call that passes reaches the handler with its body buffered (and its trailers, if any).

use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use tonic::Status;
use tonic::body::Body;
use tonic::server::NamedService;

/// What a call without a request message is told.
pub const MISSING_MESSAGE: &str = "The request has no message.";
/// A frame cut short: fewer bytes than its header announces, or less than a header.
pub const TRUNCATED: &str = "The request message is truncated.";
/// A unary call with more than one message (or bytes after its message).
pub const NOT_ONE_MESSAGE: &str = "A unary call takes exactly one request message.";
/// The compressed flag without a `grpc-encoding` saying how.
pub const COMPRESSED_WITHOUT_ENCODING: &str =
    "The request message is marked compressed but no grpc-encoding was given.";
/// A frame flag other than 0 (plain) or 1 (compressed).
pub const BAD_FLAG: &str = "The request frame has an invalid flag.";
/// A body over the limit (followed by the limit).
pub const TOO_LARGE: &str = "The request is larger than the limit";
/// A body that could not be read (a broken upload, bad base64 in gRPC-web text).
pub const UNREADABLE: &str = "The request body could not be read.";

/// The body limit on a service's own port: tonic's default largest message (4 MiB) and its
/// 5-byte frame header, so a direct caller may send whatever the service would decode.
pub const SERVICE_MAX_BODY_BYTES: usize = 4 * 1024 * 1024 + 5;

/// The calls that carry files, with their own larger limits (frame header and the rest of
/// the message included): a proof of delivery's photo and signature, a part of an import.
pub const FILE_UPLOADS: &[(&str, usize)] = &[
    (
        "/logistics.v1.ShipmentService/RecordProofOfDelivery",
        9 * 1024 * 1024,
    ),
    (
        "/logistics.v1.ShipmentService/AppendShipmentImportData",
        1024 * 1024 + 4096,
    ),
    // A rate card of 2,000 lanes of 50 weight breaks, as JSON too; its CSV file of 1 MB.
    (
        "/logistics.v1.RateCardService/UpdateRateCard",
        8 * 1024 * 1024,
    ),
    (
        "/logistics.v1.RateCardService/PreviewQuote",
        8 * 1024 * 1024,
    ),
    (
        "/logistics.v1.RateCardService/ParseRateCardCsv",
        2 * 1024 * 1024,
    ),
];

/// The gRPC frame header: a flag byte and a 4-byte big-endian length.
const HEADER: usize = 5;

const GRPC_TYPES: &str = "application/grpc, application/grpc+proto";
const GRPC_AND_GRPC_WEB_TYPES: &str = "application/grpc, application/grpc+proto, \
     application/grpc-web, application/grpc-web+proto, application/grpc-web-text, \
     application/grpc-web-text+proto";

/// Puts a [`GrpcGuard`] in front of a service.
#[derive(Clone, Copy, Debug)]
pub struct GrpcGuardLayer {
    max_body_bytes: usize,
    accept_post: &'static str,
    /// Methods allowed larger bodies than `max_body_bytes`.
    larger: &'static [(&'static str, usize)],
}

impl GrpcGuardLayer {
    /// For a gRPC server: bodies of at most `max_body_bytes` (frame header included).
    pub fn new(max_body_bytes: usize) -> Self {
        Self {
            max_body_bytes,
            accept_post: GRPC_TYPES,
            larger: &[],
        }
    }

    /// For the service behind tonic-web's `GrpcWebLayer` (which turns gRPC-web calls into gRPC
    /// ones and lets other HTTP/2 requests through as they are): the same checks, and a 415
    /// answer that lists the gRPC-web content types too.
    pub fn behind_grpc_web(max_body_bytes: usize) -> Self {
        Self {
            max_body_bytes,
            accept_post: GRPC_AND_GRPC_WEB_TYPES,
            larger: &[],
        }
    }

    /// The same, with larger limits for the methods listed (path, bytes).
    pub fn with_larger(self, larger: &'static [(&'static str, usize)]) -> Self {
        Self { larger, ..self }
    }

    fn max_body_for(&self, path: &str) -> usize {
        self.larger
            .iter()
            .find(|(method, _)| *method == path)
            .map_or(self.max_body_bytes, |&(_, max)| {
                max.max(self.max_body_bytes)
            })
    }
}

impl<S> tower::Layer<S> for GrpcGuardLayer {
    type Service = GrpcGuard<S>;
    fn layer(&self, inner: S) -> GrpcGuard<S> {
        GrpcGuard {
            inner,
            layer: *self,
        }
    }
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct GrpcGuard<S> {
    inner: S,
    layer: GrpcGuardLayer,
}

impl<S> GrpcGuard<S> {
    /// `inner` behind a guard for a gRPC server (see [`GrpcGuardLayer::new`]).
    pub fn new(inner: S, max_body_bytes: usize) -> Self {
        tower::Layer::layer(&GrpcGuardLayer::new(max_body_bytes), inner)
    }
}

impl<S: NamedService> NamedService for GrpcGuard<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> tower::Service<Request<B>> for GrpcGuard<S>
where
    S: tower::Service<Request<Body>, Response = Response<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tonic::codegen::StdError>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Response<Body>, S::Error>> + Send>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone is the one that was not made ready: keep the ready one for this call.
        let clone = self.inner.clone();
        let ready = std::mem::replace(&mut self.inner, clone);
        let layer = self.layer;
        Box::pin(async move {
            match checked(request, layer).await {
                Ok(request) => {
                    let mut inner = ready;
                    inner.call(request).await
                }
                Err(refusal) => Ok(refusal),
            }
        })
    }
}

/// The request with its body buffered, or the answer that refuses it.
async fn checked<B>(
    request: Request<B>,
    layer: GrpcGuardLayer,
) -> Result<Request<Body>, Response<Body>>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tonic::codegen::StdError>,
{
    read(request, layer).await.map(Checked::into_request)
}

/// A call that passed the checks, its body read whole.
pub struct Checked {
    parts: http::request::Parts,
    body: Bytes,
    trailers: Option<HeaderMap>,
}

impl Checked {
    /// The request as a gRPC server takes it, its body as it came.
    pub fn into_request(self) -> Request<Body> {
        let body = http_body_util::Full::new(self.body);
        let body = match self.trailers {
            None => Body::new(body),
            Some(trailers) => Body::new(body.with_trailers(async move { Some(Ok(trailers)) })),
        };
        Request::from_parts(self.parts, body)
    }

    /// The request with its message alone, for a call made in process; itself back when the
    /// message is compressed or trailers came with it, which only a server's HTTP path reads.
    #[allow(clippy::result_large_err)]
    pub fn into_message(self) -> Result<Request<Bytes>, Self> {
        if self.body.first() != Some(&0) || self.trailers.is_some() {
            return Err(self);
        }
        Ok(Request::from_parts(self.parts, self.body.slice(HEADER..)))
    }
}

impl GrpcGuardLayer {
    /// Checks a call and reads its body, or gives the answer that refuses it (see the module).
    pub async fn read<B>(&self, request: Request<B>) -> Result<Checked, Response<Body>>
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<tonic::codegen::StdError>,
    {
        read(request, *self).await
    }
}

async fn read<B>(request: Request<B>, layer: GrpcGuardLayer) -> Result<Checked, Response<Body>>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tonic::codegen::StdError>,
{
    let path = request.uri().path().to_owned();
    let refuse = |status: Status| {
        tracing::debug!(%path, code = ?status.code(), reason = status.message(), "malformed call refused");
        status.into_http()
    };
    if request.method() != Method::POST {
        tracing::debug!(%path, method = %request.method(), "not a POST: refused");
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return Err(response);
    }
    if !is_grpc(request.headers()) {
        tracing::debug!(%path, content_type = ?request.headers().get(header::CONTENT_TYPE), "not a gRPC content type: refused");
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        response.headers_mut().insert(
            http::HeaderName::from_static("accept-post"),
            HeaderValue::from_static(layer.accept_post),
        );
        return Err(response);
    }
    let max = layer.max_body_for(&path);
    let too_large = || Status::resource_exhausted(format!("{TOO_LARGE} of {max} bytes."));
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max as u64) {
        return Err(refuse(too_large()));
    }
    let encoding = match request.headers().get("grpc-encoding") {
        Some(e) if e.as_bytes() != b"identity" => Encoding::Named,
        _ => Encoding::None,
    };
    let (parts, body) = request.into_parts();
    let mut body = std::pin::pin!(body);
    let mut bytes = BytesMut::new();
    let mut trailers = None;
    while let Some(frame) = body.frame().await {
        let frame = match frame {
            Ok(frame) => frame,
            Err(e) => {
                let e: tonic::codegen::StdError = e.into();
                tracing::debug!(%path, error = %e, "request body unreadable");
                return Err(refuse(Status::invalid_argument(UNREADABLE)));
            }
        };
        match frame.into_data() {
            Ok(data) => {
                bytes.extend_from_slice(&data);
                // Over the limit, or a frame header announcing more than it allows: stop here.
                if bytes.len() > max || announced(&bytes).is_some_and(|n| HEADER + n > max) {
                    return Err(refuse(too_large()));
                }
            }
            Err(frame) => {
                if let Ok(t) = frame.into_trailers() {
                    trailers.get_or_insert_with(HeaderMap::new).extend(t);
                }
            }
        }
    }
    if let Err(status) = one_message(&bytes, encoding) {
        return Err(refuse(status));
    }
    Ok(Checked {
        parts,
        body: bytes.freeze(),
        trailers,
    })
}

/// `application/grpc` or `application/grpc+proto` (any case, parameters allowed).
fn is_grpc(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let media_type = value.split(';').next().unwrap_or_default().trim();
    media_type.eq_ignore_ascii_case("application/grpc")
        || media_type.eq_ignore_ascii_case("application/grpc+proto")
}

/// The message length the frame header at the start of `bytes` announces, once it is there.
fn announced(bytes: &[u8]) -> Option<usize> {
    let header: [u8; 4] = bytes.get(1..HEADER)?.try_into().ok()?;
    Some(u32::from_be_bytes(header) as usize)
}

/// Whether the request names a message encoding (a compressed message is then tonic's to
/// accept or refuse).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    None,
    Named,
}

/// Whether `body` is exactly one gRPC frame: a flag of 0 (or 1 with a `grpc-encoding`), the
/// length, and that many bytes, with nothing after them.
fn one_message(body: &[u8], encoding: Encoding) -> Result<(), Status> {
    if body.is_empty() {
        return Err(Status::invalid_argument(MISSING_MESSAGE));
    }
    let Some(length) = announced(body) else {
        return Err(Status::invalid_argument(TRUNCATED));
    };
    match body[0] {
        0 => {}
        1 if encoding == Encoding::Named => {}
        1 => return Err(Status::invalid_argument(COMPRESSED_WITHOUT_ENCODING)),
        _ => return Err(Status::invalid_argument(BAD_FLAG)),
    }
    let carried = body.len() - HEADER;
    if carried < length {
        Err(Status::invalid_argument(TRUNCATED))
    } else if carried > length {
        Err(Status::invalid_argument(NOT_ONE_MESSAGE))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::pin::Pin;
    use tower::ServiceExt;

    /// A stand-in handler: answers OK with the body it was given.
    #[derive(Clone)]
    struct Echo;

    impl tower::Service<Request<Body>> for Echo {
        type Response = Response<Body>;
        type Error = Infallible;
        type Future =
            Pin<Box<dyn std::future::Future<Output = Result<Response<Body>, Infallible>> + Send>>;
        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }
        fn call(&mut self, request: Request<Body>) -> Self::Future {
            Box::pin(async move {
                let bytes = request.into_body().collect().await.unwrap().to_bytes();
                Ok(Response::new(Body::new(http_body_util::Full::new(bytes))))
            })
        }
    }

    /// A frame header announcing 10 bytes, then zeros in chunks of 16, forever.
    struct Endless {
        started: bool,
    }

    impl http_body::Body for Endless {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
            let chunk = if self.started {
                Bytes::from_static(&[0; 16])
            } else {
                Bytes::from_static(&[0, 0, 0, 0, 10])
            };
            self.started = true;
            Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
        }
    }

    fn frame(flag: u8, message: &[u8]) -> Vec<u8> {
        let mut out = vec![flag];
        out.extend_from_slice(&(message.len() as u32).to_be_bytes());
        out.extend_from_slice(message);
        out
    }

    async fn send(request: Request<Body>) -> (StatusCode, Option<String>, Option<String>, Bytes) {
        let response = GrpcGuard::new(Echo, 64).oneshot(request).await.unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        let (code, message) = (header("grpc-status"), header("grpc-message"));
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, code, message, body)
    }

    fn post(content_type: &str, body: Vec<u8>) -> Request<Body> {
        Request::post("/logistics.v1.ShipmentService/GetShipment")
            .header("content-type", content_type)
            .body(Body::new(http_body_util::Full::new(Bytes::from(body))))
            .unwrap()
    }

    #[tokio::test]
    async fn one_well_formed_message_reaches_the_handler_unchanged() {
        for content_type in [
            "application/grpc",
            "application/grpc+proto",
            "Application/GRPC; charset=x",
        ] {
            let body = frame(0, b"\x0a\x01x");
            let (status, code, _, echoed) = send(post(content_type, body.clone())).await;
            assert_eq!((status, code), (StatusCode::OK, None), "{content_type}");
            assert_eq!(&echoed[..], &body[..]);
        }
        // An empty message is still one message.
        let (_, code, _, echoed) = send(post("application/grpc", frame(0, b""))).await;
        assert_eq!((code, echoed.len()), (None, HEADER));
    }

    #[tokio::test]
    async fn malformed_bodies_are_invalid_argument() {
        let mut two = frame(0, b"a");
        two.extend(frame(0, b"b"));
        let cases: [(Vec<u8>, &str); 6] = [
            (vec![], MISSING_MESSAGE),
            (vec![0, 0, 0], TRUNCATED),
            (frame(0, b"abc")[..6].to_vec(), TRUNCATED),
            (two, NOT_ONE_MESSAGE),
            (frame(1, b"abc"), COMPRESSED_WITHOUT_ENCODING),
            (frame(7, b"abc"), BAD_FLAG),
        ];
        for (body, message) in cases {
            let (status, code, text, _) = send(post("application/grpc", body.clone())).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(code.as_deref(), Some("3"), "{body:?}");
            assert_eq!(
                text.map(|t| t.replace("%20", " ")).as_deref(),
                Some(message),
                "{body:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_compressed_flag_with_an_encoding_is_left_to_tonic() {
        let mut request = post("application/grpc", frame(1, b"abc"));
        request
            .headers_mut()
            .insert("grpc-encoding", HeaderValue::from_static("gzip"));
        assert_eq!(send(request).await.1, None);
        let mut request = post("application/grpc", frame(1, b"abc"));
        request
            .headers_mut()
            .insert("grpc-encoding", HeaderValue::from_static("identity"));
        assert_eq!(send(request).await.1.as_deref(), Some("3"));
    }

    #[tokio::test]
    async fn bodies_over_the_limit_are_resource_exhausted_without_reading_them() {
        // Announced by the frame header: refused at once.
        let (_, code, _, _) = send(post("application/grpc", frame(0, &[0; 100]))).await;
        assert_eq!(code.as_deref(), Some("8"));
        let mut header_only = frame(0, &[]);
        header_only[1..5].copy_from_slice(&1000u32.to_be_bytes());
        let (_, code, _, _) = send(post("application/grpc", header_only)).await;
        assert_eq!(code.as_deref(), Some("8"));
        // Content-Length over the limit: refused before reading.
        let mut request = post("application/grpc", frame(0, b"a"));
        request
            .headers_mut()
            .insert("content-length", HeaderValue::from_static("1000"));
        assert_eq!(send(request).await.1.as_deref(), Some("8"));
        // An endless chunked body: refused once past the limit.
        let request = Request::post("/x/y")
            .header("content-type", "application/grpc")
            .body(Body::new(Endless { started: false }))
            .unwrap();
        let (_, code, text, _) = send(request).await;
        assert_eq!(code.as_deref(), Some("8"));
        assert!(text.unwrap().contains("64"));
    }

    #[tokio::test]
    async fn other_content_types_and_methods_never_reach_the_handler() {
        for content_type in [
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "text/plain",
            "application/grpc-web+proto",
            "application/grpc+json",
            "application/grpcx",
        ] {
            let (status, code, _, body) = send(post(content_type, frame(0, b"a"))).await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}");
            assert_eq!((code, body.len()), (None, 0), "{content_type}");
        }
        let request = Request::get("/x/y")
            .header("content-type", "application/grpc")
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(request).await.0, StatusCode::METHOD_NOT_ALLOWED);
    }
}
