//! The preference stores' contract on SQLite and MongoDB, and the service over loopback gRPC.

use std::sync::Arc;

use logistics_proto::v1::{self as pb, preference_service_client::PreferenceServiceClient};
use preferences::{PreferenceChange, PreferenceStore, Preferences};
use service_auth::{Bearer, Caller, TokenKey};
use tokio::net::TcpListener;
use tonic::Code;
use tonic::transport::Channel;

async fn a_choice_is_kept_per_user_and_unset_fields_are_left_alone(
    store: Arc<dyn PreferenceStore>,
) {
    assert_eq!(
        store.get("u1").await.unwrap(),
        Preferences { is_dark_mode: None },
        "never chosen"
    );
    let dark = Preferences {
        is_dark_mode: Some(true),
    };
    let set = |dark: Option<bool>| PreferenceChange {
        is_dark_mode: Some(dark),
    };
    assert_eq!(store.update("u1", set(Some(true))).await.unwrap(), dark);
    assert_eq!(store.get("u1").await.unwrap(), dark);
    assert_eq!(
        store.get("u2").await.unwrap().is_dark_mode,
        None,
        "another user's choice is their own"
    );
    assert_eq!(
        store
            .update("u1", PreferenceChange::default())
            .await
            .unwrap(),
        dark,
        "an empty change keeps the choice"
    );
    let light = Preferences {
        is_dark_mode: Some(false),
    };
    assert_eq!(store.update("u1", set(Some(false))).await.unwrap(), light);
    assert_eq!(
        store.update("u1", set(None)).await.unwrap(),
        Preferences { is_dark_mode: None },
        "a choice can be forgotten (follow the system)"
    );
    assert_eq!(store.get("u1").await.unwrap().is_dark_mode, None);
}

#[tokio::test]
async fn sqlite_keeps_choices() {
    let dir = tempfile::tempdir().unwrap();
    let store = preferences::SqlitePreferenceStore::open(&dir.path().join("p.sqlite3")).unwrap();
    a_choice_is_kept_per_user_and_unset_fields_are_left_alone(Arc::new(store)).await;
}

#[tokio::test]
async fn mongo_keeps_choices() {
    let Some((uri, database)) = test_servers::mongodb() else {
        return;
    };
    let store = preferences::MongoPreferenceStore::connect(&uri, &database)
        .await
        .unwrap();
    a_choice_is_kept_per_user_and_unset_fields_are_left_alone(Arc::new(store)).await;
}

#[tokio::test]
async fn each_signed_in_user_reads_and_sets_their_own_theme() {
    let dir = tempfile::tempdir().unwrap();
    let key = TokenKey::generate();
    let store = service_common::StoreConfig::Embedded {
        data_dir: dir.path().to_path_buf(),
    };
    let built = preferences::build(&store, key.clone()).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(service_common::serve(
        listener,
        built,
        std::future::pending(),
    ));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let as_user = |sub: &str, role: &str| {
        let token = key.mint(
            &Caller::with_role(sub, format!("{sub}@example.com"), role.parse().unwrap()),
            service_auth::CALL_TOKEN_LIFETIME,
        );
        PreferenceServiceClient::with_interceptor(channel.clone(), Bearer::new(&token))
    };
    let mut ada = as_user("ada", "admin");
    let mut bo = as_user("bo", "user");
    let set_dark = pb::UpdatePreferencesRequest {
        preferences: Some(pb::Preferences {
            is_dark_mode: Some(true),
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["is_dark_mode".into()],
        }),
    };
    assert_eq!(
        ada.update_preferences(set_dark.clone())
            .await
            .unwrap()
            .into_inner()
            .is_dark_mode,
        Some(true)
    );
    assert_eq!(
        ada.get_preferences(pb::GetPreferencesRequest {})
            .await
            .unwrap()
            .into_inner()
            .is_dark_mode,
        Some(true)
    );
    assert_eq!(
        bo.get_preferences(pb::GetPreferencesRequest {})
            .await
            .unwrap()
            .into_inner()
            .is_dark_mode,
        None
    );

    let follow_system = pb::UpdatePreferencesRequest {
        preferences: Some(pb::Preferences { is_dark_mode: None }),
        ..set_dark.clone()
    };
    assert_eq!(
        ada.update_preferences(follow_system)
            .await
            .unwrap()
            .into_inner()
            .is_dark_mode,
        None,
        "a named field left absent is forgotten"
    );

    let bad_mask = pb::UpdatePreferencesRequest {
        update_mask: Some(prost_types::FieldMask {
            paths: vec!["language".into()],
        }),
        ..set_dark
    };
    let refused = bo.update_preferences(bad_mask).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(
        refused.message(),
        "update_mask: \"language\" cannot be changed (is_dark_mode)"
    );

    let mut anonymous = PreferenceServiceClient::new(channel.clone());
    assert_eq!(
        anonymous
            .get_preferences(pb::GetPreferencesRequest {})
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
    let other_key = TokenKey::generate().mint(
        &Caller::with_role("ada", String::new(), service_auth::Role::Admin),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    let mut forged = PreferenceServiceClient::with_interceptor(channel, Bearer::new(&other_key));
    assert_eq!(
        forged
            .get_preferences(pb::GetPreferencesRequest {})
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
}
