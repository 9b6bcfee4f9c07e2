//! Live pages: which shipments changed, as the store commits them, and the streams that follow
//! them. The store publishes each committed change on its `Changes` (SQLite after its commit;
//! MongoDB from its change stream, so a change made through any replica reaches every one).
//! A tracking page's watcher gets the shipment again, in its reader's view; a staff screen's
//! watcher gets the ids, coalesced, and reads what it shows again.

use std::collections::{BTreeSet, HashMap};
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures::Stream;
use logistics_proto::v1 as pb;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast};
use tokio::time::Instant;
use tonic::{Request, Response, Status};

use crate::convert;
use crate::domain::TrackingNumber;
use crate::error::ShipmentError;
use crate::service::ShipmentsService;
use crate::store::ShipmentStore;

/// How often a stream with nothing to say sends an empty message, so proxies keep it open.
pub const KEEP_ALIVE: Duration = Duration::from_secs(25);
/// How long one stream lasts; the page then watches again (and its reader's view is decided
/// again, a grant that ended included).
pub const STREAM_LIFETIME: Duration = Duration::from_secs(30 * 60);
/// How long a staff watcher gathers changes into one message.
const COALESCE: Duration = Duration::from_millis(200);
/// The most ids in one staff message; more changed means "read everything again".
const MAX_IDS: usize = 100;
/// The most streams one process serves at once (each gateway also bounds its own).
pub const MAX_WATCHERS: usize = 50_000;
/// Changes kept for a slow receiver before it is told it fell behind.
const BACKLOG: usize = 4096;
/// A watched shipment's updates kept for a slow watcher.
const SHIPMENT_BACKLOG: usize = 16;

/// One committed change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The shipment with this id was created, changed or deleted, or one of its notes or
    /// exceptions was.
    Shipment(Arc<str>),
    /// Anything may have changed (the feed was interrupted): read everything again.
    Everything,
}

/// The changes a store committed, for whoever follows them in this process.
#[derive(Clone)]
pub struct Changes(broadcast::Sender<Change>);

impl Default for Changes {
    fn default() -> Self {
        Self(broadcast::channel(BACKLOG).0)
    }
}

impl Changes {
    pub fn publish(&self, shipment_id: &str) {
        // Nobody following is no error.
        let _ = self.0.send(Change::Shipment(Arc::from(shipment_id)));
    }

    pub fn publish_everything(&self) {
        let _ = self.0.send(Change::Everything);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.0.subscribe()
    }

    /// A handle that does not keep the feed open (a store's background follower holds one).
    pub fn downgrade(&self) -> broadcast::WeakSender<Change> {
        self.0.downgrade()
    }
}

/// What a tracking page's watcher hears about its shipment.
#[derive(Clone)]
enum Update {
    Changed(Arc<pb::Shipment>),
    Deleted,
}

/// The shipments watched in this process, each read once per change for all its watchers.
pub struct Live {
    watched: Mutex<HashMap<Arc<str>, broadcast::Sender<Update>>>,
    slots: Arc<Semaphore>,
    reading: std::sync::OnceLock<()>,
}

impl Default for Live {
    fn default() -> Self {
        Self {
            watched: Mutex::default(),
            slots: Arc::new(Semaphore::new(MAX_WATCHERS)),
            reading: std::sync::OnceLock::new(),
        }
    }
}

impl Live {
    fn permit(&self) -> Result<OwnedSemaphorePermit, ShipmentError> {
        self.slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| ShipmentError::Exhausted(TOO_MANY_WATCHERS.to_owned()))
    }

    fn watch(self: &Arc<Self>, id: &str) -> Watching {
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        let id: Arc<str> = Arc::from(id);
        let updates = watched
            .entry(id.clone())
            .or_insert_with(|| broadcast::channel(SHIPMENT_BACKLOG).0)
            .subscribe();
        Watching {
            id,
            updates,
            live: self.clone(),
        }
    }

    fn senders(
        &self,
        ids: Option<&BTreeSet<Arc<str>>>,
    ) -> Vec<(Arc<str>, broadcast::Sender<Update>)> {
        let watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        match ids {
            None => watched
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            Some(ids) => ids
                .iter()
                .filter_map(|id| watched.get(id).map(|tx| (id.clone(), tx.clone())))
                .collect(),
        }
    }
}

pub const TOO_MANY_WATCHERS: &str = "Too many live pages are open. Please try again later.";

/// One watcher's subscription; the shipment is no longer read once its last watcher leaves.
struct Watching {
    id: Arc<str>,
    updates: broadcast::Receiver<Update>,
    live: Arc<Live>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut watched = self.live.watched.lock().unwrap_or_else(|e| e.into_inner());
        // This watcher's receiver is still alive here: it is the last one when the count is 1.
        if watched
            .get(&self.id)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            watched.remove(&self.id);
        }
    }
}

/// Reads each changed shipment that someone watches, once, and hands it to its watchers, in
/// the order the changes came. Ends when the service is gone or the feed closes.
async fn read_changes(
    live: Weak<Live>,
    store: Arc<dyn ShipmentStore>,
    mut changes: broadcast::Receiver<Change>,
    refreshed: impl Fn(&pb::Shipment) + Send + 'static,
) {
    loop {
        let first = tokio::select! {
            change = changes.recv() => change,
            () = tokio::time::sleep(Duration::from_secs(60)) => {
                if live.strong_count() == 0 { return; }
                continue;
            }
        };
        let mut ids = BTreeSet::new();
        let mut everything = false;
        let mut take = |change: Result<Change, broadcast::error::RecvError>| match change {
            Ok(Change::Shipment(id)) => {
                ids.insert(id);
                true
            }
            Ok(Change::Everything) | Err(broadcast::error::RecvError::Lagged(_)) => {
                everything = true;
                true
            }
            Err(broadcast::error::RecvError::Closed) => false,
        };
        if !take(first) {
            return;
        }
        // A burst is read once: every change already queued joins this round.
        loop {
            match changes.try_recv() {
                Ok(change) => take(Ok(change)),
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    take(Err(broadcast::error::RecvError::Lagged(n)))
                }
                Err(_) => break,
            };
        }
        let Some(live) = live.upgrade() else { return };
        for (id, updates) in live.senders((!everything).then_some(&ids)) {
            let update = match store.get(&id).await {
                Ok(shipment) => {
                    let shipment = convert::shipment_to_proto(&shipment);
                    refreshed(&shipment);
                    Update::Changed(Arc::new(shipment))
                }
                Err(ShipmentError::NotFound) => Update::Deleted,
                // The store is down: the watchers keep what they show until the next change.
                Err(e) => {
                    tracing::warn!(error = %e, "a watched shipment could not be read");
                    continue;
                }
            };
            let _ = updates.send(update);
        }
    }
}

pub type WatchStream =
    Pin<Box<dyn Stream<Item = Result<pb::WatchShipmentResponse, Status>> + Send>>;
pub type ChangesStream =
    Pin<Box<dyn Stream<Item = Result<pb::WatchShipmentChangesResponse, Status>> + Send>>;

/// What ends every stream: its lifetime, or the process shutting down.
struct Ending {
    until: Instant,
    draining: service_common::draining::Draining,
}

impl Ending {
    fn new() -> Self {
        Self {
            until: Instant::now() + STREAM_LIFETIME,
            draining: service_common::draining::signal(),
        }
    }

    async fn reached(&mut self) {
        tokio::select! {
            () = tokio::time::sleep_until(self.until) => {}
            () = self.draining.started() => {}
        }
    }
}

/// One tracking page's stream.
struct Watcher {
    service: ShipmentsService,
    /// The call's metadata and verified caller, to decide each message's view as the lookup does.
    asked: Request<()>,
    access_token: String,
    number: TrackingNumber,
    watching: Watching,
    first: Option<pb::Shipment>,
    /// The last shipment sent.
    shown: Option<pb::Shipment>,
    ending: Ending,
    done: bool,
    _permit: OwnedSemaphorePermit,
}

impl Watcher {
    fn view(&self, shipment: pb::Shipment) -> Result<pb::WatchShipmentResponse, Status> {
        let shown =
            self.service
                .view_for(&self.asked, &self.access_token, &self.number, shipment)?;
        Ok(pb::WatchShipmentResponse {
            shipment: Some(shown.into_inner()),
        })
    }

    async fn next(mut self) -> Option<(Result<pb::WatchShipmentResponse, Status>, Self)> {
        if let Some(first) = self.first.take() {
            self.shown = Some(first.clone());
            return Some((
                Ok(pb::WatchShipmentResponse {
                    shipment: Some(first),
                }),
                self,
            ));
        }
        if self.done {
            return None;
        }
        loop {
            let message = tokio::select! {
                () = self.ending.reached() => return None,
                () = tokio::time::sleep(KEEP_ALIVE) => Ok(pb::WatchShipmentResponse::default()),
                update = self.watching.updates.recv() => match update {
                    Ok(Update::Changed(shipment)) => self.view((*shipment).clone()),
                    Ok(Update::Deleted) => Err(Status::from(ShipmentError::NotFound)),
                    // Fell behind: the shipment as it is now.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        match self.service.store.get(&self.watching.id).await {
                            Ok(shipment) => self.view(convert::shipment_to_proto(&shipment)),
                            Err(e) => Err(Status::from(e)),
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
            };
            match &message {
                // A change this reader cannot see (or one heard twice) sends nothing.
                Ok(pb::WatchShipmentResponse {
                    shipment: Some(shipment),
                }) if self.shown.as_ref() == Some(shipment) => continue,
                Ok(pb::WatchShipmentResponse {
                    shipment: Some(shipment),
                }) => self.shown = Some(shipment.clone()),
                Ok(_) => {}
                Err(_) => self.done = true,
            }
            return Some((message, self));
        }
    }
}

/// One staff screen's stream.
struct ChangeWatcher {
    changes: broadcast::Receiver<Change>,
    first: bool,
    ending: Ending,
    _permit: OwnedSemaphorePermit,
}

impl ChangeWatcher {
    async fn next(mut self) -> Option<(Result<pb::WatchShipmentChangesResponse, Status>, Self)> {
        if std::mem::take(&mut self.first) {
            return Some((Ok(pb::WatchShipmentChangesResponse::default()), self));
        }
        let first = tokio::select! {
            () = self.ending.reached() => return None,
            () = tokio::time::sleep(KEEP_ALIVE) => {
                return Some((Ok(pb::WatchShipmentChangesResponse::default()), self));
            }
            change = self.changes.recv() => change,
        };
        let mut ids = BTreeSet::new();
        let mut everything = false;
        let mut take = |change: Result<Change, ()>| match change {
            Ok(Change::Shipment(id)) => {
                ids.insert(id);
            }
            Ok(Change::Everything) | Err(()) => everything = true,
        };
        match first {
            Ok(change) => take(Ok(change)),
            Err(broadcast::error::RecvError::Lagged(_)) => take(Err(())),
            Err(broadcast::error::RecvError::Closed) => return None,
        }
        // Changes come in bursts (an import, a batch update): one message for the burst.
        tokio::time::sleep(COALESCE).await;
        loop {
            match self.changes.try_recv() {
                Ok(change) => take(Ok(change)),
                Err(broadcast::error::TryRecvError::Lagged(_)) => take(Err(())),
                Err(_) => break,
            }
        }
        let everything = everything || ids.len() > MAX_IDS;
        let message = pb::WatchShipmentChangesResponse {
            shipment_ids: if everything {
                Vec::new()
            } else {
                ids.into_iter().map(|id| id.to_string()).collect()
            },
            everything_changed: everything,
        };
        Some((Ok(message), self))
    }
}

impl ShipmentsService {
    /// A tracking page's live view: the lookup's answer, then the shipment again after each
    /// change, each in the view the lookup would give this reader then.
    pub(crate) async fn watch(
        &self,
        request: Request<pb::WatchShipmentRequest>,
    ) -> Result<Response<WatchStream>, ShipmentError> {
        let permit = self.live.permit()?;
        let number = TrackingNumber::parse(&request.get_ref().tracking_number)?;
        let (metadata, extensions, message) = request.into_parts();
        let asked = Request::from_parts(metadata, extensions, ());
        let id = self.lookup(&number).await?.id;
        self.start_reading_changes();
        // Watch first, then read: no change falls between the two.
        let watching = self.live.watch(&id);
        let shipment = convert::shipment_to_proto(&self.store.get(&id).await?);
        let first = self.view_for(&asked, &message.access_token, &number, shipment)?;
        let (first_metadata, first, _) = first.into_parts();
        let watcher = Watcher {
            service: self.clone(),
            asked,
            access_token: message.access_token,
            number,
            watching,
            first: Some(first),
            shown: None,
            ending: Ending::new(),
            done: false,
            _permit: permit,
        };
        let stream: WatchStream = Box::pin(futures::stream::unfold(watcher, Watcher::next));
        let mut response = Response::new(stream);
        // A link's grant goes back in the headers, as the lookup's does.
        *response.metadata_mut() = first_metadata;
        Ok(response)
    }

    /// A staff screen's feed of the ids of changed shipments.
    pub(crate) fn watch_changes(&self) -> Result<Response<ChangesStream>, ShipmentError> {
        let watcher = ChangeWatcher {
            _permit: self.live.permit()?,
            changes: self.store.changes().subscribe(),
            first: true,
            ending: Ending::new(),
        };
        Ok(Response::new(Box::pin(futures::stream::unfold(
            watcher,
            ChangeWatcher::next,
        ))))
    }

    fn start_reading_changes(&self) {
        self.live.reading.get_or_init(|| {
            let lookups = self.lookups.clone();
            tokio::spawn(read_changes(
                Arc::downgrade(&self.live),
                self.store.clone(),
                self.store.changes().subscribe(),
                move |shipment| lookups.refresh(shipment),
            ));
        });
    }
}
