//! The protobuf codec of every generated server (and client): prost's, except that a message
//! that cannot be decoded (a wrong wire type, invalid UTF-8 in a string, bytes cut short) is
//! `INVALID_ARGUMENT` with a short message naming the field, instead of tonic-prost's
//! `INTERNAL`. A malformed request is the caller's fault, and INTERNAL must mean ours.
//!
//! tonic-prost-build has one codec path for servers and clients, so generated clients decode
//! replies with it too: a reply only a broken server could send is reported to the calling
//! code as INVALID_ARGUMENT with the same message.

use std::marker::PhantomData;

use prost::Message;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder};
use tonic_prost::ProstEncoder;

/// How an undecodable message is described (followed by what prost found).
pub const UNDECODABLE: &str = "The message could not be decoded";

/// `tonic_prost::ProstCodec` with client-fault decode errors (see the module).
#[derive(Debug, Clone)]
pub struct ProtoCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for ProtoCodec<T, U> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<T, U> Codec for ProtoCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = ProtoDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProtoDecoder(PhantomData)
    }
}

/// Decodes `U` with prost; see [`undecodable`] for its errors.
#[derive(Debug, Clone)]
pub struct ProtoDecoder<U>(PhantomData<U>);

impl<U: Message + Default> Decoder for ProtoDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        U::decode(buf).map(Some).map_err(undecodable)
    }
}

/// INVALID_ARGUMENT, naming the field and the fault as prost does (schema names only, never
/// the bytes sent), e.g. "The message could not be decoded:
/// GetShipmentByTrackingNumberRequest.tracking_number: invalid string value: data is not
/// UTF-8 encoded."
pub fn undecodable(error: prost::DecodeError) -> Status {
    let detail = error.to_string();
    let detail = detail
        .strip_prefix("failed to decode Protobuf message: ")
        .unwrap_or(&detail);
    Status::invalid_argument(format!("{UNDECODABLE}: {detail}."))
}
