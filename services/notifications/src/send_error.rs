//! Why a send did not succeed, whichever way the e-mail went (API or SMTP).

use std::time::Duration;

/// Why a send did not succeed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SendError {
    /// 429, 5xx, a timeout or a network failure: worth trying again, not before
    /// `retry_after` when the server said so.
    #[error("{error}")]
    Passing {
        error: String,
        retry_after: Option<Duration>,
    },
    /// 400, 403 and the like: trying again would fail the same way.
    #[error("{0}")]
    Refused(String),
    /// Sending is impossible until the configuration is fixed.
    #[error("{0}")]
    NotConfigured(String),
}
