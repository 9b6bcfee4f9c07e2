//! The dashboard's figures and the list's filters, through the API.

use crate::common;

use common::service::{caller, create, start, valid_input, violations};

use logistics_proto::v1 as pb;
use service_auth::CALL_TOKEN_LIFETIME;
use tonic::Code;

fn today() -> pb::Date {
    let d = chrono::Utc::now().date_naive();
    use chrono::Datelike;
    pb::Date {
        year: d.year(),
        month: d.month() as i32,
        day: d.day() as i32,
    }
}

#[tokio::test]
async fn the_dashboard_counts_statuses_lateness_and_today() {
    let running = start().await;
    let mut api = running.client.clone();
    let delivered = create(&mut api, valid_input()).await;
    let mut late_input = valid_input();
    late_input.expected_delivery_date = Some(pb::Date {
        year: 2020,
        month: 1,
        day: 1,
    });
    create(&mut api, late_input).await;
    api.update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
        id: delivered.id.clone(),
        status: pb::ShipmentStatus::Delivered.into(),
        current_location: "Rotterdam".into(),
        ..Default::default()
    })
    .await
    .unwrap();

    let stats = api
        .get_shipment_statistics(pb::GetShipmentStatisticsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(stats.total, 2);
    let counts: Vec<(i32, i64)> = stats
        .status_counts
        .iter()
        .map(|c| (c.status, c.count))
        .collect();
    assert_eq!(
        counts,
        [
            (pb::ShipmentStatus::Pending as i32, 1),
            (pb::ShipmentStatus::InTransit as i32, 0),
            (pb::ShipmentStatus::Delivered as i32, 1),
            (pb::ShipmentStatus::Delayed as i32, 0),
            (pb::ShipmentStatus::OnHold as i32, 0),
        ],
        "every status, in the enum's order"
    );
    assert_eq!(stats.late, 1);
    assert_eq!(stats.days.len(), 30);
    let last = stats.days.last().unwrap();
    assert_eq!(
        (last.date, last.created, last.delivered),
        (Some(today()), 2, 1)
    );

    let late = api
        .list_shipments(pb::ListShipmentsRequest {
            late: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        late.total_size, 1,
        "the dashboard's late figure links to this list"
    );

    let agent = running.key.mint(&caller("agent"), CALL_TOKEN_LIFETIME);
    let denied = running
        .client_as(&agent)
        .get_shipment_statistics(pb::GetShipmentStatisticsRequest {})
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}

#[tokio::test]
async fn list_filters_are_checked_and_named() {
    let mut api = start().await.client;
    for (request, fields) in [
        (
            pb::ListShipmentsRequest {
                order_by: "weight".into(),
                ..Default::default()
            },
            vec!["order_by"],
        ),
        (
            pb::ListShipmentsRequest {
                create_date_from: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 2,
                }),
                create_date_to: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 1,
                }),
                ..Default::default()
            },
            vec!["create_date_to"],
        ),
        (
            pb::ListShipmentsRequest {
                create_date_from: Some(pb::Date {
                    year: 2026,
                    month: 2,
                    day: 30,
                }),
                ..Default::default()
            },
            vec!["create_date_from"],
        ),
    ] {
        let status = api.list_shipments(request).await.unwrap_err();
        assert_eq!(violations(&status), fields);
    }
    for order_by in [
        "create_time",
        "create_time desc",
        "expected_delivery_date",
        "expected_delivery_date desc",
    ] {
        api.list_shipments(pb::ListShipmentsRequest {
            order_by: order_by.into(),
            ..Default::default()
        })
        .await
        .unwrap();
    }
}
