//! A visitor's request for a customer account, from the site's form: staff approve it (a
//! customer is made and its contact invited) or decline it with a reason (e-mailed).

use chrono::{DateTime, Utc};
use logistics_proto::v1 as pb;
use outbox::language::Language;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::{paging, timestamp};

use crate::convert::TimeChecks;
use crate::error::{FieldViolation, ShipmentError, Violations};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestState {
    Pending,
    Approved,
    Declined,
}

impl RequestState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Declined => "declined",
        }
    }

    fn to_proto(self) -> pb::AccountRequestState {
        match self {
            Self::Pending => pb::AccountRequestState::Pending,
            Self::Approved => pb::AccountRequestState::Approved,
            Self::Declined => pb::AccountRequestState::Declined,
        }
    }

    pub fn from_proto(field: &str, value: i32, v: &mut Violations) -> Option<Self> {
        match pb::AccountRequestState::try_from(value) {
            Ok(pb::AccountRequestState::Pending) => Some(Self::Pending),
            Ok(pb::AccountRequestState::Approved) => Some(Self::Approved),
            Ok(pb::AccountRequestState::Declined) => Some(Self::Declined),
            Ok(pb::AccountRequestState::Unspecified) => None,
            Err(_) => {
                v.add(field, "must be PENDING, APPROVED or DECLINED");
                None
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountRequest {
    pub id: String,
    pub company_name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub message: String,
    #[serde(default)]
    pub language: Language,
    pub state: RequestState,
    #[serde(default)]
    pub decline_reason: String,
    #[serde(default)]
    pub customer_id: String,
    #[serde(with = "service_common::utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "service_common::utc_micros")]
    pub updated_at: DateTime<Utc>,
}

impl AccountRequest {
    pub fn to_proto(&self) -> pb::AccountRequest {
        pb::AccountRequest {
            id: self.id.clone(),
            company_name: self.company_name.clone(),
            contact_name: self.contact_name.clone(),
            email: self.email.clone(),
            phone: self.phone.clone(),
            address: self.address.clone(),
            message: self.message.clone(),
            language_code: self.language.code().to_owned(),
            state: self.state.to_proto().into(),
            decline_reason: self.decline_reason.clone(),
            customer_id: self.customer_id.clone(),
            create_time: Some(timestamp::to_proto(self.created_at)),
            update_time: Some(timestamp::to_proto(self.updated_at)),
        }
    }

    /// Staff may answer it once.
    pub fn answerable(&self) -> Result<(), ShipmentError> {
        match self.state {
            RequestState::Pending => Ok(()),
            _ => Err(ShipmentError::Precondition(
                "This request was already answered".into(),
            )),
        }
    }
}

/// A new request from the form's fields.
pub fn from_form(
    input: &pb::AccountRequest,
    now: DateTime<Utc>,
) -> Result<AccountRequest, ShipmentError> {
    let mut v = Violations::default();
    let field = |name: &str| format!("account_request.{name}");
    let company_name = v.text(
        &field("company_name"),
        &input.company_name,
        TextRule::line(200),
    );
    let contact_name = v.text(
        &field("contact_name"),
        &input.contact_name,
        TextRule::line(100),
    );
    let email = input.email.trim().to_lowercase();
    if !service_common::is_email(&email) {
        v.add(field("email"), "Invalid email address format");
    }
    let phone = v.text(&field("phone"), &input.phone, TextRule::line(30).optional());
    let address = v.text(
        &field("address"),
        &input.address,
        TextRule::paragraph(500).optional(),
    );
    let message = v.text(
        &field("message"),
        &input.message,
        TextRule::paragraph(2000).optional(),
    );
    let language = Language::parse(&input.language_code).unwrap_or_else(|problem| {
        v.add(field("language_code"), problem);
        Language::En
    });
    v.into_result(AccountRequest {
        id: service_common::new_id(),
        company_name,
        contact_name,
        email,
        phone,
        address,
        message,
        language,
        state: RequestState::Pending,
        decline_reason: String::new(),
        customer_id: String::new(),
        created_at: now,
        updated_at: now,
    })
    .map_err(ShipmentError::Invalid)
}

/// A decline's reason, 1..500 characters.
pub fn reason(input: &str) -> Result<String, ShipmentError> {
    TextRule::paragraph(500)
        .check(input)
        .map_err(|description| FieldViolation::new("reason", description).into())
}

#[derive(Clone, Debug, Default)]
pub struct RequestQuery {
    pub state: Option<RequestState>,
    pub page_size: usize,
    pub after: Option<String>,
}

pub fn query(request: &pb::ListAccountRequestsRequest) -> Result<RequestQuery, ShipmentError> {
    let mut v = Violations::default();
    let page_size = v.page_size(request.page_size);
    let state = RequestState::from_proto("state", request.state, &mut v);
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    Ok(RequestQuery {
        state,
        page_size,
        after: paging::decode(&request.page_token)?,
    })
}
