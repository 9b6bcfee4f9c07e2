//! The auth service on a loopback port, called with the generated client.

use logistics_proto::v1::{self as pb, auth_service_client::AuthServiceClient};
use service_auth::{Bearer, Caller, Permission, TokenKey};
use tonic::Code;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

const ADMIN_PASSWORD: &str = "correct horse battery staple";

pub(crate) struct Running {
    pub(crate) channel: Channel,
    pub(crate) key: TokenKey,
    pub(crate) admin: pb::User,
    _dir: tempfile::TempDir,
}

impl Running {
    pub(crate) fn anonymous(&self) -> AuthServiceClient<Channel> {
        AuthServiceClient::new(self.channel.clone())
    }

    fn as_token(&self, token: &str) -> AuthServiceClient<InterceptedService<Channel, Bearer>> {
        AuthServiceClient::with_interceptor(self.channel.clone(), Bearer::new(token))
    }

    /// Calls as `user`, with the permissions the service gave them (as the gateway does).
    pub(crate) fn as_user(
        &self,
        user: &pb::User,
    ) -> AuthServiceClient<InterceptedService<Channel, Bearer>> {
        let caller = Caller {
            sub: user.id.clone(),
            email: user.email.clone(),
            role: service_auth::Role::from_proto(user.role).unwrap(),
            permissions: user
                .permissions
                .iter()
                .filter_map(|p| Permission::parse(p))
                .collect(),
            customer_id: Some(user.customer_id.clone()).filter(|c| !c.is_empty()),
            api_key: None,
        };
        self.as_token(&self.key.mint(&caller, service_auth::CALL_TOKEN_LIFETIME))
    }

    /// The audit log beside the users (the same data folder).
    async fn audited(&self, action: &str) -> Vec<audit::AuditEntry> {
        let log = audit::SqliteAuditLog::open(self._dir.path()).unwrap();
        let query = audit::AuditQuery {
            action: audit::Action::parse(action),
            page_size: 100,
            ..Default::default()
        };
        audit::AuditLog::list(&log, &query).await.unwrap().entries
    }
}

pub(crate) async fn start() -> Running {
    let dir = tempfile::tempdir().unwrap();
    let key = TokenKey::generate();
    let store = service_common::StoreConfig::Embedded {
        data_dir: dir.path().to_path_buf(),
    };
    let first_admin = auth::Settings {
        admin_email: Some("Admin@Example.com".into()),
        admin_password: Some(ADMIN_PASSWORD.into()),
        ..Default::default()
    };
    let built = auth::build(&store, &first_admin, key.clone())
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(service_common::serve(
        listener,
        built,
        std::future::pending(),
    ));
    let channel = Channel::from_shared(url).unwrap().connect().await.unwrap();
    let signed_in = AuthServiceClient::new(channel.clone())
        .sign_in(pb::SignInRequest {
            email: "admin@example.com".into(),
            password: ADMIN_PASSWORD.into(),
        })
        .await
        .unwrap()
        .into_inner();
    Running {
        channel,
        key,
        admin: signed_in.user.unwrap(),
        _dir: dir,
    }
}

fn sign_in(email: &str, password: &str) -> pb::SignInRequest {
    pb::SignInRequest {
        email: email.into(),
        password: password.into(),
    }
}

#[tokio::test]
async fn the_first_user_is_the_admin_and_sign_in_returns_the_user() {
    let running = start().await;
    assert_eq!(running.admin.role(), pb::Role::Admin);
    let every: Vec<String> = Permission::all()
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect();
    assert_eq!(
        running.admin.permissions, every,
        "the first admin may do everything"
    );
    let reply = running
        .anonymous()
        .sign_in(sign_in(" ADMIN@example.com ", ADMIN_PASSWORD))
        .await
        .unwrap()
        .into_inner();
    let user = reply.user.unwrap();
    assert_eq!(
        (user.id.as_str(), user.role()),
        (running.admin.id.as_str(), pb::Role::Admin)
    );
}

#[tokio::test]
async fn sign_in_messages_reveal_nothing_and_never_create_accounts() {
    let running = start().await;
    let mut api = running.anonymous();
    let status = api
        .sign_in(sign_in("not-an-email", "whatever password"))
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), status.message()),
        (Code::InvalidArgument, "Invalid email address format")
    );
    let wrong_password = api
        .sign_in(sign_in("admin@example.com", "wrong password here"))
        .await
        .unwrap_err();
    let unknown = api
        .sign_in(sign_in("nobody@example.com", "wrong password here"))
        .await
        .unwrap_err();
    for status in [&wrong_password, &unknown] {
        assert_eq!(
            (status.code(), status.message()),
            (Code::Unauthenticated, "Invalid email or password")
        );
    }
    let users = running
        .as_user(&running.admin)
        .list_users(pb::ListUsersRequest::default())
        .await
        .unwrap()
        .into_inner()
        .users;
    assert_eq!(users.len(), 1, "signing in created no account");
}

#[tokio::test]
async fn admins_create_list_disable_and_enable_users() {
    let running = start().await;
    let mut admin = running.as_user(&running.admin);
    let create = pb::CreateUserRequest {
        user: Some(pb::User {
            email: "Clerk@Example.com".into(),
            name: "Clerk".into(),
            ..Default::default()
        }),
        password: "a long enough password".into(),
    };
    let clerk = admin
        .create_user(create.clone())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (clerk.email.as_str(), clerk.role(), clerk.permissions.len()),
        ("clerk@example.com", pb::Role::User, 0)
    );
    assert_eq!(
        admin.create_user(create).await.unwrap_err().code(),
        Code::AlreadyExists
    );
    let weak = pb::CreateUserRequest {
        user: Some(pb::User {
            email: "weak@example.com".into(),
            ..Default::default()
        }),
        password: "short".into(),
    };
    assert_eq!(
        admin.create_user(weak).await.unwrap_err().code(),
        Code::InvalidArgument
    );
    for (name, problem) in [
        ("Ada\u{0}", "must not contain control characters"),
        ("\u{1b}[31mAda", "must not contain control characters"),
        ("Ada\r\nLovelace", "must be one line"),
    ] {
        let hostile = pb::CreateUserRequest {
            user: Some(pb::User {
                email: "hostile@example.com".into(),
                name: name.into(),
                ..Default::default()
            }),
            password: "a long enough password".into(),
        };
        let status = admin.create_user(hostile).await.unwrap_err();
        assert_eq!(
            (status.code(), status.message()),
            (Code::InvalidArgument, problem),
            "{name:?}"
        );
    }

    admin
        .set_user_disabled(pb::SetUserDisabledRequest {
            id: clerk.id.clone(),
            disabled: true,
        })
        .await
        .unwrap();
    let status = running
        .anonymous()
        .sign_in(sign_in("clerk@example.com", "a long enough password"))
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), status.message()),
        (Code::PermissionDenied, "This account has been disabled")
    );
    admin
        .set_user_disabled(pb::SetUserDisabledRequest {
            id: clerk.id.clone(),
            disabled: false,
        })
        .await
        .unwrap();
    running
        .anonymous()
        .sign_in(sign_in("clerk@example.com", "a long enough password"))
        .await
        .unwrap();

    let itself = pb::SetUserDisabledRequest {
        id: running.admin.id.clone(),
        disabled: true,
    };
    assert_eq!(
        admin.set_user_disabled(itself).await.unwrap_err().code(),
        Code::FailedPrecondition
    );
    assert_eq!(
        admin
            .list_users(pb::ListUsersRequest::default())
            .await
            .unwrap()
            .into_inner()
            .users
            .len(),
        2
    );
}

#[tokio::test]
async fn admin_methods_refuse_missing_forged_expired_and_user_tokens() {
    let running = start().await;
    let clerk = running
        .as_user(&running.admin)
        .create_user(pb::CreateUserRequest {
            user: Some(pb::User {
                email: "clerk@example.com".into(),
                ..Default::default()
            }),
            password: "a long enough password".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let admin_caller = Caller::with_role(
        running.admin.id.clone(),
        running.admin.email.clone(),
        service_auth::Role::Admin,
    );
    let expired = running
        .key
        .mint_expiring_at(&admin_caller, chrono::Utc::now().timestamp() - 60);
    let forged = TokenKey::generate().mint(&admin_caller, service_auth::CALL_TOKEN_LIFETIME);
    assert_eq!(
        running
            .anonymous()
            .list_users(pb::ListUsersRequest::default())
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
    assert_eq!(
        running
            .as_token(&expired)
            .list_users(pb::ListUsersRequest::default())
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
    assert_eq!(
        running
            .as_token(&forged)
            .list_users(pb::ListUsersRequest::default())
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
    assert_eq!(
        running
            .as_user(&clerk)
            .list_users(pb::ListUsersRequest::default())
            .await
            .unwrap_err()
            .code(),
        Code::PermissionDenied
    );
}

#[tokio::test]
async fn users_change_their_own_password() {
    let running = start().await;
    let mut me = running.as_user(&running.admin);
    let wrong = pb::ChangePasswordRequest {
        current_password: "not my password".into(),
        new_password: "a brand new password".into(),
    };
    let refused = me.change_password(wrong).await.unwrap_err();
    // A wrong field, not a lost session: the browser must not sign the user out.
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(refused.message(), "Incorrect password");
    let details = tonic_types::StatusExt::get_details_bad_request(&refused).unwrap();
    assert_eq!(
        details
            .field_violations
            .iter()
            .map(|v| v.field.as_str())
            .collect::<Vec<_>>(),
        ["current_password"],
        "the refusal names the field"
    );
    let right = pb::ChangePasswordRequest {
        current_password: ADMIN_PASSWORD.into(),
        new_password: "a brand new password".into(),
    };
    me.change_password(right).await.unwrap();
    assert!(
        running
            .anonymous()
            .sign_in(sign_in("admin@example.com", ADMIN_PASSWORD))
            .await
            .is_err()
    );
    running
        .anonymous()
        .sign_in(sign_in("admin@example.com", "a brand new password"))
        .await
        .unwrap();
}

#[tokio::test]
async fn user_page_tokens_are_opaque_and_checked() {
    let running = start().await;
    let mut admin = running.as_user(&running.admin);
    for n in 0..2 {
        admin
            .create_user(pb::CreateUserRequest {
                user: Some(pb::User {
                    email: format!("clerk{n}@example.com"),
                    name: "Clerk".into(),
                    ..Default::default()
                }),
                password: "a long enough password".into(),
            })
            .await
            .unwrap();
    }
    let list = |page_token: String| pb::ListUsersRequest {
        page_size: 2,
        page_token,
        ..Default::default()
    };
    let first = admin
        .list_users(list(String::new()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.users.len(), 2);
    let token = first.next_page_token;
    assert!(
        !token.is_empty() && !token.contains('|'),
        "an opaque token: {token}"
    );
    let second = admin.list_users(list(token)).await.unwrap().into_inner();
    assert_eq!(
        (second.users.len(), second.next_page_token.as_str()),
        (1, "")
    );
    let last = first.users.last().unwrap();
    let created = last.create_time.unwrap();
    let created = chrono::DateTime::from_timestamp(created.seconds, created.nanos as u32).unwrap();
    for bad in [
        "garbage!".to_owned(),
        // The plain cursor the list handed out before tokens were opaque.
        format!(
            "{}|{}",
            service_common::utc_micros::format(&created),
            last.id
        ),
    ] {
        let status = admin.list_users(list(bad)).await.unwrap_err();
        assert_eq!(
            (status.code(), status.message()),
            (Code::InvalidArgument, "is not a token from a previous page")
        );
    }
}

fn new_user(email: &str, role: pb::Role) -> pb::CreateUserRequest {
    pb::CreateUserRequest {
        user: Some(pb::User {
            email: email.into(),
            role: role.into(),
            ..Default::default()
        }),
        password: ADMIN_PASSWORD.into(),
    }
}

fn update(id: &str, role: pb::Role, permissions: &[&str], paths: &[&str]) -> pb::UpdateUserRequest {
    pb::UpdateUserRequest {
        user: Some(pb::User {
            id: id.into(),
            role: role.into(),
            permissions: permissions.iter().map(|p| p.to_string()).collect(),
            ..Default::default()
        }),
        update_mask: Some(prost_types::FieldMask {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }),
    }
}

#[tokio::test]
async fn admins_change_roles_and_narrow_permissions_within_the_role() {
    let running = start().await;
    let mut admin = running.as_user(&running.admin);
    let agent = admin
        .create_user(new_user("agent@example.com", pb::Role::Agent))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        agent.permissions,
        [
            "shipments.read",
            "shipments.track",
            "deliveries.record",
            "pickups.manage",
            "exceptions.manage"
        ]
    );

    // A courier records what happens on the road, and makes no API key of their own.
    let courier = admin
        .create_user(new_user("courier@example.com", pb::Role::Courier))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(courier.role(), pb::Role::Courier);
    assert_eq!(
        courier.permissions,
        ["shipments.read", "shipments.track", "deliveries.record"]
    );

    let manager = admin
        .update_user(update(&agent.id, pb::Role::Manager, &[], &["role"]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(manager.role(), pb::Role::Manager);
    assert!(
        manager
            .permissions
            .contains(&"shipments.delete".to_string())
    );
    assert!(!manager.permissions.contains(&"users.manage".to_string()));

    let narrowed = admin
        .update_user(update(
            &agent.id,
            pb::Role::Manager,
            &["users.read", "shipments.read"],
            &["permissions"],
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        narrowed.permissions,
        ["shipments.read", "users.read"],
        "in the API's order"
    );
    let nothing = admin
        .update_user(update(&agent.id, pb::Role::Manager, &[], &["permissions"]))
        .await
        .unwrap()
        .into_inner();
    assert!(
        nothing.permissions.is_empty(),
        "narrowed to nothing is nothing, not the whole role"
    );

    // A manager reads users but cannot change them.
    let as_manager = running.as_user(&manager);
    assert!(
        as_manager
            .clone()
            .list_users(pb::ListUsersRequest::default())
            .await
            .is_ok()
    );
    let refused = as_manager
        .clone()
        .create_user(new_user("x@example.com", pb::Role::Admin))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (Code::PermissionDenied, service_auth::NOT_PERMITTED)
    );

    // Bad changes name the field and change nothing.
    for (request, field) in [
        (
            update(
                &agent.id,
                pb::Role::Agent,
                &["users.manage"],
                &["role", "permissions"],
            ),
            "user.permissions",
        ),
        (
            update(&agent.id, pb::Role::Unspecified, &[], &["role"]),
            "user.role",
        ),
        (
            update(&agent.id, pb::Role::Agent, &[], &["email"]),
            "update_mask",
        ),
        (update(&agent.id, pb::Role::Agent, &[], &[]), "update_mask"),
    ] {
        let status = admin.update_user(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{field}");
        let details = tonic_types::StatusExt::get_details_bad_request(&status).unwrap();
        assert_eq!(details.field_violations[0].field, field);
    }
    let unchanged = admin
        .get_user(pb::GetUserRequest {
            id: agent.id.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (unchanged.role(), unchanged.permissions.len()),
        (pb::Role::Manager, 0)
    );

    let own = admin
        .update_user(update(&running.admin.id, pb::Role::User, &[], &["role"]))
        .await
        .unwrap_err();
    assert_eq!(
        own.code(),
        Code::FailedPrecondition,
        "nobody demotes themself"
    );
}

#[tokio::test]
async fn sign_ins_and_changes_of_users_are_audited() {
    let running = start().await;
    let mut admin = running.as_user(&running.admin);
    let clerk = admin
        .create_user(new_user("clerk@example.com", pb::Role::Agent))
        .await
        .unwrap()
        .into_inner();
    admin
        .update_user(update(&clerk.id, pb::Role::Manager, &[], &["role"]))
        .await
        .unwrap();
    admin
        .set_user_disabled(pb::SetUserDisabledRequest {
            id: clerk.id.clone(),
            disabled: true,
        })
        .await
        .unwrap();
    let mut wrong = tonic::Request::new(sign_in("admin@example.com", "not the password"));
    wrong
        .metadata_mut()
        .insert(audit::CLIENT_IP_METADATA, "198.51.100.4".parse().unwrap());
    running.anonymous().sign_in(wrong).await.unwrap_err();

    let created = running.audited("user.create").await;
    assert_eq!(created.len(), 2, "the first admin and the clerk");
    assert_eq!(
        (
            created[0].target_name.as_str(),
            created[0].actor_email.as_str()
        ),
        ("clerk@example.com", "admin@example.com")
    );
    let role = running.audited("user.role_change").await;
    assert!(
        role[0]
            .changes
            .iter()
            .any(|c| c.field == "role" && c.before == "\"agent\"" && c.after == "\"manager\"")
    );
    assert!(
        role[0]
            .changes
            .iter()
            .all(|c| !c.field.contains("password")),
        "never the password's hash"
    );
    assert_eq!(running.audited("user.disable").await.len(), 1);
    assert_eq!(
        running.audited("session.sign_in").await.len(),
        1,
        "start() signed in once"
    );
    let failed = running.audited("session.sign_in_failure").await;
    assert_eq!(
        (
            failed[0].actor_email.as_str(),
            failed[0].client_ip.as_str(),
            failed[0].summary.as_str()
        ),
        (
            "admin@example.com",
            "198.51.100.4",
            "Invalid email or password"
        )
    );
}
