//! Generated gRPC types and clients/servers for `logistics.v1`.

pub mod logistics {
    pub mod v1 {
        tonic::include_proto!("logistics.v1");
    }
}

pub use logistics::v1;

pub mod codec;

/// Encoded descriptor set of every `logistics.v1` file, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/logistics_descriptor.bin"));
