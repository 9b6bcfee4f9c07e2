//! Users and their rules: a user has an e-mail, a name, a role (user by default) and
//! permissions; the first account ever becomes admin (DESIGN.md security decisions).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::AuthError;

pub const INVALID_EMAIL: &str = "Invalid email address format";
pub const MIN_PASSWORD_CHARS: usize = 12;
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A syntactically valid e-mail address, in lower case.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    pub fn parse(input: &str) -> Result<Self, AuthError> {
        let value = input.trim().to_lowercase();
        if service_common::is_email(&value) {
            Ok(Self(value))
        } else {
            Err(AuthError::invalid("email", INVALID_EMAIL))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part before the @, the default display name.
    pub fn local_part(&self) -> &str {
        self.0.split('@').next().unwrap_or_default()
    }
}

/// A user's id as the stores make it: 24 lower-case hex digits (surrounding spaces forgiven).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserId(String);

impl UserId {
    pub fn parse(field: &str, input: &str) -> Result<Self, AuthError> {
        let id = input.trim();
        if id.len() == 24 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            Ok(Self(id.to_owned()))
        } else {
            Err(AuthError::invalid(field, "is not a user id"))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password that meets the policy; never stored, only hashed.
pub struct NewPassword(String);

impl NewPassword {
    pub fn parse(field: &str, input: &str) -> Result<Self, AuthError> {
        let chars = input.chars().count();
        if chars < MIN_PASSWORD_CHARS {
            return Err(AuthError::invalid(
                field,
                format!("Password must be at least {MIN_PASSWORD_CHARS} characters"),
            ));
        }
        if chars > MAX_PASSWORD_CHARS {
            return Err(AuthError::invalid(
                field,
                format!("Password must be at most {MAX_PASSWORD_CHARS} characters"),
            ));
        }
        Ok(Self(input.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

pub use service_auth::Role;

/// The stored user document (collection `users`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: String,
    pub email: Email,
    /// Stored as `username`, as the spec's documents do.
    #[serde(rename = "username")]
    pub name: String,
    pub role: Role,
    pub permissions: Vec<String>,
    #[serde(default)]
    pub disabled: bool,
    pub password_hash: String,
    /// Goes up with every password change: sessions signed in before it have ended.
    #[serde(default)]
    pub session_version: u32,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
    /// The customer of a customer admin or customer user; None for staff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
}

impl User {
    /// A new user; the first user of an empty collection is an admin with every permission.
    pub fn new(
        email: Email,
        name: &str,
        role: Role,
        password_hash: String,
        first: bool,
        now: DateTime<Utc>,
    ) -> Self {
        let name = if name.trim().is_empty() {
            email.local_part().to_owned()
        } else {
            name.trim().to_owned()
        };
        let (role, permissions) = if first {
            (Role::Admin, vec!["all".to_owned()])
        } else {
            (role, Vec::new())
        };
        Self {
            id: new_id(),
            email,
            name,
            role,
            permissions,
            disabled: false,
            password_hash,
            session_version: 0,
            created_at: now,
            updated_at: now,
            customer_id: None,
        }
    }
}

pub use service_common::{now, utc_micros};

use service_common::new_id;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_lower_cased_and_checked() {
        assert_eq!(
            Email::parse(" Ada@Example.COM ").unwrap().as_str(),
            "ada@example.com"
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a da@example.com",
            "ada@@example.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_first_user_is_an_admin_with_every_permission() {
        let email = Email::parse("ada@example.com").unwrap();
        let first = User::new(email.clone(), "", Role::User, "h".into(), true, now());
        assert_eq!(
            (first.role, first.permissions.clone(), first.name.as_str()),
            (Role::Admin, vec!["all".to_owned()], "ada")
        );
        let later = User::new(email, "Ada", Role::User, "h".into(), false, now());
        assert_eq!((later.role, later.permissions.len()), (Role::User, 0));
    }

    #[test]
    fn weak_passwords_are_refused() {
        assert!(NewPassword::parse("password", "short").is_err());
        assert!(NewPassword::parse("password", "correct horse battery").is_ok());
    }
}
