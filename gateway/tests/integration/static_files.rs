//! The app's files: SPA fallback, prerendered routes, compression, ETags and caching, methods,
//! security headers.

use crate::common;

use crate::calls::*;
use common::site::{Site, all_in_one_with, static_dir};
use common::wire::frame;

#[tokio::test]
async fn serves_the_app_with_spa_fallback_cache_and_security_headers() {
    let site = all_in_one(60).await;
    let client = reqwest::Client::new();
    for path in [
        "/",
        "/track/PSE123456789",
        "/administration_and_development",
        "/no/such/page",
    ] {
        let response = client
            .get(format!("{}{path}", site.base))
            .send()
            .await
            .unwrap();
        let expected = if path == "/no/such/page" { 404 } else { 200 };
        assert_eq!(response.status(), expected, "{path}");
        let headers = response.headers().clone();
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
        assert!(
            !csp.split(';')
                .any(|d| d.trim().starts_with("script-src") && d.contains("unsafe-inline"))
        );
        // The camera and the phone's position, and WebAssembly (its barcode reader), only
        // in the courier app.
        assert!(!csp.contains("wasm-unsafe-eval"), "{path}");
        assert_eq!(
            headers["permissions-policy"],
            "camera=(), microphone=(), geolocation=()"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(
            headers["referrer-policy"],
            "strict-origin-when-cross-origin"
        );
        assert!(
            response
                .text()
                .await
                .unwrap()
                .contains("/assets/app-1a2b3c.js")
        );
    }
    let courier = client
        .get(format!("{}/courier", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(courier.status(), 200);
    let csp = courier.headers()["content-security-policy"]
        .to_str()
        .unwrap();
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval';"),
        "{csp}"
    );
    assert_eq!(
        courier.headers()["permissions-policy"],
        "camera=(self), microphone=(), geolocation=(self)"
    );
    let asset = client
        .get(format!("{}/assets/app-1a2b3c.js", site.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(asset.headers()["content-encoding"], "gzip");
    let missing = client
        .get(format!("{}/assets/app-000000.js", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        missing.status(),
        404,
        "a missing asset is not the app shell"
    );
    let (_, headers) = grpc_web(&site.base, "GetShipmentByTrackingNumber", frame(&[])).await;
    assert_eq!(
        headers["x-content-type-options"], "nosniff",
        "RPC answers carry the headers too"
    );
}

#[tokio::test]
async fn prerendered_routes_are_served_as_built_and_other_routes_get_the_app_shell() {
    let files = static_dir();
    std::fs::create_dir(files.path().join("about")).unwrap();
    std::fs::write(files.path().join("about/index.html"), "<h1>Our Story</h1>").unwrap();
    std::fs::write(files.path().join("app.html"), "<div id=root></div>").unwrap();
    let site = all_in_one_with(|s| s.static_dir = files.path().to_path_buf()).await;
    let base = site.base.clone();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let body = |path: &'static str| {
        let client = client.clone();
        let base = base.clone();
        async move {
            let response = client.get(format!("{base}{path}")).send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    assert_eq!(
        body("/about").await,
        (200, "<h1>Our Story</h1>".to_owned()),
        "no redirect to /about/"
    );
    assert_eq!(body("/about/").await.1, "<h1>Our Story</h1>");
    assert_eq!(body("/about?ref=mail").await.1, "<h1>Our Story</h1>");
    assert_eq!(
        body("/track/PSE123456789").await,
        (200, "<div id=root></div>".to_owned()),
        "client routes get the shell"
    );
    assert!(body("/").await.1.contains("app app"), "home is index.html");
    assert_eq!(body("/administration_and_development/emails").await.0, 200);
    assert_eq!(
        body("/no-such-page").await,
        (404, "<div id=root></div>".to_owned()),
        "the app shows its 404 page, with the status to match"
    );
    assert_eq!(body("/track/PSE1/extra").await.0, 404);
}

#[tokio::test]
async fn hidden_files_are_not_served_but_well_known_ones_are() {
    let files = static_dir();
    for (path, content) in [
        (".vite/manifest.json", "{\"src/main.tsx\":{}}"),
        (".env", "SMTP_PASSWORD=secret"),
        ("assets/.DS_Store", "finder"),
        (
            ".well-known/security.txt",
            "Contact: mailto:security@example.com",
        ),
    ] {
        let file = files.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
    let site = all_in_one_with(|s| s.static_dir = files.path().to_path_buf()).await;
    for path in ["/.vite/manifest.json", "/.env", "/assets/.DS_Store"] {
        let response = get_with(&site.base, path, &[]).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(!response.text().await.unwrap().contains("secret"), "{path}");
    }
    let security = get_with(&site.base, "/.well-known/security.txt", &[]).await;
    assert_eq!(security.status(), 200);
    assert_eq!(
        security.text().await.unwrap(),
        "Contact: mailto:security@example.com"
    );
}

/// A site whose app has a large script (compressed at start), a script with the build's own
/// `.gz` beside it, and one with a `.br` that is not its content (ignored, compressed afresh).
async fn site_with_compressible_files() -> (Site, Vec<u8>) {
    use std::io::Write;
    let big: Vec<u8> = (0..400)
        .flat_map(|i| format!("export const value{i} = 'shipment {i}';\n").into_bytes())
        .collect();
    let site = all_in_one_with(|s| {
        let dir = &s.static_dir;
        std::fs::write(dir.join("assets/big-9f8e7d.js"), &big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js"), &big).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&big).unwrap();
        std::fs::write(dir.join("assets/built-1234ab.js.gz"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("assets/big-9f8e7d.js.br"), b"not brotli of it").unwrap();
    })
    .await;
    (site, big)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

async fn get_with(base: &str, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn static_files_are_negotiated_brotli_gzip_or_identity() {
    let (site, big) = site_with_compressible_files().await;
    let path = "/assets/big-9f8e7d.js";
    for (accept, expected) in [
        (Some("gzip, deflate, br, zstd"), Some("br")),
        (Some("gzip, br"), Some("br")),
        (Some("br;q=0.5, gzip"), Some("gzip")),
        (Some("gzip"), Some("gzip")),
        (Some("x-gzip"), Some("gzip")),
        (Some("br;q=0, gzip"), Some("gzip")),
        (Some("BR;Q=0.9, GZIP;q=0.9"), Some("br")),
        (Some("*"), Some("br")),
        (Some("*;q=0.5, br;q=0"), Some("gzip")),
        (Some("gzip;q=0, br;q=0"), None),
        (Some("deflate"), None),
        (Some("identity"), None),
        (None, None),
    ] {
        let headers: Vec<(&str, &str)> =
            accept.map(|a| ("accept-encoding", a)).into_iter().collect();
        let response = get_with(&site.base, path, &headers).await;
        assert_eq!(response.status(), 200, "{accept:?}");
        let h = response.headers().clone();
        assert_eq!(
            h.get("content-encoding").map(|v| v.to_str().unwrap()),
            expected,
            "{accept:?}"
        );
        assert_eq!(h["vary"], "accept-encoding", "{accept:?}");
        assert_eq!(h["cache-control"], "public, max-age=31536000, immutable");
        assert!(
            h["content-type"].to_str().unwrap().contains("javascript"),
            "{accept:?}"
        );
        assert_eq!(
            h["x-content-type-options"], "nosniff",
            "security headers stay"
        );
        assert_eq!(h.get("x-request-id").map(|v| v.len()), Some(16));
        let etag = h["etag"].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"') && !etag.starts_with("W/"));
        let body = response.bytes().await.unwrap();
        assert_eq!(h["content-length"], body.len().to_string().as_str());
        let decoded = match expected {
            Some("br") => {
                assert!(etag.ends_with("-br\""), "{etag}");
                unbrotli(&body)
            }
            Some(_) => {
                assert!(etag.ends_with("-gz\""), "{etag}");
                gunzip(&body)
            }
            None => body.to_vec(),
        };
        assert_eq!(decoded, big, "{accept:?}: the original bytes");
        if expected.is_some() {
            assert!(body.len() < big.len() / 3, "{accept:?}: compressed");
        }
    }

    // The build's gzip is sent as built; brotli made at start for it.
    let gz = get_with(
        &site.base,
        "/assets/built-1234ab.js",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let gz = gz.bytes().await.unwrap();
    assert_eq!(gunzip(&gz), big);
    // The variant files are plain files at their own URLs too, as with nginx's gzip_static.
    let raw = get_with(
        &site.base,
        "/assets/built-1234ab.js.gz",
        &[("accept-encoding", "gzip, br")],
    )
    .await;
    assert_eq!(raw.status(), 200);
    assert!(raw.headers().get("content-encoding").is_none());
    assert_eq!(
        raw.bytes().await.unwrap(),
        gz,
        "the build's own .gz is what was sent"
    );

    // Small files are sent as they are; the HTML shell too is negotiated.
    let favicon_like = get_with(&site.base, "/", &[("accept-encoding", "gzip, br")]).await;
    assert_eq!(favicon_like.status(), 200);
    assert_eq!(favicon_like.headers()["cache-control"], "no-cache");
}

#[tokio::test]
async fn static_files_answer_304_to_their_etag_and_serve_head() {
    let (site, big) = site_with_compressible_files().await;
    let path = "/assets/big-9f8e7d.js";
    let br = [("accept-encoding", "br")];
    let first = get_with(&site.base, path, &br).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let last_modified = first.headers()["last-modified"]
        .to_str()
        .unwrap()
        .to_owned();
    for tag in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".into(),
    ] {
        let again = get_with(&site.base, path, &[br[0], ("if-none-match", &tag)]).await;
        assert_eq!(again.status(), 304, "{tag}");
        assert_eq!(again.headers()["etag"], etag.as_str());
        assert_eq!(again.headers()["vary"], "accept-encoding");
        assert_eq!(
            again.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert!(again.headers().get("x-request-id").is_some());
        assert!(again.bytes().await.unwrap().is_empty());
    }
    // Another variant has another tag: the brotli tag does not validate the gzip bytes.
    let gzip = get_with(
        &site.base,
        path,
        &[("accept-encoding", "gzip"), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(gzip.status(), 200);
    assert_ne!(gzip.headers()["etag"], etag.as_str());
    let since = get_with(&site.base, path, &[("if-modified-since", &last_modified)]).await;
    assert_eq!(since.status(), 304, "If-Modified-Since");
    let stale = get_with(
        &site.base,
        path,
        &[
            ("if-none-match", "\"other\""),
            ("if-modified-since", &last_modified),
        ],
    )
    .await;
    assert_eq!(
        stale.status(),
        200,
        "If-None-Match wins over If-Modified-Since"
    );
    // App routes revalidate too; a 404 is never a 304.
    let page = get_with(&site.base, "/track/PSE123456789", &[]).await;
    let page_tag = page.headers()["etag"].to_str().unwrap().to_owned();
    let again = get_with(
        &site.base,
        "/track/PSE123456789",
        &[("if-none-match", &page_tag)],
    )
    .await;
    assert_eq!(again.status(), 304);
    let missing = get_with(&site.base, "/no-such-page", &[("if-none-match", "*")]).await;
    assert_eq!(missing.status(), 404);
    assert!(missing.headers().get("etag").is_none());

    // HEAD: the headers of a GET, no body.
    let client = reqwest::Client::new();
    for accept in ["br", "gzip", "identity"] {
        let get = get_with(&site.base, path, &[("accept-encoding", accept)]).await;
        let head = client
            .head(format!("{}{path}", site.base))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(head.status(), 200);
        for name in [
            "content-length",
            "content-type",
            "etag",
            "cache-control",
            "vary",
        ] {
            assert_eq!(
                head.headers().get(name),
                get.headers().get(name),
                "{accept} {name}"
            );
        }
        assert_eq!(
            head.headers().get("content-encoding"),
            get.headers().get("content-encoding")
        );
        assert!(head.bytes().await.unwrap().is_empty());
    }
    let identity_length = get_with(&site.base, path, &[]).await.headers()["content-length"].clone();
    assert_eq!(identity_length, big.len().to_string().as_str());
}

#[tokio::test]
async fn static_files_allow_get_and_head_only() {
    let site = all_in_one(60).await;
    let client = reqwest::Client::new();
    for (method, path) in [
        (reqwest::Method::POST, "/"),
        (reqwest::Method::PUT, "/assets/app-1a2b3c.js"),
        (reqwest::Method::DELETE, "/about"),
        (reqwest::Method::OPTIONS, "/no-such-page"),
    ] {
        let response = client
            .request(method.clone(), format!("{}{path}", site.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 405, "{method} {path}");
        assert_eq!(response.headers()["allow"], "GET, HEAD");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }
}
