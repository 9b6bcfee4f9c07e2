//! Customers are tenants: a customer's user reaches their customer's shipments only, and
//! another customer's answer exactly as missing ones do; staff and customer roles never mix.
//! Every case runs on both stores.

use crate::common;

use common::service::{Running, caller, start, start_on_mongo, valid_input};

use logistics_proto::v1::{
    self as pb, customer_portal_service_client::CustomerPortalServiceClient,
    customer_service_client::CustomerServiceClient,
};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME, Caller, Role};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tonic::{Code, Status};

type Portal = CustomerPortalServiceClient<InterceptedService<Channel, Bearer>>;
type Customers = CustomerServiceClient<InterceptedService<Channel, Bearer>>;

fn token(running: &Running, caller: &Caller) -> Bearer {
    Bearer::new(&running.key.mint(caller, CALL_TOKEN_LIFETIME))
}

fn staff(running: &Running, role: &str) -> Customers {
    CustomerServiceClient::with_interceptor(running.channel.clone(), token(running, &caller(role)))
}

fn user_of(customer: &pb::Customer) -> Caller {
    Caller::of_customer(
        format!("u-{}", customer.id),
        "buyer@example.com",
        Role::CustomerUser,
        &customer.id,
    )
}

fn portal(running: &Running, caller: &Caller) -> Portal {
    CustomerPortalServiceClient::with_interceptor(running.channel.clone(), token(running, caller))
}

async fn new_customer(running: &Running, name: &str) -> pb::Customer {
    staff(running, "admin")
        .create_customer(pb::CreateCustomerRequest {
            customer: Some(pb::Customer {
                name: name.into(),
                billing_address: "1 Harbour Road".into(),
                contacts: vec![pb::CustomerContact {
                    name: "Ama".into(),
                    email: "ama@example.com".into(),
                    phone: "+233 20 000 0000".into(),
                }],
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner()
}

/// A shipment staff create for `customer`.
async fn shipment_of(running: &Running, customer: &pb::Customer, shipper: &str) -> pb::Shipment {
    let mut input = valid_input();
    input.customer_id = customer.id.clone();
    input.shipper.as_mut().unwrap().name = shipper.into();
    running
        .client
        .clone()
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
}

fn not_found(status: Status) {
    assert_eq!(
        (status.code(), status.message()),
        (Code::NotFound, "Shipment not found"),
        "{status:?}"
    );
}

async fn a_customer_sees_and_reaches_only_its_own_shipments(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let ours = shipment_of(&running, &acme, "Acme Warehouse").await;
    let theirs = shipment_of(&running, &bolt, "Bolt Depot").await;
    let nobodys = running
        .client
        .clone()
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let mut api = portal(&running, &user_of(&acme));

    let ids = |reply: pb::ListShipmentsResponse| {
        reply
            .shipments
            .into_iter()
            .map(|s| s.id)
            .collect::<Vec<_>>()
    };
    for request in [
        pb::ListShipmentsRequest::default(),
        // Naming the other customer changes nothing: the portal's list is always the caller's.
        pb::ListShipmentsRequest {
            customer_id: bolt.id.clone(),
            ..Default::default()
        },
        pb::ListShipmentsRequest {
            status: pb::ShipmentStatus::Pending.into(),
            ..Default::default()
        },
    ] {
        assert_eq!(
            ids(api.list_shipments(request).await.unwrap().into_inner()),
            std::slice::from_ref(&ours.id)
        );
    }
    for query in ["Bolt", &theirs.tracking_number, &nobodys.tracking_number] {
        let found = api
            .list_shipments(pb::ListShipmentsRequest {
                query: query.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(
            found.shipments.is_empty(),
            "a search for {query} finds nothing of another's"
        );
        assert_eq!(found.total_size, 0);
    }
    assert_eq!(
        api.get_shipment(pb::GetShipmentRequest {
            id: ours.id.clone()
        })
        .await
        .unwrap()
        .into_inner()
        .tracking_number,
        ours.tracking_number
    );
    // Another customer's shipment, one of no customer, and a made-up id answer alike.
    for id in [
        theirs.id.clone(),
        nobodys.id.clone(),
        "0190ffffffffffffffffffff".into(),
    ] {
        not_found(
            api.get_shipment(pb::GetShipmentRequest { id })
                .await
                .unwrap_err(),
        );
    }

    // Staff see each customer's list by its filter.
    let staff_list = running
        .client
        .clone()
        .list_shipments(pb::ListShipmentsRequest {
            customer_id: bolt.id.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(staff_list), std::slice::from_ref(&theirs.id));
}

async fn a_booking_is_the_callers_pending_shipment_whatever_it_claims(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let mut api = portal(&running, &user_of(&acme));
    let mut input = valid_input();
    input.customer_id = bolt.id.clone();
    input.status = pb::ShipmentStatus::Delivered.into();
    let booked = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(booked.customer_id, acme.id);
    assert_eq!(booked.status(), pb::ShipmentStatus::Pending);
    assert!(
        booked.tracking_number.starts_with("PSE"),
        "its label can be printed at once"
    );
    not_found(
        portal(&running, &user_of(&bolt))
            .get_shipment(pb::GetShipmentRequest {
                id: booked.id.clone(),
            })
            .await
            .unwrap_err(),
    );

    let mut bad = valid_input();
    bad.receiver.as_mut().unwrap().email = "not an address".into();
    let refused = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(bad),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("receiver.email"), "{refused:?}");
    let listed = api
        .list_shipments(pb::ListShipmentsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.shipments.len(), 1, "nothing half-written");

    // What staff fill in later is not the customer's to know: the goods are the packages, and
    // departure and delivery the pickup's day and time.
    let mut minimal = valid_input();
    minimal.carrier.clear();
    minimal.product.clear();
    minimal.product_quantity = 0;
    minimal.package_count = 0;
    minimal.weight_kg = 0.0;
    minimal.expected_delivery_date = None;
    minimal.departure_time = None;
    let booked = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(minimal.clone()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            booked.product.as_str(),
            booked.product_quantity,
            booked.package_count,
            booked.weight_kg
        ),
        ("Beans, Tools", 3, 3, 28.0)
    );
    assert_eq!(
        (booked.expected_delivery_date, booked.departure_time),
        (minimal.pickup_date, minimal.pickup_time)
    );
    assert_eq!(
        booked.carrier, "Parcel Shipping Express",
        "the company carries it"
    );

    let own = CustomerServiceClient::with_interceptor(
        running.channel.clone(),
        token(&running, &user_of(&acme)),
    )
    .get_current_customer(pb::GetCurrentCustomerRequest {})
    .await
    .unwrap()
    .into_inner();
    assert_eq!((own.id, own.name.as_str()), (acme.id, "Acme Imports"));
}

async fn staff_and_customer_roles_never_reach_each_others_methods(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let ours = shipment_of(&running, &acme, "Acme Warehouse").await;
    let customer_user = user_of(&acme);
    let denied = |status: Status| assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");

    let mut as_customer = running.client_as(&running.key.mint(&customer_user, CALL_TOKEN_LIFETIME));
    denied(
        as_customer
            .get_shipment(pb::GetShipmentRequest {
                id: ours.id.clone(),
            })
            .await
            .unwrap_err(),
    );
    denied(
        as_customer
            .list_shipments(pb::ListShipmentsRequest::default())
            .await
            .unwrap_err(),
    );
    denied(
        as_customer
            .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
                id: ours.id.clone(),
                status: pb::ShipmentStatus::Delivered.into(),
                current_location: "Tema".into(),
                ..Default::default()
            })
            .await
            .unwrap_err(),
    );
    let mut customers_as_customer = CustomerServiceClient::with_interceptor(
        running.channel.clone(),
        token(&running, &customer_user),
    );
    denied(
        customers_as_customer
            .get_customer(pb::GetCustomerRequest {
                id: acme.id.clone(),
            })
            .await
            .unwrap_err(),
    );
    denied(
        customers_as_customer
            .create_customer_invitation(pb::CreateCustomerInvitationRequest {
                invitation: Some(pb::CustomerInvitation {
                    customer_id: acme.id.clone(),
                    email: "friend@example.com".into(),
                    name: "Friend".into(),
                    ..Default::default()
                }),
                ..Default::default()
            })
            .await
            .unwrap_err(),
    );
    // A token claiming a customer role without a customer reaches nothing.
    let unattached = Caller::with_role("u-x", "x@example.com", Role::CustomerUser);
    denied(
        portal(&running, &unattached)
            .list_shipments(pb::ListShipmentsRequest::default())
            .await
            .unwrap_err(),
    );

    for role in ["admin", "manager", "agent"] {
        let staff_caller = caller(role);
        denied(
            portal(&running, &staff_caller)
                .list_shipments(pb::ListShipmentsRequest::default())
                .await
                .unwrap_err(),
        );
        denied(
            portal(&running, &staff_caller)
                .get_shipment(pb::GetShipmentRequest {
                    id: ours.id.clone(),
                })
                .await
                .unwrap_err(),
        );
    }
}

async fn staff_manage_customers_with_clear_errors(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    assert!(acme.account_number.starts_with('C') && acme.account_number.len() == 9);
    assert_eq!(acme.status(), pb::CustomerStatus::Active);
    let mut admin = staff(&running, "admin");

    let refused = admin
        .create_customer(pb::CreateCustomerRequest {
            customer: Some(pb::Customer {
                name: " ".into(),
                contacts: vec![pb::CustomerContact {
                    name: "Ama".into(),
                    email: "nope".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let fields: Vec<String> = tonic_types::StatusExt::get_details_bad_request(&refused)
        .unwrap()
        .field_violations
        .into_iter()
        .map(|v| v.field)
        .collect();
    assert_eq!(fields, ["customer.name", "customer.contacts[0].email"]);

    let taken = admin
        .create_customer(pb::CreateCustomerRequest {
            customer: Some(pb::Customer {
                name: "Copycat".into(),
                account_number: acme.account_number.to_lowercase(),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(taken.code(), Code::AlreadyExists);

    let suspended = admin
        .update_customer(pb::UpdateCustomerRequest {
            customer: Some(pb::Customer {
                id: acme.id.clone(),
                status: pb::CustomerStatus::Suspended.into(),
                name: "ignored: not in the mask".into(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["status".into()],
            }),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (suspended.status(), suspended.name.as_str()),
        (pb::CustomerStatus::Suspended, "Acme Imports")
    );
    let invite = admin
        .create_customer_invitation(pb::CreateCustomerInvitationRequest {
            invitation: Some(pb::CustomerInvitation {
                customer_id: acme.id.clone(),
                email: "buyer@example.com".into(),
                name: "Bea".into(),
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        (invite.code(), invite.message()),
        (Code::FailedPrecondition, "This customer is suspended")
    );

    let found = admin
        .list_customers(pb::ListCustomersRequest {
            query: "acme".into(),
            status: pb::CustomerStatus::Suspended.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(found.customers.len(), 1);
    let missing = admin
        .get_customer(pb::GetCustomerRequest {
            id: "0190ffffffffffffffffffff".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        (missing.code(), missing.message()),
        (Code::NotFound, "Customer not found")
    );

    // A staff shipment may only name a customer that exists.
    let mut input = valid_input();
    input.customer_id = "0190ffffffffffffffffffff".into();
    let unknown = running
        .client
        .clone()
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::InvalidArgument);
    assert!(unknown.message().contains("customer_id"), "{unknown:?}");

    // A manager reads customers but does not change them.
    let mut manager = staff(&running, "manager");
    manager
        .list_customers(pb::ListCustomersRequest::default())
        .await
        .unwrap();
    let denied = manager
        .create_customer(pb::CreateCustomerRequest {
            customer: Some(pb::Customer {
                name: "Nope".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}

async fn an_invitation_is_emailed_with_its_link(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let sent = staff(&running, "admin")
        .create_customer_invitation(pb::CreateCustomerInvitationRequest {
            invitation: Some(pb::CustomerInvitation {
                customer_id: acme.id.clone(),
                email: " Buyer@Example.com ".into(),
                name: "Bea Buyer".into(),
                role: pb::Role::CustomerAdmin.into(),
                ..Default::default()
            }),
            language_code: "es".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (sent.email.as_str(), sent.role()),
        ("buyer@example.com", pb::Role::CustomerAdmin)
    );
    let emails = common::service::outbox_of(&running)
        .await
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    let email = emails
        .iter()
        .find(|n| n.to_email == "buyer@example.com")
        .expect("the invitation is in the outbox");
    let text = email
        .params
        .values()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let token = text
        .split("/es/invitation#")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the e-mail carries the Spanish link")
        .trim_end_matches(['"', '<', '>']);
    let (invitation, _) =
        service_auth::invitation::verify(&running.key, token).expect("a valid token");
    assert_eq!(
        (invitation.customer_id, invitation.role),
        (acme.id, Role::CustomerAdmin)
    );
}

async fn a_customer_user_is_emailed_the_changes_they_chose(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let ours = shipment_of(&running, &acme, "Acme Warehouse").await;
    let watcher = |customer: &pb::Customer, email: &str| {
        Caller::of_customer(
            format!("w-{email}"),
            email,
            Role::CustomerUser,
            &customer.id,
        )
    };
    let choose = |events: Vec<pb::TrackingEvent>| pb::UpdateNotificationChoicesRequest {
        choices: Some(pb::NotificationChoices {
            events: events.into_iter().map(|e| e as i32).collect(),
            language_code: "fr".into(),
        }),
    };
    let mut ada = portal(&running, &watcher(&acme, "ada@acme.example"));
    assert!(
        ada.get_notification_choices(pb::GetNotificationChoicesRequest {})
            .await
            .unwrap()
            .into_inner()
            .events
            .is_empty()
    );
    let refused = ada
        .update_notification_choices(choose(vec![pb::TrackingEvent::Created]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let saved = ada
        .update_notification_choices(choose(vec![
            pb::TrackingEvent::Delivered,
            pb::TrackingEvent::InTransit,
        ]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        saved.events,
        [
            pb::TrackingEvent::InTransit as i32,
            pb::TrackingEvent::Delivered as i32
        ]
    );
    portal(&running, &watcher(&bolt, "bob@bolt.example"))
        .update_notification_choices(choose(vec![pb::TrackingEvent::InTransit]))
        .await
        .unwrap();

    let mut staff = running.client.clone();
    for status in [pb::ShipmentStatus::InTransit, pb::ShipmentStatus::OnHold] {
        staff
            .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
                id: ours.id.clone(),
                status: status.into(),
                current_location: "Tema".into(),
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let emails = common::service::outbox_of(&running)
        .await
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    let to_ada: Vec<&outbox::Notification> = emails
        .iter()
        .filter(|n| n.to_email == "ada@acme.example")
        .collect();
    assert_eq!(to_ada.len(), 1, "in transit only: on hold was not chosen");
    assert!(
        to_ada[0]
            .params
            .values()
            .any(|v| v.contains(&format!("/portal/shipments/{}", ours.id))),
        "the e-mail links to the portal's page"
    );
    assert!(
        emails.iter().all(|n| n.to_email != "bob@bolt.example"),
        "another customer's user hears nothing"
    );
}

/// The portal's export, proof images and invitations reach the caller's customer only.
async fn the_export_proof_images_and_invitations_stay_within_the_customer(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let ours = shipment_of(&running, &acme, "Acme Warehouse").await;
    let theirs = shipment_of(&running, &bolt, "Bolt Depot").await;
    for shipment in [&ours, &theirs] {
        let mut client = running.client.clone();
        client
            .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
                id: shipment.id.clone(),
                status: pb::ShipmentStatus::Delivered.into(),
                current_location: "Rotterdam".into(),
                remarks: "Delivered".into(),
                ..Default::default()
            })
            .await
            .unwrap();
        let mut signature = std::io::Cursor::new(Vec::new());
        image::DynamicImage::new_rgb8(30, 10)
            .write_to(&mut signature, image::ImageFormat::Png)
            .unwrap();
        client
            .record_proof_of_delivery(pb::RecordProofOfDeliveryRequest {
                id: shipment.id.clone(),
                recipient_name: "Jan".into(),
                signature_png: signature.into_inner(),
                photo: Vec::new(),
            })
            .await
            .unwrap();
    }
    let mut api = portal(&running, &user_of(&acme));

    // The export: the caller's shipments whatever customer the filter names.
    let mut chunks = api
        .export_shipments(pb::ExportShipmentsRequest {
            filter: Some(pb::ListShipmentsRequest {
                customer_id: bolt.id.clone(),
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let mut csv = String::new();
    while let Some(chunk) = chunks.message().await.unwrap() {
        csv.push_str(std::str::from_utf8(&chunk.csv).unwrap());
    }
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].contains("tracking_number"), "{csv}");
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[1].starts_with(&ours.tracking_number), "{csv}");

    // Proof images: its own shipment's, and another's answers as missing.
    let image =
        |number: &str, kind: pb::ProofOfDeliveryImageKind| pb::GetProofOfDeliveryImageRequest {
            tracking_number: number.into(),
            kind: kind.into(),
            access_token: String::new(),
        };
    let signature = api
        .get_proof_of_delivery_image(image(
            &ours.tracking_number,
            pb::ProofOfDeliveryImageKind::Signature,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(signature.content_type, "image/png");
    for (number, kind) in [
        (
            &theirs.tracking_number,
            pb::ProofOfDeliveryImageKind::Signature,
        ),
        (&ours.tracking_number, pb::ProofOfDeliveryImageKind::Photo),
    ] {
        not_found(
            api.get_proof_of_delivery_image(image(number, kind))
                .await
                .unwrap_err(),
        );
    }

    // Invitations: a customer admin's go to its own customer; a customer user may not invite.
    let invite = |customer_id: &str| pb::CreateUserInvitationRequest {
        invitation: Some(pb::CustomerInvitation {
            customer_id: customer_id.into(),
            email: "new@example.com".into(),
            name: "Nia".into(),
            ..Default::default()
        }),
        language_code: String::new(),
    };
    let admin = Caller::of_customer(
        format!("a-{}", acme.id),
        "boss@example.com",
        Role::CustomerAdmin,
        &acme.id,
    );
    let sent = portal(&running, &admin)
        .create_user_invitation(invite(&bolt.id))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (sent.customer_id.as_str(), sent.role()),
        (acme.id.as_str(), pb::Role::CustomerUser)
    );
    let refused = api
        .create_user_invitation(invite(&acme.id))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    let bad = portal(&running, &admin)
        .create_user_invitation(pb::CreateUserInvitationRequest {
            invitation: Some(pb::CustomerInvitation::default()),
            language_code: "xx".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument, "{bad:?}");
}

crate::common::both_stores!(
    the_export_proof_images_and_invitations_stay_within_the_customer,
    a_customer_sees_and_reaches_only_its_own_shipments,
    a_booking_is_the_callers_pending_shipment_whatever_it_claims,
    staff_and_customer_roles_never_reach_each_others_methods,
    staff_manage_customers_with_clear_errors,
    an_invitation_is_emailed_with_its_link,
    a_customer_user_is_emailed_the_changes_they_chose
);
