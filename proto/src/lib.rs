//! Generated gRPC types and clients/servers for `logistics.v1`.

pub mod logistics {
    pub mod v1 {
        tonic::include_proto!("logistics.v1");
    }
}

pub use logistics::v1;

pub mod codec;
pub mod direct;
mod permission;

/// Encoded descriptor set of every `logistics.v1` file with its options, for gRPC reflection
/// and the methods' access rules.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/logistics_descriptor.bin"));
