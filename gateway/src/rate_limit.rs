//! Per-client rate limits. In process for now; the trait lets a shared store replace it.

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota};

/// Counts requests per client and says whether one more is allowed.
pub trait RateLimiter: Send + Sync + 'static {
    fn allow(&self, client: IpAddr) -> bool;
}

/// A token bucket per client IP, refilled evenly over a minute.
pub struct InProcessRateLimiter {
    buckets: DefaultKeyedRateLimiter<IpAddr>,
}

impl InProcessRateLimiter {
    pub fn per_minute(limit: NonZeroU32) -> Self {
        Self { buckets: DefaultKeyedRateLimiter::keyed(Quota::per_minute(limit)) }
    }

    /// Forgets clients whose buckets are full again, so memory stays bounded.
    pub fn forget_idle_clients(&self) {
        self.buckets.retain_recent();
    }
}

impl RateLimiter for InProcessRateLimiter {
    fn allow(&self, client: IpAddr) -> bool {
        self.buckets.check_key(&client).is_ok()
    }
}
