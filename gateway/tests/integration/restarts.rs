//! Sessions outlive a restart of the all-in-one: a signed-in browser stays signed in, and a
//! session ended before the restart (signed out, ended from another browser, idle too long)
//! stays ended after it; a browser the account signed in from stays known.

use crate::common;

use std::time::Duration;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_on_with};

/// The gRPC status of a call only a signed-in admin may make.
async fn admin_call(site: &Site, cookie: &str) -> Option<i32> {
    list_shipments(&site.base, &[("cookie", cookie)])
        .await
        .grpc_status
}

async fn sessions_listed(site: &Site, cookie: &str) -> usize {
    let (reply, _) = call(
        &site.base,
        "logistics.v1.SessionService/ListSessions",
        pb::ListSessionsRequest {}.encode_to_vec(),
        &[("cookie", cookie)],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    pb::ListSessionsResponse::decode(reply.body.unwrap())
        .unwrap()
        .sessions
        .len()
}

async fn session_service(site: &Site, method: &str, body: Vec<u8>, cookie: &str) -> Option<i32> {
    let path = format!("logistics.v1.SessionService/{method}");
    call(&site.base, &path, body, &[("cookie", cookie)])
        .await
        .0
        .grpc_status
}

#[tokio::test]
async fn sessions_and_their_ends_outlive_a_restart() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let first = all_in_one_on_with(&data, |_| {}).await;
    let laptop = signed_in(&first, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let phone = signed_in(&first, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let clerk = signed_in(&first, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let signed_out = signed_in(&first, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        session_service(
            &first,
            "DeleteSession",
            pb::DeleteSessionRequest {}.encode_to_vec(),
            &signed_out
        )
        .await,
        Some(OK)
    );
    drop(first);

    let restarted = all_in_one_on_with(&data, |_| {}).await;
    assert_eq!(
        admin_call(&restarted, &laptop).await,
        Some(OK),
        "the cookie from before the restart"
    );
    assert_eq!(admin_call(&restarted, &phone).await, Some(OK));
    assert_eq!(sessions_listed(&restarted, &laptop).await, 2);
    assert_eq!(
        sessions_listed(&restarted, &clerk).await,
        1,
        "the clerk's live session, not the signed-out one"
    );
    assert_eq!(
        admin_call(&restarted, &signed_out).await,
        Some(UNAUTHENTICATED),
        "signed out before the restart"
    );
    // Sign out everywhere else, then restart again: the phone stays signed out.
    assert_eq!(
        session_service(
            &restarted,
            "EndOtherSessions",
            pb::EndOtherSessionsRequest {}.encode_to_vec(),
            &laptop
        )
        .await,
        Some(OK)
    );
    drop(restarted);

    let again = all_in_one_on_with(&data, |_| {}).await;
    assert_eq!(
        admin_call(&again, &phone).await,
        Some(UNAUTHENTICATED),
        "ended everywhere else before the restart"
    );
    assert_eq!(admin_call(&again, &laptop).await, Some(OK));
    assert_eq!(sessions_listed(&again, &laptop).await, 1);
}

#[tokio::test]
async fn a_session_idle_too_long_across_a_restart_stays_ended() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let idle = |s: &mut gateway::Settings| s.session_idle = Duration::from_secs(1);
    let first = all_in_one_on_with(&data, idle).await;
    let idle_one = signed_in(&first, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(admin_call(&first, &idle_one).await, Some(OK));
    drop(first);
    // The gateway is down for longer than the idle time.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let restarted = all_in_one_on_with(&data, idle).await;
    assert_eq!(
        admin_call(&restarted, &idle_one).await,
        Some(UNAUTHENTICATED)
    );
    let fresh = signed_in(&restarted, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        sessions_listed(&restarted, &fresh).await,
        1,
        "the idle one is not listed"
    );
    // Nothing of it is left in DATA_DIR either.
    let conn = r2d2_sqlite::rusqlite::Connection::open(data.join(gateway::session::FILE)).unwrap();
    let left: i64 = conn
        .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 1, "only the fresh session is kept");
}

/// Signs the admin in from a browser holding `cookie`; the gRPC status and the `device=…` cookie
/// it set.
async fn sign_in_from(site: &Site, cookie: &str) -> (Option<i32>, Option<String>) {
    let (reply, headers) = sign_in_with(
        &site.base,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        &[("cookie", cookie)],
    )
    .await;
    let device = set_cookie(&headers, "device").map(cookie_pair);
    (reply.grpc_status, device)
}

#[tokio::test]
async fn a_browser_known_before_a_restart_is_still_known_after_it() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let one_a_minute = |s: &mut gateway::Settings| s.sign_ins_per_ip_per_minute = 1;
    let first = all_in_one_on_with(&data, one_a_minute).await;
    let (status, device) = sign_in_from(&first, "").await;
    assert_eq!(status, Some(OK));
    let device = device.expect("a device cookie");
    drop(first);

    let restarted = all_in_one_on_with(&data, one_a_minute).await;
    assert_eq!(sign_in_from(&restarted, "").await.0, Some(OK));
    assert_eq!(
        sign_in_from(&restarted, "").await.0,
        Some(RESOURCE_EXHAUSTED),
        "the network's one sign-in a minute is used"
    );
    assert_eq!(
        sign_in_from(&restarted, &device).await.0,
        Some(OK),
        "the browser the account signed in from before the restart is exempt"
    );
}
