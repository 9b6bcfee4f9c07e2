//! Changing the status of many shipments at once.

use crate::common;

use common::service::{caller, create, start, valid_input, violations};

use logistics_proto::v1::{self as pb, audit_service_client::AuditServiceClient};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME};
use shipments::store::{Effects, Shipments};
use tonic::Code;

fn batch(ids: Vec<String>) -> pb::BatchUpdateShipmentTrackingRequest {
    pb::BatchUpdateShipmentTrackingRequest {
        ids,
        filter: None,
        status: pb::ShipmentStatus::Delayed.into(),
        current_location: "Hub, Accra".into(),
        remarks: "Storm at the port".into(),
        remarks_public: false,
    }
}

#[tokio::test]
async fn each_shipment_changes_on_its_own_and_refusals_are_reported() {
    let running = start().await;
    let mut admin = running.client.clone();
    let a = create(&mut admin, valid_input()).await;
    let b = create(&mut admin, valid_input()).await;
    let agent = running.key.mint(&caller("agent"), CALL_TOKEN_LIFETIME);
    let reply = running
        .client_as(&agent)
        .batch_update_shipment_tracking(batch(vec![
            a.id.clone(),
            b.id.clone(),
            "no-such-shipment".into(),
        ]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.updated_count, 2);
    assert_eq!(reply.failures.len(), 1);
    assert_eq!(
        (
            reply.failures[0].id.as_str(),
            reply.failures[0].message.as_str()
        ),
        ("no-such-shipment", "Shipment not found")
    );
    for s in [&a, &b] {
        let now = admin
            .get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
            .await
            .unwrap()
            .into_inner();
        let last = now.history.last().unwrap();
        assert_eq!(
            (
                now.history.len(),
                last.remarks.as_str(),
                last.updated_by.as_str()
            ),
            (2, "Storm at the port", "someone@example.com")
        );
        assert_eq!(now.status(), pb::ShipmentStatus::Delayed);
    }
    let admin_token = running.key.mint(&caller("admin"), CALL_TOKEN_LIFETIME);
    let mut audit =
        AuditServiceClient::with_interceptor(running.channel.clone(), Bearer::new(&admin_token));
    let mut count = async |action: &str| {
        audit
            .list_audit_entries(pb::ListAuditEntriesRequest {
                action: action.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner()
            .entries
    };
    assert_eq!(
        count("shipment.status_change").await.len(),
        2,
        "one entry per shipment"
    );
    let summary = count("shipment.batch_update").await;
    assert_eq!(summary.len(), 1);
    assert_eq!(
        summary[0].summary,
        "Status: Delayed at Hub, Accra — 2 changed, 1 failed"
    );
    // The configured e-mails went out per shipment (shipper and receiver of each).
    let outbox = outbox::SqliteOutbox::open(running.dir.path()).unwrap();
    let queued = outbox::OutboxStore::list(&outbox, &Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    let updates = queued
        .iter()
        .filter(|n| n.template == outbox::Template::StatusUpdate)
        .count();
    assert_eq!(updates, 4);
}

#[tokio::test]
async fn a_filter_picks_the_shipments_and_the_batch_has_limits() {
    let running = start().await;
    let mut admin = running.client.clone();
    let a = create(&mut admin, valid_input()).await;
    let reply = admin
        .batch_update_shipment_tracking(pb::BatchUpdateShipmentTrackingRequest {
            filter: Some(pb::ListShipmentsRequest {
                query: a.tracking_number.clone(),
                ..Default::default()
            }),
            ..batch(Vec::new())
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((reply.updated_count, reply.failures.len()), (1, 0));

    let cases = [
        (batch(Vec::new()), "ids"),
        (batch((0..1001).map(|i| format!("id{i}")).collect()), "ids"),
        (
            pb::BatchUpdateShipmentTrackingRequest {
                filter: Some(pb::ListShipmentsRequest {
                    query: "nobody ships this".into(),
                    ..Default::default()
                }),
                ..batch(Vec::new())
            },
            "filter",
        ),
        (
            pb::BatchUpdateShipmentTrackingRequest {
                filter: Some(pb::ListShipmentsRequest {
                    order_by: "price".into(),
                    ..Default::default()
                }),
                ..batch(Vec::new())
            },
            "filter.order_by",
        ),
        (
            pb::BatchUpdateShipmentTrackingRequest {
                current_location: String::new(),
                ..batch(vec![a.id.clone()])
            },
            "current_location",
        ),
    ];
    for (request, field) in cases {
        let status = admin
            .batch_update_shipment_tracking(request)
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(violations(&status), [field]);
    }

    // More than 1,000 matches: refused whole, nothing changed.
    let store =
        shipments::store::SqliteShipmentStore::open(&running.dir.path().join("shipments.sqlite3"))
            .unwrap();
    for _ in 0..1000 {
        store
            .insert(
                &common::shipment("Bulk Trader", "Tema"),
                &Effects::default(),
            )
            .await
            .unwrap();
    }
    let all = admin
        .batch_update_shipment_tracking(pb::BatchUpdateShipmentTrackingRequest {
            filter: Some(pb::ListShipmentsRequest::default()),
            ..batch(Vec::new())
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&all), ["filter"]);
    let delayed = admin
        .list_shipments(pb::ListShipmentsRequest {
            status: pb::ShipmentStatus::Delayed.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(delayed.total_size, 1, "only the first batch's shipment");

    let user = running.key.mint(&caller("user"), CALL_TOKEN_LIFETIME);
    let denied = running
        .client_as(&user)
        .batch_update_shipment_tracking(batch(vec![a.id.clone()]))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}

/// A courier's phone sends what it kept offline in one call: each event in order and once
/// (also when the call is sent again), a refused one named by its field, the next not held back.
#[tokio::test]
async fn a_phones_kept_events_are_recorded_in_order_once_and_refusals_are_named() {
    let running = start().await;
    let mut admin = running.client.clone();
    let a = create(&mut admin, valid_input()).await;
    let b = create(&mut admin, valid_input()).await;
    let event = |id: &str, request_id: &str, place: &str| pb::UpdateShipmentTrackingRequest {
        id: id.into(),
        status: pb::ShipmentStatus::InTransit.into(),
        current_location: place.into(),
        request_id: request_id.into(),
        ..Default::default()
    };
    let kept = pb::RecordTrackingEventsRequest {
        events: vec![
            event(&a.id, "phone-a-0001", "Tema depot"),
            event(&b.id, "phone-b-0001", "Accra hub"),
            event(&a.id, "phone-a-0002", "Kumasi hub"),
            event(&b.id, "phone-b-0002", ""),
            event("no-such-shipment", "phone-x-0001", "Ho depot"),
            event(&a.id, "phone-a-0001", "Tema depot"),
            event(&b.id, "phone-b-0003", "Tamale hub"),
        ],
    };
    let courier = running.key.mint(&caller("courier"), CALL_TOKEN_LIFETIME);
    let mut phone = running.client_as(&courier);
    let results = |reply: pb::RecordTrackingEventsResponse| {
        reply
            .results
            .into_iter()
            .map(|r| (r.recorded, r.message))
            .collect::<Vec<_>>()
    };
    let expected = vec![
        (true, String::new()),
        (true, String::new()),
        (true, String::new()),
        (false, "current_location: is required".to_owned()),
        (false, "Shipment not found".to_owned()),
        (true, String::new()),
        (true, String::new()),
    ];
    let first = phone.record_tracking_events(kept.clone()).await.unwrap();
    assert_eq!(results(first.into_inner()), expected);
    // The answer was lost: the phone sends it all again, and nothing is recorded twice.
    let again = phone.record_tracking_events(kept).await.unwrap();
    assert_eq!(results(again.into_inner())[..3], expected[..3]);
    for (s, places) in [
        (&a, vec!["Tema depot", "Kumasi hub"]),
        (&b, vec!["Accra hub", "Tamale hub"]),
    ] {
        let now = admin
            .get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
            .await
            .unwrap()
            .into_inner();
        let recorded: Vec<_> = now.history[1..]
            .iter()
            .map(|h| (h.location.as_str(), h.updated_by.as_str()))
            .collect();
        let wanted: Vec<_> = places
            .into_iter()
            .map(|p| (p, "someone@example.com"))
            .collect();
        assert_eq!(recorded, wanted, "{}", s.tracking_number);
    }

    for count in [0, 101] {
        let status = phone
            .record_tracking_events(pb::RecordTrackingEventsRequest {
                events: (0..count)
                    .map(|i| event(&a.id, &format!("phone-a-1{i:03}"), "Tema depot"))
                    .collect(),
            })
            .await
            .unwrap_err();
        assert_eq!(violations(&status), ["events"], "{count} events");
    }
    let user = running.key.mint(&caller("user"), CALL_TOKEN_LIFETIME);
    let denied = running
        .client_as(&user)
        .record_tracking_events(pb::RecordTrackingEventsRequest {
            events: vec![event(&a.id, "phone-a-0009", "Tema depot")],
        })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}
