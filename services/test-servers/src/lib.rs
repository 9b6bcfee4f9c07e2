//! For tests only, a dev-dependency of the crates whose tests use it, so none of it ships in
//! a production binary: a real SMTP server and a webhook receiver on free loopback ports, and
//! the MongoDB server the store suites run against.

pub mod smtp;
pub mod webhooks;

/// The server the MongoDB suites run against (`TEST_MONGODB_URI`, set by
/// `make test`), and a fresh database name on it. None when `SKIP_MONGO_TESTS=1`; without
/// either it panics, so a missing server never passes silently.
pub fn mongodb() -> Option<(String, String)> {
    let uri = match std::env::var("TEST_MONGODB_URI") {
        Ok(uri) if !uri.is_empty() => uri,
        _ if std::env::var("SKIP_MONGO_TESTS").as_deref() == Ok("1") => return None,
        _ => panic!("TEST_MONGODB_URI is not set: run `make test`, or set SKIP_MONGO_TESTS=1"),
    };
    // Tests run in parallel threads and a coarse clock can give two of them the same instant:
    // the counter keeps every test's database its own.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let database = format!(
        "test_{:x}_{:x}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    Some((uri, database))
}
