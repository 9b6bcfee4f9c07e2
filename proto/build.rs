//! Compiles `logistics/v1/*.proto` in pure Rust (protox), so no system protoc is needed.
use prost::Message;
use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "logistics/v1/shipment.proto",
        "logistics/v1/shipment_service.proto",
        "logistics/v1/user.proto",
        "logistics/v1/auth_service.proto",
        "logistics/v1/session_service.proto",
        "logistics/v1/notification.proto",
        "logistics/v1/notification_service.proto",
        "logistics/v1/preference_service.proto",
        "logistics/v1/audit_service.proto",
        "logistics/v1/webhook_service.proto",
    ];
    let fds = protox::compile(files, ["."])?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    // compile_fds ignores file_descriptor_set_path; reflection needs the set on disk.
    fs::write(
        out_dir.join("logistics_descriptor.bin"),
        fds.encode_to_vec(),
    )?;
    // Decode errors are the caller's fault (INVALID_ARGUMENT), not INTERNAL: see src/codec.rs.
    tonic_prost_build::configure()
        .codec_path("crate::codec::ProtoCodec")
        .compile_fds(fds)?;
    // The set the TypeScript generator reads (src/bin/proto-descriptor.rs): the same files with
    // their comments, plus google/rpc/error_details.proto, which only the web app uses.
    let web = protox::compile(
        files
            .iter()
            .copied()
            .chain(["google/rpc/error_details.proto"]),
        ["."],
    )?;
    fs::write(out_dir.join("web_descriptor.bin"), web.encode_to_vec())?;
    println!("cargo:rerun-if-changed=logistics");
    println!("cargo:rerun-if-changed=google");
    Ok(())
}
