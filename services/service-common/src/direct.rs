//! The HTTP answer of a unary call made in process (`logistics_proto::direct`), as tonic's
//! server path writes it: a failure as a trailers-only answer, a reply as one gRPC frame
//! followed by `grpc-status: 0` in the trailers, with the handler's metadata as headers.

use std::convert::Infallible;

use bytes::{BufMut, Bytes, BytesMut};
use http::{HeaderMap, HeaderValue, header};
use http_body::Frame;
use http_body_util::StreamBody;
use tonic::Status;
use tonic::body::Body;

/// Headers only gRPC itself may set; a handler's metadata never passes them (as in tonic).
const RESERVED: [&str; 5] = [
    "te",
    "content-type",
    "grpc-message",
    "grpc-message-type",
    "grpc-status",
];

pub fn answer(result: Result<tonic::Response<Bytes>, Status>) -> http::Response<Body> {
    let response = match result {
        Ok(response) => response,
        Err(status) => return status.into_http(),
    };
    let (metadata, message, extensions) = response.into_parts();
    let mut headers = metadata.into_headers();
    for name in RESERVED {
        headers.remove(name);
    }
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    let mut frame = BytesMut::with_capacity(5 + message.len());
    frame.put_u8(0);
    frame.put_u32(u32::try_from(message.len()).unwrap_or(u32::MAX));
    frame.extend_from_slice(&message);
    let mut trailers = HeaderMap::new();
    trailers.insert("grpc-status", HeaderValue::from_static("0"));
    // A stream of two frames: its size unknown, so the gRPC-web layer after may append the
    // trailers to the body (a body of known size would end before them).
    let frames = futures::stream::iter([
        Ok::<_, Infallible>(Frame::data(frame.freeze())),
        Ok(Frame::trailers(trailers)),
    ]);
    let mut response = http::Response::new(Body::new(StreamBody::new(frames)));
    *response.version_mut() = http::Version::HTTP_2;
    *response.headers_mut() = headers;
    *response.extensions_mut() = extensions;
    response
}
