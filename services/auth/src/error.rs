//! The one error type of the auth service, mapped once to `tonic::Status`.

use service_common::paging::BadPageToken;
use service_common::store::StoreFault;
use service_common::violations::{FieldViolation, Violations};
use tonic::Status;

/// The sign-in failure for an unknown e-mail and a wrong password alike.
pub const INVALID_CREDENTIALS: &str = "Invalid email or password";
pub const ACCOUNT_DISABLED: &str = "This account has been disabled";

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("{0}")]
    Invalid(Violations),
    #[error("{INVALID_CREDENTIALS}")]
    InvalidCredentials,
    #[error("{ACCOUNT_DISABLED}")]
    Disabled,
    #[error("User not found")]
    NotFound,
    #[error("A user with this email already exists")]
    AlreadyExists,
    #[error("This invitation has already been used.")]
    InvitationUsed,
    #[error("{0}")]
    FailedPrecondition(String),
    #[error("{}", service_auth::NOT_PERMITTED)]
    NotPermitted,
    #[error("API key not found")]
    ApiKeyNotFound,
    #[error("This API key is not valid.")]
    ApiKeyInvalid,
    #[error("{0}")]
    TooMany(String),
    #[error("the user store is unavailable: {0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl AuthError {
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::Invalid(FieldViolation::new(field, description).into())
    }
}

impl From<StoreFault> for AuthError {
    fn from(fault: StoreFault) -> Self {
        match fault {
            StoreFault::Unavailable(cause) => Self::Unavailable(cause),
            // The users' unique keys are the id and the e-mail.
            StoreFault::Duplicate(_) => Self::AlreadyExists,
            StoreFault::Internal(cause) => Self::Internal(cause),
        }
    }
}

impl From<Violations> for AuthError {
    fn from(v: Violations) -> Self {
        Self::Invalid(v)
    }
}

impl From<FieldViolation> for AuthError {
    fn from(v: FieldViolation) -> Self {
        Self::Invalid(v.into())
    }
}

impl From<BadPageToken> for AuthError {
    fn from(bad: BadPageToken) -> Self {
        FieldViolation::from(bad).into()
    }
}

impl From<AuthError> for Status {
    fn from(err: AuthError) -> Self {
        match err {
            // The message is the descriptions alone: the sign-in and user forms show it as is.
            AuthError::Invalid(violations) => {
                let message: Vec<&str> =
                    violations.iter().map(|v| v.description.as_str()).collect();
                let message = message.join("; ");
                violations.into_status(message)
            }
            AuthError::InvalidCredentials => Status::unauthenticated(err.to_string()),
            AuthError::Disabled => Status::permission_denied(err.to_string()),
            AuthError::NotFound => Status::not_found(err.to_string()),
            AuthError::AlreadyExists | AuthError::InvitationUsed => {
                Status::already_exists(err.to_string())
            }
            AuthError::FailedPrecondition(message) => Status::failed_precondition(message),
            AuthError::NotPermitted => Status::permission_denied(err.to_string()),
            AuthError::ApiKeyNotFound => Status::not_found(err.to_string()),
            AuthError::ApiKeyInvalid => Status::unauthenticated(err.to_string()),
            AuthError::TooMany(message) => Status::resource_exhausted(message),
            AuthError::Unavailable(cause) => {
                tracing::warn!(%cause, "user store unavailable");
                Status::unavailable("The user store is unavailable. Please try again.")
            }
            AuthError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                Status::internal("Internal error")
            }
        }
    }
}
