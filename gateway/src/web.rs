//! Serving the built React app: SPA fallback, cache headers, security headers.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// No inline script anywhere; styles may be inline (React style attributes).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; \
form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'";

/// The SPA shell (no prerendered content) that client-only routes get, written by the
/// front end's build beside the prerendered pages; older builds have only `index.html`.
const APP_SHELL: &str = "app.html";

/// The app's files: hashed assets are cached for a year, everything else revalidated.
/// A route prerendered at build time (`dist/<route>/index.html`) is served as it is, so its
/// content shows before any JavaScript runs; other client routes get the app shell; a
/// missing asset is a real 404.
pub fn app_files(static_dir: &Path) -> Router {
    let shell = static_dir.join(APP_SHELL);
    let fallback = if shell.is_file() {
        shell
    } else {
        static_dir.join("index.html")
    };
    let prerendered = Arc::new(prerendered_routes(static_dir));
    let files = static_dir.to_path_buf();
    let assets = ServeDir::new(static_dir.join("assets"));
    let pages = ServeDir::new(static_dir)
        .append_index_html_on_directories(true)
        .fallback(ServeFile::new(fallback));
    Router::new()
        .nest_service("/assets", assets)
        .fallback_service(pages)
        .layer(middleware::from_fn(move |request, next| {
            serve_prerendered(prerendered.clone(), request, next)
        }))
        .layer(middleware::from_fn(move |request, next| {
            not_found_status(files.clone(), request, next)
        }))
        .layer(middleware::from_fn(cache_control))
        .layer(CompressionLayer::new())
}

/// `/about` for each `about/index.html` below `static_dir` (one level: the site's routes).
fn prerendered_routes(static_dir: &Path) -> HashSet<String> {
    let Ok(entries) = std::fs::read_dir(static_dir) else {
        return HashSet::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().join("index.html").is_file())
        .filter_map(|e| e.file_name().to_str().map(|name| format!("/{name}")))
        .filter(|route| route != "/assets")
        .collect()
}

/// Serves `/about` (and `/about/`) from `about/index.html` without a redirect.
async fn serve_prerendered(
    routes: Arc<HashSet<String>>,
    mut request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().trim_end_matches('/').to_owned();
    if routes.contains(&path) {
        let query = request
            .uri()
            .query()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        if let Ok(uri) = format!("{path}/index.html{query}").parse() {
            *request.uri_mut() = uri;
        }
    }
    next.run(request).await
}

/// The web app's routes (frontend/src/app/routes.tsx); any other page is its 404 page.
fn is_app_route(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    match segments.as_slice() {
        []
        | ["about" | "services" | "contact" | "track" | "login" | "privacy" | "terms" | "faq"] => {
            true
        }
        ["track", number] => !number.is_empty(),
        ["administration_and_development"] => true,
        [
            "administration_and_development",
            "login" | "users" | "emails",
        ] => true,
        _ => false,
    }
}

/// A path that is neither a route of the app nor a file gets the app (which shows its 404
/// page) with the status 404, so crawlers and tools see a missing page as missing.
async fn not_found_status(
    static_dir: std::path::PathBuf,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    let missing = !is_app_route(&path)
        && !path.starts_with("/assets/")
        && !path.contains("..")
        && !static_dir.join(path.trim_start_matches('/')).is_file();
    let mut response = next.run(request).await;
    if missing && response.status().is_success() {
        *response.status_mut() = http::StatusCode::NOT_FOUND;
    }
    response
}

async fn cache_control(request: Request, next: Next) -> Response {
    let immutable = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let value = if immutable && response.status().is_success() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}

/// Headers every response carries.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
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
        HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
    );
    response
}
