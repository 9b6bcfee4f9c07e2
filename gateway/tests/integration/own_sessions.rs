//! The account page's sessions: each user sees and ends only their own, and a wrong current
//! password is refused as a field, not as a lost session.

use crate::common;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, distributed};

const FIREFOX_ON_WINDOWS: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";

/// Signs in from a browser that says what it is; the `session=<id>` pair.
async fn signed_in_from(site: &Site, email: &str, user_agent: &str) -> String {
    let (reply, headers) = sign_in_with(
        &site.base,
        email,
        ADMIN_PASSWORD,
        &[("user-agent", user_agent)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    cookie_pair(headers["set-cookie"].to_str().unwrap())
}

async fn list(site: &Site, cookie: &str) -> Result<Vec<pb::SignedInSession>, Option<i32>> {
    let (reply, _) = call(
        &site.base,
        "logistics.v1.SessionService/ListSessions",
        pb::ListSessionsRequest {}.encode_to_vec(),
        &[("cookie", cookie)],
    )
    .await;
    match reply.grpc_status {
        Some(OK) => Ok(pb::ListSessionsResponse::decode(reply.body.unwrap())
            .unwrap()
            .sessions),
        other => Err(other),
    }
}

async fn end(site: &Site, cookie: &str, id: &str) -> Option<i32> {
    let request = pb::EndSessionRequest { id: id.into() };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.SessionService/EndSession",
        request.encode_to_vec(),
        &[("cookie", cookie)],
    )
    .await;
    reply.grpc_status
}

async fn end_others(site: &Site, cookie: &str) -> Result<i32, Option<i32>> {
    let (reply, _) = call(
        &site.base,
        "logistics.v1.SessionService/EndOtherSessions",
        pb::EndOtherSessionsRequest {}.encode_to_vec(),
        &[("cookie", cookie)],
    )
    .await;
    match reply.grpc_status {
        Some(OK) => Ok(pb::EndOtherSessionsResponse::decode(reply.body.unwrap())
            .unwrap()
            .ended_count),
        other => Err(other),
    }
}

async fn users_see_and_end_only_their_own_sessions(site: &Site) {
    let laptop = signed_in_from(site, CLERK_EMAIL, FIREFOX_ON_WINDOWS).await;
    let phone = signed_in_from(site, CLERK_EMAIL, "Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36").await;
    let tablet = signed_in_from(site, CLERK_EMAIL, "curl/8.0").await;
    let admin = signed_in_from(site, ADMIN_EMAIL, FIREFOX_ON_WINDOWS).await;

    let seen = list(site, &laptop).await.unwrap();
    assert_eq!(
        seen.len(),
        3,
        "the clerk's three browsers, not the admin's: {seen:?}"
    );
    assert!(seen[0].current, "this browser comes first");
    assert_eq!(seen[0].device, "Firefox on Windows");
    assert!(seen[1..].iter().all(|s| !s.current));
    assert!(seen.iter().any(|s| s.device == "Chrome on Android"));
    for s in &seen {
        assert!(s.create_time.is_some() && s.last_seen_time.is_some());
        assert!(
            !laptop.contains(&s.id) && !phone.contains(&s.id) && !tablet.contains(&s.id),
            "an id is never a cookie"
        );
    }
    let phone_id = seen
        .iter()
        .find(|s| s.device == "Chrome on Android")
        .unwrap()
        .id
        .clone();

    // Another user can neither see nor end the clerk's sessions.
    let admins = list(site, &admin).await.unwrap();
    assert_eq!(admins.len(), 1);
    assert!(admins.iter().all(|s| s.id != phone_id));
    assert_eq!(end(site, &admin, &phone_id).await, Some(NOT_FOUND));
    assert_eq!(end_others(site, &admin).await, Ok(0));
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &phone)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED),
        "the clerk's phone is still signed in (a clerk may not list shipments)"
    );

    // Ending this session is signing out, not EndSession.
    assert_eq!(
        end(site, &laptop, &seen[0].id).await,
        Some(INVALID_ARGUMENT)
    );
    // The clerk ends the phone, then everything else; the laptop stays signed in.
    assert_eq!(end(site, &laptop, &phone_id).await, Some(OK));
    assert_eq!(end(site, &laptop, &phone_id).await, Some(NOT_FOUND));
    assert_eq!(list(site, &phone).await.unwrap_err(), Some(UNAUTHENTICATED));
    assert_eq!(end_others(site, &laptop).await, Ok(1));
    assert_eq!(
        list(site, &tablet).await.unwrap_err(),
        Some(UNAUTHENTICATED)
    );
    let left = list(site, &laptop).await.unwrap();
    assert_eq!(left.len(), 1);
    assert!(left[0].current);
    assert_eq!(
        list(site, &admin).await.unwrap().len(),
        1,
        "the admin's is untouched"
    );

    // Without a session there is nothing to list or end.
    assert_eq!(
        list(site, "session=forged").await.unwrap_err(),
        Some(UNAUTHENTICATED)
    );
    assert_eq!(end_others(site, "").await, Err(Some(UNAUTHENTICATED)));
}

#[tokio::test]
async fn all_in_one_users_see_and_end_only_their_own_sessions() {
    users_see_and_end_only_their_own_sessions(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_users_see_and_end_only_their_own_sessions() {
    users_see_and_end_only_their_own_sessions(&distributed().await).await;
}

/// A wrong current password is a bad field and leaves the browser signed in: the page must
/// not take it for an ended session.
#[tokio::test]
async fn a_wrong_current_password_is_refused_naming_the_field() {
    let site = all_in_one(60).await;
    let cookie = signed_in_from(&site, CLERK_EMAIL, FIREFOX_ON_WINDOWS).await;
    let change = pb::ChangePasswordRequest {
        current_password: "not my password at all".into(),
        new_password: "another long passphrase".into(),
    };
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuthService/ChangePassword",
        change.encode_to_vec(),
        &[("cookie", &cookie)],
    )
    .await;
    // The field it names (current_password) is checked in the auth service's own tests.
    assert_eq!(reply.grpc_status, Some(INVALID_ARGUMENT), "{reply:?}");
    assert_eq!(reply.message, "Incorrect password");
    assert_eq!(
        list(&site, &cookie).await.unwrap().len(),
        1,
        "still signed in"
    );
}
