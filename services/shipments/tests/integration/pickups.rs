//! The portal's address book and pickups, the staff's pickup queue and account requests, on
//! both stores: each customer's records stay its own, and every step does what the user sees.

use crate::common;

use chrono::{Datelike, Days, Weekday};
use common::service::{Running, caller, start, start_on_mongo, valid_input};

use logistics_proto::v1::{
    self as pb, customer_portal_service_client::CustomerPortalServiceClient,
    customer_service_client::CustomerServiceClient, pickup_service_client::PickupServiceClient,
};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME, Caller, Role};
use tonic::Code;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

type Portal = CustomerPortalServiceClient<InterceptedService<Channel, Bearer>>;

fn bearer(running: &Running, caller: &Caller) -> Bearer {
    Bearer::new(&running.key.mint(caller, CALL_TOKEN_LIFETIME))
}

async fn new_customer(running: &Running, name: &str) -> pb::Customer {
    CustomerServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(running, &caller("admin")),
    )
    .create_customer(pb::CreateCustomerRequest {
        customer: Some(pb::Customer {
            name: name.into(),
            ..Default::default()
        }),
    })
    .await
    .unwrap()
    .into_inner()
}

fn portal(running: &Running, customer: &pb::Customer, role: Role) -> Portal {
    let caller = Caller::of_customer(
        format!("u-{}", customer.id),
        "buyer@example.com",
        role,
        &customer.id,
    );
    CustomerPortalServiceClient::with_interceptor(running.channel.clone(), bearer(running, &caller))
}

fn fields(status: &tonic::Status) -> Vec<String> {
    tonic_types::StatusExt::get_details_bad_request(status)
        .map(|b| b.field_violations.into_iter().map(|v| v.field).collect())
        .unwrap_or_default()
}

/// The next day that is open by default (not a Sunday), after today.
fn open_day() -> chrono::NaiveDate {
    let mut day = chrono::Utc::now().date_naive() + Days::new(1);
    while day.weekday() == Weekday::Sun {
        day = day + Days::new(1);
    }
    day
}

fn date(day: chrono::NaiveDate) -> pb::Date {
    pb::Date {
        year: day.year(),
        month: day.month() as i32,
        day: day.day() as i32,
    }
}

fn time(hours: i32) -> pb::TimeOfDay {
    pb::TimeOfDay { hours, minutes: 0 }
}

fn pickup_of(shipments: Vec<String>, day: chrono::NaiveDate) -> pb::CreatePickupRequest {
    pb::CreatePickupRequest {
        pickup: Some(pb::Pickup {
            address: "1 Harbour Road, Tema".into(),
            area: "Tema".into(),
            date: Some(date(day)),
            window_start: Some(time(9)),
            window_end: Some(time(12)),
            parcel_count: 2,
            shipment_ids: shipments,
            notes: "Gate B".into(),
            ..Default::default()
        }),
    }
}

async fn the_address_book_is_the_customers_own_and_imports_all_or_nothing(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let mut admin = portal(&running, &acme, Role::CustomerAdmin);
    let made = admin
        .create_address_book_entry(pb::CreateAddressBookEntryRequest {
            entry: Some(pb::AddressBookEntry {
                kind: pb::AddressBookEntryKind::Receiver.into(),
                name: "Bea Buyer".into(),
                address: "2 Hill Street, Accra".into(),
                email: "Bea@Example.com".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(made.email, "bea@example.com");

    let refused = admin
        .import_address_book_entries(pb::ImportAddressBookEntriesRequest {
            csv: "kind,name,address,email\nsender,Depot,3 Dock Rd,\nboth,X,4 Rd,nope\n".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(fields(&refused), ["rows[2].kind", "rows[2].email"]);
    let imported = admin
        .import_address_book_entries(pb::ImportAddressBookEntriesRequest {
            csv: "kind,name,address\nsender,Acme Depot,3 Dock Rd\nreceiver,Cy,5 Bay Rd\n".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(imported.imported_count, 2);
    let listed = admin
        .list_address_book_entries(pb::ListAddressBookEntriesRequest {
            kind: pb::AddressBookEntryKind::Receiver.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        listed
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>(),
        ["Bea Buyer", "Cy"],
        "receivers only, by name; the refused file added nothing"
    );

    // A plain customer user reads the book but does not change it.
    let mut user = portal(&running, &acme, Role::CustomerUser);
    assert_eq!(
        user.list_address_book_entries(pb::ListAddressBookEntriesRequest::default())
            .await
            .unwrap()
            .into_inner()
            .entries
            .len(),
        3
    );
    let denied = user
        .delete_address_book_entry(pb::DeleteAddressBookEntryRequest {
            id: made.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);

    // Another customer's admin neither sees nor touches it.
    let mut other = portal(&running, &bolt, Role::CustomerAdmin);
    assert!(
        other
            .list_address_book_entries(pb::ListAddressBookEntriesRequest::default())
            .await
            .unwrap()
            .into_inner()
            .entries
            .is_empty()
    );
    for status in [
        other
            .delete_address_book_entry(pb::DeleteAddressBookEntryRequest {
                id: made.id.clone(),
            })
            .await
            .unwrap_err(),
        other
            .update_address_book_entry(pb::UpdateAddressBookEntryRequest {
                entry: Some(pb::AddressBookEntry {
                    id: made.id.clone(),
                    name: "Mine now".into(),
                    ..Default::default()
                }),
                update_mask: Some(prost_types::FieldMask {
                    paths: vec!["name".into()],
                }),
            })
            .await
            .unwrap_err(),
    ] {
        assert_eq!(
            (status.code(), status.message()),
            (Code::NotFound, "Address book entry not found")
        );
    }
    admin
        .delete_address_book_entry(pb::DeleteAddressBookEntryRequest { id: made.id })
        .await
        .unwrap();
}

async fn a_pickup_is_asked_for_confirmed_and_collected_moving_its_shipments(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let bolt = new_customer(&running, "Bolt Traders").await;
    let mut api = portal(&running, &acme, Role::CustomerUser);
    let booked = api
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let theirs = portal(&running, &bolt, Role::CustomerUser)
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(valid_input()),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();

    // Another customer's shipment, a closed day and a window that ends first are refused by field.
    let mut sunday = open_day();
    while sunday.weekday() != Weekday::Sun {
        sunday = sunday + Days::new(1);
    }
    let mut bad = pickup_of(vec![booked.id.clone(), theirs.id.clone()], sunday);
    bad.pickup.as_mut().unwrap().window_end = Some(time(8));
    let refused = api.create_pickup(bad).await.unwrap_err();
    assert_eq!(
        fields(&refused),
        ["pickup.date", "pickup.window_end"],
        "{refused:?}"
    );
    let refused = api
        .create_pickup(pickup_of(
            vec![booked.id.clone(), theirs.id.clone()],
            open_day(),
        ))
        .await
        .unwrap_err();
    assert_eq!(fields(&refused), ["pickup.shipment_ids[1]"]);

    // Asked for from a Spanish page: its e-mails are in Spanish.
    let mut spanish = pickup_of(vec![booked.id.clone()], open_day());
    spanish.pickup.as_mut().unwrap().language_code = "es".into();
    let pickup = api.create_pickup(spanish).await.unwrap().into_inner();
    assert_eq!(
        (
            pickup.state(),
            pickup.customer_name.as_str(),
            pickup.requested_by.as_str()
        ),
        (
            pb::PickupState::Requested,
            "Acme Imports",
            "buyer@example.com"
        )
    );
    assert!(
        portal(&running, &bolt, Role::CustomerUser)
            .list_pickups(pb::ListPickupsRequest::default())
            .await
            .unwrap()
            .into_inner()
            .pickups
            .is_empty(),
        "another customer sees none of it"
    );

    let mut queue = PickupServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(&running, &caller("agent")),
    );
    let listed = queue
        .list_pickups(pb::ListPickupsRequest {
            date: Some(date(open_day())),
            area: " TEMA ".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.pickups.len(), 1, "the queue filters by day and area");
    let assigned = queue
        .assign_pickup(pb::AssignPickupRequest {
            id: pickup.id.clone(),
            agent_id: "0190aaaaaaaaaaaaaaaaaaaa".into(),
            agent_email: "Agent@Example.com".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(assigned.agent_email, "agent@example.com");
    let confirmed = queue
        .confirm_pickup(pb::ConfirmPickupRequest {
            id: pickup.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(confirmed.state(), pb::PickupState::Confirmed);
    let again = queue
        .confirm_pickup(pb::ConfirmPickupRequest {
            id: pickup.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    let emails = common::service::outbox_of(&running)
        .await
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    assert!(
        emails
            .iter()
            .any(|n| n.template == outbox::Template::PickupConfirmed
                && n.to_email == "buyer@example.com"
                && n.subject.starts_with("Su recogida del ")),
        "the user who asked is e-mailed, in the language they asked in"
    );

    let collected = queue
        .complete_pickup(pb::CompletePickupRequest {
            id: pickup.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(collected.state(), pb::PickupState::Collected);
    let moved = api
        .get_shipment(pb::GetShipmentRequest {
            id: booked.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (moved.status(), moved.current_location.as_str()),
        (pb::ShipmentStatus::InTransit, "Tema")
    );
    assert_eq!(
        moved.history.last().unwrap().status(),
        pb::ShipmentStatus::InTransit
    );
    let failed = queue
        .fail_pickup(pb::FailPickupRequest {
            id: pickup.id.clone(),
            reason: "Closed".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        failed.code(),
        Code::FailedPrecondition,
        "a collected pickup stays collected"
    );

    // Customers never reach the queue.
    let caller = Caller::of_customer("u-x", "x@example.com", Role::CustomerAdmin, &acme.id);
    let denied =
        PickupServiceClient::with_interceptor(running.channel.clone(), bearer(&running, &caller))
            .list_pickups(pb::ListPickupsRequest::default())
            .await
            .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
}

async fn an_account_request_is_approved_into_a_customer_or_declined_by_email(running: Running) {
    let mut visitor = CustomerServiceClient::new(running.channel.clone());
    let refused = visitor
        .create_account_request(pb::CreateAccountRequestRequest {
            account_request: Some(pb::AccountRequest {
                company_name: "".into(),
                contact_name: "Kofi".into(),
                email: "nope".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(
        fields(&refused),
        ["account_request.company_name", "account_request.email"]
    );
    let ask = |company: &str, email: &str| pb::CreateAccountRequestRequest {
        account_request: Some(pb::AccountRequest {
            company_name: company.into(),
            contact_name: "Kofi Mensah".into(),
            email: email.into(),
            address: "7 Ring Road, Accra".into(),
            message: "20 parcels a week".into(),
            language_code: "fr".into(),
            ..Default::default()
        }),
    };
    let first = visitor
        .create_account_request(ask("Kofi Foods", "kofi@example.com"))
        .await
        .unwrap()
        .into_inner();
    let second = visitor
        .create_account_request(ask("Spam Co", "spam@example.com"))
        .await
        .unwrap()
        .into_inner();

    let mut staff = CustomerServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(&running, &caller("admin")),
    );
    let pending = staff
        .list_account_requests(pb::ListAccountRequestsRequest {
            state: pb::AccountRequestState::Pending.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(pending.account_requests.len(), 2);

    let approved = staff
        .approve_account_request(pb::ApproveAccountRequestRequest {
            id: first.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(approved.state(), pb::AccountRequestState::Approved);
    let customer = staff
        .get_customer(pb::GetCustomerRequest {
            id: approved.customer_id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (customer.name.as_str(), customer.contacts[0].email.as_str()),
        ("Kofi Foods", "kofi@example.com")
    );
    let no_reason = staff
        .decline_account_request(pb::DeclineAccountRequestRequest {
            id: second.id.clone(),
            reason: " ".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(fields(&no_reason), ["reason"]);
    staff
        .decline_account_request(pb::DeclineAccountRequestRequest {
            id: second.id.clone(),
            reason: "We do not ship that kind of goods.".into(),
        })
        .await
        .unwrap();
    let twice = staff
        .approve_account_request(pb::ApproveAccountRequestRequest {
            id: second.id.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        (twice.code(), twice.message()),
        (
            Code::FailedPrecondition,
            "This request was already answered"
        )
    );

    let emails = common::service::outbox_of(&running)
        .await
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    let to = |email: &str| {
        emails
            .iter()
            .find(|n| n.to_email == email)
            .map(|n| n.template)
    };
    assert_eq!(
        to("kofi@example.com"),
        Some(outbox::Template::CustomerInvitation)
    );
    assert_eq!(
        to("spam@example.com"),
        Some(outbox::Template::AccountRequestDeclined)
    );
}

/// Staff give shipments and a pickup to a courier for a day; the courier's round lists exactly
/// those, staff see the assignment and its audit entry, and nobody outside the staff does.
async fn a_courier_round_lists_what_staff_gave_that_courier_for_the_day(running: Running) {
    let acme = new_customer(&running, "Acme Imports").await;
    let mut customer = portal(&running, &acme, Role::CustomerUser);
    let mut booked = Vec::new();
    for _ in 0..3 {
        booked.push(
            customer
                .create_shipment(pb::CreateShipmentRequest {
                    shipment: Some(valid_input()),
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner(),
        );
    }
    let day = open_day();
    let courier = Caller::with_role(
        "0190cccccccccccccccccccc",
        "rider@example.com",
        Role::Courier,
    );
    let mut dispatcher =
        running.client_as(&running.key.mint(&caller("agent"), CALL_TOKEN_LIFETIME));
    let assign = |ids: Vec<String>, courier_id: &str, day: Option<chrono::NaiveDate>| {
        pb::AssignShipmentsToCourierRequest {
            shipment_ids: ids,
            courier_id: courier_id.into(),
            courier_email: "Rider@Example.com".into(),
            date: day.map(date),
        }
    };

    // An unknown shipment assigns nothing; bad fields are named.
    let refused = dispatcher
        .assign_shipments_to_courier(assign(
            vec![booked[0].id.clone(), "0190ffffffffffffffffffff".into()],
            &courier.sub,
            Some(day),
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = dispatcher
        .assign_shipments_to_courier(assign(vec![booked[0].id.clone()], &courier.sub, None))
        .await
        .unwrap_err();
    assert_eq!(fields(&refused), ["date"]);

    let assigned = dispatcher
        .assign_shipments_to_courier(assign(
            vec![booked[0].id.clone(), booked[1].id.clone()],
            &courier.sub,
            Some(day),
        ))
        .await
        .unwrap()
        .into_inner();
    let on_round = assigned.shipments[0].courier_assignment.clone().unwrap();
    assert_eq!(
        (
            on_round.courier_email.as_str(),
            on_round.date,
            on_round.assigned_by.as_str()
        ),
        ("rider@example.com", Some(date(day)), "someone@example.com")
    );
    // The third goes to another day's round.
    dispatcher
        .assign_shipments_to_courier(assign(
            vec![booked[2].id.clone()],
            &courier.sub,
            Some(day + Days::new(1)),
        ))
        .await
        .unwrap();

    // A pickup of that day, booked by the customer and given to a courier by staff.
    let mut staff_pickups = PickupServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(&running, &caller("agent")),
    );
    let mut assigned_pickup = async |shipment: &str, agent_id: &str, agent_email: &str| {
        let pickup = customer
            .create_pickup(pickup_of(vec![shipment.to_owned()], day))
            .await
            .unwrap()
            .into_inner();
        staff_pickups
            .assign_pickup(pb::AssignPickupRequest {
                id: pickup.id.clone(),
                agent_id: agent_id.into(),
                agent_email: agent_email.into(),
            })
            .await
            .unwrap();
        pickup
    };
    // One assigned to the courier on that day is on the round too; another courier's is not.
    let pickup = assigned_pickup(&booked[0].id, &courier.sub, &courier.email).await;
    let elsewhere = assigned_pickup(
        &booked[1].id,
        "0190dddddddddddddddddddd",
        "other-rider@example.com",
    )
    .await;

    let mut app = running.client_as(&running.key.mint(&courier, CALL_TOKEN_LIFETIME));
    let round = app
        .list_courier_stops(pb::ListCourierStopsRequest {
            date: Some(date(day)),
        })
        .await
        .unwrap()
        .into_inner();
    let mut ids: Vec<&str> = round.shipments.iter().map(|s| s.id.as_str()).collect();
    ids.sort();
    let mut expected = vec![booked[0].id.as_str(), booked[1].id.as_str()];
    expected.sort();
    assert_eq!(ids, expected, "that day's shipments, not the next day's");
    assert_eq!(
        round
            .pickups
            .iter()
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>(),
        [pickup.id.as_str()]
    );
    assert!(
        !round.shipments[0]
            .receiver
            .as_ref()
            .unwrap()
            .address
            .is_empty(),
        "full details"
    );
    // Another courier's round of that day holds its own pickup alone.
    let other = Caller::with_role(
        "0190dddddddddddddddddddd",
        "other@example.com",
        Role::Courier,
    );
    let theirs = running
        .client_as(&running.key.mint(&other, CALL_TOKEN_LIFETIME))
        .list_courier_stops(pb::ListCourierStopsRequest {
            date: Some(date(day)),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(theirs.shipments.is_empty());
    assert_eq!(
        theirs
            .pickups
            .iter()
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>(),
        [elsewhere.id.as_str()]
    );
    // A courier cannot hand out rounds.
    let denied = app
        .assign_shipments_to_courier(assign(
            vec![booked[1].id.clone()],
            "0190dddddddddddddddddddd",
            Some(day),
        ))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);

    // Staff read the assignment; the customer's portal and the public lookup never do.
    let staff_view = running
        .client
        .clone()
        .get_shipment(pb::GetShipmentRequest {
            id: booked[0].id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(staff_view.courier_assignment.is_some());
    let theirs = customer
        .get_shipment(pb::GetShipmentRequest {
            id: booked[0].id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        theirs.courier_assignment.is_none(),
        "the portal does not show the courier"
    );
    let public = running
        .client
        .clone()
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: booked[0].tracking_number.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(public.courier_assignment.is_none());

    // Taken off the round: gone from the courier's list; the audit log says both.
    dispatcher
        .assign_shipments_to_courier(pb::AssignShipmentsToCourierRequest {
            shipment_ids: vec![booked[1].id.clone()],
            ..Default::default()
        })
        .await
        .unwrap();
    let round = app
        .list_courier_stops(pb::ListCourierStopsRequest {
            date: Some(date(day)),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        round
            .shipments
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        [booked[0].id.as_str()]
    );
    let log = logistics_proto::v1::audit_service_client::AuditServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(&running, &caller("admin")),
    )
    .list_audit_entries(pb::ListAuditEntriesRequest {
        target: booked[1].id.clone(),
        action: "shipment.assign".into(),
        ..Default::default()
    })
    .await
    .unwrap()
    .into_inner();
    let summaries: Vec<&str> = log
        .entries
        .iter()
        .filter(|e| e.action == "shipment.assign")
        .map(|e| e.summary.as_str())
        .collect();
    assert_eq!(
        summaries,
        [
            format!("Taken off the round of rider@example.com, {day}"),
            format!("Courier: rider@example.com, {day}"),
        ]
    );
}

crate::common::both_stores!(
    a_courier_round_lists_what_staff_gave_that_courier_for_the_day,
    the_address_book_is_the_customers_own_and_imports_all_or_nothing,
    a_pickup_is_asked_for_confirmed_and_collected_moving_its_shipments,
    an_account_request_is_approved_into_a_customer_or_declined_by_email
);
