//! Unary calls made inside one process: the request's message bytes go straight to the
//! generated server's handler and its reply comes back as bytes, without HTTP/2 framing,
//! tonic's codec streams or its router. Every generated server implements [`Unary`] (build.rs
//! writes the impls from the same code tonic generates), so no method is written twice.
//!
//! A call answered so decodes, refuses and replies as the server's tonic path would: the same
//! INVALID_ARGUMENT for an undecodable message (`crate::codec`), the same OUT_OF_RANGE over the
//! server's message limit, the handler's own status otherwise.

use std::future::Future;
use std::pin::Pin;

use prost::Message;
use tonic::codegen::{Bytes, http};
use tonic::{Request, Response, Status};

/// What a direct call resolves to: the reply's message, encoded, or the call's status.
pub type UnaryFuture = Pin<Box<dyn Future<Output = Result<Response<Bytes>, Status>> + Send>>;

/// A gRPC server whose unary methods can be called with their encoded request message.
pub trait Unary: Send + Sync {
    /// Whether `path` names one of this server's unary methods.
    fn serves(&self, path: &str) -> bool;

    /// The call of the unary method at the request's path, its body the message without the
    /// gRPC frame header; UNIMPLEMENTED for a path [`Unary::serves`] does not name.
    fn unary(&self, request: http::Request<Bytes>) -> UnaryFuture;
}

/// The answer to a path a server does not serve.
pub fn unimplemented() -> UnaryFuture {
    Box::pin(std::future::ready(Err(Status::unimplemented(""))))
}

/// tonic's limit on a request message when a server sets none.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The request as its handler takes it, decoded within the server's message limit.
pub fn decode<M: Message + Default>(
    request: http::Request<Bytes>,
    max_message_bytes: Option<usize>,
) -> Result<Request<M>, Status> {
    let (parts, bytes) = request.into_parts();
    let limit = max_message_bytes.unwrap_or(DEFAULT_MAX_MESSAGE_BYTES);
    let len = bytes.len();
    if len > limit {
        return Err(Status::out_of_range(format!(
            "Error, decoded message length too large: found {len} bytes, the limit is: {limit} bytes"
        )));
    }
    let message = M::decode(bytes).map_err(crate::codec::undecodable)?;
    Ok(Request::from_http(http::Request::from_parts(
        parts, message,
    )))
}

/// The handler's reply with its message encoded.
pub fn encode<M: Message>(response: Response<M>) -> Response<Bytes> {
    let (metadata, message, extensions) = response.into_parts();
    Response::from_parts(metadata, Bytes::from(message.encode_to_vec()), extensions)
}
