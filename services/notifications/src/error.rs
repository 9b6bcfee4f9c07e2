//! The one error type of the notifications service, mapped once to `tonic::Status`.

use outbox::OutboxError;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

#[derive(Debug, thiserror::Error)]
pub enum NotificationError {
    /// (field, what is wrong), for each bad field.
    #[error("Invalid message: {}", .0.iter().map(|(f, d)| format!("{f}: {d}")).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<(&'static str, String)>),
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

impl From<NotificationError> for Status {
    fn from(err: NotificationError) -> Self {
        match err {
            NotificationError::Invalid(violations) => {
                let mut details = ErrorDetails::new();
                for (field, description) in &violations {
                    details.add_bad_request_violation(*field, description.clone());
                }
                Status::with_error_details(
                    Code::InvalidArgument,
                    NotificationError::Invalid(violations).to_string(),
                    details,
                )
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
            NotificationError::Outbox(e @ OutboxError::TooManyEndpoints) => {
                Status::resource_exhausted(e.to_string())
            }
            NotificationError::Outbox(e @ OutboxError::BadPageToken) => {
                let mut details = ErrorDetails::new();
                details
                    .add_bad_request_violation("page_token", "is not a token from a previous page");
                Status::with_error_details(Code::InvalidArgument, e.to_string(), details)
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
