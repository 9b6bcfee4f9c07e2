//! Live pages through the gateway, as a browser opens them (gRPC-web, one long response):
//! an open tracking page hears each change in both modes, and a network holds at most its
//! share of open pages.

use std::time::Duration;

use bytes::{Buf, BytesMut};
use logistics_proto::v1 as pb;
use prost::Message;
use serde_json::json;

use crate::api_keys::signed_in;
use crate::common;
use crate::connect_json::{booking, post};
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site, all_in_one, all_in_one_with, distributed};
use common::wire::frame;

/// Longest a change may take to reach an open page here (the product aims at well under 1 s).
const WITHIN: Duration = Duration::from_secs(5);

/// An open gRPC-web stream, read frame by frame as it arrives.
struct Open {
    response: reqwest::Response,
    buffered: BytesMut,
}

enum Frame {
    Message(bytes::Bytes),
    Trailers(String),
}

impl Open {
    async fn watch(site: &Site, number: &str) -> Self {
        let request = pb::WatchShipmentRequest {
            tracking_number: number.into(),
            ..Default::default()
        };
        let response = reqwest::Client::new()
            .post(format!(
                "{}/logistics.v1.ShipmentService/WatchShipment",
                site.base
            ))
            .header("content-type", "application/grpc-web+proto")
            .header("x-grpc-web", "1")
            .body(frame(&request.encode_to_vec()))
            .send()
            .await
            .unwrap();
        Self {
            response,
            buffered: BytesMut::new(),
        }
    }

    /// The status of a call refused before its stream began.
    fn refused(&self) -> Option<(String, String)> {
        let header = |name: &str| {
            self.response
                .headers()
                .get(name)
                .map(|v| common::wire::percent_decode(v.to_str().unwrap()))
        };
        Some((header("grpc-status")?, header("grpc-message").unwrap_or_default()))
    }

    async fn next(&mut self) -> Option<Frame> {
        loop {
            if self.buffered.len() >= 5 {
                let len = u32::from_be_bytes(self.buffered[1..5].try_into().unwrap()) as usize;
                if self.buffered.len() >= 5 + len {
                    let flag = self.buffered.get_u8();
                    self.buffered.advance(4);
                    let body = self.buffered.split_to(len).freeze();
                    return Some(if flag & 0x80 == 0 {
                        Frame::Message(body)
                    } else {
                        Frame::Trailers(String::from_utf8_lossy(&body).into_owned())
                    });
                }
            }
            let chunk = tokio::time::timeout(WITHIN, self.response.chunk())
                .await
                .expect("the stream said something in time")
                .unwrap()?;
            self.buffered.extend_from_slice(&chunk);
        }
    }

    /// The next shipment the page is sent (keep-alives skipped).
    async fn shipment(&mut self) -> pb::Shipment {
        loop {
            match self.next().await.expect("the stream is open") {
                Frame::Message(body) => {
                    let message = pb::WatchShipmentResponse::decode(body).unwrap();
                    if let Some(shipment) = message.shipment {
                        return shipment;
                    }
                }
                Frame::Trailers(trailers) => panic!("the stream ended: {trailers}"),
            }
        }
    }
}

async fn an_open_tracking_page_hears_each_change(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (status, booked, _) = post(
        site,
        "ShipmentService/CreateShipment",
        &booking().to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{booked}");
    let number = booked["trackingNumber"].as_str().unwrap();
    let mut page = Open::watch(site, number).await;
    assert_eq!(page.refused(), None);
    let first = page.shipment().await;
    assert_eq!(first.status(), pb::ShipmentStatus::Pending);

    let (status, answer, _) = post(
        site,
        "ShipmentService/UpdateShipmentTracking",
        &json!({"id": booked["id"], "status": "SHIPMENT_STATUS_IN_TRANSIT",
                "currentLocation": "Busan"})
        .to_string(),
        &admin,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let moved = page.shipment().await;
    assert_eq!(moved.status(), pb::ShipmentStatus::InTransit);
    assert_eq!(moved.current_location, "Busan");
    assert_eq!(moved.history.len(), 2);
    // A visitor's view: no contact details.
    assert!(moved.receiver.unwrap_or_default().email.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_open_tracking_page_hears_each_change_all_in_one() {
    an_open_tracking_page_hears_each_change(&all_in_one().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_open_tracking_page_hears_each_change_distributed() {
    an_open_tracking_page_hears_each_change(&distributed().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_network_holds_at_most_its_share_of_open_pages() {
    let site = all_in_one_with(|s| s.live_pages_per_client = 2).await;
    let admin = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (_, booked, _) = post(
        &site,
        "ShipmentService/CreateShipment",
        &booking().to_string(),
        &admin,
    )
    .await;
    let number = booked["trackingNumber"].as_str().unwrap();
    let mut first = Open::watch(&site, number).await;
    first.shipment().await;
    let mut second = Open::watch(&site, number).await;
    second.shipment().await;
    let third = Open::watch(&site, number).await;
    assert_eq!(
        third.refused(),
        Some((
            "8".into(),
            "Too many live pages are open from your network. Close some and try again.".into()
        ))
    );
    // A closed page gives its place back.
    drop(first);
    let deadline = tokio::time::Instant::now() + WITHIN;
    loop {
        let mut again = Open::watch(&site, number).await;
        if again.refused().is_none() {
            again.shipment().await;
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the place never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
