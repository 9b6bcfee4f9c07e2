//! Sessions: only a signed-in admin opens admin methods, sign-in failures look alike and are
//! limited, the cookie's attributes, expiry.

use crate::common;

use std::time::Duration;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, all_in_one_with, distributed};
use common::wire::{demo_shipment, frame};

#[tokio::test]
async fn admin_methods_need_an_admin_session() {
    let site = all_in_one(60).await;
    let shipment = demo_shipment(&site.store).await;
    let calls: [(&str, Vec<u8>); 4] = [
        (
            "ListShipments",
            pb::ListShipmentsRequest::default().encode_to_vec(),
        ),
        (
            "GetShipment",
            pb::GetShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
        (
            "CreateShipment",
            pb::CreateShipmentRequest::default().encode_to_vec(),
        ),
        (
            "DeleteShipment",
            pb::DeleteShipmentRequest {
                id: shipment.id.clone(),
            }
            .encode_to_vec(),
        ),
    ];
    for (method, body) in calls {
        let (reply, _) = grpc_web(&site.base, method, frame(&body)).await;
        assert_eq!(
            reply.grpc_status,
            Some(UNAUTHENTICATED),
            "{method} without a session"
        );
    }
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "the delete did not happen"
    );
}

async fn sessions_open_admin_methods_to_admins_only(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let (reply, set_cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(OK), "{reply:?}");
    let set_cookie = set_cookie.expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(
            set_cookie.contains(attribute),
            "{set_cookie} lacks {attribute}"
        );
    }
    let cookie = cookie_pair(&set_cookie);
    let session = pb::Session::decode(reply.body.unwrap()).unwrap();
    assert_eq!(session.user.unwrap().role(), pb::Role::Admin);

    let page = list_shipments(&site.base, &[("cookie", &cookie)]).await;
    assert_eq!(page.grpc_status, Some(OK), "{page:?}");
    let listed = pb::ListShipmentsResponse::decode(page.body.unwrap()).unwrap();
    assert!(listed.shipments.iter().any(|s| s.id == shipment.id));
    let (who, _) = call(
        &site.base,
        "logistics.v1.SessionService/GetSession",
        vec![],
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!(
        pb::Session::decode(who.body.unwrap())
            .unwrap()
            .user
            .unwrap()
            .email,
        ADMIN_EMAIL
    );

    // A page of another site cannot use the admin's cookie.
    let cross_site = list_shipments(
        &site.base,
        &[("cookie", &cookie), ("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
    let delete = pb::DeleteShipmentRequest {
        id: shipment.id.clone(),
    }
    .encode_to_vec();
    let (reply, _) = call(
        &site.base,
        "logistics.v1.ShipmentService/DeleteShipment",
        delete,
        &[("cookie", &cookie), ("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(reply.grpc_status, Some(PERMISSION_DENIED));
    // A plain form post (no gRPC-web content type) is not a call at all.
    let form = reqwest::Client::new()
        .post(format!(
            "{}/logistics.v1.ShipmentService/DeleteShipment",
            site.base
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", &cookie)
        .body(format!("id={}", shipment.id))
        .send()
        .await
        .unwrap();
    assert!(form.status().is_client_error(), "{}", form.status());
    assert!(
        site.store.get(&shipment.id).await.is_ok(),
        "neither cross-site delete happened"
    );

    // A signed-in user without the admin role, a forged cookie, no cookie.
    let (_, clerk_cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&clerk_cookie.unwrap());
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &clerk)])
            .await
            .grpc_status,
        Some(PERMISSION_DENIED)
    );
    assert_eq!(
        list_shipments(&site.base, &[("cookie", "session=forged")])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
    assert_eq!(
        list_shipments(&site.base, &[]).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (reply, _) = call(
        &site.base,
        "logistics.v1.AuthService/SignIn",
        pb::SignInRequest::default().encode_to_vec(),
        &[],
    )
    .await;
    assert_eq!(
        reply.grpc_status,
        Some(PERMISSION_DENIED),
        "the services' sign-in is not for browsers"
    );

    // Signing in again rotates the id; signing out ends the session.
    let (_, again) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let again = cookie_pair(&again.unwrap());
    assert_ne!(again, cookie);
    let (_, headers) = call(
        &site.base,
        "logistics.v1.SessionService/DeleteSession",
        vec![],
        &[("cookie", &again)],
    )
    .await;
    assert!(
        headers["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &again)])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
}

#[tokio::test]
async fn all_in_one_sessions_open_admin_methods_to_admins_only() {
    sessions_open_admin_methods_to_admins_only(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_sessions_open_admin_methods_to_admins_only() {
    sessions_open_admin_methods_to_admins_only(&distributed().await).await;
}

#[tokio::test]
async fn sign_in_failures_are_alike_then_rate_limited() {
    let site = all_in_one(60).await;
    let (reply, cookie) = sign_in(&site.base, ADMIN_EMAIL, "wrong password, long").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str(), cookie),
        (Some(UNAUTHENTICATED), "Invalid email or password", None)
    );
    let (reply, _) = sign_in(&site.base, "nobody@example.com", "wrong password, long").await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (Some(UNAUTHENTICATED), "Invalid email or password")
    );
    let (reply, _) = sign_in(&site.base, "not an email", "whatever").await;
    assert_eq!(reply.message, "Invalid email address format");
    // The test config allows 3 failures per account.
    for _ in 0..2 {
        sign_in(&site.base, ADMIN_EMAIL, "wrong password, long").await;
    }
    let (reply, _) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (
            Some(RESOURCE_EXHAUSTED),
            "Too many failed attempts. Please try again later"
        )
    );
    let (reply, _) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(OK), "other accounts are not locked");
}

#[tokio::test]
async fn the_cookie_is_secure_behind_a_trusted_https_proxy() {
    let site = all_in_one_with(|s| s.trusted_proxy_hops = 1).await;
    let (_, headers) = sign_in_with(
        &site.base,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        &[("x-forwarded-proto", "https")],
    )
    .await;
    assert!(
        headers["set-cookie"]
            .to_str()
            .unwrap()
            .ends_with("; Secure")
    );
    let (_, plain) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert!(
        !plain.unwrap().contains("Secure"),
        "plain HTTP on localhost keeps working"
    );
}

#[tokio::test]
async fn sign_ins_are_rate_limited_per_client() {
    let site = all_in_one_with(|s| s.sign_ins_per_ip_per_minute = 2).await;
    for _ in 0..2 {
        assert_eq!(
            sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD)
                .await
                .0
                .grpc_status,
            Some(OK)
        );
    }
    let (reply, _) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        (reply.grpc_status, reply.message.as_str()),
        (
            Some(RESOURCE_EXHAUSTED),
            "Too many failed attempts. Please try again later"
        )
    );
}

#[tokio::test]
async fn an_expired_session_opens_nothing() {
    // Three seconds: a loaded machine still makes the first call well inside it.
    let site = all_in_one_with(|s| s.session_absolute = Duration::from_secs(3)).await;
    let (_, set_cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let cookie = cookie_pair(&set_cookie.unwrap());
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &cookie)])
            .await
            .grpc_status,
        Some(OK)
    );
    // Wait out the absolute lifetime (whole seconds, so up to one more).
    tokio::time::sleep(Duration::from_millis(4100)).await;
    assert_eq!(
        list_shipments(&site.base, &[("cookie", &cookie)])
            .await
            .grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (who, _) = call(
        &site.base,
        "logistics.v1.SessionService/GetSession",
        vec![],
        &[("cookie", &cookie)],
    )
    .await;
    assert_eq!(who.grpc_status, Some(UNAUTHENTICATED));
}
