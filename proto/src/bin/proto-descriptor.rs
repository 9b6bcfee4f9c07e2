//! Writes the encoded `google.protobuf.FileDescriptorSet` of `logistics/v1/*.proto` and
//! `google/rpc/error_details.proto` (with imports and comments, compiled by protox in build.rs)
//! to stdout. `frontend/scripts/generate.mjs` turns it into TypeScript, so no `buf` or `protoc`
//! binary is needed: `cargo run -q -p logistics-proto --bin proto-descriptor > set.binpb`.
use std::io::Write;

const WEB_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/web_descriptor.bin"));

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(WEB_DESCRIPTOR_SET)?;
    out.flush()
}
