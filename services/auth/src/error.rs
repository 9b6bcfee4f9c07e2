//! The one error type of the auth service, mapped once to `tonic::Status`.

use service_common::store::StoreFault;
use service_common::store::page_token::{self, BadPageToken};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The sign-in failure for an unknown e-mail and a wrong password alike.
pub const INVALID_CREDENTIALS: &str = "Invalid email or password";
pub const ACCOUNT_DISABLED: &str = "This account has been disabled";

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("{field}: {description}")]
    Invalid { field: String, description: String },
    #[error("{INVALID_CREDENTIALS}")]
    InvalidCredentials,
    #[error("Incorrect password")]
    IncorrectPassword,
    #[error("{ACCOUNT_DISABLED}")]
    Disabled,
    #[error("User not found")]
    NotFound,
    #[error("A user with this email already exists")]
    AlreadyExists,
    #[error("{0}")]
    FailedPrecondition(String),
    #[error("the user store is unavailable: {0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl AuthError {
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            description: description.into(),
        }
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

impl From<BadPageToken> for AuthError {
    fn from(_: BadPageToken) -> Self {
        Self::invalid(page_token::FIELD, page_token::INVALID)
    }
}

impl From<AuthError> for Status {
    fn from(err: AuthError) -> Self {
        match err {
            AuthError::Invalid { field, description } => {
                let details = ErrorDetails::with_bad_request_violation(field, description.clone());
                Status::with_error_details(Code::InvalidArgument, description, details)
            }
            AuthError::InvalidCredentials | AuthError::IncorrectPassword => {
                Status::unauthenticated(err.to_string())
            }
            AuthError::Disabled => Status::permission_denied(err.to_string()),
            AuthError::NotFound => Status::not_found(err.to_string()),
            AuthError::AlreadyExists => Status::already_exists(err.to_string()),
            AuthError::FailedPrecondition(message) => Status::failed_precondition(message),
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
