//! Access that ends or changes: disabled users, password and role changes, and changes made
//! without the gateway, all reaching open sessions within 5 s in both modes.

use crate::common;

use std::time::{Duration, Instant};

use logistics_proto::v1 as pb;
use prost::Message;
use service_auth::TokenKey;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, distributed};
use common::wire::{demo_shipment, frame};

/// Disabling a user ends their sessions at once, in every mode.
async fn a_disabled_user_is_signed_out_everywhere(site: &Site) {
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], None)
            .await
            .grpc_status,
        Some(OK)
    );
    let listed = call(
        &site.base,
        "logistics.v1.AuthService/ListUsers",
        pb::ListUsersRequest::default().encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    let users = pb::ListUsersResponse::decode(listed.body.unwrap())
        .unwrap()
        .users;
    let clerk_id = users
        .iter()
        .find(|u| u.email == CLERK_EMAIL)
        .unwrap()
        .id
        .clone();
    let disable = pb::SetUserDisabledRequest {
        id: clerk_id,
        disabled: true,
    };
    let reply = call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        disable.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], None)
            .await
            .grpc_status,
        Some(UNAUTHENTICATED),
        "the disabled user's session ended"
    );
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &admin)], None)
            .await
            .grpc_status,
        Some(OK),
        "others stay signed in"
    );
}

#[tokio::test]
async fn all_in_one_a_disabled_user_is_signed_out_everywhere() {
    a_disabled_user_is_signed_out_everywhere(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_a_disabled_user_is_signed_out_everywhere() {
    a_disabled_user_is_signed_out_everywhere(&distributed().await).await;
}

/// Whether `holds` comes true within the 5 s in which a revoked access must end, asked
/// every 100 ms.
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

async fn user_id(site: &Site, email: &str) -> String {
    let email = auth::domain::Email::parse(email).unwrap();
    site.users.find_by_email(&email).await.unwrap().unwrap().id
}

async fn preferences_status(site: &Site, cookie: &str) -> Option<i32> {
    dark_mode(&site.base, &[("cookie", cookie)], None)
        .await
        .grpc_status
}

/// A tool's change straight to the users' store: no gateway and no auth service saw it.
async fn change_stored_user(
    site: &Site,
    email: &str,
    change: impl FnOnce(&mut auth::domain::User),
) {
    let mut user = site.users.get(&user_id(site, email).await).await.unwrap();
    change(&mut user);
    site.users.replace(&user).await.unwrap();
}

/// SetUserDisabled with the id padded by spaces: the account is disabled and its sessions
/// end (the gateway once ended the sessions of the unpadded id only, i.e. none).
async fn disabling_by_a_padded_id_ends_the_sessions(site: &Site) {
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
    let disable = pb::SetUserDisabledRequest {
        id: format!("  {}  ", user_id(site, CLERK_EMAIL).await),
        disabled: true,
    };
    let reply = call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        disable.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "the disabled user's session ended"
    );
    assert_eq!(
        preferences_status(site, &admin).await,
        Some(OK),
        "others stay signed in"
    );
}

#[tokio::test]
async fn all_in_one_disabling_by_a_padded_id_ends_the_sessions() {
    disabling_by_a_padded_id_ends_the_sessions(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_disabling_by_a_padded_id_ends_the_sessions() {
    disabling_by_a_padded_id_ends_the_sessions(&distributed().await).await;
}

/// SetUserDisabled followed by an extra empty gRPC frame is refused whole: it once disabled
/// the account and left its sessions working.
async fn an_extra_frame_never_leaves_a_disabled_user_signed_in(site: &Site) {
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let disable = pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: true,
    };
    let mut body = frame(&disable.encode_to_vec());
    body.extend(frame(&[]));
    let reply = raw_call(
        &site.base,
        "logistics.v1.AuthService/SetUserDisabled",
        body,
        &[("cookie", &admin)],
    )
    .await
    .0;
    assert_eq!(reply.grpc_status, Some(INVALID_ARGUMENT), "{reply:?}");
    let stored = site
        .users
        .get(&user_id(site, CLERK_EMAIL).await)
        .await
        .unwrap();
    assert!(!stored.disabled, "nothing half-done");
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
}

#[tokio::test]
async fn all_in_one_an_extra_frame_never_leaves_a_disabled_user_signed_in() {
    an_extra_frame_never_leaves_a_disabled_user_signed_in(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_an_extra_frame_never_leaves_a_disabled_user_signed_in() {
    an_extra_frame_never_leaves_a_disabled_user_signed_in(&distributed().await).await;
}

/// Changes made without the gateway: straight to the store (all-in-one and distributed), or
/// by a tool calling the auth service (distributed). Each ends the old access within 5 s.
async fn changes_made_elsewhere_end_the_old_access_within_5_seconds(site: &Site) {
    // Disabled in the store.
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(preferences_status(site, &clerk).await, Some(OK));
    change_stored_user(site, CLERK_EMAIL, |u| u.disabled = true).await;
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "disabled in the store: the session ended"
    );
    change_stored_user(site, CLERK_EMAIL, |u| u.disabled = false).await;

    // A role taken away in the store: the admin's session loses the admin methods.
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &admin)])
            .await
            .grpc_status,
        Some(OK)
    );
    change_stored_user(site, ADMIN_EMAIL, |u| u.role = auth::domain::Role::User).await;
    assert!(
        within_5_seconds(async || {
            list_shipments(&site.base, &[("cookie", &admin)])
                .await
                .grpc_status
                == Some(PERMISSION_DENIED)
        })
        .await,
        "an admin made a user lost the admin methods"
    );
    assert_eq!(
        preferences_status(site, &admin).await,
        Some(OK),
        "and stays signed in as a user"
    );
    change_stored_user(site, ADMIN_EMAIL, |u| u.role = auth::domain::Role::Admin).await;

    // The auth service called directly by a tool with a service token.
    let Some(auth_url) = &site.auth_url else {
        return;
    };
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let channel = tonic::transport::Endpoint::from_shared(auth_url.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut tool = auth_client(
        channel.clone(),
        &site.tokens,
        "tools",
        service_auth::Role::Admin,
    );
    tool.set_user_disabled(pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: true,
    })
    .await
    .unwrap();
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "disabled by a tool: the session ended"
    );
    tool.set_user_disabled(pb::SetUserDisabledRequest {
        id: user_id(site, CLERK_EMAIL).await,
        disabled: false,
    })
    .await
    .unwrap();

    // The clerk's password changed by a call to the auth service: older sessions end.
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk_id = user_id(site, CLERK_EMAIL).await;
    let mut own = auth_client(channel, &site.tokens, &clerk_id, service_auth::Role::User);
    own.change_password(pb::ChangePasswordRequest {
        current_password: ADMIN_PASSWORD.into(),
        new_password: "another long passphrase".into(),
    })
    .await
    .unwrap();
    assert!(
        within_5_seconds(async || preferences_status(site, &clerk).await == Some(UNAUTHENTICATED))
            .await,
        "a password changed elsewhere ends the session"
    );
    signed_in(site, CLERK_EMAIL, "another long passphrase").await;
}

fn auth_client(
    channel: tonic::transport::Channel,
    tokens: &TokenKey,
    sub: &str,
    role: service_auth::Role,
) -> pb::auth_service_client::AuthServiceClient<
    tonic::service::interceptor::InterceptedService<
        tonic::transport::Channel,
        service_auth::Bearer,
    >,
> {
    let caller = service_auth::Caller::with_role(sub, "tools@localhost", role);
    let token = tokens.mint(&caller, Duration::from_secs(60));
    pb::auth_service_client::AuthServiceClient::with_interceptor(
        channel,
        service_auth::Bearer::new(&token),
    )
}

#[tokio::test]
async fn all_in_one_changes_made_elsewhere_end_the_old_access_within_5_seconds() {
    changes_made_elsewhere_end_the_old_access_within_5_seconds(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_changes_made_elsewhere_end_the_old_access_within_5_seconds() {
    changes_made_elsewhere_end_the_old_access_within_5_seconds(&distributed().await).await;
}

/// Changing one's password through the gateway keeps this browser signed in under a new
/// session id; the old id and the user's other sessions stop working.
async fn a_password_change_signs_out_the_other_sessions(site: &Site) {
    let here = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let elsewhere = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let change = pb::ChangePasswordRequest {
        current_password: ADMIN_PASSWORD.into(),
        new_password: "another long passphrase".into(),
    };
    let (reply, headers) = call(
        &site.base,
        "logistics.v1.AuthService/ChangePassword",
        change.encode_to_vec(),
        &[("cookie", &here)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let renewed = cookie_pair(headers["set-cookie"].to_str().unwrap());
    assert_ne!(renewed, here, "a new session id");
    assert_eq!(
        preferences_status(site, &renewed).await,
        Some(OK),
        "this browser stays signed in"
    );
    assert_eq!(
        preferences_status(site, &here).await,
        Some(UNAUTHENTICATED),
        "the old id is dead"
    );
    assert_eq!(
        preferences_status(site, &elsewhere).await,
        Some(UNAUTHENTICATED),
        "the other session ended"
    );
}

#[tokio::test]
async fn all_in_one_a_password_change_signs_out_the_other_sessions() {
    a_password_change_signs_out_the_other_sessions(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_a_password_change_signs_out_the_other_sessions() {
    a_password_change_signs_out_the_other_sessions(&distributed().await).await;
}

/// An admin makes the clerk an agent: within 5 s the clerk's open session may move
/// shipments, but not delete them or read the audit log; the audit log names the clerk and
/// where the call came from.
async fn a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED),
        "a user has no office access"
    );
    let to_agent = pb::UpdateUserRequest {
        user: Some(pb::User {
            id: user_id(site, CLERK_EMAIL).await,
            role: pb::Role::Agent.into(),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["role".into()],
        }),
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuthService/UpdateUser",
        to_agent.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    assert!(
        within_5_seconds(async || {
            list_shipments(&site.base, &[("cookie", &clerk)])
                .await
                .grpc_status
                == Some(OK)
        })
        .await,
        "the agent's open session may list shipments"
    );
    let track = pb::UpdateShipmentTrackingRequest {
        id: shipment.id.clone(),
        status: pb::ShipmentStatus::OnHold.into(),
        current_location: "Customs, Tema".into(),
        remarks: "Papers missing".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/UpdateShipmentTracking",
        track.encode_to_vec(),
        &[("cookie", &clerk)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let moved = pb::Shipment::decode(reply.body.unwrap()).unwrap();
    assert_eq!(moved.history.last().unwrap().updated_by, CLERK_EMAIL);
    for (path, body) in [
        (
            "logistics.v1.ShipmentService/DeleteShipment",
            pb::DeleteShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
        (
            "logistics.v1.AuditService/ListAuditEntries",
            pb::ListAuditEntriesRequest::default().encode_to_vec(),
        ),
        (
            "logistics.v1.AuthService/ListUsers",
            pb::ListUsersRequest::default().encode_to_vec(),
        ),
    ] {
        let (reply, _) = call(&site.base, path, body, &[("cookie", &clerk)]).await;
        assert_eq!(
            (reply.grpc_status, reply.message.as_str()),
            (Some(PERMISSION_DENIED), service_auth::NOT_PERMITTED),
            "{path}"
        );
    }
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "nothing was deleted"
    );

    let audit = pb::ListAuditEntriesRequest {
        target: shipment.tracking_number.to_string(),
        action: "shipment.status_change".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuditService/ListAuditEntries",
        audit.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let entries = pb::ListAuditEntriesResponse::decode(reply.body.unwrap())
        .unwrap()
        .entries;
    let last = &entries[0];
    assert_eq!(last.actor_email, CLERK_EMAIL);
    assert_eq!(last.client_ip, "127.0.0.1", "the gateway names the client");
    assert!(!last.request_id.is_empty());
    assert!(
        last.summary.ends_with("→ On Hold (Papers missing)"),
        "{}",
        last.summary
    );

    let role_change = pb::ListAuditEntriesRequest {
        action: "user.role_change".into(),
        ..Default::default()
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuditService/ListAuditEntries",
        role_change.encode_to_vec(),
        &[("cookie", &admin)],
    )
    .await;
    let entries = pb::ListAuditEntriesResponse::decode(reply.body.unwrap())
        .unwrap()
        .entries;
    assert_eq!(
        (
            entries[0].actor_email.as_str(),
            entries[0].target_name.as_str()
        ),
        (ADMIN_EMAIL, CLERK_EMAIL)
    );
}

#[tokio::test]
async fn all_in_one_a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user() {
    a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(&all_in_one(60).await)
        .await;
}

#[tokio::test]
async fn distributed_a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user() {
    a_role_change_reaches_open_sessions_and_the_audit_log_names_the_user(&distributed().await)
        .await;
}
