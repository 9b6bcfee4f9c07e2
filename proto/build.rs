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
    let generated = out_dir.join("logistics.v1.rs");
    fs::write(
        &generated,
        with_direct_calls(&fs::read_to_string(&generated)?)?,
    )?;
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

/// `code` (tonic's generated servers) with, in each server's module, the impl of
/// `crate::direct::Unary` for its unary methods, read from tonic's own dispatch arms: the same
/// paths, message types and handler names, so a method is declared once, in the proto.
fn with_direct_calls(code: &str) -> Result<String, Box<dyn std::error::Error>> {
    const OPENING: &str = "    use tonic::codegen::*;\n";
    let mut out = String::with_capacity(code.len() * 11 / 10);
    let mut rest = code;
    while let Some(start) = rest.find("pub mod ") {
        let line_end = start + rest[start..].find('\n').ok_or("unterminated line")?;
        let name = rest[start + 8..line_end].trim_end_matches(" {");
        if !name.ends_with("_server") {
            out.push_str(&rest[..=line_end]);
            rest = &rest[line_end + 1..];
            continue;
        }
        // The module ends where the next top-level module (or the file) does.
        let end = rest[line_end..]
            .find("\n/// Generated ")
            .map_or(rest.len(), |i| line_end + i);
        let module = &rest[start..end];
        let server = between(module, "pub struct ", "<T>").ok_or("no server struct")?;
        let service = between(module, "pub trait ", ":").ok_or("no service trait")?;
        let mut arms = String::new();
        let mut paths = Vec::new();
        for arm in module.split("                \"").skip(1) {
            let Some(path) = arm.split('"').next().filter(|p| p.starts_with('/')) else {
                continue;
            };
            let Some(input) = between(arm, "tonic::server::UnaryService<", ">") else {
                continue; // a streaming method: tonic's path serves it
            };
            let handler = between(arm, &format!("<T as {service}>::"), "(")
                .ok_or("no handler call in a unary arm")?;
            paths.push(format!("\"{path}\""));
            arms.push_str(&format!(
                "            \"{path}\" => Box::pin(async move {{\n\
                 \x20               let request = crate::direct::decode::<{input}>(request, limit)?;\n\
                 \x20               <T as {service}>::{handler}(&inner, request).await.map(crate::direct::encode)\n\
                 \x20           }}),\n"
            ));
        }
        let opening = module
            .find(OPENING)
            .ok_or("no use line in a server module")?
            + OPENING.len();
        out.push_str(&rest[..start]);
        out.push_str(&module[..opening]);
        out.push_str(&format!(
            "    impl<T: {service}> crate::direct::Unary for {server}<T> {{\n\
             \x20       fn serves(&self, path: &str) -> bool {{\n\
             \x20           {served}\n\
             \x20       }}\n\
             \x20       fn unary(&self, request: http::Request<Bytes>) -> crate::direct::UnaryFuture {{\n\
             \x20           let inner = Arc::clone(&self.inner);\n\
             \x20           let limit = self.max_decoding_message_size;\n\
             \x20           match request.uri().path() {{\n\
             {arms}\
             \x20               _ => crate::direct::unimplemented(),\n\
             \x20           }}\n\
             \x20       }}\n\
             \x20   }}\n",
            served = if paths.is_empty() {
                "false".to_owned()
            } else {
                format!("matches!(path, {})", paths.join(" | "))
            },
        ));
        out.push_str(&module[opening..]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The text between the first `open` in `text` and the next `close` after it.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let from = text.find(open)? + open.len();
    let to = from + text[from..].find(close)?;
    Some(&text[from..to])
}
