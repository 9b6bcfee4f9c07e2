//! Malformed calls are the caller's fault.

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
/// A body over the limit.
pub const TOO_LARGE: &str = "The request is too large.";
/// A body that could not be read (a broken upload, bad base64 in gRPC-web text).
pub const UNREADABLE: &str = "The request body could not be read.";

/// The body limit on a service's own port: tonic's default largest message (4 MiB) and its
/// 5-byte frame header, so a direct caller may send whatever the service would decode.
pub const SERVICE_MAX_BODY_BYTES: usize = 4 * 1024 * 1024 + 5;
