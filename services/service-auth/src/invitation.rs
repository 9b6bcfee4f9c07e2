//! The invitation link of a customer's user: the shipments service signs it when staff invite
//! someone, the auth service verifies it when they set their password.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Role, TokenKey};

/// What the link token is for: no other link token passes as an invitation.
const AUDIENCE: &str = "customer-invitation";

/// How long an invitation link works.
pub const LIFETIME: Duration = Duration::from_secs(48 * 3600);

/// Who is invited, to which customer, in which role.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    #[serde(rename = "c")]
    pub customer_id: String,
    #[serde(rename = "cn")]
    pub customer_name: String,
    #[serde(rename = "e")]
    pub email: String,
    #[serde(rename = "n")]
    pub name: String,
    #[serde(rename = "r")]
    pub role: Role,
}

/// The signed token of an invitation valid until `exp` (Unix seconds).
pub fn sign(key: &TokenKey, invitation: &Invitation, exp: i64) -> String {
    key.sign_link_expiring_at(AUDIENCE, invitation, exp)
}

/// The invitation of a valid, unexpired token in a customer role; None otherwise.
pub fn verify(key: &TokenKey, token: &str) -> Option<(Invitation, i64)> {
    #[derive(Deserialize)]
    struct Signed {
        #[serde(flatten)]
        invitation: Invitation,
        exp: i64,
    }
    key.verify_link::<Signed>(AUDIENCE, token.trim())
        .filter(|signed| signed.invitation.role.is_customer())
        .map(|signed| (signed.invitation, signed.exp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invitation(role: Role) -> Invitation {
        Invitation {
            customer_id: "c1".into(),
            customer_name: "Acme".into(),
            email: "ada@example.com".into(),
            name: "Ada".into(),
            role,
        }
    }

    #[test]
    fn an_invitation_verifies_until_it_expires_and_only_in_a_customer_role() {
        let key = TokenKey::generate();
        let exp = chrono::Utc::now().timestamp() + 60;
        let token = sign(&key, &invitation(Role::CustomerUser), exp);
        assert_eq!(
            verify(&key, &token),
            Some((invitation(Role::CustomerUser), exp))
        );
        let past = sign(&key, &invitation(Role::CustomerUser), exp - 3600);
        assert_eq!(verify(&key, &past), None);
        let staff = sign(&key, &invitation(Role::Admin), exp);
        assert_eq!(verify(&key, &staff), None);
        assert_eq!(verify(&TokenKey::generate(), &token), None);
        let other = key.sign_link("other", &invitation(Role::CustomerUser), LIFETIME);
        assert_eq!(verify(&key, &other), None);
    }
}
