//! Preferences through the gateway: each signed-in user's own.

use crate::common;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, distributed};
use common::wire::Reply;

/// Preferences are each signed-in user's own, of any role; visitors have none.
async fn preferences_belong_to_the_signed_in_user(site: &Site) {
    assert_eq!(
        dark_mode(&site.base, &[], None).await.grpc_status,
        Some(UNAUTHENTICATED)
    );
    let (_, cookie) = sign_in(&site.base, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let clerk = cookie_pair(&cookie.unwrap());
    let (_, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let admin = cookie_pair(&cookie.unwrap());
    assert_eq!(
        dark_mode(&site.base, &[("cookie", &clerk)], Some(true))
            .await
            .grpc_status,
        Some(OK)
    );
    let read = |reply: Reply| {
        pb::Preferences::decode(reply.body.unwrap())
            .unwrap()
            .is_dark_mode
    };
    assert_eq!(
        read(dark_mode(&site.base, &[("cookie", &clerk)], None).await),
        Some(true)
    );
    assert_eq!(
        read(dark_mode(&site.base, &[("cookie", &admin)], None).await),
        None
    );
    let cross_site = dark_mode(
        &site.base,
        &[("cookie", &admin), ("origin", "https://evil.example")],
        Some(true),
    )
    .await;
    assert_eq!(cross_site.grpc_status, Some(PERMISSION_DENIED));
}

#[tokio::test]
async fn all_in_one_preferences_belong_to_the_signed_in_user() {
    preferences_belong_to_the_signed_in_user(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_preferences_belong_to_the_signed_in_user() {
    preferences_belong_to_the_signed_in_user(&distributed().await).await;
}
