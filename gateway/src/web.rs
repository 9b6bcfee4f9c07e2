//! Serving the built React app from memory: SPA fallback, cache headers, security headers.
//!
//! Every file below the static directory is read once at start into a map from its URL path
//! to its bytes, with brotli and gzip variants for compressible files (the build's `<file>.br`
//! and `<file>.gz` when present, else compressed once here), a strong ETag from a hash of the
//! content, and the full set of response headers built in advance. A request only looks the
//! path up, picks a variant from `Accept-Encoding` and answers from memory: no file system
//! access, no compression, no allocation beyond the response itself. The `.br` and `.gz` files
//! are served at their own URLs as well, as nginx's `gzip_static` does (they are not secrets).

use std::borrow::Cow;
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};

/// No inline script anywhere; styles may be inline (React style attributes).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; \
form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'";
/// The courier app's: the same, and its bundled barcode reader may compile WebAssembly.
const COURIER_CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; \
media-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; \
manifest-src 'self'; worker-src 'self'";

/// The SPA shell (no prerendered content) that client-only routes get, written by the
/// front end's build beside the prerendered pages; older builds have only `index.html`.
const APP_SHELL: &str = "app.html";

/// Hashed file names under `/assets/` never change content: cached for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else is revalidated on every use (cheap: a `304`).
const REVALIDATE: &str = "no-cache";

/// Files smaller than this are sent as they are: compressing saves less than a packet. The build
/// writes the variants of the larger ones (frontend/scripts/precompress.mjs, the same size and types).
const COMPRESS_MIN_BYTES: usize = 256;
/// Variants missing beside a file (a folder not built by `npm run build`) are made once, at
/// start: brotli and gzip at their best in a release build; a debug build (tests, `cargo
/// run`) has unoptimised compressors, so it settles for quicker levels and starts in time.
const BROTLI_QUALITY: u32 = if cfg!(debug_assertions) { 5 } else { 11 };
const BROTLI_WINDOW: u32 = 22;
const GZIP_LEVEL: u32 = if cfg!(debug_assertions) { 6 } else { 9 };

/// The app's files: hashed assets are cached for a year, everything else revalidated.
/// A route prerendered at build time (`dist/<route>/index.html`) is served as it is at
/// `/<route>` and `/<route>/`, so its content shows before any JavaScript runs; other client
/// routes get the app shell; a missing asset is a real 404, and a path that is neither a
/// file nor a route of the app gets the shell (the app's 404 page) with the status 404.
/// Only `GET` and `HEAD`; anything else is `405`.
/// The track page's form sent before its script ran (or without one): `/track?trackingNumber=…`
/// (or `/es/track?…`) goes on to that number's result page, as the script would, the number
/// read as the page reads it (spaces and dashes out, punctuation trimmed, upper case).
fn track_search(path: &str, query: Option<&str>) -> Option<Response> {
    let prefix = path.strip_suffix("/track")?;
    let is_language = prefix.len() == 3
        && prefix.starts_with('/')
        && prefix[1..].bytes().all(|b| b.is_ascii_lowercase());
    if !(prefix.is_empty() || is_language) {
        return None;
    }
    let raw = query?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == "trackingNumber")?
        .1
        .replace('+', " ");
    let raw = percent_encoding::percent_decode_str(&raw)
        .decode_utf8()
        .ok()?;
    let number: String = raw
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_uppercase();
    if number.is_empty() || number.len() > 200 {
        return None;
    }
    let encoded =
        percent_encoding::utf8_percent_encode(&number, percent_encoding::NON_ALPHANUMERIC);
    let mut response = axum::response::IntoResponse::into_response(StatusCode::SEE_OTHER);
    response.headers_mut().insert(
        header::LOCATION,
        HeaderValue::from_str(&format!("{prefix}/track/{encoded}")).ok()?,
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Some(response)
}

pub fn app_files(static_dir: &Path) -> Router {
    let files = Arc::new(StaticFiles::load(static_dir));
    Router::new().fallback_service(tower::service_fn(move |request: Request| {
        std::future::ready(Ok::<_, Infallible>(files.respond(&request)))
    }))
}

/// One encoding of a file, with its response headers made once.
struct Variant {
    body: Bytes,
    /// The answer `200` (or the shell's `404`) carries.
    headers: HeaderMap,
    /// What a `304` carries: the validators, caching and `Vary`, no content headers.
    not_modified: HeaderMap,
    /// The quoted strong tag, e.g. `"3f2a…-br"`, for `If-None-Match`.
    etag: Box<str>,
}

struct Entry {
    identity: Variant,
    br: Option<Variant>,
    gzip: Option<Variant>,
    /// Whole seconds, as `Last-Modified` says it, for `If-Modified-Since`.
    modified: Option<SystemTime>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Coding {
    Identity,
    Br,
    Gzip,
}

impl Entry {
    fn variant(&self, coding: Coding) -> &Variant {
        match coding {
            Coding::Br => self.br.as_ref().unwrap_or(&self.identity),
            Coding::Gzip => self.gzip.as_ref().unwrap_or(&self.identity),
            Coding::Identity => &self.identity,
        }
    }

    /// The best variant `accept_encoding` allows: the highest q, brotli on a tie, identity
    /// when no compressed variant is acceptable (or none exists).
    fn negotiate(&self, accept_encoding: Option<&HeaderValue>) -> &Variant {
        if self.br.is_none() && self.gzip.is_none() {
            return &self.identity;
        }
        let (br, gzip) = accepted_qualities(accept_encoding);
        let br = if self.br.is_some() { br } else { 0 };
        let gzip = if self.gzip.is_some() { gzip } else { 0 };
        let coding = if br > 0 && br >= gzip {
            Coding::Br
        } else if gzip > 0 {
            Coding::Gzip
        } else {
            Coding::Identity
        };
        self.variant(coding)
    }
}

/// The q-values (in thousandths) `Accept-Encoding` gives brotli and gzip (RFC 9110 §12.5.3):
/// a coding not named takes `*`'s value, or 0; `q=0` means "not acceptable".
fn accepted_qualities(accept_encoding: Option<&HeaderValue>) -> (u16, u16) {
    let Some(value) = accept_encoding.and_then(|v| v.to_str().ok()) else {
        return (0, 0);
    };
    let (mut br, mut gzip, mut any) = (None, None, None);
    for item in value.split(',') {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or_default().trim();
        let mut quality = 1000;
        for parameter in parts {
            let parameter = parameter.trim();
            if let Some(q) = parameter
                .strip_prefix("q=")
                .or_else(|| parameter.strip_prefix("Q="))
            {
                quality = parse_quality(q.trim());
            }
        }
        if coding.eq_ignore_ascii_case("br") {
            br = Some(quality);
        } else if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(quality);
        } else if coding == "*" {
            any = Some(quality);
        }
    }
    (
        br.or(any).unwrap_or_default(),
        gzip.or(any).unwrap_or_default(),
    )
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`; anything else counts as 0,
/// so a coding is never sent on a value we do not understand.
fn parse_quality(text: &str) -> u16 {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let thousandths = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0u16, |n, b| n * 10 + u16::from(b - b'0'));
    match whole {
        "1" if thousandths == 0 => 1000,
        "0" => thousandths,
        _ => 0,
    }
}

/// `If-None-Match` with the weak comparison RFC 9110 §13.1.2 asks for: `W/` is ignored.
fn none_match(if_none_match: &HeaderValue, etag: &str) -> bool {
    let Ok(tags) = if_none_match.to_str() else {
        return false;
    };
    tags.split(',').any(|tag| {
        let tag = tag.trim();
        tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag
    })
}

/// `If-Modified-Since`, only when there is no `If-None-Match` (RFC 9110 §13.1.3).
fn not_modified_since(if_modified_since: &HeaderValue, modified: Option<SystemTime>) -> bool {
    let (Some(modified), Ok(since)) = (modified, if_modified_since.to_str()) else {
        return false;
    };
    httpdate::parse_http_date(since).is_ok_and(|since| modified <= since)
}

struct StaticFiles {
    /// URL path without its leading `/` → file; `about/index.html` is also at `about` and
    /// `about/`, and `index.html` at the empty path.
    files: HashMap<Box<str>, Arc<Entry>>,
    /// `app.html`, or `index.html` for older builds.
    shell: Option<Arc<Entry>>,
    /// A bare 404 (a missing asset, or no app at all).
    missing: HeaderMap,
    method_not_allowed: HeaderMap,
}

impl StaticFiles {
    fn load(static_dir: &Path) -> Self {
        let mut files = HashMap::new();
        let started = std::time::Instant::now();
        let mut raw = Vec::new();
        if let Err(error) = read_tree(static_dir, static_dir, 0, &mut raw) {
            tracing::warn!(dir = %static_dir.display(), %error, "the web app's files could not be read; pages answer 404");
        }
        let raw: HashMap<String, RawFile> = raw.into_iter().collect();
        let mut counts = LoadCounts::default();
        for (key, file) in &raw {
            counts.bytes += file.bytes.len();
            let entry = Arc::new(load_entry(key, file, &raw, &mut counts));
            if key == "index.html" {
                files.insert("".into(), entry.clone());
            }
            if let Some(dir) = key.strip_suffix("/index.html") {
                files.insert(dir.into(), entry.clone());
                files.insert(format!("{dir}/").into(), entry.clone());
            }
            files.insert(key.as_str().into(), entry);
        }
        tracing::info!(
            dir = %static_dir.display(),
            files = raw.len(),
            kib = counts.bytes / 1024,
            prebuilt_variants = counts.prebuilt,
            compressed_at_start = counts.compressed,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "web app loaded into memory"
        );
        let shell = files
            .get(APP_SHELL)
            .or_else(|| files.get("index.html"))
            .cloned();
        let mut missing = HeaderMap::new();
        missing.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
        missing.insert(header::CONTENT_LENGTH, HeaderValue::from_static("0"));
        let mut method_not_allowed = missing.clone();
        method_not_allowed.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        StaticFiles {
            files,
            shell,
            missing,
            method_not_allowed,
        }
    }

    fn respond(&self, request: &Request) -> Response {
        let method = request.method();
        let head = method == Method::HEAD;
        if !head && method != Method::GET {
            return bare(StatusCode::METHOD_NOT_ALLOWED, &self.method_not_allowed);
        }
        let path = request.uri().path();
        if let Some(result) = track_search(path, request.uri().query()) {
            return result;
        }
        let decoded = if path.contains('%') {
            percent_encoding::percent_decode_str(path)
                .decode_utf8()
                .ok()
        } else {
            Some(Cow::Borrowed(path))
        };
        let entry = decoded
            .as_deref()
            .and_then(|path| path.strip_prefix('/'))
            .and_then(|key| self.files.get(key));
        if let Some(entry) = entry {
            return serve(entry, request, head, StatusCode::OK);
        }
        if path.starts_with("/assets/") {
            return bare(StatusCode::NOT_FOUND, &self.missing);
        }
        let Some(shell) = &self.shell else {
            return bare(StatusCode::NOT_FOUND, &self.missing);
        };
        let status = if is_app_route(path) {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };
        serve(shell, request, head, status)
    }
}

fn bare(status: StatusCode, headers: &HeaderMap) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    *response.headers_mut() = headers.clone();
    response
}

fn serve(entry: &Entry, request: &Request, head: bool, status: StatusCode) -> Response {
    let headers = request.headers();
    let variant = entry.negotiate(headers.get(header::ACCEPT_ENCODING));
    // Preconditions apply only to what would otherwise be a 2xx (RFC 9110 §13.2.1).
    if status == StatusCode::OK {
        let unchanged = match headers.get(header::IF_NONE_MATCH) {
            Some(tags) => none_match(tags, &variant.etag),
            None => headers
                .get(header::IF_MODIFIED_SINCE)
                .is_some_and(|since| not_modified_since(since, entry.modified)),
        };
        if unchanged {
            return bare(StatusCode::NOT_MODIFIED, &variant.not_modified);
        }
    }
    let body = if head {
        Body::empty()
    } else {
        Body::from(variant.body.clone())
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = if status == StatusCode::OK {
        variant.headers.clone()
    } else {
        // The shell as a 404: no validators and never the asset cache policy.
        let mut headers = variant.headers.clone();
        headers.remove(header::ETAG);
        headers.remove(header::LAST_MODIFIED);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
        headers
    };
    response
}

/// What loading found, for its log line. The build's variants share their bytes with their
/// own files (`x.js.gz` is one allocation), so only variants made here add to `bytes`.
#[derive(Default)]
struct LoadCounts {
    bytes: usize,
    prebuilt: usize,
    compressed: usize,
}

struct RawFile {
    bytes: Bytes,
    modified: Option<SystemTime>,
}

/// Every regular file below `dir` (following links) but hidden ones, keyed by its path
/// relative to `root` with `/` separators. Depth is bounded, so a link loop cannot run away.
fn read_tree(
    root: &Path,
    dir: &Path,
    depth: usize,
    out: &mut Vec<(String, RawFile)>,
) -> std::io::Result<()> {
    if depth > 16 {
        return Ok(());
    }
    for item in std::fs::read_dir(dir)? {
        let path: PathBuf = item?.path();
        // Hidden files are the build's or the host's (`.vite/`, `.env`, `.git/`), not the site's;
        // `.well-known/` is where a site publishes `security.txt` and its kin.
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') && !(depth == 0 && name == ".well-known") {
            continue;
        }
        let Ok(metadata) = std::fs::metadata(&path) else {
            continue;
        };
        if metadata.is_dir() {
            read_tree(root, &path, depth + 1, out)?;
        } else if metadata.is_file() {
            let Some(key) = path
                .strip_prefix(root)
                .ok()
                .and_then(|p| p.to_str())
                .map(|p| p.replace(std::path::MAIN_SEPARATOR, "/"))
            else {
                tracing::warn!(path = %path.display(), "file name is not UTF-8; not served");
                continue;
            };
            let bytes = std::fs::read(&path)?;
            out.push((
                key,
                RawFile {
                    bytes: Bytes::from(bytes),
                    modified: metadata.modified().ok(),
                },
            ));
        }
    }
    Ok(())
}

fn load_entry(
    key: &str,
    file: &RawFile,
    all: &HashMap<String, RawFile>,
    counts: &mut LoadCounts,
) -> Entry {
    let content_type = mime_guess::from_path(key)
        .first_raw()
        .unwrap_or("application/octet-stream");
    let hash = Sha256::digest(&file.bytes);
    let hash: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    let cache_control = if key.starts_with("assets/") {
        IMMUTABLE
    } else {
        REVALIDATE
    };
    // Whole seconds: what `Last-Modified` can say, so `If-Modified-Since` compares alike.
    let modified = file.modified.map(|t| {
        let seconds = t
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(seconds)
    });
    let compressible = compressible(content_type) && file.bytes.len() >= COMPRESS_MIN_BYTES;
    let mut variant_of = |suffix: &str, coding: Coding| -> Option<Bytes> {
        if !compressible {
            return None;
        }
        let built = all.get(&format!("{key}{suffix}")).filter(|variant| {
            // An old variant beside a newer file would be the wrong content.
            variant.modified >= file.modified
                && decompress(coding, &variant.bytes).is_some_and(|d| d == file.bytes[..])
        });
        let bytes = match built {
            Some(variant) => {
                counts.prebuilt += 1;
                variant.bytes.clone()
            }
            None => {
                let bytes = compress(coding, &file.bytes);
                counts.compressed += 1;
                counts.bytes += bytes.len();
                Bytes::from(bytes)
            }
        };
        // Not worth a `Content-Encoding` unless it saves something.
        (bytes.len() < file.bytes.len()).then_some(bytes)
    };
    let br = variant_of(".br", Coding::Br);
    let gzip = variant_of(".gz", Coding::Gzip);
    let vary = br.is_some() || gzip.is_some();
    let make = |body: Bytes, coding: Coding| {
        let etag = match coding {
            Coding::Identity => format!("\"{hash}\""),
            Coding::Br => format!("\"{hash}-br\""),
            Coding::Gzip => format!("\"{hash}-gz\""),
        };
        let mut not_modified = HeaderMap::new();
        not_modified.insert(
            header::ETAG,
            HeaderValue::from_str(&etag).expect("hex is a header value"),
        );
        not_modified.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control),
        );
        if let Some(modified) = modified {
            not_modified.insert(
                header::LAST_MODIFIED,
                HeaderValue::from_str(&httpdate::fmt_http_date(modified))
                    .expect("a date is a header value"),
            );
        }
        if vary {
            not_modified.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        let mut headers = not_modified.clone();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        match coding {
            Coding::Br => {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
            }
            Coding::Gzip => {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
            Coding::Identity => {}
        }
        Variant {
            body,
            headers,
            not_modified,
            etag: etag.into(),
        }
    };
    Entry {
        br: br.map(|body| make(body, Coding::Br)),
        gzip: gzip.map(|body| make(body, Coding::Gzip)),
        identity: make(file.bytes.clone(), Coding::Identity),
        modified,
    }
}

fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.contains("javascript")
        || content_type.contains("json")
        || content_type.contains("xml")
        || content_type == "application/wasm"
        || content_type == "image/x-icon"
        || content_type == "image/vnd.microsoft.icon"
}

fn compress(coding: Coding, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() / 2);
    match coding {
        Coding::Br => {
            let mut writer =
                brotli::CompressorWriter::new(&mut out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
            writer.write_all(bytes).expect("writing to memory");
            drop(writer);
        }
        Coding::Gzip => {
            let mut encoder =
                flate2::write::GzEncoder::new(&mut out, flate2::Compression::new(GZIP_LEVEL));
            encoder.write_all(bytes).expect("writing to memory");
            encoder.finish().expect("writing to memory");
        }
        Coding::Identity => out.extend_from_slice(bytes),
    }
    out
}

fn decompress(coding: Coding, bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let done = match coding {
        Coding::Br => brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out),
        Coding::Gzip => flate2::read::GzDecoder::new(bytes).read_to_end(&mut out),
        Coding::Identity => return Some(bytes.to_vec()),
    };
    done.ok().map(|_| out)
}

/// The public pages' language prefixes (English has none): `/es/track/…` is `/track/…` in Spanish.
const LANGUAGE_PREFIXES: [&str; 3] = ["/es", "/fr", "/ar"];

/// The web app's routes (frontend/src/app/routes.tsx); any other page is its 404 page.
fn is_app_route(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    for prefix in LANGUAGE_PREFIXES {
        if let Some(rest) = path.strip_prefix(prefix) {
            if rest.is_empty() {
                return true;
            }
            if rest.starts_with('/') {
                return is_public_route(rest);
            }
        }
    }
    is_public_route(path) || is_admin_route(path) || is_portal_route(path) || path == COURIER_APP
}

/// The courier app (routes.tsx): one page; the shipment it shows is in the query.
const COURIER_APP: &str = "/courier";

/// A public page (the same in every language).
fn is_public_route(path: &str) -> bool {
    let mut segments = path.split('/').skip(1);
    match (segments.next(), segments.next(), segments.next()) {
        (None, _, _) => true,
        (
            Some(
                "about" | "services" | "contact" | "track" | "privacy" | "terms" | "faq"
                | "ship-with-us" | "quote" | "invitation",
            ),
            None,
            _,
        ) => true,
        (Some("track"), Some(number), None) => !number.is_empty(),
        _ => false,
    }
}

/// The back office, in English only (the router's routes in admin-layout.tsx).
fn is_admin_route(path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    match segments.as_slice() {
        ["login" | "administration_and_development"] => true,
        ["administration_and_development", page] => matches!(
            *page,
            "login"
                | "users"
                | "emails"
                | "settings"
                | "audit"
                | "labels"
                | "webhooks"
                | "import"
                | "account"
                | "customers"
                | "pickups"
                | "api-keys"
                | "rates"
                | "exceptions"
        ),
        // One customer's page, or the account requests.
        ["administration_and_development", "customers", id] => !id.is_empty(),
        // One rate card: `public` or a customer's id.
        ["administration_and_development", "rates", id] => !id.is_empty(),
        _ => false,
    }
}

/// The customers' portal (the router's routes in portal-layout.tsx).
fn is_portal_route(path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    match segments.as_slice() {
        ["portal"] => true,
        ["portal", page] => matches!(
            *page,
            "login"
                | "book"
                | "labels"
                | "address-book"
                | "notifications"
                | "pickups"
                | "users"
                | "api-keys"
                | "webhooks"
        ),
        ["portal", "pickups", "new"] => true,
        ["portal", "shipments", id] => !id.is_empty(),
        _ => false,
    }
}

/// Headers every response carries.
pub async fn security_headers(request: Request, next: Next) -> Response {
    // Only the courier app may use the camera (labels) and the phone's position (places).
    let courier = request.uri().path().trim_end_matches('/') == COURIER_APP;
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(if courier {
            COURIER_CONTENT_SECURITY_POLICY
        } else {
            CONTENT_SECURITY_POLICY
        }),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        "permissions-policy",
        HeaderValue::from_static(if courier {
            "camera=(self), microphone=(), geolocation=(self)"
        } else {
            "camera=(), microphone=(), geolocation=()"
        }),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_track_form_sent_without_its_script_goes_to_the_numbers_page() {
        let location = |path: &str, query: &str| {
            track_search(path, Some(query))
                .map(|r| r.headers()[header::LOCATION].to_str().unwrap().to_owned())
        };
        assert_eq!(
            location("/track", "trackingNumber=pse+3136+81562."),
            Some("/track/PSE313681562".into())
        );
        assert_eq!(
            location("/es/track", "x=1&trackingNumber=%20pse-313681562"),
            Some("/es/track/PSE313681562".into())
        );
        assert_eq!(
            location("/track", "trackingNumber=..."),
            None,
            "nothing left"
        );
        assert_eq!(location("/track", "q=PSE313681562"), None);
        assert_eq!(location("/about/track", "trackingNumber=PSE1"), None);
        assert_eq!(location("/track/PSE1", "trackingNumber=PSE2"), None);
    }

    fn value(text: &'static str) -> HeaderValue {
        HeaderValue::from_static(text)
    }

    #[test]
    fn qualities_follow_rfc_9110() {
        assert_eq!(accepted_qualities(None), (0, 0));
        assert_eq!(accepted_qualities(Some(&value("gzip, br"))), (1000, 1000));
        assert_eq!(accepted_qualities(Some(&value("gzip, deflate"))), (0, 1000));
        assert_eq!(accepted_qualities(Some(&value("br;q=0, gzip"))), (0, 1000));
        assert_eq!(
            accepted_qualities(Some(&value("br;q=0.5, gzip;q=0.8"))),
            (500, 800)
        );
        assert_eq!(
            accepted_qualities(Some(&value("*;q=0.1, gzip;q=0"))),
            (100, 0)
        );
        assert_eq!(accepted_qualities(Some(&value("BR ; Q=1.000"))), (1000, 0));
        assert_eq!(
            accepted_qualities(Some(&value("br;q=2, gzip;q=abc"))),
            (0, 0)
        );
        assert_eq!(accepted_qualities(Some(&value("identity"))), (0, 0));
    }

    #[test]
    fn etags_compare_weakly_for_if_none_match() {
        assert!(none_match(&value("\"abc-br\""), "\"abc-br\""));
        assert!(none_match(&value("W/\"abc-br\""), "\"abc-br\""));
        assert!(none_match(&value("\"x\", W/\"abc\""), "\"abc\""));
        assert!(none_match(&value("*"), "\"abc\""));
        assert!(!none_match(&value("\"abc\""), "\"abc-br\""));
    }

    #[test]
    fn app_routes() {
        for path in [
            "/",
            "",
            "/about",
            "/about/",
            "/track/PSE1",
            "/administration_and_development/users",
            "/administration_and_development/labels",
            "/administration_and_development/settings",
            "/administration_and_development/audit",
            "/administration_and_development/webhooks",
            "/administration_and_development/import",
            "/administration_and_development/account",
            "/administration_and_development/customers",
            "/administration_and_development/customers/requests",
            "/administration_and_development/customers/01a2b3",
            "/administration_and_development/pickups",
            "/administration_and_development/api-keys",
            "/administration_and_development/rates",
            "/administration_and_development/rates/public",
            "/administration_and_development/rates/01a2b3",
            "/administration_and_development/exceptions",
            "/portal",
            "/portal/login",
            "/portal/book",
            "/portal/labels",
            "/portal/address-book",
            "/portal/notifications",
            "/portal/pickups",
            "/portal/pickups/new",
            "/portal/users",
            "/portal/api-keys",
            "/portal/webhooks",
            "/portal/shipments/01a2b3",
            "/invitation",
            "/es/invitation",
            "/quote",
            "/ar/quote",
            "/es",
            "/fr/",
            "/ar/about",
            "/es/track",
            "/fr/track/PSE123456789",
            "/courier",
        ] {
            assert!(is_app_route(path), "{path}");
        }
        for path in [
            "/nope",
            "/track/PSE1/x",
            "/about/team",
            "/administration_and_development/x",
            "/administration_and_development/customers/a/b",
            "/administration_and_development/rates/public/x",
            "/portal/x",
            "/portal/shipments",
            "/portal/shipments/a/b",
            "/portal/pickups/old",
            "/es/portal",
            "/es/nope",
            "/esp/about",
            "/de/about",
            "/es/administration_and_development",
            "/fr/track/PSE1/x",
            "/courier/x",
            "/es/courier",
        ] {
            assert!(!is_app_route(path), "{path}");
        }
    }
}
