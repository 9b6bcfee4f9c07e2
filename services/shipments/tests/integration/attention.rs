//! The exceptions queue and the internal notes, on both stores: exceptions open, close and
//! open again with their conditions; notes stay with staff.

use crate::common;

use chrono::{Datelike, Days, Utc};
use common::service::{Running, caller, start, start_on_mongo, valid_input};
use logistics_proto::v1::{
    self as pb, shipment_exception_service_client::ShipmentExceptionServiceClient,
    shipment_note_service_client::ShipmentNoteServiceClient,
};
use service_auth::{Bearer, CALL_TOKEN_LIFETIME, Caller};
use tonic::Code;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

type Queue = ShipmentExceptionServiceClient<InterceptedService<Channel, Bearer>>;
type Notes = ShipmentNoteServiceClient<InterceptedService<Channel, Bearer>>;

fn admin() -> Caller {
    caller("admin")
}

fn bearer(running: &Running, caller: &Caller) -> Bearer {
    Bearer::new(&running.key.mint(caller, CALL_TOKEN_LIFETIME))
}

fn queue(running: &Running) -> Queue {
    ShipmentExceptionServiceClient::with_interceptor(
        running.channel.clone(),
        bearer(running, &admin()),
    )
}

fn notes(running: &Running) -> Notes {
    ShipmentNoteServiceClient::with_interceptor(running.channel.clone(), bearer(running, &admin()))
}

fn fields(status: &tonic::Status) -> Vec<String> {
    tonic_types::StatusExt::get_details_bad_request(status)
        .map(|b| b.field_violations.into_iter().map(|v| v.field).collect())
        .unwrap_or_default()
}

/// A shipment expected `days_ago` days ago (negative: in the future).
async fn booked(running: &Running, days_ago: i64) -> pb::Shipment {
    let day = Utc::now().date_naive();
    let expected = if days_ago >= 0 {
        day - Days::new(days_ago as u64)
    } else {
        day + Days::new(days_ago.unsigned_abs())
    };
    let mut input = valid_input();
    input.expected_delivery_date = Some(pb::Date {
        year: expected.year(),
        month: expected.month() as i32,
        day: expected.day() as i32,
    });
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

async fn track(
    running: &Running,
    id: &str,
    status: pb::ShipmentStatus,
    failed: pb::DeliveryAttemptFailure,
) -> Result<pb::Shipment, tonic::Status> {
    running
        .client
        .clone()
        .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
            id: id.into(),
            status: status.into(),
            current_location: "Rotterdam depot".into(),
            failed_attempt: failed.into(),
            ..Default::default()
        })
        .await
        .map(tonic::Response::into_inner)
}

async fn listed(
    queue: &mut Queue,
    request: pb::ListShipmentExceptionsRequest,
) -> Vec<(String, pb::ShipmentExceptionKind)> {
    queue
        .list_shipment_exceptions(request)
        .await
        .unwrap()
        .into_inner()
        .exceptions
        .into_iter()
        .map(|e| (e.tracking_number.clone(), e.kind()))
        .collect()
}

async fn exceptions_open_close_and_open_again_with_their_conditions(running: Running) {
    use pb::DeliveryAttemptFailure as Failed;
    use pb::ShipmentExceptionKind as Kind;
    use pb::ShipmentStatus as S;
    let mut queue = queue(&running);
    let late = booked(&running, 2).await;
    let held = booked(&running, -5).await;
    let attempted = booked(&running, -5).await;
    let fine = booked(&running, -5).await;
    track(&running, &held.id, S::OnHold, Failed::Unspecified)
        .await
        .unwrap();
    let tried = track(&running, &attempted.id, S::InTransit, Failed::NobodyHome)
        .await
        .unwrap();
    assert_eq!(
        tried.history.last().unwrap().failed_attempt(),
        Failed::NobodyHome
    );
    // A delivered shipment had no failed attempt.
    let refused = track(&running, &fine.id, S::Delivered, Failed::Refused)
        .await
        .unwrap_err();
    assert_eq!(fields(&refused), ["failed_attempt"]);

    let open = listed(&mut queue, Default::default()).await;
    assert!(
        open.contains(&(late.tracking_number.clone(), Kind::Late)),
        "{open:?}"
    );
    assert!(open.contains(&(held.tracking_number.clone(), Kind::OnHold)));
    assert!(open.contains(&(
        attempted.tracking_number.clone(),
        Kind::FailedDeliveryAttempt
    )));
    assert!(
        open.iter()
            .all(|(number, _)| *number != fine.tracking_number),
        "a shipment on time, just booked, needs nothing: {open:?}"
    );
    let counts = queue
        .get_shipment_exception_counts(pb::GetShipmentExceptionCountsRequest {})
        .await
        .unwrap()
        .into_inner();
    let count = |kind: Kind| {
        counts
            .counts
            .iter()
            .find(|c| c.kind() == kind)
            .map(|c| c.count)
    };
    assert_eq!(counts.counts.len(), 5);
    assert_eq!(count(Kind::Late), Some(1));
    assert_eq!(count(Kind::OnHold), Some(1));
    assert_eq!(count(Kind::FailedDeliveryAttempt), Some(1));
    assert_eq!(count(Kind::Stalled), Some(0));

    // Assigned to the caller, it shows under "me".
    let hold_id = format!("{}.on_hold", held.id);
    let assigned = queue
        .assign_shipment_exception(pb::AssignShipmentExceptionRequest {
            id: hold_id.clone(),
            assignee_id: "u1".into(),
            assignee_email: "Someone@Example.com".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(assigned.assignee_email, "someone@example.com");
    assert_eq!(assigned.tracking_number, held.tracking_number);
    let mine = listed(
        &mut queue,
        pb::ListShipmentExceptionsRequest {
            assignee_id: "me".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(mine, [(held.tracking_number.clone(), Kind::OnHold)]);

    // Resolved with a reason, it leaves the open list for the resolved one.
    let empty = queue
        .resolve_shipment_exception(pb::ResolveShipmentExceptionRequest {
            id: hold_id.clone(),
            reason: " ".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(fields(&empty), ["reason"]);
    let resolved = queue
        .resolve_shipment_exception(pb::ResolveShipmentExceptionRequest {
            id: hold_id.clone(),
            reason: "Customs cleared it; released tomorrow".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(resolved.state(), pb::ShipmentExceptionState::Resolved);
    assert_eq!(resolved.resolved_by, "someone@example.com");
    let again = queue
        .resolve_shipment_exception(pb::ResolveShipmentExceptionRequest {
            id: hold_id.clone(),
            reason: "twice".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    let kind_filter = |state: pb::ShipmentExceptionState| pb::ListShipmentExceptionsRequest {
        kind: Kind::OnHold.into(),
        state: state.into(),
        ..Default::default()
    };
    assert!(
        listed(&mut queue, kind_filter(pb::ShipmentExceptionState::Open))
            .await
            .is_empty()
    );
    assert_eq!(
        listed(
            &mut queue,
            kind_filter(pb::ShipmentExceptionState::Resolved)
        )
        .await,
        [(held.tracking_number.clone(), Kind::OnHold)]
    );

    // Another on-hold entry is the same hold: still resolved. Released and held again, it
    // opens again, still assigned.
    track(&running, &held.id, S::OnHold, Failed::Unspecified)
        .await
        .unwrap();
    assert!(
        listed(&mut queue, kind_filter(pb::ShipmentExceptionState::Open))
            .await
            .is_empty()
    );
    track(&running, &held.id, S::InTransit, Failed::Unspecified)
        .await
        .unwrap();
    track(&running, &held.id, S::OnHold, Failed::Unspecified)
        .await
        .unwrap();
    let reopened = queue
        .list_shipment_exceptions(kind_filter(pb::ShipmentExceptionState::Open))
        .await
        .unwrap()
        .into_inner()
        .exceptions;
    assert_eq!(reopened.len(), 1);
    assert_eq!(reopened[0].assignee_email, "someone@example.com");

    // The next entry after a failed attempt clears it; delivered without proof opens another.
    track(&running, &attempted.id, S::Delivered, Failed::Unspecified)
        .await
        .unwrap();
    let after = listed(&mut queue, Default::default()).await;
    assert!(after.contains(&(
        attempted.tracking_number.clone(),
        Kind::MissingProofOfDelivery
    )));
    assert!(!after.contains(&(
        attempted.tracking_number.clone(),
        Kind::FailedDeliveryAttempt
    )));

    // Ids that name nothing in the queue: none, a condition not due, a deleted shipment.
    for id in [
        "nothing".to_owned(),
        format!("{}.stalled", fine.id),
        format!("{}.late", fine.id),
    ] {
        let missing = queue
            .assign_shipment_exception(pb::AssignShipmentExceptionRequest {
                id: id.clone(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_eq!(
            (missing.code(), missing.message()),
            (Code::NotFound, "Exception not found"),
            "{id}"
        );
    }
    running
        .client
        .clone()
        .delete_shipment(pb::DeleteShipmentRequest {
            id: late.id.clone(),
        })
        .await
        .unwrap();
    let gone = listed(&mut queue, Default::default()).await;
    assert!(
        gone.iter()
            .all(|(number, _)| *number != late.tracking_number)
    );
    let bad = queue
        .list_shipment_exceptions(pb::ListShipmentExceptionsRequest {
            page_size: 101,
            kind: 99,
            assignee_id: "not an id!".into(),
            page_token: "%%".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(fields(&bad), ["page_size", "kind", "assignee_id"]);
}

async fn exception_settings_are_checked_and_kept(running: Running) {
    let mut queue = queue(&running);
    let defaults = queue
        .get_exception_settings(pb::GetExceptionSettingsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            defaults.land_stalled_hours,
            defaults.air_stalled_hours,
            defaults.sea_stalled_hours
        ),
        (48, 24, 168)
    );
    let bad = queue
        .update_exception_settings(pb::UpdateExceptionSettingsRequest {
            settings: Some(pb::ExceptionSettings {
                land_stalled_hours: 0,
                air_stalled_hours: 721,
                sea_stalled_hours: 24,
                operations_email: "ops@".into(),
                digest_language_code: "de".into(),
                digest_hour: 24,
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(
        fields(&bad),
        [
            "land_stalled_hours",
            "air_stalled_hours",
            "operations_email",
            "digest_language_code",
            "digest_hour"
        ]
    );
    let saved = pb::ExceptionSettings {
        land_stalled_hours: 12,
        air_stalled_hours: 6,
        sea_stalled_hours: 720,
        operations_email: "ops@example.com".into(),
        digest_language_code: "ar".into(),
        digest_hour: 6,
    };
    queue
        .update_exception_settings(pb::UpdateExceptionSettingsRequest {
            settings: Some(pb::ExceptionSettings {
                operations_email: " Ops@Example.com ".into(),
                ..saved.clone()
            }),
        })
        .await
        .unwrap();
    let running = common::service::restart(running).await;
    let kept = queue_of(&running)
        .get_exception_settings(pb::GetExceptionSettingsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(kept, saved);
}

fn queue_of(running: &Running) -> Queue {
    queue(running)
}

async fn notes_stay_with_staff_newest_first(running: Running) {
    let mut notes = notes(&running);
    let shipment = booked(&running, -3).await;
    for text in [
        "Receiver asked for a call first",
        "Gate code 4411\nsecond line",
    ] {
        notes
            .create_shipment_note(pb::CreateShipmentNoteRequest {
                shipment_id: shipment.id.clone(),
                text: text.into(),
            })
            .await
            .unwrap();
    }
    let page = notes
        .list_shipment_notes(pb::ListShipmentNotesRequest {
            shipment_id: shipment.id.clone(),
            page_size: 1,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.notes[0].text, "Gate code 4411\nsecond line");
    assert_eq!(page.notes[0].author_email, "someone@example.com");
    let rest = notes
        .list_shipment_notes(pb::ListShipmentNotesRequest {
            shipment_id: shipment.id.clone(),
            page_size: 1,
            page_token: page.next_page_token,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(rest.notes[0].text, "Receiver asked for a call first");
    assert!(rest.next_page_token.is_empty());

    let long = notes
        .create_shipment_note(pb::CreateShipmentNoteRequest {
            shipment_id: shipment.id.clone(),
            text: "x".repeat(2001),
        })
        .await
        .unwrap_err();
    assert_eq!(fields(&long), ["text"]);
    let nowhere = notes
        .create_shipment_note(pb::CreateShipmentNoteRequest {
            shipment_id: "0123456789abcdef".into(),
            text: "lost".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(nowhere.code(), Code::NotFound);

    // The shipment as anyone reads it carries no note.
    let read = running
        .client
        .clone()
        .get_shipment(pb::GetShipmentRequest {
            id: shipment.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!format!("{read:?}").contains("Gate code"));

    // Gone with their shipment.
    running
        .client
        .clone()
        .delete_shipment(pb::DeleteShipmentRequest {
            id: shipment.id.clone(),
        })
        .await
        .unwrap();
    let gone = notes
        .list_shipment_notes(pb::ListShipmentNotesRequest {
            shipment_id: shipment.id.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
}

crate::common::both_stores!(
    exceptions_open_close_and_open_again_with_their_conditions,
    exception_settings_are_checked_and_kept,
    notes_stay_with_staff_newest_first
);
