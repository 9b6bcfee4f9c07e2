//! The open watchers of live pages (methods marked `watch` in the proto): each holds a
//! request open for as long as the page is, so their number is bounded per client network
//! and per gateway, and each slot is given back when the stream ends or its client leaves.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use http::Response;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::body::Body;

pub const TOO_MANY_FROM_CLIENT: &str =
    "Too many live pages are open from your network. Close some and try again.";
pub const TOO_MANY: &str = "Too many live pages are open. Please try again later.";

#[derive(Clone)]
pub struct Watchers {
    per_client: usize,
    slots: Arc<Semaphore>,
    clients: Arc<Mutex<HashMap<String, usize>>>,
}

/// One open watcher's place, given back when dropped.
pub struct Slot {
    client: String,
    clients: Arc<Mutex<HashMap<String, usize>>>,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = clients.get_mut(&self.client) {
            *open -= 1;
            if *open == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

impl Watchers {
    pub fn new(per_client: usize, max: usize) -> Self {
        Self {
            per_client,
            slots: Arc::new(Semaphore::new(max)),
            clients: Arc::default(),
        }
    }

    /// A place for one more watcher of `client`, or the message to refuse it with.
    pub fn admit(&self, client: &str) -> Result<Slot, &'static str> {
        let permit = self
            .slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| TOO_MANY)?;
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        let open = clients.entry(client.to_owned()).or_default();
        if *open >= self.per_client {
            return Err(TOO_MANY_FROM_CLIENT);
        }
        *open += 1;
        Ok(Slot {
            client: client.to_owned(),
            clients: self.clients.clone(),
            _permit: permit,
        })
    }

    /// Watchers open now (for the metrics and the tests).
    pub fn open(&self, client: &str) -> usize {
        let clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        clients.get(client).copied().unwrap_or(0)
    }
}

/// The response, holding its watcher's slot until its body is done or dropped.
pub fn holding(response: Response<Body>, slot: Slot) -> Response<Body> {
    response.map(|inner| {
        Body::new(crate::connections::Guarded {
            inner,
            _guard: slot,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_at_most_its_share_and_a_closed_page_gives_its_place_back() {
        let watchers = Watchers::new(2, 3);
        let a1 = watchers.admit("a").unwrap();
        let _a2 = watchers.admit("a").unwrap();
        assert_eq!(watchers.admit("a").err(), Some(TOO_MANY_FROM_CLIENT));
        let _b1 = watchers.admit("b").unwrap();
        assert_eq!(watchers.admit("c").err(), Some(TOO_MANY));
        drop(a1);
        assert_eq!(watchers.open("a"), 1);
        assert!(watchers.admit("a").is_ok());
    }
}
