//! A customer's user comes by invitation: the link shows what it invites to, sets the
//! password once, and the user keeps a customer role.

use logistics_proto::v1 as pb;
use service_auth::Role;
use service_auth::invitation::{self, Invitation};
use tonic::Code;

use crate::api::start;

const PASSWORD: &str = "a long enough password";

fn invited(role: Role) -> Invitation {
    Invitation {
        customer_id: "0190aaaaaaaaaaaaaaaaaaaa".into(),
        customer_name: "Acme Imports".into(),
        email: "Buyer@Acme.example".into(),
        name: "Bea Buyer".into(),
        role,
    }
}

fn in_an_hour() -> i64 {
    chrono::Utc::now().timestamp() + 3600
}

#[tokio::test]
async fn an_invitation_link_sets_the_password_once_and_the_user_signs_in_as_the_customer() {
    let running = start().await;
    let token = invitation::sign(&running.key, &invited(Role::CustomerAdmin), in_an_hour());
    let mut api = running.anonymous();

    let shown = api
        .get_customer_invitation(pb::GetCustomerInvitationRequest {
            token: token.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            shown.customer_name.as_str(),
            shown.email.as_str(),
            shown.role()
        ),
        (
            "Acme Imports",
            "Buyer@Acme.example",
            pb::Role::CustomerAdmin
        )
    );

    let weak = api
        .accept_customer_invitation(pb::AcceptCustomerInvitationRequest {
            token: token.clone(),
            name: String::new(),
            password: "short".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(weak.code(), Code::InvalidArgument);
    assert!(
        weak.message().contains("at least 12 characters"),
        "{weak:?}"
    );

    let user = api
        .accept_customer_invitation(pb::AcceptCustomerInvitationRequest {
            token: token.clone(),
            name: String::new(),
            password: PASSWORD.into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (user.email.as_str(), user.name.as_str(), user.role()),
        ("buyer@acme.example", "Bea Buyer", pb::Role::CustomerAdmin)
    );
    assert_eq!(user.customer_id, "0190aaaaaaaaaaaaaaaaaaaa");
    assert!(user.permissions.is_empty(), "no staff permission at all");

    for again in [
        api.get_customer_invitation(pb::GetCustomerInvitationRequest {
            token: token.clone(),
        })
        .await
        .unwrap_err(),
        api.accept_customer_invitation(pb::AcceptCustomerInvitationRequest {
            token: token.clone(),
            name: String::new(),
            password: PASSWORD.into(),
        })
        .await
        .unwrap_err(),
    ] {
        assert_eq!(again.code(), Code::AlreadyExists);
        assert_eq!(again.message(), "This invitation has already been used.");
    }

    let signed_in = api
        .sign_in(pb::SignInRequest {
            email: "buyer@acme.example".into(),
            password: PASSWORD.into(),
        })
        .await
        .unwrap()
        .into_inner()
        .user
        .unwrap();
    let current = running
        .as_user(&signed_in)
        .get_current_user(pb::GetCurrentUserRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(current.customer_id, "0190aaaaaaaaaaaaaaaaaaaa");
}

#[tokio::test]
async fn an_expired_forged_or_staff_invitation_is_refused_naming_the_token() {
    let running = start().await;
    let expired = invitation::sign(
        &running.key,
        &invited(Role::CustomerUser),
        chrono::Utc::now().timestamp() - 60,
    );
    let forged = invitation::sign(
        &service_auth::TokenKey::generate(),
        &invited(Role::CustomerUser),
        in_an_hour(),
    );
    let staff = invitation::sign(&running.key, &invited(Role::Admin), in_an_hour());
    for token in [expired, forged, staff, "nonsense".into(), String::new()] {
        let status = running
            .anonymous()
            .accept_customer_invitation(pb::AcceptCustomerInvitationRequest {
                token,
                name: String::new(),
                password: PASSWORD.into(),
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            status.message(),
            "This invitation link is invalid or has expired."
        );
    }
    let staff_list = running
        .as_user(&running.admin)
        .list_users(pb::ListUsersRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(staff_list.users.len(), 1, "nobody was created");
}

#[tokio::test]
async fn staff_lists_hold_staff_and_customer_roles_never_mix_with_staff_roles() {
    let running = start().await;
    let token = invitation::sign(&running.key, &invited(Role::CustomerUser), in_an_hour());
    let customer_user = running
        .anonymous()
        .accept_customer_invitation(pb::AcceptCustomerInvitationRequest {
            token,
            name: "Bea".into(),
            password: PASSWORD.into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut admin = running.as_user(&running.admin);

    let staff = admin
        .list_users(pb::ListUsersRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        staff
            .users
            .iter()
            .map(|u| u.email.as_str())
            .collect::<Vec<_>>(),
        ["admin@example.com"]
    );
    let customers = admin
        .list_users(pb::ListUsersRequest {
            customer_id: "0190aaaaaaaaaaaaaaaaaaaa".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        customers
            .users
            .iter()
            .map(|u| u.id.as_str())
            .collect::<Vec<_>>(),
        [customer_user.id.as_str()]
    );

    let promoted = admin
        .update_user(pb::UpdateUserRequest {
            user: Some(pb::User {
                id: customer_user.id.clone(),
                role: pb::Role::Admin.into(),
                ..Default::default()
            }),
            update_mask: Some(prost_types::FieldMask {
                paths: vec!["role".into()],
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(promoted.code(), Code::InvalidArgument);
    let made = admin
        .create_user(pb::CreateUserRequest {
            user: Some(pb::User {
                email: "staff-as-customer@example.com".into(),
                role: pb::Role::CustomerUser.into(),
                ..Default::default()
            }),
            password: PASSWORD.into(),
        })
        .await
        .unwrap_err();
    assert_eq!(made.code(), Code::InvalidArgument);
    assert!(made.message().contains("invitation"), "{made:?}");
}
