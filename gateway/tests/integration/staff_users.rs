//! Work given to a staff user by id (a round's courier, a pickup's agent, an exception's
//! assignee), in both modes: only an enabled staff user allowed the work takes it, refused by
//! the field's name otherwise with nothing assigned, and the e-mail shown is the user's as
//! stored, whatever the caller sent.

use chrono::Datelike;
use serde_json::{Value, json};

use crate::api_keys::{customer_admin, signed_in};
use crate::common;
use crate::connect_json::{booking, post};
use crate::exceptions::call;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one, distributed};

/// The fields the answer's BadRequest names; the answer must be a 400 with a sentence for people.
async fn refused_fields(site: &Site, method: &str, body: Value, cookie: &str) -> Vec<String> {
    let (status, answer, _) = post(site, method, &body.to_string(), cookie).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (400, Some("invalid_argument")),
        "{method}: {answer}"
    );
    // The sentence a person reads in the assign dialogs; the details name the field.
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.starts_with("That user cannot take this work: choose an enabled staff member"),
        "{message}"
    );
    answer["details"][0]["debug"]["fieldViolations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap().to_owned())
        .collect()
}

async fn user_id(site: &Site, admin: &str, email: &str) -> String {
    let users = call(site, "AuthService/ListUsers", json!({}), admin).await;
    users["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == email)
        .unwrap_or_else(|| panic!("{email} in {users}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn only_an_enabled_staff_user_takes_work(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let courier = call(
        site,
        "AuthService/CreateUser",
        json!({"user": {"email": "rider@example.com", "name": "Rider", "role": "ROLE_COURIER"},
               "password": "rider-Passw0rd-2026"}),
        &admin,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The clerk's role (user) has no shipments.track: no round is of use to them.
    let clerk = user_id(site, &admin, CLERK_EMAIL).await;
    let customer = customer_admin(site, &admin, "Acme Imports").await;
    let customers_user =
        call(site, "AuthService/ListCustomerUsers", json!({}), &customer).await["users"][0]["id"]
            .as_str()
            .unwrap()
            .to_owned();
    let shipment = call(site, "ShipmentService/CreateShipment", booking(), &admin).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let today = chrono::Utc::now().date_naive();
    let assign = |courier: &str| {
        json!({"shipmentIds": [shipment], "courierId": courier, "courierEmail": "boss@example.com",
               "date": {"year": today.year(), "month": today.month(), "day": today.day()}})
    };

    for (who, id) in [
        ("a made-up id", "no-such-user"),
        ("no id at all", "x/../../users"),
        ("a user without shipments.track", clerk.as_str()),
        ("a customer's user", customers_user.as_str()),
    ] {
        let fields = refused_fields(
            site,
            "ShipmentService/AssignShipmentsToCourier",
            assign(id),
            &admin,
        )
        .await;
        assert_eq!(fields, ["courier_id"], "{who}");
    }
    let unassigned = call(
        site,
        "ShipmentService/GetShipment",
        json!({"id": shipment}),
        &admin,
    )
    .await;
    assert!(
        unassigned.get("courierAssignment").is_none(),
        "{unassigned}"
    );

    // The courier takes the round, shown by their stored e-mail, not the one sent.
    let assigned = call(
        site,
        "ShipmentService/AssignShipmentsToCourier",
        assign(&courier),
        &admin,
    )
    .await;
    let round = &assigned["shipments"][0]["courierAssignment"];
    assert_eq!(
        (round["courierId"].as_str(), round["courierEmail"].as_str()),
        (Some(courier.as_str()), Some("rider@example.com")),
        "{assigned}"
    );

    // Disabled, they take no more work: no round, no pickup, no exception.
    call(
        site,
        "AuthService/SetUserDisabled",
        json!({"id": courier, "disabled": true}),
        &admin,
    )
    .await;
    let fields = refused_fields(
        site,
        "ShipmentService/AssignShipmentsToCourier",
        assign(&courier),
        &admin,
    )
    .await;
    assert_eq!(fields, ["courier_id"]);
    for (method, field, body) in [
        (
            "PickupService/AssignPickup",
            "agent_id",
            json!({"id": "no-such-pickup", "agentId": courier, "agentEmail": "boss@example.com"}),
        ),
        (
            "ShipmentExceptionService/AssignShipmentException",
            "assignee_id",
            json!({"id": "no-such-exception", "assigneeId": courier, "assigneeEmail": "boss@example.com"}),
        ),
    ] {
        assert_eq!(
            refused_fields(site, method, body.clone(), &admin).await,
            [field]
        );
        // An enabled staff user of any role may take them: the call reaches the service.
        let mut body = body;
        body[field.replace("_id", "Id")] = json!(clerk);
        let (status, answer, _) = post(site, method, &body.to_string(), &admin).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (404, Some("not_found")),
            "{method}: {answer}"
        );
    }
}

#[tokio::test]
async fn all_in_one_only_an_enabled_staff_user_takes_work() {
    only_an_enabled_staff_user_takes_work(&all_in_one().await).await;
}

#[tokio::test]
async fn distributed_only_an_enabled_staff_user_takes_work() {
    only_an_enabled_staff_user_takes_work(&distributed().await).await;
}
