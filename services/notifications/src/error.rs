//! The one error type of the notifications service, mapped once to `tonic::Status`.

use outbox::OutboxError;
use service_common::paging::BadPageToken;
use service_common::violations::{FieldViolation, Violations};
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum NotificationError {
    #[error("Invalid message: {0}")]
    Invalid(Violations),
    /// "Missing required environment variables: ..."
    #[error("{0}")]
    NotConfigured(String),
    /// The e-mail API refused a test e-mail or could not be reached.
    #[error("{0}")]
    SendFailed(String),
    /// The call cannot be done in the current state (a test event to a disabled endpoint).
    #[error("{0}")]
    Precondition(String),
    #[error(transparent)]
    Outbox(#[from] OutboxError),
}

impl From<FieldViolation> for NotificationError {
    fn from(v: FieldViolation) -> Self {
        Self::Invalid(v.into())
    }
}

impl From<NotificationError> for Status {
    fn from(err: NotificationError) -> Self {
        match err {
            NotificationError::Invalid(violations) => {
                let message = format!("Invalid message: {violations}");
                violations.into_status(message)
            }
            NotificationError::NotConfigured(problem) => Status::failed_precondition(problem),
            NotificationError::SendFailed(problem) => Status::unavailable(problem),
            NotificationError::Precondition(problem) => Status::failed_precondition(problem),
            NotificationError::Outbox(OutboxError::NotFound) => {
                Status::not_found("Notification not found")
            }
            NotificationError::Outbox(
                e @ (OutboxError::EndpointNotFound | OutboxError::DeliveryNotFound),
            ) => Status::not_found(e.to_string()),
            NotificationError::Outbox(
                e @ (OutboxError::NotFailed | OutboxError::StillOnItsWay),
            ) => Status::failed_precondition(e.to_string()),
            NotificationError::Outbox(e @ OutboxError::TooManyEndpoints(_)) => {
                Status::resource_exhausted(e.to_string())
            }
            NotificationError::Outbox(e @ OutboxError::BadPageToken) => {
                Violations::from(FieldViolation::from(BadPageToken)).into_status(e.to_string())
            }
            NotificationError::Outbox(OutboxError::Unavailable(cause)) => {
                tracing::warn!(%cause, "outbox unavailable");
                Status::unavailable("The outbox is unavailable. Please try again.")
            }
            NotificationError::Outbox(e @ OutboxError::Internal(_)) => {
                tracing::error!(error = %e, "internal error");
                Status::internal("Internal error")
            }
        }
    }
}
