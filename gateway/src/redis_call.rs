//! Every Redis call gets one deadline: while Redis is away the connection manager waits on its
//! reconnect backoff, and without a bound a rate-limit or session check would hang for seconds.

use std::future::Future;
use std::time::Duration;

/// Longest a Redis call may take before the caller treats Redis as unavailable.
pub const DEADLINE: Duration = Duration::from_secs(1);

pub async fn bounded<T>(call: impl Future<Output = redis::RedisResult<T>>) -> Result<T, String> {
    match tokio::time::timeout(DEADLINE, call).await {
        Ok(result) => result.map_err(|e| e.to_string()),
        Err(_) => Err(format!("no answer from Redis within {DEADLINE:?}")),
    }
}
