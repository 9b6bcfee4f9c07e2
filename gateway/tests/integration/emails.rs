//! The contact form, the outbox, and e-mails written over SMTP to a real server, in both modes.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;

use test_servers::smtp::TestSmtpServer;

use crate::calls::*;
use common::site::{
    ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_with_services, distributed,
    distributed_with_services,
};
use common::wire::{Reply, demo_shipment};

async fn send_contact(
    base: &str,
    request: &pb::SendContactMessageRequest,
    headers: &[(&str, &str)],
) -> Reply {
    call(
        base,
        "logistics.v1.NotificationService/SendContactMessage",
        request.encode_to_vec(),
        headers,
    )
    .await
    .0
}

async fn list_outbox(base: &str, headers: &[(&str, &str)]) -> Reply {
    call(
        base,
        "logistics.v1.NotificationService/ListNotifications",
        // The demo's shipments write many update e-mails; one page holds them all.
        pb::ListNotificationsRequest {
            page_size: 100,
            ..Default::default()
        }
        .encode_to_vec(),
        headers,
    )
    .await
    .0
}

/// The contact form: public, checked field by field, limited per client, never cross-site; the
/// outbox is the admin's alone and shows the new shipment's two e-mails.
async fn contact_messages_and_the_outbox(site: &Site) {
    let message = pb::SendContactMessageRequest {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much to Lagos?".into(),
        website: String::new(),
    };
    let cross_site =
        send_contact(&site.base, &message, &[("origin", "https://evil.example")]).await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
    let invalid = pb::SendContactMessageRequest {
        email: "nope".into(),
        ..message.clone()
    };
    let reply = send_contact(&site.base, &invalid, &[]).await;
    assert_eq!(reply.grpc_status, Some(INVALID_ARGUMENT), "{reply:?}");
    assert!(
        reply
            .message
            .contains("email: is not a valid email address"),
        "{reply:?}"
    );
    // The limit is 2 an hour per client in these tests; the invalid one counted too.
    assert_eq!(
        send_contact(&site.base, &message, &[]).await.grpc_status,
        Some(OK)
    );
    let limited = send_contact(&site.base, &message, &[]).await;
    assert_eq!(limited.grpc_status, Some(RESOURCE_EXHAUSTED));
    assert_eq!(limited.message, gateway::rpc::TOO_MANY_MESSAGES);

    assert_eq!(
        list_outbox(&site.base, &[]).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    assert_eq!(
        list_outbox(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED)
    );
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    let created = demo_shipment(&site.store).await;
    let reply = list_outbox(&site.base, &[("cookie", &admin)]).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let outbox = pb::ListNotificationsResponse::decode(reply.body.unwrap()).unwrap();
    let for_shipment: Vec<_> = outbox
        .notifications
        .iter()
        .filter(|n| n.tracking_number == created.tracking_number.as_str())
        .filter(|n| {
            [pb::EmailTemplate::Shipper, pb::EmailTemplate::Receiver].contains(&n.template())
        })
        .collect();
    assert_eq!(for_shipment.len(), 2, "the shipper and the receiver e-mail");
    assert!(
        outbox
            .notifications
            .iter()
            .any(|n| n.template == pb::EmailTemplate::Contact as i32)
    );
}

#[tokio::test]
async fn all_in_one_contact_messages_and_the_outbox() {
    contact_messages_and_the_outbox(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_contact_messages_and_the_outbox() {
    contact_messages_and_the_outbox(&distributed().await).await;
}

/// The services' settings for e-mail over SMTP to `port` on this host.
fn over_smtp(port: u16) -> impl FnOnce(&mut gateway::HostedServices) {
    move |services| {
        services.notifications = service_common::settings::from_flags(&[
            "--mail-transport",
            "smtp",
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            &port.to_string(),
            "--smtp-tls",
            "none",
            "--mail-from",
            "Parcel Shipping Express <no-reply@pse.example>",
        ])
        .unwrap();
    }
}

/// A new shipment's two e-mails and a contact message reach a real SMTP server, written by the
/// product itself, and the outbox says they were sent.
async fn emails_go_out_over_smtp(site: &Site, server: &TestSmtpServer) {
    let message = pb::SendContactMessageRequest {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much to Lagos?".into(),
        website: String::new(),
    };
    assert_eq!(
        send_contact(&site.base, &message, &[]).await.grpc_status,
        Some(OK)
    );
    let created = demo_shipment(&site.store).await;
    let number = created.tracking_number.as_str();
    let subject = |m: &serde_json::Value| m["headers"]["subject"][0].as_str().unwrap().to_owned();
    // The demo's shipments send their own e-mails too (its moves' status updates, sent
    // alongside): these are the ones of this test.
    let ours = || {
        let mut ours: Vec<serde_json::Value> = server
            .received()
            .into_iter()
            .filter(|m| {
                subject(m) == "Contact form: Rates"
                    || (m["text"].as_str().unwrap().contains(number)
                        && !subject(m).starts_with(&format!("Shipment {number}:")))
            })
            .collect();
        ours.sort_by_key(subject);
        ours
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while ours().len() < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let received = ours();
    let subjects: Vec<String> = received.iter().map(subject).collect();
    assert_eq!(
        subjects,
        [
            "Contact form: Rates",
            "Package Incoming",
            "Shipment Created"
        ]
    );
    assert!(
        received[2]["text"]
            .as_str()
            .unwrap()
            .contains(&format!("/track/{number}?access=")),
        "the shipper's link opens the full view: {}",
        received[2]
    );
    let contact = received
        .iter()
        .find(|m| subject(m) == "Contact form: Rates")
        .unwrap();
    assert_eq!(contact["headers"]["reply-to"][0], "Vee <vee@example.com>");
    assert_eq!(
        contact["rcpt_tos"][0], "support@parcelshippingexpress.com",
        "the brand's support address, CONTACT_INBOX being unset"
    );
}

#[tokio::test]
async fn all_in_one_sends_emails_over_smtp() {
    let server = TestSmtpServer::start("accept");
    let site = all_in_one_with_services(|_| {}, over_smtp(server.port)).await;
    emails_go_out_over_smtp(&site, &server).await;
}

#[tokio::test]
async fn distributed_sends_emails_over_smtp() {
    let server = TestSmtpServer::start("accept");
    let site = distributed_with_services(|_| {}, over_smtp(server.port)).await;
    emails_go_out_over_smtp(&site, &server).await;
}
