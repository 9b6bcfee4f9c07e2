//! Privacy by default and updates without asking, through the real service over gRPC: what a
//! visitor sees, how a party proves who they are, and subscriptions from e-mail to e-mail.

use crate::common;

use std::collections::BTreeMap;

use common::service::{Running, caller, create, start_with, valid_input, violations};
use logistics_proto::v1::{self as pb};
use outbox::Template;
use prost::Message;
use service_auth::CALL_TOKEN_LIFETIME;
use shipments::privacy::PublicDetails;
use tonic::{Code, Request};
use tonic_types::StatusExt;

const GRANT: &str = "x-tracking-access-grant";

async fn start(details: PublicDetails) -> Running {
    start_with(shipments::Settings {
        public_tracking_details: details,
        tracking_verify_attempts_per_hour: 6,
        subscription_confirmations_per_day: 3,
        subscribers_per_shipment: 2,
        ..service_common::settings::defaults()
    })
    .await
}

/// A client with no service token: a visitor through the gateway.
fn visitor(
    running: &Running,
) -> pb::shipment_service_client::ShipmentServiceClient<tonic::transport::Channel> {
    pb::shipment_service_client::ShipmentServiceClient::new(running.channel.clone())
}

fn lookup(number: &str) -> pb::GetShipmentByTrackingNumberRequest {
    pb::GetShipmentByTrackingNumberRequest {
        tracking_number: number.into(),
        ..Default::default()
    }
}

fn answer(number: &str, answer: &str) -> pb::VerifyTrackingAccessRequest {
    pb::VerifyTrackingAccessRequest {
        tracking_number: number.into(),
        answer: answer.into(),
    }
}

/// The field and message of a refusal's one violation.
fn violation(status: &tonic::Status) -> (String, String) {
    let bad = status.get_details_bad_request().expect("field violations");
    let v = &bad.field_violations[0];
    (v.field.clone(), v.description.clone())
}

/// Every e-mail in the outbox for one shipment, oldest first.
async fn outbox_of(running: &Running, number: &str) -> Vec<outbox::Notification> {
    let mut all = crate::common::service::outbox_of(running)
        .await
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications;
    all.retain(|n| n.tracking_number == number);
    all.reverse();
    all
}

/// The status-update e-mails one address got about one shipment, oldest first.
async fn updates_to(running: &Running, number: &str, email: &str) -> Vec<outbox::Notification> {
    let mut sent = outbox_of(running, number).await;
    sent.retain(|n| n.to_email == email && n.template == Template::StatusUpdate);
    sent
}

fn param(url: &str, name: &str) -> String {
    let (_, query) = url.split_once('?').expect("a query");
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
        .expect("the parameter")
        .to_owned()
}

#[tokio::test]
async fn a_pasted_tracking_number_finds_the_shipment_and_a_malformed_one_says_the_format() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let n = &s.tracking_number;
    let pasted = format!("{} {} {}.", n[..3].to_lowercase(), &n[3..7], &n[7..]);
    let seen = visitor(&running)
        .get_shipment_by_tracking_number(lookup(&pasted))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(&seen.tracking_number, n);
    let refused = visitor(&running)
        .get_shipment_by_tracking_number(lookup("PSE12345"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert_eq!(
        violation(&refused),
        (
            "tracking_number".into(),
            "must be PSE followed by 9 digits".into()
        )
    );
}

#[tokio::test]
async fn a_visitor_sees_the_limited_view_and_nothing_that_reaches_a_party() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let mut input = valid_input();
    input.origin = "14 Marina Road, Lagos, Nigeria".into();
    let s = create(&mut admin, input).await;
    let seen = visitor(&running)
        .get_shipment_by_tracking_number(lookup(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen.view(), pb::ShipmentView::Limited);
    assert!(seen.verification_available);
    assert_eq!(seen.shipper.as_ref().unwrap().name, "Amara O.");
    assert_eq!(seen.receiver.as_ref().unwrap().name, "Jan D.");
    assert_eq!(seen.origin, "Lagos, Nigeria");
    assert_eq!(seen.current_location, "Lagos, Nigeria");
    assert_eq!(seen.history[0].location, "Lagos, Nigeria");
    assert_eq!(seen.history[0].remarks, "Shipment created");
    assert_eq!((seen.package_count, seen.weight_kg), (3, 28.0));
    assert_eq!(seen.carrier, "Maersk");
    assert!(seen.packages.is_empty() && seen.total_freight_cents == 0);
    // Nothing that reaches a party is anywhere in the answer's bytes.
    let bytes = seen.encode_to_vec();
    for secret in [
        "amara@example.com",
        "555 0142",
        "Marina Road",
        "Wilhelminakade",
        "jan@example.nl",
        "Cocoa",
        "Keep dry",
    ] {
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} leaked"
        );
    }
    // Staff always see everything.
    let full = admin
        .get_shipment_by_tracking_number(lookup(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(full.view(), pb::ShipmentView::Full);
    assert_eq!(full.receiver.unwrap().email, "jan@example.nl");
}

#[tokio::test]
async fn a_party_who_proves_it_sees_everything_and_keeps_it_for_that_shipment_only() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let other = create(&mut admin, valid_input()).await;
    let mut api = visitor(&running);

    // Wrong e-mail, wrong digits and an unknown number get the very same answer.
    let mut refusals = Vec::new();
    for (number, given) in [
        (s.tracking_number.as_str(), "someone@example.com"),
        (s.tracking_number.as_str(), "0000"),
        ("PSE000000000", "jan@example.nl"),
    ] {
        let refused = api
            .verify_tracking_access(answer(number, given))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        refusals.push((violation(&refused), refused.message().to_owned()));
    }
    assert_eq!(
        refusals[0].0,
        (
            "answer".into(),
            "These details do not match this shipment.".into()
        )
    );
    assert!(refusals.iter().all(|r| *r == refusals[0]));

    // Malformed answers name the field and say what is expected.
    for given in ["", "12", "abcd", "x@", "12\u{7}4", &"@".repeat(1 << 19)] {
        let refused = api
            .verify_tracking_access(answer(&s.tracking_number, given))
            .await
            .unwrap_err();
        assert_eq!(
            violation(&refused).0,
            "answer",
            "{:?}",
            &given[..given.len().min(8)]
        );
    }

    // The receiver's e-mail, in any case, proves it.
    let verified = api
        .verify_tracking_access(answer(&s.tracking_number, " JAN@example.NL "))
        .await
        .unwrap();
    let grant = verified
        .metadata()
        .get(GRANT)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let verified = verified.into_inner();
    assert_eq!(verified.view(), pb::ShipmentView::Full);
    assert_eq!(verified.receiver.unwrap().phone, "+31 10 555 0199");
    let parts: Vec<&str> = grant.split(' ').collect();
    assert_eq!(parts[..2], [s.tracking_number.as_str(), "86400"]);

    // The grant the gateway keeps in a cookie opens this shipment, not another.
    let with_grant = |number: &str| {
        let mut request = Request::new(lookup(number));
        request
            .metadata_mut()
            .insert("x-tracking-access", parts[2].parse().unwrap());
        request
    };
    let again = api
        .get_shipment_by_tracking_number(with_grant(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.view(), pb::ShipmentView::Full);
    let elsewhere = api
        .get_shipment_by_tracking_number(with_grant(&other.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(elsewhere.view(), pb::ShipmentView::Limited);

    // The last 4 digits of the shipper's phone prove it too.
    let by_phone = api
        .verify_tracking_access(answer(&other.tracking_number, "0142"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_phone.view(), pb::ShipmentView::Full);
}

#[tokio::test]
async fn guessing_stops_after_a_few_attempts_per_shipment_even_for_the_right_answer() {
    let running = start(PublicDetails::Verified).await;
    let s = create(&mut running.client.clone(), valid_input()).await;
    let mut api = visitor(&running);
    for guess in 0..6 {
        let refused = api
            .verify_tracking_access(answer(&s.tracking_number, &format!("{guess:04}")))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
    }
    let locked = api
        .verify_tracking_access(answer(&s.tracking_number, "jan@example.nl"))
        .await
        .unwrap_err();
    assert_eq!(locked.code(), Code::ResourceExhausted);
    assert_eq!(locked.message(), shipments::tracking::TOO_MANY_ATTEMPTS);
}

#[tokio::test]
async fn the_links_in_a_shipments_own_emails_open_the_full_view_and_forged_ones_say_so() {
    let running = start(PublicDetails::Verified).await;
    let s = create(&mut running.client.clone(), valid_input()).await;
    let other = create(&mut running.client.clone(), valid_input()).await;
    let emails = outbox_of(&running, &s.tracking_number).await;
    let receiver = emails
        .iter()
        .find(|n| n.template == Template::Receiver)
        .unwrap();
    let link = &receiver.params["tracking_url"];
    let token = param(link, "access");
    let mut api = visitor(&running);
    let opened = api
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: s.tracking_number.clone(),
            access_token: token.clone(),
        })
        .await
        .unwrap();
    assert!(
        opened.metadata().get(GRANT).is_some(),
        "the browser keeps the full view"
    );
    assert_eq!(opened.into_inner().view(), pb::ShipmentView::Full);

    let forged = format!("{}x", token);
    let expired = running.key.sign_link_expiring_at(
        shipments::privacy::ACCESS_AUDIENCE,
        &shipments::privacy::AccessGrant {
            sub: s.tracking_number.clone(),
            party: shipments::privacy::Party::Receiver,
            until: chrono::Utc::now().timestamp() - 60,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
        chrono::Utc::now().timestamp() - 60,
    );
    for (number, bad) in [
        (&s.tracking_number, forged),
        (&s.tracking_number, expired),
        (&other.tracking_number, token),
    ] {
        let refused = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: number.clone(),
                access_token: bad,
            })
            .await
            .unwrap_err();
        assert_eq!(violation(&refused).0, "access_token");
    }
}

#[tokio::test]
async fn the_sites_setting_decides_what_visitors_may_see() {
    let full = start(PublicDetails::Full).await;
    let s = create(&mut full.client.clone(), valid_input()).await;
    let seen = visitor(&full)
        .get_shipment_by_tracking_number(lookup(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen.view(), pb::ShipmentView::Full);

    let limited = start(PublicDetails::Limited).await;
    let s = create(&mut limited.client.clone(), valid_input()).await;
    let mut api = visitor(&limited);
    let seen = api
        .get_shipment_by_tracking_number(lookup(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen.view(), pb::ShipmentView::Limited);
    assert!(!seen.verification_available);
    let refused = api
        .verify_tracking_access(answer(&s.tracking_number, "jan@example.nl"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
}

async fn track(
    admin: &mut common::service::Client,
    id: &str,
    status: pb::ShipmentStatus,
    place: &str,
) {
    admin
        .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
            id: id.into(),
            status: status.into(),
            current_location: place.into(),
            remarks: "Scanned at the hub".into(),
            ..Default::default()
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn subscribe_confirm_update_and_unsubscribe_from_email_to_email() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let number = s.tracking_number.clone();
    let mut api = visitor(&running);
    let subscribe = |email: &str| pb::SubscribeToShipmentRequest {
        tracking_number: number.clone(),
        email: email.into(),
        language_code: String::new(),
    };

    api.subscribe_to_shipment(subscribe(" Fan@Example.com "))
        .await
        .unwrap();
    let confirmation = outbox_of(&running, &number).await.pop().unwrap();
    assert_eq!(confirmation.template, Template::SubscriptionConfirmation);
    assert_eq!(confirmation.to_email, "fan@example.com");
    let confirm_token = param(&confirmation.params["confirm_url"], "confirm");

    // Nothing is sent before the link is opened.
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::InTransit,
        "Rotterdam, Netherlands",
    )
    .await;
    assert!(
        updates_to(&running, &number, "fan@example.com")
            .await
            .is_empty()
    );
    let sent = outbox_of(&running, &number).await;
    // The parties heard of the change, each with their own full-view link.
    let updates: Vec<_> = sent
        .iter()
        .filter(|n| n.template == Template::StatusUpdate)
        .collect();
    assert_eq!(updates.len(), 2);
    assert!(updates.iter().all(|n| n.params["status"] == "In Transit"
        && n.params["remarks"] == "Scanned at the hub"
        && n.subject == format!("Shipment {number}: In Transit")
        && n.params["tracking_url"].contains("?access=")));

    // A confirmation token is no unsubscribe token, and a forged one is refused.
    let refused = api
        .delete_shipment_subscription(pb::DeleteShipmentSubscriptionRequest {
            token: confirm_token.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(violation(&refused).0, "token");
    let refused = api
        .confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
            token: format!("{confirm_token}x"),
        })
        .await
        .unwrap_err();
    assert_eq!(violation(&refused).0, "token");

    let confirmed = api
        .confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
            token: confirm_token.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (confirmed.tracking_number.as_str(), confirmed.email.as_str()),
        (number.as_str(), "fan@example.com")
    );
    // Opening the link twice changes nothing.
    api.confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
        token: confirm_token,
    })
    .await
    .unwrap();

    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::Delivered,
        "12 Kade, Rotterdam, Netherlands",
    )
    .await;
    let to_fan = updates_to(&running, &number, "fan@example.com").await;
    assert_eq!(to_fan.len(), 1, "one update, not one per confirmation");
    let update = &to_fan[0];
    assert_eq!(update.params["status"], "Delivered");
    assert_eq!(
        update.params["location"], "Rotterdam, Netherlands",
        "city level for a stranger"
    );
    assert_eq!(update.params["remarks"], "", "remarks not marked public");
    assert!(
        !update.params["tracking_url"].contains("access="),
        "no full view for a subscriber"
    );

    let unsubscribe = param(&update.params["unsubscribe_url"], "unsubscribe");
    let ended = api
        .delete_shipment_subscription(pb::DeleteShipmentSubscriptionRequest {
            token: unsubscribe.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ended.email, "fan@example.com");
    api.delete_shipment_subscription(pb::DeleteShipmentSubscriptionRequest { token: unsubscribe })
        .await
        .unwrap();
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::OnHold,
        "Rotterdam, Netherlands",
    )
    .await;
    let to_fan = updates_to(&running, &number, "fan@example.com").await.len();
    assert_eq!(to_fan, 1, "nothing after unsubscribing");
}

#[tokio::test]
async fn subscriptions_reveal_nothing_and_have_limits() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let mut api = visitor(&running);
    let subscribe = |number: &str, email: &str| pb::SubscribeToShipmentRequest {
        tracking_number: number.into(),
        email: email.into(),
        language_code: String::new(),
    };
    // An unknown number gets the same answer, and no e-mail goes anywhere.
    api.subscribe_to_shipment(subscribe("PSE000000000", "fan@example.com"))
        .await
        .unwrap();

    for (number, email, field) in [
        (s.tracking_number.as_str(), "not-an-address", "email"),
        (s.tracking_number.as_str(), "", "email"),
        ("PSE12", "fan@example.com", "tracking_number"),
    ] {
        let refused = api
            .subscribe_to_shipment(subscribe(number, email))
            .await
            .unwrap_err();
        assert_eq!(violations(&refused), vec![field.to_owned()]);
    }
    let huge = format!("{}@example.com", "a".repeat(500_000));
    let refused = api
        .subscribe_to_shipment(subscribe(&s.tracking_number, &huge))
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), vec!["email".to_owned()]);

    // Confirmation e-mails to one address are limited per day (3 here), whatever the number.
    for _ in 0..2 {
        api.subscribe_to_shipment(subscribe(&s.tracking_number, "fan@example.com"))
            .await
            .unwrap();
    }
    let limited = api
        .subscribe_to_shipment(subscribe(&s.tracking_number, "FAN@example.com"))
        .await
        .unwrap_err();
    assert_eq!(limited.code(), Code::ResourceExhausted);
    assert_eq!(
        limited.message(),
        shipments::tracking::TOO_MANY_CONFIRMATIONS
    );
    let confirmations = outbox_of(&running, &s.tracking_number)
        .await
        .into_iter()
        .filter(|n| n.template == Template::SubscriptionConfirmation)
        .count();
    assert_eq!(confirmations, 2);

    // A shipment takes at most 2 subscribers here.
    let confirm = |email: &str| {
        let links = shipments::updates::Links {
            public_url: String::new(),
            tokens: running.key.clone(),
        };
        let claim = shipments::updates::SubscriptionClaim {
            sub: s.tracking_number.clone(),
            email: email.into(),
            nonce: format!("nonce-{email}"),
            lang: Default::default(),
        };
        param(&links.confirm(&claim), "confirm")
    };
    for email in ["a@example.com", "b@example.com"] {
        api.confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
            token: confirm(email),
        })
        .await
        .unwrap();
    }
    let full = api
        .confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
            token: confirm("c@example.com"),
        })
        .await
        .unwrap_err();
    assert_eq!(full.code(), Code::ResourceExhausted);
    let full = api
        .subscribe_to_shipment(subscribe(&s.tracking_number, "d@example.com"))
        .await
        .unwrap_err();
    assert_eq!(full.message(), shipments::tracking::SHIPMENT_FULL);
}

#[tokio::test]
async fn the_admins_rules_decide_who_hears_of_each_event() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let settings = admin
        .get_tracking_email_settings(pb::GetTrackingEmailSettingsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(settings.rules.len(), 5);
    assert!(settings.rules.iter().all(|r| r.shipper && r.receiver));

    let rule = |event: pb::TrackingEvent, shipper: bool, receiver: bool| pb::TrackingEmailRule {
        event: event.into(),
        shipper,
        receiver,
        subscribers: true,
    };
    let saved = admin
        .update_tracking_email_settings(pb::UpdateTrackingEmailSettingsRequest {
            settings: Some(pb::TrackingEmailSettings {
                rules: vec![
                    rule(pb::TrackingEvent::Created, false, true),
                    rule(pb::TrackingEvent::Delivered, false, false),
                ],
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let by_event: BTreeMap<i32, &pb::TrackingEmailRule> =
        saved.rules.iter().map(|r| (r.event, r)).collect();
    assert!(
        !by_event[&(pb::TrackingEvent::Created as i32)].subscribers,
        "nobody follows a new shipment"
    );
    assert!(
        by_event[&(pb::TrackingEvent::InTransit as i32)].shipper,
        "unnamed events keep their rule"
    );

    let s = create(&mut admin, valid_input()).await;
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::Delivered,
        "Rotterdam",
    )
    .await;
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::Delivered,
        "Rotterdam",
    )
    .await;
    track(&mut admin, &s.id, pb::ShipmentStatus::Delayed, "Rotterdam").await;
    let sent: Vec<(Template, String)> = outbox_of(&running, &s.tracking_number)
        .await
        .into_iter()
        .map(|n| {
            (
                n.template,
                n.params.get("status").cloned().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        sent,
        vec![
            (Template::Receiver, String::new()),
            (Template::StatusUpdate, "Delayed".into()),
            (Template::StatusUpdate, "Delayed".into()),
        ],
        "no shipper e-mail at creation, none on delivery, one per party on a change to delayed"
    );

    let refused = admin
        .update_tracking_email_settings(pb::UpdateTrackingEmailSettingsRequest {
            settings: Some(pb::TrackingEmailSettings {
                rules: vec![
                    rule(pb::TrackingEvent::Delayed, true, true),
                    rule(pb::TrackingEvent::Delayed, true, true),
                    pb::TrackingEmailRule {
                        event: 99,
                        ..Default::default()
                    },
                ],
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(
        violations(&refused),
        vec!["settings.rules[1].event", "settings.rules[2].event"]
    );

    let user = running.key.mint(&caller("user"), CALL_TOKEN_LIFETIME);
    let denied = running
        .client_as(&user)
        .get_tracking_email_settings(pb::GetTrackingEmailSettingsRequest {})
        .await
        .unwrap_err();
    assert_eq!(denied.code(), Code::PermissionDenied);
    let anonymous = visitor(&running)
        .get_tracking_email_settings(pb::GetTrackingEmailSettingsRequest {})
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn each_email_speaks_the_language_of_its_shipment_or_its_subscriber() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();

    // A language the site does not speak is refused by name, and nothing is created.
    let refused = admin
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(pb::Shipment {
                language_code: "de".into(),
                ..valid_input()
            }),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), vec!["language_code".to_owned()]);

    let s = create(
        &mut admin,
        pb::Shipment {
            language_code: "FR".into(),
            ..valid_input()
        },
    )
    .await;
    assert_eq!(s.language_code, "fr");
    let number = s.tracking_number.clone();
    let created = outbox_of(&running, &number).await;
    let shipper = created
        .iter()
        .find(|n| n.template == Template::Shipper)
        .unwrap();
    assert_eq!(shipper.subject, "Envoi créé");
    assert_eq!(shipper.params["language"], "fr");
    assert_eq!(shipper.params["status"], "En attente");
    assert!(
        shipper.params["url"].contains(&format!("/fr/track/{number}?access=")),
        "{}",
        shipper.params["url"]
    );

    // A visitor on the Spanish page subscribes: confirmation and updates in Spanish.
    let mut api = visitor(&running);
    api.subscribe_to_shipment(pb::SubscribeToShipmentRequest {
        tracking_number: number.clone(),
        email: "fan@example.com".into(),
        language_code: "es".into(),
    })
    .await
    .unwrap();
    let confirmation = outbox_of(&running, &number).await.pop().unwrap();
    assert_eq!(
        confirmation.subject,
        format!("Confirme las novedades del envío {number}")
    );
    let confirm_url = &confirmation.params["confirm_url"];
    assert!(confirm_url.contains(&format!("/es/track/{number}?confirm=")));
    api.confirm_shipment_subscription(pb::ConfirmShipmentSubscriptionRequest {
        token: param(confirm_url, "confirm"),
    })
    .await
    .unwrap();

    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::InTransit,
        "Lyon, France",
    )
    .await;
    let to_fan = updates_to(&running, &number, "fan@example.com").await;
    assert_eq!(to_fan[0].subject, format!("Envío {number}: En tránsito"));
    assert_eq!(to_fan[0].params["language"], "es");
    assert!(to_fan[0].params["unsubscribe_url"].contains(&format!("/es/track/{number}?")));
    let to_shipper = updates_to(&running, &number, "amara@example.com").await;
    assert_eq!(
        to_shipper[0].subject,
        format!("Envoi {number} : En transit")
    );
    assert!(to_shipper[0].params["tracking_url"].contains(&format!("/fr/track/{number}?access=")));

    // A subscriber's language in a forged request is refused by name.
    let refused = api
        .subscribe_to_shipment(pb::SubscribeToShipmentRequest {
            tracking_number: number.clone(),
            email: "other@example.com".into(),
            language_code: "fr\"><script>".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), vec!["language_code".to_owned()]);

    // The admin changes the shipment's language; its next e-mails follow.
    admin
        .update_shipment(pb::UpdateShipmentRequest {
            shipment: Some(pb::Shipment {
                id: s.id.clone(),
                language_code: "ar".into(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["language_code".into()],
            }),
            ..Default::default()
        })
        .await
        .unwrap();
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::Delivered,
        "Lyon, France",
    )
    .await;
    let to_shipper = updates_to(&running, &number, "amara@example.com").await;
    assert_eq!(to_shipper.len(), 2);
    assert_eq!(to_shipper[1].params["language"], "ar");
    assert_eq!(to_shipper[1].params["status"], "تم التسليم");
    assert!(to_shipper[1].params["tracking_url"].contains(&format!("/ar/track/{number}?")));
}

/// The `exp` a signed token carries, read without checking it.
fn expiry(running: &Running, token: &str) -> i64 {
    let claims: BTreeMap<String, serde_json::Value> = running
        .key
        .verify_link(shipments::privacy::ACCESS_AUDIENCE, token)
        .expect("a valid grant");
    claims["exp"].as_i64().expect("exp")
}

/// When the short `access` token of an e-mailed link to `shipment` ends.
fn link_ends(running: &Running, shipment: &pb::Shipment, token: &str) -> i64 {
    let seal = shipments::privacy::seal_of_proto(shipment);
    shipments::privacy::verify_access(&running.key, &shipment.tracking_number, &seal, token)
        .expect("a valid link")
        .until
}

/// The grant token and its max age in the metadata of an answer.
fn grant_of<T>(answer: &tonic::Response<T>) -> (String, i64) {
    let grant = answer
        .metadata()
        .get(GRANT)
        .expect("a grant")
        .to_str()
        .unwrap();
    let parts: Vec<&str> = grant.split(' ').collect();
    (parts[2].to_owned(), parts[1].parse().unwrap())
}

fn with_grant(number: &str, grant: &str) -> Request<pb::GetShipmentByTrackingNumberRequest> {
    let mut request = Request::new(lookup(number));
    request
        .metadata_mut()
        .insert("x-tracking-access", grant.parse().unwrap());
    request
}

fn send_link(number: &str) -> pb::SendTrackingAccessLinkRequest {
    pb::SendTrackingAccessLinkRequest {
        tracking_number: number.into(),
    }
}

#[tokio::test]
async fn send_me_a_link_reaches_the_parties_when_guessers_spent_every_attempt() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(
        &mut admin,
        pb::Shipment {
            language_code: "es".into(),
            ..valid_input()
        },
    )
    .await;
    let number = s.tracking_number.clone();
    let mut api = visitor(&running);
    for guess in 0..7 {
        api.verify_tracking_access(answer(&number, &format!("{guess:04}")))
            .await
            .unwrap_err();
    }
    let locked = api
        .verify_tracking_access(answer(&number, "jan@example.nl"))
        .await
        .unwrap_err();
    assert_eq!(locked.code(), Code::ResourceExhausted, "guessers spent it");

    // A known number, an unknown one: the same empty answer, no oracle.
    api.send_tracking_access_link(send_link(&number))
        .await
        .unwrap();
    api.send_tracking_access_link(send_link("PSE000000000"))
        .await
        .unwrap();
    assert!(outbox_of(&running, "PSE000000000").await.is_empty());
    let refused = api
        .send_tracking_access_link(send_link("PSE12"))
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), vec!["tracking_number".to_owned()]);

    // Each party got their own link, in the shipment's language, through the outbox.
    for email in ["amara@example.com", "jan@example.nl"] {
        let sent = updates_to(&running, &number, email).await;
        assert_eq!(sent.len(), 1, "{email}");
        assert_eq!(sent[0].params["language"], "es");
        assert!(sent[0].params["tracking_url"].contains("/es/track/"));
        let token = param(&sent[0].params["tracking_url"], "access");
        let opened = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: number.clone(),
                access_token: token,
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(opened.view(), pb::ShipmentView::Full, "{email}");
    }

    // Asking again and again cannot flood a party: 3 e-mails an hour each (the default),
    // and every answer is still the same.
    for _ in 0..5 {
        api.send_tracking_access_link(send_link(&number))
            .await
            .unwrap();
    }
    for email in ["amara@example.com", "jan@example.nl"] {
        assert_eq!(
            updates_to(&running, &number, email).await.len(),
            3,
            "{email}"
        );
    }

    // The site that offers no full view offers no link either.
    let limited = start(PublicDetails::Limited).await;
    let refused = visitor(&limited)
        .send_tracking_access_link(send_link(&number))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
}

#[tokio::test]
async fn a_grant_ends_a_fixed_time_after_verification_however_often_it_is_sent_back() {
    let running = start(PublicDetails::Verified).await;
    let s = create(&mut running.client.clone(), valid_input()).await;
    let number = s.tracking_number.clone();
    let mut api = visitor(&running);
    let verified = api
        .verify_tracking_access(answer(&number, "jan@example.nl"))
        .await
        .unwrap();
    let (first, max_age) = grant_of(&verified);
    assert_eq!(max_age, 86400);
    let verified_ends = expiry(&running, &first);

    // A grant made ten minutes from its end (as one verified almost a day ago is), sent
    // back as an access token again and again: each new grant ends when that one did.
    let ends = chrono::Utc::now().timestamp() + 600;
    let mut grant = running.key.sign_link_expiring_at(
        shipments::privacy::ACCESS_AUDIENCE,
        &shipments::privacy::AccessGrant {
            sub: number.clone(),
            party: shipments::privacy::Party::Receiver,
            until: ends,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
        ends,
    );
    for _ in 0..3 {
        let renewed = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: number.clone(),
                access_token: grant.clone(),
            })
            .await
            .unwrap();
        let (next, max_age) = grant_of(&renewed);
        assert_eq!(expiry(&running, &next), ends, "no renewal");
        assert!(max_age <= 600);
        grant = next;
    }

    // An e-mail link lasts 30 days, but the browser it opens keeps the view a day at most,
    // and sending that cookie back does not stretch it.
    let receiver = outbox_of(&running, &number)
        .await
        .into_iter()
        .find(|n| n.template == Template::Receiver)
        .unwrap();
    let link = param(&receiver.params["tracking_url"], "access");
    assert!(link_ends(&running, &s, &link) > verified_ends + 20 * 86400);
    let opened = api
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: number.clone(),
            access_token: link,
        })
        .await
        .unwrap();
    let (cookie, _) = grant_of(&opened);
    let cookie_ends = expiry(&running, &cookie);
    assert!(cookie_ends <= chrono::Utc::now().timestamp() + 86400);
    let again = api
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: number.clone(),
            access_token: cookie,
        })
        .await
        .unwrap();
    assert_eq!(expiry(&running, &grant_of(&again).0), cookie_ends);
}

#[tokio::test]
async fn a_change_of_a_partys_contact_details_voids_earlier_grants_and_links() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let number = s.tracking_number.clone();
    let mut api = visitor(&running);
    let verified = api
        .verify_tracking_access(answer(&number, "jan@example.nl"))
        .await
        .unwrap();
    let (grant, _) = grant_of(&verified);
    let emailed = outbox_of(&running, &number)
        .await
        .into_iter()
        .find(|n| n.template == Template::Receiver)
        .unwrap();
    let link = param(&emailed.params["tracking_url"], "access");
    let full = api
        .get_shipment_by_tracking_number(with_grant(&number, &grant))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(full.view(), pb::ShipmentView::Full);

    let edit = |path: &str, party: pb::Party| pb::UpdateShipmentRequest {
        shipment: Some(pb::Shipment {
            id: s.id.clone(),
            shipper: Some(party.clone()),
            receiver: Some(party),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec![path.into()],
        }),
        remarks: String::new(),
        remarks_public: false,
        ..Default::default()
    };
    admin
        .update_shipment(edit(
            "receiver.email",
            pb::Party {
                email: "new.owner@example.org".into(),
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    let after = api
        .get_shipment_by_tracking_number(with_grant(&number, &grant))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        after.view(),
        pb::ShipmentView::Limited,
        "the cookie is void"
    );
    assert!(!after.encode_to_vec().windows(9).any(|w| w == b"new.owner"));
    let refused = api
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: number.clone(),
            access_token: link,
        })
        .await
        .unwrap_err();
    assert_eq!(
        violation(&refused).0,
        "access_token",
        "the e-mailed link is void"
    );

    // Proving it with the new details works, and a change of the other party's phone voids
    // that grant too.
    let verified = api
        .verify_tracking_access(answer(&number, "new.owner@example.org"))
        .await
        .unwrap();
    let (grant, _) = grant_of(&verified);
    admin
        .update_shipment(edit(
            "shipper.phone",
            pb::Party {
                phone: "+234 803 555 9999".into(),
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    let after = api
        .get_shipment_by_tracking_number(with_grant(&number, &grant))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.view(), pb::ShipmentView::Limited);
    // A change that is not contact details leaves grants alone.
    let verified = api
        .verify_tracking_access(answer(&number, "9999"))
        .await
        .unwrap();
    let (grant, _) = grant_of(&verified);
    admin
        .update_shipment(pb::UpdateShipmentRequest {
            shipment: Some(pb::Shipment {
                id: s.id.clone(),
                carrier: "MSC".into(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["carrier".into()],
            }),
            remarks: String::new(),
            remarks_public: false,
            ..Default::default()
        })
        .await
        .unwrap();
    let after = api
        .get_shipment_by_tracking_number(with_grant(&number, &grant))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(after.view(), pb::ShipmentView::Full);
}

#[tokio::test]
async fn the_limited_view_shows_city_and_country_only_and_public_remarks_only() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(
        &mut admin,
        pb::Shipment {
            origin: "221B Baker Street, London".into(),
            destination: "Hauptstraße 5, 10115 Berlin, Germany".into(),
            ..valid_input()
        },
    )
    .await;
    let update = |place: &str, remarks: &str, public: bool| pb::UpdateShipmentTrackingRequest {
        id: s.id.clone(),
        status: pb::ShipmentStatus::InTransit.into(),
        current_location: place.into(),
        remarks: remarks.into(),
        remarks_public: public,
        ..Default::default()
    };
    admin
        .update_shipment_tracking(update(
            "Unit 4, 12 Dock Road, Rotterdam 3011 AB, Netherlands",
            "Driver: call Jan on +31 10 555 0199",
            false,
        ))
        .await
        .unwrap();
    admin
        .update_shipment_tracking(update("Depot 7, Antwerp 2030, Belgium", "Sorted", true))
        .await
        .unwrap();

    let seen = visitor(&running)
        .get_shipment_by_tracking_number(lookup(&s.tracking_number))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen.origin, "London");
    assert_eq!(seen.destination, "Berlin, Germany");
    assert_eq!(seen.current_location, "Antwerp, Belgium");
    let places: Vec<&str> = seen.history.iter().map(|h| h.location.as_str()).collect();
    assert_eq!(
        places,
        ["London", "Rotterdam, Netherlands", "Antwerp, Belgium"]
    );
    let remarks: Vec<&str> = seen.history.iter().map(|h| h.remarks.as_str()).collect();
    assert_eq!(remarks, ["Shipment created", "", "Sorted"]);
    let bytes = seen.encode_to_vec();
    for secret in [
        "Baker",
        "221B",
        "Dock",
        "3011",
        "555 0199",
        "Hauptstraße",
        "10115",
    ] {
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} leaked"
        );
    }

    // The parties and staff still read everything.
    let full = visitor(&running)
        .verify_tracking_access(answer(&s.tracking_number, "jan@example.nl"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        full.history[1].remarks,
        "Driver: call Jan on +31 10 555 0199"
    );
    assert!(!full.history[1].remarks_public && full.history[2].remarks_public);
    assert_eq!(full.origin, "221B Baker Street, London");
}

#[tokio::test]
async fn one_inbox_counts_once_and_a_confirmation_link_works_once_across_a_restart() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let number = s.tracking_number.clone();
    let mut api = visitor(&running);
    let subscribe = |email: &str| pb::SubscribeToShipmentRequest {
        tracking_number: number.clone(),
        email: email.into(),
        language_code: String::new(),
    };
    // 3 confirmations a day per inbox here, however the address is spelled.
    for i in 1..=3 {
        api.subscribe_to_shipment(subscribe(&format!("victim+{i}@example.com")))
            .await
            .unwrap();
    }
    for spelling in [
        "victim+4@example.com",
        "Victim@Example.com",
        "VICTIM+x@EXAMPLE.COM",
    ] {
        let limited = api
            .subscribe_to_shipment(subscribe(spelling))
            .await
            .unwrap_err();
        assert_eq!(limited.code(), Code::ResourceExhausted, "{spelling}");
    }
    // Gmail ignores dots and knows googlemail.com as itself.
    for spelling in [
        "v.i.c.t.i.m@gmail.com",
        "victim+a@googlemail.com",
        "vic.tim+b@gmail.com",
    ] {
        api.subscribe_to_shipment(subscribe(spelling))
            .await
            .unwrap();
    }
    let limited = api
        .subscribe_to_shipment(subscribe("victim@gmail.com"))
        .await
        .unwrap_err();
    assert_eq!(limited.code(), Code::ResourceExhausted);

    let confirmations: Vec<_> = outbox_of(&running, &number)
        .await
        .into_iter()
        .filter(|n| n.template == Template::SubscriptionConfirmation)
        .collect();
    assert_eq!(confirmations.len(), 6);
    let token = |i: usize| param(&confirmations[i].params["confirm_url"], "confirm");
    let confirm = |token: String| pb::ConfirmShipmentSubscriptionRequest { token };

    // One inbox follows once: a second spelling's link adds nobody.
    api.confirm_shipment_subscription(confirm(token(0)))
        .await
        .unwrap();
    api.confirm_shipment_subscription(confirm(token(1)))
        .await
        .unwrap();
    track(
        &mut admin,
        &s.id,
        pb::ShipmentStatus::InTransit,
        "Rotterdam",
    )
    .await;
    let updates: Vec<_> = outbox_of(&running, &number)
        .await
        .into_iter()
        .filter(|n| n.template == Template::StatusUpdate && n.to_email.starts_with("victim"))
        .collect();
    assert_eq!(updates.len(), 1, "one inbox, one update");

    let unsubscribe = param(&updates[0].params["unsubscribe_url"], "unsubscribe");
    api.delete_shipment_subscription(pb::DeleteShipmentSubscriptionRequest { token: unsubscribe })
        .await
        .unwrap();
    // The used link, replayed after unsubscribing, subscribes nobody.
    let replayed = api
        .confirm_shipment_subscription(confirm(token(0)))
        .await
        .unwrap_err();
    assert_eq!(violation(&replayed).0, "token");

    // Nor after a restart on the same data and key.
    let common::service::Running { dir, key, .. } = running;
    let restarted = common::service::start_in(
        dir,
        key,
        shipments::Settings {
            subscribers_per_shipment: 2,
            ..service_common::settings::defaults()
        },
    )
    .await;
    let mut api = visitor(&restarted);
    for i in [0, 1] {
        let replayed = api
            .confirm_shipment_subscription(confirm(token(i)))
            .await
            .unwrap_err();
        assert_eq!(violation(&replayed).0, "token", "link {i}");
    }
    // An unused link of the same inbox still works once.
    api.confirm_shipment_subscription(confirm(token(2)))
        .await
        .unwrap();
    track(
        &mut restarted.client.clone(),
        &s.id,
        pb::ShipmentStatus::Delivered,
        "Rotterdam",
    )
    .await;
    let updates = outbox_of(&restarted, &number)
        .await
        .into_iter()
        .filter(|n| n.template == Template::StatusUpdate && n.to_email.starts_with("victim"))
        .count();
    assert_eq!(updates, 2);
}

/// The e-mailed full-view links are short, open the full view after a restart, end when the
/// long ones did, and the long links already sent keep working.
async fn emailed_links_are_short_and_outlive_a_restart(running: Running) {
    let s = create(&mut running.client.clone(), valid_input()).await;
    let number = s.tracking_number.clone();
    let emails = outbox_of(&running, &number).await;
    let links: Vec<String> = [
        (Template::Shipper, "url"),
        (Template::Receiver, "tracking_url"),
    ]
    .iter()
    .map(|(t, key)| emails.iter().find(|n| n.template == *t).unwrap().params[*key].clone())
    .collect();
    for link in &links {
        let token = param(link, "access");
        assert!(token.len() <= 32, "{token} ({} characters)", token.len());
        assert!(link.len() <= 100, "{link}");
        let ends = link_ends(&running, &s, &token);
        let thirty_days = chrono::Utc::now().timestamp() + 30 * 86400;
        assert!(
            (thirty_days - 60..=thirty_days).contains(&ends),
            "ends in 30 days"
        );
    }
    let long = running.key.sign_link_expiring_at(
        shipments::privacy::ACCESS_AUDIENCE,
        &shipments::privacy::AccessGrant {
            sub: number.clone(),
            party: shipments::privacy::Party::Shipper,
            until: chrono::Utc::now().timestamp() + 86400,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
        chrono::Utc::now().timestamp() + 86400,
    );
    let other = create(&mut running.client.clone(), valid_input()).await;
    let short = param(&links[1], "access");
    let expired = shipments::privacy::compact_access(
        &running.key,
        &shipments::privacy::AccessGrant {
            sub: number.clone(),
            party: shipments::privacy::Party::Receiver,
            until: chrono::Utc::now().timestamp() - 60,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
    );
    let running = common::service::restart(running).await;
    let mut api = visitor(&running);
    for token in [param(&links[0], "access"), short.clone(), long] {
        let opened = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: number.clone(),
                access_token: token.clone(),
            })
            .await
            .unwrap();
        assert!(opened.metadata().get(GRANT).is_some(), "{token}");
        assert_eq!(
            opened.into_inner().view(),
            pb::ShipmentView::Full,
            "{token}"
        );
    }
    // Another shipment, the other party, a changed character or an ended link open nothing.
    let swapped = format!("s{}", &short[1..]);
    let changed = format!(
        "{}{}",
        &short[..short.len() - 1],
        if short.ends_with('A') { 'B' } else { 'A' }
    );
    for (number, bad) in [
        (&other.tracking_number, short.clone()),
        (&number, swapped),
        (&number, changed),
        (&number, expired),
    ] {
        let refused = api
            .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
                tracking_number: number.clone(),
                access_token: bad.clone(),
            })
            .await
            .unwrap_err();
        assert_eq!(violation(&refused).0, "access_token", "{bad}");
    }
}

#[tokio::test]
async fn sqlite_emailed_links_are_short_and_outlive_a_restart() {
    emailed_links_are_short_and_outlive_a_restart(start(PublicDetails::Verified).await).await;
}

#[tokio::test]
async fn mongo_emailed_links_are_short_and_outlive_a_restart() {
    if let Some(running) = common::service::start_on_mongo().await {
        emailed_links_are_short_and_outlive_a_restart(running).await;
    }
}

/// A status-update e-mail shows the tracking page's progress step, the expected delivery date
/// and a time that names its zone.
#[tokio::test]
async fn update_emails_carry_the_progress_step_the_expected_date_and_a_zoned_time() {
    let running = start(PublicDetails::Verified).await;
    let mut admin = running.client.clone();
    let s = create(&mut admin, valid_input()).await;
    let number = s.tracking_number.clone();
    // Lagos → Rotterdam: moving elsewhere is In transit, in the destination's city Out for
    // delivery (written with an accent, as people do), then Delivered.
    for (status, place, step) in [
        (pb::ShipmentStatus::InTransit, "Accra, Ghana", "2"),
        (pb::ShipmentStatus::Delayed, "Rottérdam, Netherlands", "3"),
        (pb::ShipmentStatus::Delivered, "Rotterdam, Netherlands", "4"),
    ] {
        track(&mut admin, &s.id, status, place).await;
        let sent = updates_to(&running, &number, "jan@example.nl").await;
        let last = &sent.last().expect("an update e-mail").params;
        assert_eq!(last["progress"], step, "{status:?}");
        assert!(last["time"].ends_with(" UTC"), "{}", last["time"]);
        assert!(
            last["expected_delivery_date"].contains(", 20"),
            "{}",
            last["expected_delivery_date"]
        );
    }
}
