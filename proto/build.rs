//! Compiles `logistics/v1/*.proto` in pure Rust (protox), so no system protoc is needed.
use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "logistics/v1/access.proto",
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
        "logistics/v1/customer.proto",
        "logistics/v1/customer_service.proto",
        "logistics/v1/customer_portal_service.proto",
        "logistics/v1/pickup_service.proto",
        "logistics/v1/api_key_service.proto",
        "logistics/v1/rate_card_service.proto",
        "logistics/v1/customer_webhook_service.proto",
        "logistics/v1/shipment_exception_service.proto",
        "logistics/v1/shipment_note_service.proto",
    ];
    let compiled = compile(&files)?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    // compile_fds ignores file_descriptor_set_path; reflection and the access rules need the
    // set on disk, with the methods' custom options (which prost_types would drop).
    fs::write(
        out_dir.join("logistics_descriptor.bin"),
        compiled.encode_file_descriptor_set(),
    )?;
    let fds = compiled.file_descriptor_set();
    // Decode errors are the caller's fault (INVALID_ARGUMENT), not INTERNAL: see src/codec.rs.
    tonic_prost_build::configure()
        .codec_path("crate::codec::ProtoCodec")
        .compile_fds(fds)?;
    // The set the TypeScript generator reads (src/bin/proto-descriptor.rs): the same files with
    // their comments, plus google/rpc/error_details.proto, which only the web app uses.
    let web = compile(
        &files
            .iter()
            .copied()
            .chain(["google/rpc/error_details.proto"])
            .collect::<Vec<_>>(),
    )?;
    fs::write(
        out_dir.join("web_descriptor.bin"),
        web.encode_file_descriptor_set(),
    )?;
    println!("cargo:rerun-if-changed=logistics");
    println!("cargo:rerun-if-changed=google");
    Ok(())
}

/// `files` with their imports and comments, as `protox::compile` would.
fn compile(files: &[&str]) -> Result<protox::Compiler, protox::Error> {
    let mut compiler = protox::Compiler::new(["."])?;
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_files(files)?;
    Ok(compiler)
}
