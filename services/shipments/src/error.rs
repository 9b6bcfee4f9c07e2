//! The one error type of the shipments service, mapped once to `tonic::Status`.

use service_common::paging::BadPageToken;
use service_common::store::StoreFault;
pub use service_common::violations::{FieldViolation, Violations};
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum ShipmentError {
    #[error("{}", describe(.0))]
    Invalid(Violations),
    #[error("Shipment not found")]
    NotFound,
    /// The store refused a tracking number already taken; the caller retries with another.
    #[error("tracking number already taken")]
    DuplicateTrackingNumber,
    /// Another shipment holds this unique name (an external reference, an import row).
    #[error("already claimed: {0}")]
    AlreadyClaimed(String),
    /// The request is valid but the shipment or import is not in a state that allows it.
    #[error("{0}")]
    Precondition(String),
    /// No such import.
    #[error("Import not found")]
    ImportNotFound,
    /// No such customer (or not the caller's).
    #[error("Customer not found")]
    CustomerNotFound,
    #[error("Address book entry not found")]
    EntryNotFound,
    #[error("Account request not found")]
    RequestNotFound,
    #[error("Pickup not found")]
    PickupNotFound,
    #[error("Rate card not found")]
    RateCardNotFound,
    #[error("Exception not found")]
    ExceptionNotFound,
    /// Field violations of something other than a shipment: what it is, and them.
    #[error("Invalid {0}: {fields}", fields = describe_fields(.1))]
    Rejected(&'static str, Violations),
    /// Someone else changed the record since the caller read it.
    #[error("{0}")]
    Conflict(String),
    /// Another customer has this account number.
    #[error("A customer with this account number already exists")]
    AccountNumberTaken,
    /// Too many attempts or subscriptions; the message says which.
    #[error("{0}")]
    Exhausted(String),
    /// The site does not offer this.
    #[error("{0}")]
    Unsupported(String),
    /// The history already holds the event with this request id (the caller answers with the
    /// shipment as it is; never sent).
    #[error("event already applied")]
    AlreadyApplied,
    #[error("the shipment store is unavailable: {0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

fn describe(violations: &Violations) -> String {
    format!("Invalid shipment: {}", describe_fields(violations))
}

fn describe_fields(violations: &Violations) -> String {
    let parts: Vec<String> = violations.iter().map(FieldViolation::to_string).collect();
    parts.join("; ")
}

impl From<FieldViolation> for ShipmentError {
    fn from(v: FieldViolation) -> Self {
        Self::Invalid(v.into())
    }
}

impl From<StoreFault> for ShipmentError {
    fn from(fault: StoreFault) -> Self {
        match fault {
            StoreFault::Unavailable(cause) => Self::Unavailable(cause),
            // Which unique key a duplicate hit is for the caller to tell (a tracking number is
            // retried with another); any other is a bug.
            StoreFault::Duplicate(_) | StoreFault::Internal(_) => Self::Internal(fault.to_string()),
        }
    }
}

impl From<BadPageToken> for ShipmentError {
    fn from(bad: BadPageToken) -> Self {
        FieldViolation::from(bad).into()
    }
}

impl From<ShipmentError> for Status {
    fn from(err: ShipmentError) -> Self {
        match err {
            ShipmentError::Invalid(violations) => {
                let message = describe(&violations);
                violations.into_status(message)
            }
            ShipmentError::Rejected(what, violations) => {
                let message = format!("Invalid {what}: {}", describe_fields(&violations));
                violations.into_status(message)
            }
            ShipmentError::Conflict(message) => Status::aborted(message),
            ShipmentError::NotFound => Status::not_found("Shipment not found"),
            ShipmentError::ImportNotFound => Status::not_found("Import not found"),
            ShipmentError::CustomerNotFound
            | ShipmentError::EntryNotFound
            | ShipmentError::RequestNotFound
            | ShipmentError::PickupNotFound
            | ShipmentError::RateCardNotFound
            | ShipmentError::ExceptionNotFound => Status::not_found(err.to_string()),
            ShipmentError::AccountNumberTaken => Status::already_exists(err.to_string()),
            ShipmentError::Precondition(message) => Status::failed_precondition(message),
            ShipmentError::AlreadyClaimed(claim) => {
                Status::already_exists(match claim.strip_prefix(crate::claims::REFERENCE_CLAIM) {
                    Some(reference) => {
                        format!("A shipment with external reference {reference} exists")
                    }
                    None => "This shipment was already imported".to_owned(),
                })
            }
            ShipmentError::Exhausted(message) => Status::resource_exhausted(message),
            ShipmentError::Unsupported(message) => Status::failed_precondition(message),
            ShipmentError::Unavailable(cause) => {
                tracing::warn!(%cause, "shipment store unavailable");
                Status::unavailable("The shipment store is unavailable. Please try again.")
            }
            ShipmentError::DuplicateTrackingNumber
            | ShipmentError::AlreadyApplied
            | ShipmentError::Internal(_) => {
                tracing::error!(error = %err, "internal error");
                Status::internal("Internal error")
            }
        }
    }
}
