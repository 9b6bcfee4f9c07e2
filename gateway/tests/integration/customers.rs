//! Customers through the gateway, in both modes: an invited user signs in and reaches the
//! portal only, staff never reach it; a customer admin manages its own customer's users and no
//! one else's; the portal's export holds the customer's shipments only; and suspending the
//! customer ends its users' sessions within 5 s and refuses their sign-in.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;
use service_auth::Role;
use service_auth::invitation::{self, Invitation};

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site, distributed};
use common::wire::Reply;

pub(crate) const PASSWORD: &str = "a long enough password";

async fn rpc<T: Message + Default>(
    site: &Site,
    path: &str,
    message: impl Message,
    cookie: &str,
) -> (Option<i32>, Option<T>) {
    let headers: Vec<(&str, &str)> = if cookie.is_empty() {
        Vec::new()
    } else {
        vec![("cookie", cookie)]
    };
    let reply = call(&site.base, path, message.encode_to_vec(), &headers)
        .await
        .0;
    let body =
        (reply.grpc_status == Some(OK)).then(|| T::decode(reply.body.clone().unwrap()).unwrap());
    (reply.grpc_status, body)
}

/// Signs `email` up to `customer` through the invitation page's call, with `role`.
pub(crate) async fn accept_invitation(
    site: &Site,
    customer: &pb::Customer,
    email: &str,
    role: Role,
) {
    let token = invitation::sign(
        &site.tokens,
        &Invitation {
            customer_id: customer.id.clone(),
            customer_name: customer.name.clone(),
            email: email.into(),
            name: "Invited".into(),
            role,
        },
        chrono::Utc::now().timestamp() + 3600,
    );
    let accepted = rpc::<pb::User>(
        site,
        "logistics.v1.AuthService/AcceptCustomerInvitation",
        pb::AcceptCustomerInvitationRequest {
            token,
            name: String::new(),
            password: PASSWORD.into(),
        },
        "",
    )
    .await;
    assert_eq!(accepted.0, Some(OK), "{email} accepted");
}

/// The portal export's status and body for `cookie`.
async fn portal_export(site: &Site, cookie: &str) -> (u16, String) {
    let mut request = reqwest::Client::new().get(format!(
        "{}/exports/portal/shipments.csv?customer=any",
        site.base
    ));
    if !cookie.is_empty() {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

async fn signed_in(site: &Site, email: &str, password: &str) -> (Reply, Option<String>) {
    let (reply, cookie) = sign_in(&site.base, email, password).await;
    (reply, cookie.as_deref().map(cookie_pair))
}

/// Whether `holds` comes true within 5 s, asked every 100 ms.
async fn within_5_seconds(mut holds: impl AsyncFnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if holds().await {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn customers_reach_the_portal_only_until_suspended(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD)
        .await
        .1
        .unwrap();
    let create = |name: &str| pb::CreateCustomerRequest {
        customer: Some(pb::Customer {
            name: name.into(),
            ..Default::default()
        }),
    };
    let (status, acme) = rpc::<pb::Customer>(
        site,
        "logistics.v1.CustomerService/CreateCustomer",
        create("Acme Imports"),
        &admin,
    )
    .await;
    assert_eq!(status, Some(OK));
    let acme = acme.unwrap();
    let bolt = rpc::<pb::Customer>(
        site,
        "logistics.v1.CustomerService/CreateCustomer",
        create("Bolt Traders"),
        &admin,
    )
    .await
    .1
    .unwrap();

    // Staff book one shipment for each customer.
    let mut ids = Vec::new();
    let mut numbers = Vec::new();
    for customer in [&acme, &bolt] {
        let mut input = shipments_input();
        input.customer_id = customer.id.clone();
        let made = rpc::<pb::Shipment>(
            site,
            "logistics.v1.ShipmentService/CreateShipment",
            pb::CreateShipmentRequest {
                shipment: Some(input),
                ..Default::default()
            },
            &admin,
        )
        .await;
        assert_eq!(made.0, Some(OK));
        let made = made.1.unwrap();
        ids.push(made.id);
        numbers.push(made.tracking_number);
    }

    // The invited user sets a password through the public page's call, then signs in.
    accept_invitation(site, &acme, "buyer@acme.example", Role::CustomerUser).await;
    let (reply, cookie) = signed_in(site, "buyer@acme.example", PASSWORD).await;
    let session = pb::Session::decode(reply.body.unwrap()).unwrap();
    assert_eq!(
        session.user.as_ref().unwrap().customer_id,
        acme.id,
        "the page knows the customer"
    );
    let buyer = cookie.unwrap();

    let listed = rpc::<pb::ListShipmentsResponse>(
        site,
        "logistics.v1.CustomerPortalService/ListShipments",
        pb::ListShipmentsRequest::default(),
        &buyer,
    )
    .await;
    assert_eq!(listed.0, Some(OK));
    assert_eq!(
        listed
            .1
            .unwrap()
            .shipments
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<_>>(),
        [ids[0].clone()]
    );
    let other = rpc::<pb::Shipment>(
        site,
        "logistics.v1.CustomerPortalService/GetShipment",
        pb::GetShipmentRequest { id: ids[1].clone() },
        &buyer,
    )
    .await;
    assert_eq!(
        other.0,
        Some(NOT_FOUND),
        "another customer's shipment is as missing"
    );
    for (path, message) in [
        (
            "logistics.v1.ShipmentService/ListShipments",
            pb::ListShipmentsRequest::default().encode_to_vec(),
        ),
        (
            "logistics.v1.ShipmentService/GetShipment",
            pb::GetShipmentRequest { id: ids[0].clone() }.encode_to_vec(),
        ),
        (
            "logistics.v1.CustomerService/ListCustomers",
            pb::ListCustomersRequest::default().encode_to_vec(),
        ),
        (
            "logistics.v1.AuthService/ListUsers",
            pb::ListUsersRequest::default().encode_to_vec(),
        ),
    ] {
        let reply = call(&site.base, path, message, &[("cookie", &buyer)])
            .await
            .0;
        assert_eq!(
            reply.grpc_status,
            Some(PERMISSION_DENIED),
            "{path}: a customer reaches no staff method"
        );
    }
    let staff_in_portal = rpc::<pb::ListShipmentsResponse>(
        site,
        "logistics.v1.CustomerPortalService/ListShipments",
        pb::ListShipmentsRequest::default(),
        &admin,
    )
    .await;
    assert_eq!(
        staff_in_portal.0,
        Some(PERMISSION_DENIED),
        "staff never reach the portal"
    );

    // The export holds the customer's own shipments, whatever the address asks for.
    let (status, csv) = portal_export(site, &buyer).await;
    assert_eq!(status, 200);
    assert!(
        csv.contains(&numbers[0]) && !csv.contains(&numbers[1]),
        "{csv}"
    );
    assert_eq!(portal_export(site, "").await.0, 401, "signed out");
    assert_eq!(
        portal_export(site, &admin).await.0,
        403,
        "staff export elsewhere"
    );
    // Another customer's proof of delivery is as missing as one never recorded.
    for number in &numbers {
        let image = rpc::<pb::ProofOfDeliveryImage>(
            site,
            "logistics.v1.CustomerPortalService/GetProofOfDeliveryImage",
            pb::GetProofOfDeliveryImageRequest {
                tracking_number: number.clone(),
                kind: pb::ProofOfDeliveryImageKind::Signature.into(),
                access_token: String::new(),
            },
            &buyer,
        )
        .await;
        assert_eq!(image.0, Some(NOT_FOUND));
    }

    // A customer admin manages its own customer's users only.
    accept_invitation(site, &acme, "boss@acme.example", Role::CustomerAdmin).await;
    accept_invitation(site, &bolt, "boss@bolt.example", Role::CustomerAdmin).await;
    let boss = signed_in(site, "boss@acme.example", PASSWORD)
        .await
        .1
        .unwrap();
    let users = rpc::<pb::ListUsersResponse>(
        site,
        "logistics.v1.AuthService/ListCustomerUsers",
        pb::ListCustomerUsersRequest::default(),
        &boss,
    )
    .await
    .1
    .unwrap()
    .users;
    let emails: Vec<_> = users.iter().map(|u| u.email.as_str()).collect();
    assert_eq!(emails, ["buyer@acme.example", "boss@acme.example"]);
    let buyer_id = users[0].id.clone();
    let boss_id = users[1].id.clone();
    assert_eq!(
        rpc::<pb::ListUsersResponse>(
            site,
            "logistics.v1.AuthService/ListCustomerUsers",
            pb::ListCustomerUsersRequest::default(),
            &buyer,
        )
        .await
        .0,
        Some(PERMISSION_DENIED),
        "a customer user manages no one"
    );
    let set_disabled = async |id: &str, disabled: bool| {
        rpc::<pb::User>(
            site,
            "logistics.v1.AuthService/SetCustomerUserDisabled",
            pb::SetCustomerUserDisabledRequest {
                id: id.into(),
                disabled,
            },
            &boss,
        )
        .await
        .0
    };
    let staff = rpc::<pb::ListUsersResponse>(
        site,
        "logistics.v1.AuthService/ListUsers",
        pb::ListUsersRequest::default(),
        &admin,
    )
    .await
    .1
    .unwrap()
    .users;
    let bolt_users = rpc::<pb::ListUsersResponse>(
        site,
        "logistics.v1.AuthService/ListUsers",
        pb::ListUsersRequest {
            customer_id: bolt.id.clone(),
            ..Default::default()
        },
        &admin,
    )
    .await
    .1
    .unwrap()
    .users;
    assert_eq!(set_disabled(&staff[0].id, true).await, Some(NOT_FOUND));
    assert_eq!(set_disabled(&bolt_users[0].id, true).await, Some(NOT_FOUND));
    assert_eq!(
        set_disabled(&boss_id, true).await,
        Some(FAILED_PRECONDITION)
    );
    assert_eq!(set_disabled(&buyer_id, true).await, Some(OK));
    assert!(
        within_5_seconds(async || {
            rpc::<pb::ListShipmentsResponse>(
                site,
                "logistics.v1.CustomerPortalService/ListShipments",
                pb::ListShipmentsRequest::default(),
                &buyer,
            )
            .await
            .0 == Some(UNAUTHENTICATED)
        })
        .await,
        "the disabled user is signed out within 5 s"
    );
    assert_eq!(set_disabled(&buyer_id, false).await, Some(OK));
    let buyer = signed_in(site, "buyer@acme.example", PASSWORD)
        .await
        .1
        .unwrap();
    let invited = rpc::<pb::CustomerInvitation>(
        site,
        "logistics.v1.CustomerPortalService/CreateUserInvitation",
        pb::CreateUserInvitationRequest {
            invitation: Some(pb::CustomerInvitation {
                customer_id: bolt.id.clone(),
                email: "new@acme.example".into(),
                name: "Nia".into(),
                ..Default::default()
            }),
            language_code: String::new(),
        },
        &boss,
    )
    .await;
    assert_eq!(invited.0, Some(OK));
    assert_eq!(
        invited.1.unwrap().customer_id,
        acme.id,
        "an admin invites to its own customer, whatever the request says"
    );

    // Another customer's admin reaches none of Acme's records, each answering as a missing one.
    let rival = signed_in(site, "boss@bolt.example", PASSWORD)
        .await
        .1
        .unwrap();
    let entry = rpc::<pb::AddressBookEntry>(
        site,
        "logistics.v1.CustomerPortalService/CreateAddressBookEntry",
        pb::CreateAddressBookEntryRequest {
            entry: Some(pb::AddressBookEntry {
                kind: pb::AddressBookEntryKind::Receiver.into(),
                name: "Jan".into(),
                address: "Dam 1, Amsterdam".into(),
                ..Default::default()
            }),
        },
        &boss,
    )
    .await
    .1
    .unwrap();
    let pickup = pb::Pickup {
        address: "1 Harbour Road".into(),
        area: "Tema".into(),
        window_start: Some(pb::TimeOfDay {
            hours: 9,
            minutes: 0,
        }),
        window_end: Some(pb::TimeOfDay {
            hours: 12,
            minutes: 0,
        }),
        parcel_count: 1,
        shipment_ids: vec![ids[0].clone()],
        date: Some(open_day()),
        ..Default::default()
    };
    let attempts: [(&str, Vec<u8>, i32); 5] = [
        (
            "GetShipment",
            pb::GetShipmentRequest { id: ids[0].clone() }.encode_to_vec(),
            NOT_FOUND,
        ),
        (
            "UpdateAddressBookEntry",
            pb::UpdateAddressBookEntryRequest {
                entry: Some(pb::AddressBookEntry {
                    id: entry.id.clone(),
                    name: "Taken".into(),
                    ..Default::default()
                }),
                update_mask: Some(prost_types::FieldMask {
                    paths: vec!["name".into()],
                }),
            }
            .encode_to_vec(),
            NOT_FOUND,
        ),
        (
            "DeleteAddressBookEntry",
            pb::DeleteAddressBookEntryRequest {
                id: entry.id.clone(),
            }
            .encode_to_vec(),
            NOT_FOUND,
        ),
        (
            "GetProofOfDeliveryImage",
            pb::GetProofOfDeliveryImageRequest {
                tracking_number: numbers[0].clone(),
                kind: pb::ProofOfDeliveryImageKind::Signature.into(),
                access_token: String::new(),
            }
            .encode_to_vec(),
            NOT_FOUND,
        ),
        (
            // Named in a request of its own: "Shipment not found" on the field, as a made-up id.
            "CreatePickup",
            pb::CreatePickupRequest {
                pickup: Some(pickup),
            }
            .encode_to_vec(),
            INVALID_ARGUMENT,
        ),
    ];
    for (method, message, code) in attempts {
        let path = format!("logistics.v1.CustomerPortalService/{method}");
        let reply = call(&site.base, &path, message, &[("cookie", &rival)])
            .await
            .0;
        assert_eq!(reply.grpc_status, Some(code), "{method}");
        if method == "CreatePickup" {
            assert!(
                reply.message.contains("shipment_ids[0]"),
                "{}",
                reply.message
            );
        }
    }
    let searched = rpc::<pb::ListShipmentsResponse>(
        site,
        "logistics.v1.CustomerPortalService/ListShipments",
        pb::ListShipmentsRequest {
            query: numbers[0].clone(),
            ..Default::default()
        },
        &rival,
    )
    .await;
    assert!(
        searched.1.unwrap().shipments.is_empty(),
        "a search finds none of Acme's"
    );
    let book = rpc::<pb::ListAddressBookEntriesResponse>(
        site,
        "logistics.v1.CustomerPortalService/ListAddressBookEntries",
        pb::ListAddressBookEntriesRequest::default(),
        &rival,
    )
    .await;
    assert!(book.1.unwrap().entries.is_empty(), "nor its address book");
    let still = rpc::<pb::ListAddressBookEntriesResponse>(
        site,
        "logistics.v1.CustomerPortalService/ListAddressBookEntries",
        pb::ListAddressBookEntriesRequest::default(),
        &boss,
    )
    .await
    .1
    .unwrap();
    assert_eq!(
        still
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>(),
        ["Jan"],
        "the rival's attempts changed nothing"
    );

    // Suspending the customer ends the session within 5 s and refuses a new sign-in.
    let suspend = pb::UpdateCustomerRequest {
        customer: Some(pb::Customer {
            id: acme.id.clone(),
            status: pb::CustomerStatus::Suspended.into(),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["status".into()],
        }),
    };
    assert_eq!(
        rpc::<pb::Customer>(
            site,
            "logistics.v1.CustomerService/UpdateCustomer",
            suspend,
            &admin
        )
        .await
        .0,
        Some(OK)
    );
    assert!(
        within_5_seconds(async || {
            rpc::<pb::ListShipmentsResponse>(
                site,
                "logistics.v1.CustomerPortalService/ListShipments",
                pb::ListShipmentsRequest::default(),
                &buyer,
            )
            .await
            .0 == Some(UNAUTHENTICATED)
        })
        .await,
        "the suspended customer's user is signed out within 5 s"
    );
    let (refused, cookie) = signed_in(site, "buyer@acme.example", PASSWORD).await;
    assert_eq!(
        (refused.grpc_status, cookie),
        (Some(PERMISSION_DENIED), None)
    );
}

/// A day pickups are open on by default: ten days on, past any Sunday.
fn open_day() -> pb::Date {
    use chrono::Datelike;
    let mut day = chrono::Utc::now().date_naive() + chrono::Days::new(10);
    if day.weekday() == chrono::Weekday::Sun {
        day = day + chrono::Days::new(1);
    }
    pb::Date {
        year: day.year(),
        month: day.month() as i32,
        day: day.day() as i32,
    }
}

fn shipments_input() -> pb::Shipment {
    let party = |name: &str| pb::Party {
        name: name.into(),
        address: "1 Harbour Road".into(),
        phone: "+233 20 000 0000".into(),
        email: format!("{}@example.com", name.to_lowercase()),
    };
    pb::Shipment {
        shipper: Some(party("Shipper")),
        receiver: Some(party("Receiver")),
        origin: "Tema".into(),
        destination: "Lagos".into(),
        carrier: "DHL".into(),
        r#type: 1,
        mode: 1,
        package_count: 1,
        product: "Books".into(),
        product_quantity: 1,
        payment_mode: 1,
        total_freight_cents: 1000,
        weight_kg: 1.0,
        expected_delivery_date: Some(pb::Date {
            year: 2030,
            month: 1,
            day: 1,
        }),
        departure_time: Some(pb::TimeOfDay {
            hours: 9,
            minutes: 0,
        }),
        pickup_date: Some(pb::Date {
            year: 2029,
            month: 12,
            day: 30,
        }),
        pickup_time: Some(pb::TimeOfDay {
            hours: 8,
            minutes: 0,
        }),
        packages: vec![pb::Package {
            quantity: 1,
            piece_type: "Box".into(),
            description: "Books".into(),
            length_cm: 10.0,
            width_cm: 10.0,
            height_cm: 10.0,
            weight_kg: 1.0,
        }],
        ..Default::default()
    }
}

#[tokio::test]
async fn all_in_one_customers_reach_the_portal_only_until_suspended() {
    customers_reach_the_portal_only_until_suspended(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_customers_reach_the_portal_only_until_suspended() {
    customers_reach_the_portal_only_until_suspended(&distributed().await).await;
}
