//! The protobuf codec of every generated client and server.

/// How an undecodable message is described (followed by what prost found).
pub const UNDECODABLE: &str = "The message could not be decoded";
