//! The exceptions queue and the internal notes through the gateway, in both modes: staff see a
//! held shipment in the queue, resolve it and write notes that no visitor, customer or
//! webhook ever reads; the audit log names both.

use serde_json::{Value, json};

use crate::api_keys::{customer_admin, signed_in};
use crate::common;
use crate::connect_json::{booking, post};
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site, all_in_one, distributed};

const NOTE: &str = "Receiver's neighbour keeps the parcels: ring twice";

/// POSTs `body` as JSON to `method` and expects a 200; its answer.
pub(crate) async fn call(site: &Site, method: &str, body: Value, cookie: &str) -> Value {
    let (status, answer, _) = post(site, method, &body.to_string(), cookie).await;
    assert_eq!(status, 200, "{method}: {answer}");
    answer
}

async fn staff_work_the_queue_and_keep_notes_to_themselves(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let booked = call(site, "ShipmentService/CreateShipment", booking(), &admin).await;
    let (id, number) = (
        booked["id"].as_str().unwrap().to_owned(),
        booked["trackingNumber"].as_str().unwrap().to_owned(),
    );
    call(
        site,
        "ShipmentService/UpdateShipmentTracking",
        json!({"id": id, "status": "SHIPMENT_STATUS_ON_HOLD", "currentLocation": "Busan customs"}),
        &admin,
    )
    .await;
    let held = json!({"kind": "SHIPMENT_EXCEPTION_KIND_ON_HOLD"});
    let listed = call(
        site,
        "ShipmentExceptionService/ListShipmentExceptions",
        held.clone(),
        &admin,
    )
    .await;
    let exception = &listed["exceptions"][0];
    assert_eq!(exception["trackingNumber"], number.as_str(), "{listed}");
    assert_eq!(exception["currentLocation"], "Busan customs");
    let counts = call(
        site,
        "ShipmentExceptionService/GetShipmentExceptionCounts",
        json!({}),
        &admin,
    )
    .await;
    assert!(
        counts["counts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["kind"] == "SHIPMENT_EXCEPTION_KIND_ON_HOLD" && c["count"] == "1"),
        "{counts}"
    );

    call(
        site,
        "ShipmentNoteService/CreateShipmentNote",
        json!({"shipmentId": id, "text": NOTE}),
        &admin,
    )
    .await;
    let resolved = call(
        site,
        "ShipmentExceptionService/ResolveShipmentException",
        json!({"id": exception["id"], "reason": "Papers sent to customs"}),
        &admin,
    )
    .await;
    assert_eq!(resolved["state"], "SHIPMENT_EXCEPTION_STATE_RESOLVED");

    // A visitor's lookup and a customer never read the note; a customer has no queue.
    let (_, public, _) = post(
        site,
        "ShipmentService/GetShipmentByTrackingNumber",
        &json!({"trackingNumber": number}).to_string(),
        "",
    )
    .await;
    assert_eq!(public["trackingNumber"], number.as_str(), "{public}");
    assert!(!public.to_string().contains("neighbour"));
    let customer = customer_admin(site, &admin, "Nosy Traders").await;
    for (method, body) in [
        ("ShipmentExceptionService/ListShipmentExceptions", json!({})),
        (
            "ShipmentNoteService/ListShipmentNotes",
            json!({"shipmentId": id}),
        ),
    ] {
        let (status, refused, _) = post(site, method, &body.to_string(), &customer).await;
        assert_eq!(
            (status, refused["code"].as_str()),
            (403, Some("permission_denied")),
            "{method}"
        );
    }

    // The audit log names the note and the resolution.
    for (action, summary) in [
        ("shipment.note", NOTE),
        ("exception.resolve", "Papers sent to customs"),
    ] {
        let entries = call(
            site,
            "AuditService/ListAuditEntries",
            json!({"action": action}),
            &admin,
        )
        .await;
        assert_eq!(entries["entries"][0]["summary"], summary, "{entries}");
    }
}

#[tokio::test]
async fn all_in_one_staff_work_the_queue_and_keep_notes_to_themselves() {
    staff_work_the_queue_and_keep_notes_to_themselves(&all_in_one().await).await;
}

#[tokio::test]
async fn distributed_staff_work_the_queue_and_keep_notes_to_themselves() {
    staff_work_the_queue_and_keep_notes_to_themselves(&distributed().await).await;
}
