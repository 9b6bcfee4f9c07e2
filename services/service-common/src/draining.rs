//! Whether the servers of this process are shutting down. Long-lived streams (the watchers of
//! live pages) end when it begins: a draining server waits for its calls in flight, and a
//! watcher would otherwise hold it open for as long as the stream lasts. The client watches
//! again, on another replica or after the restart.

use std::sync::{LazyLock, Mutex};

use tokio::sync::watch;

/// The signal of the servers running now; a server that starts after a shutdown gets a new one.
static CURRENT: LazyLock<Mutex<watch::Sender<bool>>> =
    LazyLock::new(|| Mutex::new(watch::channel(false).0));

/// Ends every stream watching `signal()` now.
pub fn begin() {
    let fresh = watch::channel(false).0;
    let old = std::mem::replace(&mut *CURRENT.lock().unwrap_or_else(|e| e.into_inner()), fresh);
    old.send_replace(true);
}

/// What a long-lived stream watches: resolves when the servers begin to shut down.
pub fn signal() -> Draining {
    Draining(CURRENT.lock().unwrap_or_else(|e| e.into_inner()).subscribe())
}

pub struct Draining(watch::Receiver<bool>);

impl Draining {
    /// Returns once this process has begun to shut down.
    pub async fn started(&mut self) {
        let _ = self.0.wait_for(|draining| *draining).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_shutdown_ends_the_streams_of_the_servers_running_then_only() {
        let mut before = signal();
        begin();
        tokio::time::timeout(std::time::Duration::from_secs(1), before.started())
            .await
            .expect("a stream watching before the shutdown ends");
        let mut after = signal();
        let waited =
            tokio::time::timeout(std::time::Duration::from_millis(50), after.started()).await;
        assert!(waited.is_err(), "a server started later keeps its streams");
    }
}
