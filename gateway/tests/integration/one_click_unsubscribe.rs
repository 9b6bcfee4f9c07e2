//! One-click unsubscribe (RFC 8058) through the all-in-one product: a subscriber's update
//! e-mail carries the link, a POST of `List-Unsubscribe=One-Click` to it with no cookie and no
//! Origin unsubscribes, and the next change e-mails them no more; a GET still shows the page.

use crate::common;

use logistics_proto::v1 as pb;
use outbox::{OutboxStore, Template};

use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, all_in_one};
use common::wire::{Reply, call, demo_shipment, frame, read_reply, sign_in};

const FAN: &str = "fan@example.com";

/// Every e-mail of the outbox about `number`, oldest first.
async fn emails(data: &std::path::Path, number: &str) -> Vec<outbox::Notification> {
    let outbox = outbox::SqliteOutbox::open(data).unwrap();
    let mut all = outbox
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    all.retain(|n| n.tracking_number == number);
    all.reverse();
    all
}

/// The value of `name` in `url`'s query.
fn param(url: &str, name: &str) -> String {
    let (_, query) = url.split_once('?').expect("a query");
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
        .expect("the parameter")
        .to_owned()
}

/// Changes the shipment's status as staff, which e-mails its parties and subscribers.
async fn track(base: &str, cookie: &str, id: &str, status: pb::ShipmentStatus, location: &str) {
    let request = pb::UpdateShipmentTrackingRequest {
        id: id.into(),
        status: status.into(),
        current_location: location.into(),
        remarks: String::new(),
        remarks_public: false,
        event_time: None,
        ..Default::default()
    };
    let response = reqwest::Client::new()
        .post(format!(
            "{base}/logistics.v1.ShipmentService/UpdateShipmentTracking"
        ))
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("cookie", cookie)
        .body(frame(&prost::Message::encode_to_vec(&request)))
        .send()
        .await
        .unwrap();
    let (reply, _): (Reply, _) = read_reply(response).await;
    assert_eq!(reply.grpc_status, Some(0), "{reply:?}");
}

async fn updates_to_fan(data: &std::path::Path, number: &str) -> Vec<outbox::Notification> {
    let mut sent = emails(data, number).await;
    sent.retain(|n| n.to_email == FAN && n.template == Template::StatusUpdate);
    sent
}

#[tokio::test(flavor = "multi_thread")]
async fn a_post_to_the_unsubscribe_link_unsubscribes_and_a_get_shows_the_page() {
    let site = all_in_one().await;
    let shipment = demo_shipment(&site.store).await;
    let number = shipment.tracking_number.to_string();
    // Two statuses that e-mail subscribers, the first not the shipment's own.
    let (first, second) = if shipment.status == shipments::domain::Status::Delayed {
        (pb::ShipmentStatus::OnHold, pb::ShipmentStatus::Delayed)
    } else {
        (pb::ShipmentStatus::Delayed, pb::ShipmentStatus::OnHold)
    };
    let (reply, _) = call(
        &site.base,
        "ShipmentService/SubscribeToShipment",
        pb::SubscribeToShipmentRequest {
            tracking_number: number.clone(),
            email: FAN.into(),
            language_code: String::new(),
        },
    )
    .await;
    assert_eq!(reply.grpc_status, Some(0), "{reply:?}");
    let confirmation = emails(&site.data, &number).await.pop().unwrap();
    let (reply, _) = call(
        &site.base,
        "ShipmentService/ConfirmShipmentSubscription",
        pb::ConfirmShipmentSubscriptionRequest {
            token: param(&confirmation.params["confirm_url"], "confirm"),
        },
    )
    .await;
    assert_eq!(reply.grpc_status, Some(0), "{reply:?}");

    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let cookie = cookie.unwrap();
    let cookie = cookie.split(';').next().unwrap();
    track(
        &site.base,
        cookie,
        &shipment.id,
        first,
        "Rotterdam, Netherlands",
    )
    .await;
    let update = updates_to_fan(&site.data, &number)
        .await
        .pop()
        .expect("an update");
    let link = &update.params["unsubscribe_url"];
    let (_, path_and_query) = link
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('/'))
        .unwrap();
    let url = format!("{}/{path_and_query}", site.base);
    let http = reqwest::Client::new();

    // Opening the link shows the tracking page (the web app), as before, and changes nothing.
    let page = http.get(&url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("<!doctype html>"));

    // Posts that are not the one-click form, or carry a forged token, change nothing either.
    let bare = http.post(&url).send().await.unwrap();
    assert_eq!(bare.status(), 400);
    let forged = http
        .post(format!("{url}x"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
    track(&site.base, cookie, &shipment.id, second, "Antwerp, Belgium").await;
    assert_eq!(updates_to_fan(&site.data, &number).await.len(), 2);

    // The mail client's one-click POST: no cookie, no Origin, no token but the link's.
    let done = http
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert_eq!(done.text().await.unwrap(), "You are unsubscribed.");
    track(&site.base, cookie, &shipment.id, first, "Hamburg, Germany").await;
    assert_eq!(
        updates_to_fan(&site.data, &number).await.len(),
        2,
        "no update after unsubscribing"
    );
    // A second click is answered the same way and changes nothing.
    let again = http
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 200);
}
