//! MongoDB's change stream as the store's `Changes`: every replica hears every commit made on
//! any replica, in commit order, and resumes where it stopped after an outage.

use std::time::Duration;

use futures::StreamExt;
use mongodb::bson::{Bson, Document, doc};
use mongodb::change_stream::event::ResumeToken;
use tokio::sync::broadcast::WeakSender;

use super::mongo_queue::{EXCEPTIONS, NOTES};
use crate::live::Change;

/// How long to wait before opening the stream again after it failed.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The shipment a change is about: a shipment's own id, or the `shipmentId` of one of its
/// notes or exceptions (inserted or replaced: a deleted one goes with its shipment's change).
fn shipment_of(event: &Document) -> Option<String> {
    let collection = event.get_document("ns").ok()?.get_str("coll").ok()?;
    if collection == "shipments" {
        return match event.get_document("documentKey").ok()?.get("_id")? {
            Bson::String(id) => Some(id.clone()),
            _ => None,
        };
    }
    event
        .get_document("fullDocument")
        .ok()?
        .get_str("shipmentId")
        .ok()
        .map(str::to_owned)
}

/// Follows the database's changes to shipments, notes and exceptions until the store is
/// dropped (its `Changes` has no sender left).
pub(super) async fn follow(db: mongodb::Database, changes: WeakSender<Change>) {
    let pipeline = [
        doc! { "$match": { "ns.coll": { "$in": ["shipments", EXCEPTIONS, NOTES] } } },
        doc! { "$project": {
            "operationType": 1, "ns": 1, "documentKey": 1, "fullDocument.shipmentId": 1,
        } },
    ];
    let mut resume: Option<ResumeToken> = None;
    let mut failed = false;
    loop {
        if changes.strong_count() == 0 {
            return;
        }
        let opened = db
            .watch()
            .pipeline(pipeline.clone())
            .resume_after(resume.clone())
            .max_await_time(Duration::from_secs(5))
            .await;
        let mut stream = match opened {
            Ok(stream) => stream.with_type::<Document>(),
            // The point to resume from is gone: everything may have changed meanwhile.
            Err(e) if resume.is_some() => {
                tracing::warn!(error = %e, "could not resume the change stream; starting anew");
                resume = None;
                publish(&changes, Change::Everything);
                continue;
            }
            Err(e) => {
                if !failed {
                    tracing::warn!(error = %e, "could not open the change stream");
                }
                failed = true;
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
        };
        if failed {
            // Changes made while the stream was down were not heard.
            publish(&changes, Change::Everything);
            failed = false;
        }
        loop {
            let next = tokio::time::timeout(Duration::from_secs(30), stream.next()).await;
            match next {
                Err(_) if changes.strong_count() == 0 => return,
                Err(_) => continue,
                Ok(Some(Ok(event))) => {
                    resume = stream.resume_token();
                    if let Some(id) = shipment_of(&event) {
                        publish(&changes, Change::Shipment(id.into()));
                    }
                }
                Ok(Some(Err(e))) => {
                    tracing::warn!(error = %e, "the change stream failed; resuming");
                    resume = stream.resume_token().or(resume);
                    tokio::time::sleep(RETRY_AFTER).await;
                    break;
                }
                Ok(None) => break,
            }
        }
    }
}

fn publish(changes: &WeakSender<Change>, change: Change) {
    if let Some(changes) = changes.upgrade() {
        let _ = changes.send(change);
    }
}
