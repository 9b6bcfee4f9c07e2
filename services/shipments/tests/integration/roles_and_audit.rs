//! Each role may do what its permissions say and nothing more, and every change leaves an
//! audit entry naming who made it, from where.

use crate::common;

use common::service::{Running, caller, create, start, valid_input};

use logistics_proto::v1::{self as pb, audit_service_client::AuditServiceClient};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME, Caller, Permission, Role};
use tonic::{Code, Request};

fn token(running: &Running, caller: &Caller) -> String {
    running.key.mint(caller, CALL_TOKEN_LIFETIME)
}

fn move_to(id: &str, status: pb::ShipmentStatus) -> pb::UpdateShipmentTrackingRequest {
    pb::UpdateShipmentTrackingRequest {
        id: id.into(),
        status: status.into(),
        current_location: "Port of Tema".into(),
        remarks: "Loaded".into(),
        event_time: None,
        remarks_public: false,
        ..Default::default()
    }
}

async fn audit_entries(
    running: &Running,
    filter: pb::ListAuditEntriesRequest,
) -> Vec<pb::AuditEntry> {
    let admin = token(running, &caller("admin"));
    AuditServiceClient::with_interceptor(running.channel.clone(), Bearer::new(&admin))
        .list_audit_entries(filter)
        .await
        .unwrap()
        .into_inner()
        .entries
}

/// An agent in the office and a courier on the road: both find and move shipments; neither
/// creates, edits or deletes one, nor reads the dashboard.
#[tokio::test]
async fn agents_and_couriers_move_shipments_but_cannot_create_edit_or_delete_them() {
    let running = start().await;
    for (role, email) in [
        (Role::Agent, "agent@example.com"),
        (Role::Courier, "courier@example.com"),
    ] {
        moves_but_cannot_change(&running, role, email).await;
    }
}

async fn moves_but_cannot_change(running: &Running, role: Role, email: &str) {
    let s = create(&mut running.client.clone(), valid_input()).await;
    let member = Caller::with_role("u-member", email, role);
    let mut api = running.client_as(&token(running, &member));

    assert!(
        api.list_shipments(pb::ListShipmentsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .shipments
            .iter()
            .any(|listed| listed.id == s.id)
    );
    let moved = api
        .update_shipment_tracking(move_to(&s.id, pb::ShipmentStatus::InTransit))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        moved.history.last().unwrap().updated_by,
        email,
        "the history names the real user"
    );

    let denied = [
        api.delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
            .await
            .unwrap_err(),
        api.create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            ..Default::default()
        })
        .await
        .unwrap_err(),
        api.update_shipment(pb::UpdateShipmentRequest {
            shipment: Some(pb::Shipment {
                id: s.id.clone(),
                carrier: "Other".into(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["carrier".into()],
            }),
            remarks: String::new(),
            remarks_public: false,
            ..Default::default()
        })
        .await
        .unwrap_err(),
        api.get_tracking_email_settings(pb::GetTrackingEmailSettingsRequest {})
            .await
            .unwrap_err(),
        api.get_shipment_statistics(pb::GetShipmentStatisticsRequest::default())
            .await
            .unwrap_err(),
    ];
    for status in denied {
        assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
        assert_eq!(status.message(), service_auth::NOT_PERMITTED);
    }
    let still = running
        .client
        .clone()
        .get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (still.carrier.as_str(), still.history.len()),
        ("Maersk", 2),
        "nothing refused was written"
    );
}

#[tokio::test]
async fn a_narrowed_permission_list_is_what_counts_not_the_role() {
    let running = start().await;
    let s = create(&mut running.client.clone(), valid_input()).await;
    let mut manager = Caller::with_role("u-m", "manager@example.com", Role::Manager);
    manager
        .permissions
        .retain(|p| *p != Permission::ShipmentsTrack);
    let mut api = running.client_as(&token(&running, &manager));
    // Editing fields is allowed, but moving the shipment through the edit is not.
    let edit = |paths: Vec<&str>| pb::UpdateShipmentRequest {
        shipment: Some(pb::Shipment {
            id: s.id.clone(),
            carrier: "Other".into(),
            status: pb::ShipmentStatus::Delivered.into(),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: paths.into_iter().map(Into::into).collect(),
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    };
    assert_eq!(
        api.update_shipment(edit(vec!["carrier"]))
            .await
            .unwrap()
            .into_inner()
            .carrier,
        "Other"
    );
    assert_eq!(
        api.update_shipment(edit(vec!["status"]))
            .await
            .unwrap_err()
            .code(),
        Code::PermissionDenied
    );
    assert_eq!(
        api.update_shipment_tracking(move_to(&s.id, pb::ShipmentStatus::Delivered))
            .await
            .unwrap_err()
            .code(),
        Code::PermissionDenied
    );
}

#[tokio::test]
async fn every_change_is_audited_with_who_where_and_what() {
    let running = start().await;
    let manager = Caller::with_role("u-m", "manager@example.com", Role::Manager);
    let mut api = running.client_as(&token(&running, &manager));
    let mut request = Request::new(pb::CreateShipmentRequest {
        shipment: Some(valid_input()),
        ..Default::default()
    });
    request
        .metadata_mut()
        .insert(audit::CLIENT_IP_METADATA, "203.0.113.9".parse().unwrap());
    request
        .metadata_mut()
        .insert(audit::REQUEST_ID_METADATA, "req-42".parse().unwrap());
    let s = api.create_shipment(request).await.unwrap().into_inner();
    assert_eq!(s.history[0].updated_by, "manager@example.com");

    api.update_shipment_tracking(move_to(&s.id, pb::ShipmentStatus::InTransit))
        .await
        .unwrap();
    api.update_shipment(pb::UpdateShipmentRequest {
        shipment: Some(pb::Shipment {
            id: s.id.clone(),
            receiver: Some(pb::Party {
                phone: "+31 10 555 0000".into(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["receiver.phone".into()],
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    })
    .await
    .unwrap();
    api.delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
        .await
        .unwrap();

    let entries = audit_entries(
        &running,
        pb::ListAuditEntriesRequest {
            target: s.tracking_number.to_lowercase(),
            ..Default::default()
        },
    )
    .await;
    let actions: Vec<&str> = entries.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "shipment.delete",
            "shipment.update",
            "shipment.status_change",
            "shipment.create"
        ],
        "newest first"
    );
    assert!(
        entries
            .iter()
            .all(|e| e.actor_email == "manager@example.com" && e.actor_id == "u-m")
    );
    let created = &entries[3];
    assert_eq!(
        (created.client_ip.as_str(), created.request_id.as_str()),
        ("203.0.113.9", "req-42")
    );

    let status = &entries[2];
    assert_eq!(status.summary, "Status: Pending → In Transit (Loaded)");
    assert!(
        status.changes.iter().any(|c| c.field == "status"
            && c.before == "\"pending\""
            && c.after == "\"in_transit\"")
    );
    let phone = &entries[1].changes;
    assert_eq!(phone.len(), 1, "only the changed field: {phone:?}");
    assert_eq!(
        (
            phone[0].field.as_str(),
            phone[0].before.as_str(),
            phone[0].after.as_str()
        ),
        (
            "receiverPhone",
            "\"+31 10 555 0199\"",
            "\"+31 10 555 0000\""
        )
    );
    let snapshot: serde_json::Value = serde_json::from_str(&entries[0].snapshot_json).unwrap();
    assert_eq!(
        snapshot["trackingNumber"],
        s.tracking_number.as_str(),
        "the deleted shipment is kept in its entry"
    );

    // Filters: by action, by user, and a time range that ends before everything.
    let deletes = audit_entries(
        &running,
        pb::ListAuditEntriesRequest {
            action: "shipment.delete".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(deletes.len(), 1);
    let by_user = audit_entries(
        &running,
        pb::ListAuditEntriesRequest {
            actor: "MANAGER@example.com".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(by_user.len(), 4);
    let before = audit_entries(
        &running,
        pb::ListAuditEntriesRequest {
            end_time: Some(prost_types::Timestamp {
                seconds: 1_000_000_000,
                nanos: 0,
            }),
            ..Default::default()
        },
    )
    .await;
    assert!(before.is_empty());
}

#[tokio::test]
async fn the_audit_log_is_for_admins_and_refuses_bad_filters() {
    let running = start().await;
    let manager = token(
        &running,
        &Caller::with_role("u-m", "manager@example.com", Role::Manager),
    );
    let denied =
        AuditServiceClient::with_interceptor(running.channel.clone(), Bearer::new(&manager))
            .list_audit_entries(pb::ListAuditEntriesRequest::default())
            .await
            .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let anonymous = AuditServiceClient::new(running.channel.clone())
        .list_audit_entries(pb::ListAuditEntriesRequest::default())
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);

    let admin = token(&running, &caller("admin"));
    let mut api =
        AuditServiceClient::with_interceptor(running.channel.clone(), Bearer::new(&admin));
    for (request, field) in [
        (
            pb::ListAuditEntriesRequest {
                page_size: 101,
                ..Default::default()
            },
            "page_size",
        ),
        (
            pb::ListAuditEntriesRequest {
                page_token: "%%".into(),
                ..Default::default()
            },
            "page_token",
        ),
        (
            pb::ListAuditEntriesRequest {
                action: "shipment.explode".into(),
                ..Default::default()
            },
            "action",
        ),
        (
            pb::ListAuditEntriesRequest {
                start_time: Some(prost_types::Timestamp {
                    seconds: 2_000_000_000,
                    nanos: 0,
                }),
                end_time: Some(prost_types::Timestamp {
                    seconds: 1_000_000_000,
                    nanos: 0,
                }),
                ..Default::default()
            },
            "end_time",
        ),
    ] {
        let status = api.list_audit_entries(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(common::service::violations(&status), [field]);
    }
}

#[tokio::test]
async fn settings_changes_are_audited_field_by_field() {
    let running = start().await;
    let mut api = running.client.clone();
    let mut settings = api
        .get_tracking_email_settings(pb::GetTrackingEmailSettingsRequest {})
        .await
        .unwrap()
        .into_inner();
    let delivered = settings
        .rules
        .iter_mut()
        .find(|r| r.event() == pb::TrackingEvent::Delivered)
        .unwrap();
    delivered.shipper = !delivered.shipper;
    api.update_tracking_email_settings(pb::UpdateTrackingEmailSettingsRequest {
        settings: Some(settings),
    })
    .await
    .unwrap();
    let entries = audit_entries(
        &running,
        pb::ListAuditEntriesRequest {
            action: "settings.update".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(entries.len(), 1);
    let fields: Vec<&str> = entries[0]
        .changes
        .iter()
        .map(|c| c.field.as_str())
        .collect();
    assert_eq!(fields, ["delivered.shipper"]);
}

#[tokio::test]
async fn searching_a_status_as_its_badge_shows_it_finds_those_shipments() {
    let running = start().await;
    let mut api = running.client.clone();
    let moving = create(&mut api, valid_input()).await;
    create(&mut api, valid_input()).await;
    api.update_shipment_tracking(move_to(&moving.id, pb::ShipmentStatus::InTransit))
        .await
        .unwrap();
    for query in ["in transit", "In Transit", "in_transit", "TRANSIT"] {
        let found = api
            .list_shipments(pb::ListShipmentsRequest {
                query: query.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let ids: Vec<&str> = found.shipments.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, [moving.id.as_str()], "{query}");
    }
}
