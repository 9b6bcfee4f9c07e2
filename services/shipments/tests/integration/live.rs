//! Live pages, on both stores: a tracking page's watcher gets each change in its reader's
//! view, a staff screen's watcher the ids of what changed; on MongoDB a change made through
//! one replica reaches the watchers of another.

use std::time::Duration;

use crate::common;

use common::service::{Running, replica_of, start, start_on_mongo, valid_input};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use tonic::Code;
use tonic::transport::Channel;

/// Longest a change may take to reach a watcher here (the product aims at well under 1 s).
const WITHIN: Duration = Duration::from_secs(5);

fn visitor(running: &Running) -> ShipmentServiceClient<Channel> {
    ShipmentServiceClient::new(running.channel.clone())
}

async fn created(running: &Running) -> pb::Shipment {
    running
        .client
        .clone()
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
}

async fn moved(running: &Running, id: &str, place: &str) {
    running
        .client
        .clone()
        .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
            id: id.into(),
            status: pb::ShipmentStatus::InTransit.into(),
            current_location: place.into(),
            remarks: "Left the depot".into(),
            remarks_public: true,
            ..Default::default()
        })
        .await
        .unwrap();
}

/// The next message that carries a shipment (keep-alives skipped).
async fn next_shipment(
    stream: &mut tonic::Streaming<pb::WatchShipmentResponse>,
) -> Result<pb::Shipment, tonic::Status> {
    loop {
        let message = tokio::time::timeout(WITHIN, stream.message())
            .await
            .expect("a message in time")?
            .expect("the stream is still open");
        if let Some(shipment) = message.shipment {
            return Ok(shipment);
        }
    }
}

async fn a_tracking_page_follows_its_shipment_in_the_visitors_view(writer: &Running, reader: &Running) {
    let shipment = created(writer).await;
    let mut stream = visitor(reader)
        .watch_shipment(pb::WatchShipmentRequest {
            tracking_number: shipment.tracking_number.to_lowercase(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let first = next_shipment(&mut stream).await.unwrap();
    assert_eq!(first.status(), pb::ShipmentStatus::Pending);
    assert_eq!(first.history.len(), 1);

    moved(writer, &shipment.id, "Antwerp").await;
    let second = next_shipment(&mut stream).await.unwrap();
    assert_eq!(second.status(), pb::ShipmentStatus::InTransit);
    assert_eq!(second.current_location, "Antwerp");
    assert_eq!(second.history.len(), 2);
    assert_eq!(second.history[1].remarks, "Left the depot");
    // Still the limited view: a visitor never gets the parties' contact details.
    let receiver = second.receiver.clone().unwrap_or_default();
    assert!(receiver.email.is_empty() && receiver.phone.is_empty(), "{receiver:?}");
    assert!(second.id.is_empty(), "the limited view has no id");

    writer
        .client
        .clone()
        .delete_shipment(pb::DeleteShipmentRequest {
            id: shipment.id.clone(),
        })
        .await
        .unwrap();
    let gone = next_shipment(&mut stream).await.unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
    assert_eq!(gone.message(), "Shipment not found");
}

async fn staff_see_everything_and_visitors_nothing_unknown(running: &Running) {
    let shipment = created(running).await;
    let mut staff = running
        .client
        .clone()
        .watch_shipment(pb::WatchShipmentRequest {
            tracking_number: shipment.tracking_number.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let full = next_shipment(&mut staff).await.unwrap();
    assert_eq!(full.receiver.unwrap().email, "jan@example.nl");

    for (number, code) in [("PSE000000001", Code::NotFound), ("not a number", Code::InvalidArgument)] {
        let refused = visitor(running)
            .watch_shipment(pb::WatchShipmentRequest {
                tracking_number: number.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(refused.code(), code, "{number}");
    }
}

async fn staff_screens_hear_which_shipments_changed(writer: &Running, reader: &Running) {
    let refused = visitor(reader)
        .watch_shipment_changes(pb::WatchShipmentChangesRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);

    let mut changes = reader
        .client
        .clone()
        .watch_shipment_changes(pb::WatchShipmentChangesRequest {})
        .await
        .unwrap()
        .into_inner();
    let opening = tokio::time::timeout(WITHIN, changes.message())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(opening, pb::WatchShipmentChangesResponse::default());

    let shipment = created(writer).await;
    moved(writer, &shipment.id, "Antwerp").await;
    let mut heard = Vec::new();
    while !heard.contains(&shipment.id) {
        let message = tokio::time::timeout(WITHIN, changes.message())
            .await
            .expect("the change in time")
            .unwrap()
            .unwrap();
        assert!(!message.everything_changed);
        heard.extend(message.shipment_ids);
    }
}

mod sqlite {
    use super::*;

    #[tokio::test(flavor = "multi_thread")]
    async fn a_tracking_page_follows_its_shipment() {
        let running = start().await;
        a_tracking_page_follows_its_shipment_in_the_visitors_view(&running, &running).await;
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn staff_and_strangers() {
        staff_see_everything_and_visitors_nothing_unknown(&start().await).await;
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn staff_screens() {
        let running = start().await;
        staff_screens_hear_which_shipments_changed(&running, &running).await;
    }
}

/// Two replicas on one database: the watcher is on the one that did not make the change.
mod mongo {
    use super::*;

    #[tokio::test(flavor = "multi_thread")]
    async fn a_tracking_page_follows_its_shipment_across_replicas() {
        let Some(writer) = start_on_mongo().await else { return };
        let reader = replica_of(&writer).await;
        a_tracking_page_follows_its_shipment_in_the_visitors_view(&writer, &reader).await;
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn staff_and_strangers() {
        let Some(running) = start_on_mongo().await else { return };
        staff_see_everything_and_visitors_nothing_unknown(&running).await;
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn staff_screens_across_replicas() {
        let Some(writer) = start_on_mongo().await else { return };
        let reader = replica_of(&writer).await;
        staff_screens_hear_which_shipments_changed(&writer, &reader).await;
    }
}
