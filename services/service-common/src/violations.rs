//! Bad fields of a request, as every service reports them: INVALID_ARGUMENT with a
//! google.rpc.BadRequest naming each field.

use std::fmt;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// A bad value in a request, named by its field path (`shipper.email`, `packages[2].quantity`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldViolation {
    pub field: String,
    pub description: String,
}

impl FieldViolation {
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            description: description.into(),
        }
    }
}

impl fmt::Display for FieldViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.description)
    }
}

impl std::error::Error for FieldViolation {}

/// Every violation of one request, so the caller sees all bad fields at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Violations(Vec<FieldViolation>);

impl Violations {
    pub fn add(&mut self, field: impl Into<String>, description: impl Into<String>) {
        self.0.push(FieldViolation::new(field, description));
    }

    /// The trimmed text of a field, checked by the services' one text rule.
    pub fn text(&mut self, field: &str, value: &str, rule: crate::text::TextRule) -> String {
        rule.check(value).unwrap_or_else(|description| {
            self.add(field, description);
            value.trim().to_owned()
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = &FieldViolation> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `value` when nothing was violated, else the violations.
    pub fn into_result<T>(self, value: T) -> Result<T, Self> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }

    /// INVALID_ARGUMENT saying `message`, with each violation in its details.
    pub fn into_status(self, message: impl Into<String>) -> Status {
        let mut details = ErrorDetails::new();
        for v in self.0 {
            details.add_bad_request_violation(v.field, v.description);
        }
        Status::with_error_details(Code::InvalidArgument, message, details)
    }
}

/// `field: description` of each violation, joined by `; `.
impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl IntoIterator for Violations {
    type Item = FieldViolation;
    type IntoIter = std::vec::IntoIter<FieldViolation>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Extend<FieldViolation> for Violations {
    fn extend<I: IntoIterator<Item = FieldViolation>>(&mut self, items: I) {
        self.0.extend(items);
    }
}

impl From<FieldViolation> for Violations {
    fn from(v: FieldViolation) -> Self {
        Self(vec![v])
    }
}

impl From<Vec<FieldViolation>> for Violations {
    fn from(violations: Vec<FieldViolation>) -> Self {
        Self(violations)
    }
}

/// INVALID_ARGUMENT saying `field: description` of each violation.
impl From<Violations> for Status {
    fn from(v: Violations) -> Self {
        let message = v.to_string();
        v.into_status(message)
    }
}

/// INVALID_ARGUMENT saying `field: description`.
impl From<FieldViolation> for Status {
    fn from(v: FieldViolation) -> Self {
        let message = v.to_string();
        Violations::from(v).into_status(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_every_field() {
        let mut v = Violations::default();
        v.add("name", "is required");
        v.add("page_size", "must be from 1 to 100");
        assert_eq!(
            v.to_string(),
            "name: is required; page_size: must be from 1 to 100"
        );
        let status = v.clone().into_status(format!("Invalid: {v}"));
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            status.message(),
            "Invalid: name: is required; page_size: must be from 1 to 100"
        );
        let bad = status
            .get_details_bad_request()
            .expect("BadRequest details");
        let fields: Vec<_> = bad
            .field_violations
            .iter()
            .map(|f| (f.field.as_str(), f.description.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("name", "is required"),
                ("page_size", "must be from 1 to 100")
            ]
        );
    }

    #[test]
    fn one_violation_says_field_and_description() {
        let status = Status::from(FieldViolation::new(
            "update_mask",
            "must name at least one field",
        ));
        assert_eq!(
            status.message(),
            "update_mask: must name at least one field"
        );
        assert_eq!(Violations::default().into_result(1), Ok(1));
    }
}
