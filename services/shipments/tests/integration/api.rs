//! Black-box tests: the service on a loopback port, called with the generated client.

use crate::common;

use common::service::{caller, create, start, valid_input, violations};

use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use service_auth::TokenKey;
use tonic::{Code, Request};

/// Whole seconds since the epoch, `days` days from now.
fn days_from_now(days: i64) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: chrono::Utc::now().timestamp() + days * 86_400,
        nanos: 0,
    }
}

#[tokio::test]
async fn past_bookings_and_events_are_recorded_at_their_time_in_order() {
    let mut api = start().await.client;
    let booked = days_from_now(-3);
    let s = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            create_time: Some(booked),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(s.create_time, Some(booked));
    assert_eq!(s.history[0].time, Some(booked));

    let track = |event_time| pb::UpdateShipmentTrackingRequest {
        id: s.id.clone(),
        status: pb::ShipmentStatus::InTransit.into(),
        current_location: "Port of Tema".into(),
        remarks: String::new(),
        event_time,
        remarks_public: false,
        ..Default::default()
    };
    let scanned = days_from_now(-2);
    let after = api
        .update_shipment_tracking(track(Some(scanned)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.history[1].time, Some(scanned));
    assert_ne!(after.update_time, Some(scanned), "the write itself is now");

    // Never before the last entry, never in the future; nothing is written.
    let just_before = prost_types::Timestamp {
        seconds: scanned.seconds - 1,
        nanos: 0,
    };
    for event_time in [just_before, days_from_now(-4), days_from_now(1)] {
        let status = api
            .update_shipment_tracking(track(Some(event_time)))
            .await
            .unwrap_err();
        assert_eq!(violations(&status), ["event_time"], "{event_time:?}");
    }
    let now = api
        .update_shipment_tracking(track(None))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(now.history.len(), 3, "only the valid updates are recorded");
    assert!(now.history[2].time.unwrap().seconds >= days_from_now(0).seconds - 5);

    for create_time in [days_from_now(1), days_from_now(-365 * 40)] {
        let status = api
            .create_shipment(pb::CreateShipmentRequest {
                shipment: Some(valid_input()),
                create_time: Some(create_time),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(violations(&status), ["create_time"]);
    }
}

#[tokio::test]
async fn create_applies_every_rule_of_a_new_shipment() {
    let mut api = start().await.client;
    let s = create(&mut api, valid_input()).await;
    assert!(s.tracking_number.starts_with("PSE") && s.tracking_number.len() == 12);
    assert_ne!(s.tracking_number, "PSE000000001");
    assert_eq!(s.status(), pb::ShipmentStatus::Pending);
    assert_eq!(s.current_location, "Lagos");
    assert_eq!(s.total_volumetric_weight_kg, 224.0);
    assert_eq!(s.total_volume_cubic_metres, 1.12);
    assert_eq!(s.total_actual_weight_kg, 28.0);
    assert_eq!(s.total_freight_cents, 125_050);
    assert_eq!(s.create_time, s.update_time);
    assert_eq!(s.history.len(), 1);
    let first = &s.history[0];
    assert_eq!(
        (
            first.remarks.as_str(),
            first.updated_by.as_str(),
            first.location.as_str()
        ),
        ("Shipment created", "someone@example.com", "Lagos")
    );
    assert_eq!(first.status(), pb::ShipmentStatus::Pending);
    assert_eq!(first.local_date.len(), 10);

    let by_number = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: format!("  {} ", s.tracking_number.to_lowercase()),
        ..Default::default()
    };
    assert_eq!(
        api.get_shipment_by_tracking_number(by_number)
            .await
            .unwrap()
            .into_inner(),
        s
    );
    assert_eq!(
        api.get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
            .await
            .unwrap()
            .into_inner(),
        s
    );
}

#[tokio::test]
async fn bad_fields_are_named_and_nothing_is_written() {
    let mut api = start().await.client;
    let mut input = valid_input();
    input.shipper.as_mut().unwrap().email = "not-an-email".into();
    input.receiver.as_mut().unwrap().name = "   ".into();
    input.packages[1].quantity = 0;
    input.packages[0].weight_kg = -1.0;
    input.total_freight_cents = -5;
    input.mode = 42;
    input.pickup_date = Some(pb::Date {
        year: 2026,
        month: 2,
        day: 30,
    });
    input.origin = "x".repeat(201);
    let status = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let fields = violations(&status);
    for field in [
        "shipper.email",
        "receiver.name",
        "packages[1].quantity",
        "packages[0].weight_kg",
        "total_freight_cents",
        "mode",
        "pickup_date",
        "origin",
    ] {
        assert!(
            fields.contains(&field.to_string()),
            "{field} missing from {fields:?}"
        );
    }
    assert!(status.message().contains("shipper.email"));

    let mut no_packages = valid_input();
    no_packages.packages.clear();
    let status = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(no_packages),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&status), vec!["packages"]);

    let mut too_many = valid_input();
    too_many.packages = vec![too_many.packages[0].clone(); 101];
    let status = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(too_many),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&status), vec!["packages"]);

    let list = api
        .list_shipments(pb::ListShipmentsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.total_size, 0, "refused creates write nothing");
}

#[tokio::test]
async fn lookup_refuses_empty_huge_and_pattern_numbers() {
    let mut api = start().await.client;
    create(&mut api, valid_input()).await;
    for input in ["   ", ".*", "{\"$gt\":\"\"}", "^PSE", "PSE%"] {
        let status = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: input.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{input}");
        assert_eq!(violations(&status), vec!["tracking_number"]);
    }
    let huge = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: "P".repeat(2 * 1024 * 1024),
        ..Default::default()
    };
    let status = api.get_shipment_by_tracking_number(huge).await.unwrap_err();
    assert_eq!(
        status.code(),
        Code::InvalidArgument,
        "refused, never looked up"
    );
    assert_eq!(violations(&status), vec!["tracking_number"]);
    let unknown = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: "PSE000000000".into(),
        ..Default::default()
    };
    let status = api
        .get_shipment_by_tracking_number(unknown)
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), status.message()),
        (Code::NotFound, "Shipment not found")
    );
}

#[tokio::test]
async fn tracking_update_appends_one_entry_and_refreshes_updated_time() {
    let mut api = start().await.client;
    let s = create(&mut api, valid_input()).await;
    let update = pb::UpdateShipmentTrackingRequest {
        id: s.id.clone(),
        status: pb::ShipmentStatus::InTransit.into(),
        current_location: "Port of Tema".into(),
        remarks: "Loaded".into(),
        ..Default::default()
    };
    let after = api
        .update_shipment_tracking(update)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.history.len(), 2);
    let last = after.history.last().unwrap();
    assert_eq!(
        (last.location.as_str(), last.remarks.as_str(), last.status()),
        ("Port of Tema", "Loaded", pb::ShipmentStatus::InTransit)
    );
    assert_eq!(after.current_location, "Port of Tema");
    assert!(after.update_time.unwrap().seconds >= s.update_time.unwrap().seconds);
    assert_ne!(after.update_time, s.update_time);
    assert_eq!(after.create_time, s.create_time);

    let missing = pb::UpdateShipmentTrackingRequest {
        id: "0123456789abcdef01234567".into(),
        ..Default::default()
    };
    let status = api.update_shipment_tracking(missing).await.unwrap_err();
    assert_eq!(
        status.code(),
        Code::InvalidArgument,
        "status and location are checked first"
    );
    let missing = pb::UpdateShipmentTrackingRequest {
        id: "0123456789abcdef01234567".into(),
        status: pb::ShipmentStatus::Delayed.into(),
        current_location: "Nowhere".into(),
        remarks: String::new(),
        ..Default::default()
    };
    let status = api.update_shipment_tracking(missing).await.unwrap_err();
    assert_eq!(
        (status.code(), status.message()),
        (Code::NotFound, "Shipment not found")
    );
}

#[tokio::test]
async fn update_edits_masked_fields_and_records_one_history_entry() {
    let mut api = start().await.client;
    let s = create(&mut api, valid_input()).await;
    let mut edit = pb::Shipment {
        id: s.id.clone(),
        ..Default::default()
    };
    edit.status = pb::ShipmentStatus::Delayed.into();
    edit.current_location = "Abidjan".into();
    edit.packages = vec![pb::Package {
        quantity: 4,
        piece_type: "Box".into(),
        description: "Beans".into(),
        length_cm: 10.0,
        width_cm: 10.0,
        height_cm: 10.0,
        weight_kg: 2.0,
    }];
    edit.receiver = Some(pb::Party {
        email: "new@example.nl".into(),
        ..Default::default()
    });
    let paths = ["status", "current_location", "packages", "receiver.email"]
        .map(String::from)
        .to_vec();
    let request = pb::UpdateShipmentRequest {
        shipment: Some(edit),
        update_mask: Some(prost_types::FieldMask { paths }),
        remarks: "Weather".into(),
        remarks_public: false,
        ..Default::default()
    };
    let after = api.update_shipment(request).await.unwrap().into_inner();
    assert_eq!(after.status(), pb::ShipmentStatus::Delayed);
    assert_eq!(
        after.history.len(),
        2,
        "one entry for status and location together"
    );
    assert_eq!(after.history[1].remarks, "Weather");
    assert_eq!(
        after.total_actual_weight_kg, 8.0,
        "totals recomputed from the new packages"
    );
    assert_eq!(after.total_volumetric_weight_kg, 0.8);
    let receiver = after.receiver.unwrap();
    assert_eq!(
        (receiver.email.as_str(), receiver.name.as_str()),
        ("new@example.nl", "Jan de Vries")
    );
    assert_eq!(after.origin, "Lagos", "fields outside the mask are kept");

    // A details-only edit adds no history entry.
    let edit = pb::Shipment {
        id: s.id.clone(),
        carrier: "MSC".into(),
        ..Default::default()
    };
    let request = pb::UpdateShipmentRequest {
        shipment: Some(edit),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["carrier".into()],
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    };
    let again = api.update_shipment(request).await.unwrap().into_inner();
    assert_eq!((again.carrier.as_str(), again.history.len()), ("MSC", 2));

    // An invalid merged value is refused as a whole: nothing changes.
    let edit = pb::Shipment {
        id: s.id.clone(),
        carrier: String::new(),
        status: pb::ShipmentStatus::Delivered.into(),
        ..Default::default()
    };
    let request = pb::UpdateShipmentRequest {
        shipment: Some(edit),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["carrier".into(), "status".into()],
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    };
    let status = api.update_shipment(request).await.unwrap_err();
    assert_eq!(violations(&status), vec!["carrier"]);
    let unchanged = api
        .get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(unchanged, again);

    for bad_path in ["tracking_number", "history", "create_time", "nonsense"] {
        let request = pb::UpdateShipmentRequest {
            shipment: Some(pb::Shipment {
                id: s.id.clone(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec![bad_path.into()],
            }),
            remarks: String::new(),
            remarks_public: false,
            ..Default::default()
        };
        let status = api.update_shipment(request).await.unwrap_err();
        assert_eq!(violations(&status), vec!["update_mask"], "{bad_path}");
    }
}

#[tokio::test]
async fn search_finds_names_typed_without_their_accents_and_the_reverse() {
    let mut api = start().await.client;
    let mut created = Vec::new();
    for name in ["Jürgen Müller", "Anna Muller"] {
        let mut input = valid_input();
        input.shipper.as_mut().unwrap().name = name.into();
        created.push(create(&mut api, input).await.id);
    }
    for (query, want) in [
        ("muller", vec![&created[1], &created[0]]),
        ("MÜLLER", vec![&created[1], &created[0]]),
        ("jurgen", vec![&created[0]]),
        ("JÜRGEN MÜ", vec![&created[0]]),
    ] {
        let page = api
            .list_shipments(pb::ListShipmentsRequest {
                query: query.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let found: Vec<&String> = page.shipments.iter().map(|s| &s.id).collect();
        assert_eq!(found, want, "{query}");
    }
}

#[tokio::test]
async fn list_filters_searches_and_pages() {
    let mut api = start().await.client;
    let mut created = Vec::new();
    for (i, origin) in ["Lagos", "Tokyo", "Lagos (Apapa)", "Lima", "Oslo"]
        .iter()
        .enumerate()
    {
        let mut input = valid_input();
        input.origin = origin.to_string();
        input.shipper.as_mut().unwrap().name = format!("Shipper {i}");
        created.push(create(&mut api, input).await);
    }
    let update = pb::UpdateShipmentTrackingRequest {
        id: created[1].id.clone(),
        status: pb::ShipmentStatus::OnHold.into(),
        current_location: "Narita".into(),
        remarks: String::new(),
        ..Default::default()
    };
    api.update_shipment_tracking(update).await.unwrap();

    let list = |query: &str, status: pb::ShipmentStatus, page_size: i32, page_token: String| {
        pb::ListShipmentsRequest {
            query: query.into(),
            status: status.into(),
            page_size,
            page_token,
            ..Default::default()
        }
    };
    let page = api
        .list_shipments(list(
            "LAGOS",
            pb::ShipmentStatus::Unspecified,
            0,
            String::new(),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.total_size, 2);
    assert_eq!(page.shipments[0].id, created[2].id, "newest first");
    let page = api
        .list_shipments(list("", pb::ShipmentStatus::OnHold, 0, String::new()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        page.shipments
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<_>>(),
        vec![created[1].id.clone()]
    );
    let page = api
        .list_shipments(list(
            ".*",
            pb::ShipmentStatus::Unspecified,
            0,
            String::new(),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.total_size, 0, "patterns are literal text");

    let first = api
        .list_shipments(list("", pb::ShipmentStatus::Unspecified, 2, String::new()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((first.shipments.len(), first.total_size), (2, 5));
    let second = api
        .list_shipments(list(
            "",
            pb::ShipmentStatus::Unspecified,
            2,
            first.next_page_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.shipments[0].id, created[2].id);

    for bad in [
        list("", pb::ShipmentStatus::Unspecified, 101, String::new()),
        list("", pb::ShipmentStatus::Unspecified, 0, "!!".into()),
        list(
            &"q".repeat(201),
            pb::ShipmentStatus::Unspecified,
            0,
            String::new(),
        ),
    ] {
        assert_eq!(
            api.list_shipments(bad).await.unwrap_err().code(),
            Code::InvalidArgument
        );
    }
}

#[tokio::test]
async fn lookups_see_every_write_at_once() {
    let mut api = start().await.client;
    let s = create(&mut api, valid_input()).await;
    let lookup = || pb::GetShipmentByTrackingNumberRequest {
        tracking_number: s.tracking_number.clone(),
        ..Default::default()
    };
    assert_eq!(
        api.get_shipment_by_tracking_number(lookup())
            .await
            .unwrap()
            .into_inner()
            .status(),
        pb::ShipmentStatus::Pending
    );
    let update = pb::UpdateShipmentTrackingRequest {
        id: s.id.clone(),
        status: pb::ShipmentStatus::Delivered.into(),
        current_location: "Rotterdam".into(),
        remarks: String::new(),
        ..Default::default()
    };
    api.update_shipment_tracking(update).await.unwrap();
    let seen = api
        .get_shipment_by_tracking_number(lookup())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (seen.status(), seen.current_location.as_str()),
        (pb::ShipmentStatus::Delivered, "Rotterdam")
    );

    let edit = pb::Shipment {
        id: s.id.clone(),
        carrier: "CMA CGM".into(),
        ..Default::default()
    };
    let mask = prost_types::FieldMask {
        paths: vec!["carrier".into()],
    };
    api.update_shipment(pb::UpdateShipmentRequest {
        shipment: Some(edit),
        update_mask: Some(mask),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(
        api.get_shipment_by_tracking_number(lookup())
            .await
            .unwrap()
            .into_inner()
            .carrier,
        "CMA CGM"
    );

    api.delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
        .await
        .unwrap();
    assert_eq!(
        api.get_shipment_by_tracking_number(lookup())
            .await
            .unwrap_err()
            .code(),
        Code::NotFound
    );
}

#[tokio::test]
async fn delete_then_missing() {
    let mut api = start().await.client;
    let s = create(&mut api, valid_input()).await;
    api.delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
        .await
        .unwrap();
    let status = api
        .delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), status.message()),
        (Code::NotFound, "Shipment not found")
    );
    let status = api
        .get_shipment(Request::new(pb::GetShipmentRequest { id: s.id }))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
}

#[tokio::test]
async fn health_and_reflection_answer() {
    let running = start().await;
    let mut health = tonic_health::pb::health_client::HealthClient::new(running.channel.clone());
    let reply = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "logistics.v1.ShipmentService".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        reply.status(),
        tonic_health::pb::health_check_response::ServingStatus::Serving
    );

    use tonic_reflection::pb::v1::{
        ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
        server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
    };
    let mut reflection = ServerReflectionClient::new(running.channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut replies = reflection
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let reply = replies.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = reply.message_response else {
        panic!("no service list")
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "logistics.v1.ShipmentService")
    );
}

#[tokio::test]
async fn only_an_admin_token_opens_the_back_office_methods() {
    let running = start().await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let other_key = TokenKey::generate().mint(&caller("admin"), service_auth::CALL_TOKEN_LIFETIME);
    let user_role = running
        .key
        .mint(&caller("user"), service_auth::CALL_TOKEN_LIFETIME);
    let cases = [
        (
            ShipmentServiceClient::new(running.channel.clone())
                .list_shipments(pb::ListShipmentsRequest::default())
                .await
                .unwrap_err(),
            Code::Unauthenticated,
            "no token",
        ),
        (
            running
                .client_as("not.a.jwt")
                .list_shipments(pb::ListShipmentsRequest::default())
                .await
                .unwrap_err(),
            Code::Unauthenticated,
            "garbage token",
        ),
        (
            running
                .client_as(&other_key)
                .delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
                .await
                .unwrap_err(),
            Code::Unauthenticated,
            "signed with another key",
        ),
        (
            running
                .client_as(
                    &running
                        .key
                        .mint_expiring_at(&caller("admin"), chrono::Utc::now().timestamp() - 60),
                )
                .list_shipments(pb::ListShipmentsRequest::default())
                .await
                .unwrap_err(),
            Code::Unauthenticated,
            "expired",
        ),
        (
            running
                .client_as(&user_role)
                .delete_shipment(pb::DeleteShipmentRequest { id: s.id.clone() })
                .await
                .unwrap_err(),
            Code::PermissionDenied,
            "user role",
        ),
        (
            running
                .client_as(&user_role)
                .create_shipment(pb::CreateShipmentRequest {
                    shipment: Some(valid_input()),
                    ..Default::default()
                })
                .await
                .unwrap_err(),
            Code::PermissionDenied,
            "user role creating",
        ),
    ];
    for (status, code, case) in cases {
        assert_eq!(status.code(), code, "{case}");
    }
    // The public lookup needs no token; nothing above was deleted.
    let lookup = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: s.tracking_number.clone(),
        ..Default::default()
    };
    assert_eq!(
        ShipmentServiceClient::new(running.channel.clone())
            .get_shipment_by_tracking_number(lookup)
            .await
            .unwrap()
            .into_inner()
            .tracking_number,
        s.tracking_number
    );
    assert_eq!(
        admin
            .list_shipments(pb::ListShipmentsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .total_size,
        1
    );
}

#[tokio::test]
async fn package_count_and_weight_follow_the_packages_on_create_and_update() {
    let mut api = start().await.client;
    // 3 pieces weighing 28 kg, typed as 7 pieces of 100 kg.
    let s = create(
        &mut api,
        pb::Shipment {
            package_count: 7,
            weight_kg: 100.0,
            ..valid_input()
        },
    )
    .await;
    assert_eq!((s.package_count, s.weight_kg), (3, 28.0));

    let update = |edit: pb::Shipment, paths: &[&str]| pb::UpdateShipmentRequest {
        shipment: Some(pb::Shipment {
            id: s.id.clone(),
            ..edit
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    };
    // A count or weight alone that contradicts the stored packages is replaced.
    let after = api
        .update_shipment(update(
            pb::Shipment {
                package_count: 9,
                weight_kg: 5.0,
                ..Default::default()
            },
            &["package_count", "weight_kg"],
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((after.package_count, after.weight_kg), (3, 28.0));
    // New packages bring their count and weight.
    let packages = vec![pb::Package {
        quantity: 5,
        piece_type: "Sack".into(),
        description: "Rice".into(),
        weight_kg: 2.5,
        ..Default::default()
    }];
    let after = api
        .update_shipment(update(
            pb::Shipment {
                packages,
                ..Default::default()
            },
            &["packages"],
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((after.package_count, after.weight_kg), (5, 12.5));
    // An emptied comment in the mask is cleared.
    let after = api
        .update_shipment(update(pb::Shipment::default(), &["comments"]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.comments, "");
}

/// A courier's phone sends its queue again after a lost answer: each event is applied once,
/// also when its copies arrive at once through two replicas, after a newer event and after a
/// restart; an id that is not one is refused at its field.
#[tokio::test]
async fn an_event_sent_again_with_its_request_id_is_applied_once() {
    let mut runs = vec![start().await];
    if let Some(on_mongo) = common::service::start_on_mongo().await {
        runs.push(on_mongo);
    }
    for running in runs {
        let mut api = running.client.clone();
        let s = api
            .create_shipment(pb::CreateShipmentRequest {
                shipment: Some(valid_input()),
                create_time: Some(days_from_now(-1)),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        let scan = |request_id: &str, status: pb::ShipmentStatus, minutes_ago: i64| {
            pb::UpdateShipmentTrackingRequest {
                id: s.id.clone(),
                status: status.into(),
                current_location: "Depot 4, Porto".into(),
                event_time: Some(prost_types::Timestamp {
                    seconds: chrono::Utc::now().timestamp() - minutes_ago * 60,
                    nanos: 0,
                }),
                request_id: request_id.into(),
                ..Default::default()
            }
        };
        let picked_up = scan(
            "3f1c2a9e-6b7d-4c1e-9a55-0f6e2d1b7c42",
            pb::ShipmentStatus::InTransit,
            10,
        );
        let first = api
            .update_shipment_tracking(picked_up.clone())
            .await
            .unwrap()
            .into_inner();
        assert_eq!(first.history.len(), 2);

        // Ten copies of the next event at once, half through another replica.
        let replica = common::service::replica_of(&running).await;
        let at_hub = scan("at-hub_0001", pb::ShipmentStatus::OnHold, 5);
        let copies = (0..10).map(|i| {
            let mut client = if i % 2 == 0 {
                running.client.clone()
            } else {
                replica.client.clone()
            };
            let request = at_hub.clone();
            async move { client.update_shipment_tracking(request).await }
        });
        for answer in futures::future::join_all(copies).await {
            assert_eq!(answer.unwrap().into_inner().history.len(), 3);
        }

        // The first again, now older than the last entry: still a repeat, not out of order.
        let again = api
            .update_shipment_tracking(picked_up.clone())
            .await
            .unwrap()
            .into_inner();
        assert_eq!(again.history.len(), 3);
        assert_eq!(again.status, i32::from(pb::ShipmentStatus::OnHold));
        // A new event that is older than the last entry is refused, as before.
        let late = api
            .update_shipment_tracking(scan("late-scan-1", pb::ShipmentStatus::InTransit, 8))
            .await
            .unwrap_err();
        assert_eq!(violations(&late), ["event_time"]);

        for bad in ["short", "has a space", &"x".repeat(65), "naïve-id-1"] {
            let status = api
                .update_shipment_tracking(scan(bad, pb::ShipmentStatus::InTransit, 0))
                .await
                .unwrap_err();
            assert_eq!(violations(&status), ["request_id"], "{bad:?}");
        }

        let restarted = common::service::restart(running).await;
        let mut api = restarted.client.clone();
        let after_restart = api
            .update_shipment_tracking(at_hub)
            .await
            .unwrap()
            .into_inner();
        assert_eq!(after_restart.history.len(), 3, "the ids outlive a restart");
    }
}
