//! The public tracking page's calls: lookups in both modes, hostile input refused cleanly,
//! a verified party's full view, and their limits per client.

use crate::common;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site, all_in_one_with, distributed};
use common::wire::demo_shipment;

async fn tracking_lookup_works(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let reply = lookup(&site.base, shipment.tracking_number.as_str()).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let found = pb::Shipment::decode(reply.body.unwrap()).unwrap();
    assert_eq!(found.tracking_number, shipment.tracking_number.as_str());
    assert_eq!(found.view(), pb::ShipmentView::Limited);
    assert_eq!(
        found.shipper.unwrap().name,
        shipments::privacy::short_name(&shipment.details.shipper_name)
    );
    let reply = lookup(&site.base, "PSE000000000").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (Some(NOT_FOUND), "Shipment not found")
    );
}

#[tokio::test]
async fn all_in_one_tracks_a_shipment_over_grpc_web() {
    tracking_lookup_works(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_tracks_a_shipment_over_grpc_web() {
    tracking_lookup_works(&distributed().await).await;
}

#[tokio::test]
async fn pattern_and_operator_numbers_are_refused_not_matched() {
    let site = all_in_one(60).await;
    demo_shipment(&site.store).await;
    for input in ["   ", ".*", "{\"$gt\":\"\"}", "^PSE", "PSE.*"] {
        let reply = lookup(&site.base, input).await;
        assert_eq!(
            reply.grpc_status,
            Some(INVALID_ARGUMENT),
            "{input}: {reply:?}"
        );
        assert!(reply.body.is_none());
    }
}

#[tokio::test]
async fn tracking_lookups_are_rate_limited_per_client() {
    let site = all_in_one(3).await;
    for _ in 0..3 {
        assert_eq!(
            lookup(&site.base, "PSE000000000").await.grpc_status,
            Some(NOT_FOUND)
        );
    }
    let reply = lookup(&site.base, "PSE000000000").await;
    assert_eq!(reply.grpc_status, Some(RESOURCE_EXHAUSTED));
    assert_eq!(reply.message, gateway::rpc::TOO_MANY_LOOKUPS);
}

fn verify_request(number: &str, answer: &str) -> Vec<u8> {
    pb::VerifyTrackingAccessRequest {
        tracking_number: number.into(),
        answer: answer.into(),
    }
    .encode_to_vec()
}

async fn lookup_with(base: &str, number: &str, headers: &[(&str, &str)]) -> pb::Shipment {
    let request = pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    };
    let (reply, _) = call(
        base,
        "logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
        request.encode_to_vec(),
        headers,
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    pb::Shipment::decode(reply.body.unwrap()).unwrap()
}

async fn a_verified_party_keeps_the_full_view_in_an_httponly_cookie(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let number = shipment.tracking_number.as_str();
    let here = [("origin", site.base.as_str())];

    let (refused, headers) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, "nobody@example.com"),
        &here,
    )
    .await;
    assert_eq!(refused.grpc_status, Some(INVALID_ARGUMENT));
    assert!(headers.get("set-cookie").is_none());

    let (verified, headers) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, &shipment.details.receiver_email),
        &here,
    )
    .await;
    assert_eq!(verified.grpc_status, Some(OK), "{verified:?}");
    assert!(
        headers.get("x-tracking-access-grant").is_none(),
        "the grant never reaches a script"
    );
    let set_cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(set_cookie.starts_with(&format!("pse_track_{number}=")));
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict"));
    let cookie = cookie_pair(set_cookie);

    let full = lookup_with(&site.base, number, &[("cookie", &cookie)]).await;
    assert_eq!(full.view(), pb::ShipmentView::Full);
    assert_eq!(
        full.receiver.unwrap().email,
        shipment.details.receiver_email
    );
    // A grant a script makes up, or sends as a header, opens nothing.
    let forged = lookup_with(&site.base, number, &[("cookie", &format!("{cookie}x"))]).await;
    assert_eq!(forged.view(), pb::ShipmentView::Limited);
    let token = cookie.split_once('=').unwrap().1;
    let as_header = lookup_with(&site.base, number, &[("x-tracking-access", token)]).await;
    assert_eq!(as_header.view(), pb::ShipmentView::Limited);

    // Signed-in staff see everything.
    let (_, session) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let staff = lookup_with(
        &site.base,
        number,
        &[("cookie", &cookie_pair(&session.unwrap()))],
    )
    .await;
    assert_eq!(staff.view(), pb::ShipmentView::Full);

    // Verification from another site is refused before it reaches the service.
    let (cross, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/VerifyTrackingAccess",
        verify_request(number, &shipment.details.receiver_email),
        &[("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(cross.grpc_status, Some(PERMISSION_DENIED));
}

#[tokio::test]
async fn all_in_one_keeps_a_verified_partys_full_view() {
    a_verified_party_keeps_the_full_view_in_an_httponly_cookie(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_keeps_a_verified_partys_full_view() {
    a_verified_party_keeps_the_full_view_in_an_httponly_cookie(&distributed().await).await;
}

#[tokio::test]
async fn verification_and_subscription_calls_are_rate_limited_per_client() {
    let site = all_in_one_with(|s| {
        s.verifications_per_hour = 2;
        s.subscriptions_per_hour = 2;
    })
    .await;
    let number = demo_shipment(&site.store).await.tracking_number.to_string();
    let mut codes = Vec::new();
    for _ in 0..3 {
        let (reply, _) = call(
            &site.base,
            "logistics.v1.ShipmentService/VerifyTrackingAccess",
            verify_request(&number, "0000"),
            &[],
        )
        .await;
        codes.push(reply.grpc_status);
    }
    assert_eq!(
        codes,
        [
            Some(INVALID_ARGUMENT),
            Some(INVALID_ARGUMENT),
            Some(RESOURCE_EXHAUSTED)
        ]
    );
    // A client out of guesses may still ask for the link by e-mail: it counts as a
    // subscription (it sends e-mail), never as a guess.
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/SendTrackingAccessLink",
        pb::SendTrackingAccessLinkRequest {
            tracking_number: number.clone(),
        }
        .encode_to_vec(),
        &[],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK));
    let subscribe = pb::SubscribeToShipmentRequest {
        tracking_number: number.clone(),
        email: "fan@example.com".into(),
        ..Default::default()
    }
    .encode_to_vec();
    let mut replies = Vec::new();
    for _ in 0..2 {
        let (reply, _) = call(
            &site.base,
            "logistics.v1.ShipmentService/SubscribeToShipment",
            subscribe.clone(),
            &[],
        )
        .await;
        replies.push((reply.grpc_status, reply.message));
    }
    assert_eq!(replies[0].0, Some(OK));
    assert_eq!(
        replies[1],
        (
            Some(RESOURCE_EXHAUSTED),
            gateway::rpc::TOO_MANY_SUBSCRIPTIONS.to_owned()
        )
    );
}

/// Hostile input to every public method of the tracking page is the caller's fault, named as
/// such, and never a server error.
#[tokio::test]
async fn hostile_input_to_the_public_tracking_methods_is_refused_cleanly() {
    let site = all_in_one_with(|s| {
        s.tracking_lookups_per_minute = 1000;
        s.verifications_per_hour = 1000;
        s.subscriptions_per_hour = 1000;
    })
    .await;
    let number = demo_shipment(&site.store).await.tracking_number.to_string();
    let huge = "9".repeat(1 << 20);
    let controls = "\u{0}\u{7}\u{1b}[2J\r\n";
    let verify = |n: &str, a: &str| verify_request(n, a);
    let subscribe = |n: &str, e: &str| {
        pb::SubscribeToShipmentRequest {
            tracking_number: n.into(),
            email: e.into(),
            ..Default::default()
        }
        .encode_to_vec()
    };
    let token =
        |t: &str| pb::ConfirmShipmentSubscriptionRequest { token: t.into() }.encode_to_vec();
    let send_link = |n: &str| {
        pb::SendTrackingAccessLinkRequest {
            tracking_number: n.into(),
        }
        .encode_to_vec()
    };
    let garbage = vec![0xff, 0xff, 0xff, 0x0f, 0x12, 0x80];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("VerifyTrackingAccess", verify(&number, &huge)),
        ("VerifyTrackingAccess", verify(&number, controls)),
        ("VerifyTrackingAccess", verify(controls, "1234")),
        ("VerifyTrackingAccess", garbage.clone()),
        (
            "SubscribeToShipment",
            subscribe(&number, &format!("{huge}@x.io")),
        ),
        (
            "SubscribeToShipment",
            subscribe(&number, &format!("a{controls}@example.com")),
        ),
        (
            "SubscribeToShipment",
            subscribe("PSE' OR 1=1", "fan@example.com"),
        ),
        ("SubscribeToShipment", garbage.clone()),
        ("ConfirmShipmentSubscription", token("")),
        (
            "ConfirmShipmentSubscription",
            token("eyJhbGciOiJub25lIn0.eyJzdWIiOiJQU0UxMjM0NTY3ODkifQ."),
        ),
        ("ConfirmShipmentSubscription", token(&huge)),
        ("DeleteShipmentSubscription", token("a.b.c")),
        ("DeleteShipmentSubscription", token(controls)),
        ("DeleteShipmentSubscription", garbage.clone()),
        ("SendTrackingAccessLink", send_link(&huge)),
        ("SendTrackingAccessLink", send_link(controls)),
        ("SendTrackingAccessLink", garbage),
    ];
    for (method, body) in cases {
        let (reply, _) = call(
            &site.base,
            &format!("logistics.v1.ShipmentService/{method}"),
            body,
            &[],
        )
        .await;
        assert!(
            matches!(
                reply.grpc_status,
                Some(INVALID_ARGUMENT | RESOURCE_EXHAUSTED)
            ),
            "{method}: {reply:?}"
        );
        assert!(reply.message.len() < 300, "{method}: a short message");
    }
}
