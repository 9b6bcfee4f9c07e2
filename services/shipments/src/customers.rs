//! The carrier's customers: the companies that ship with it, as staff keep them, and the
//! invitations that make people their users. Which shipments a caller may reach is `Scope`.

use chrono::{DateTime, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_auth::{Caller, Role, invitation};
use service_common::text::TextRule;
use service_common::{paging, timestamp};

use crate::convert::TimeChecks;
use crate::details::{Choice, Choices, Kind, PaymentMode};
use crate::domain::Shipment;
use crate::error::{ShipmentError, Violations};
use crate::store::ListQuery;

/// Most contacts one customer keeps.
pub const MAX_CONTACTS: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CustomerStatus {
    Active,
    Suspended,
}

impl CustomerStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Suspended => "suspended",
        }
    }

    fn to_proto(self) -> pb::CustomerStatus {
        match self {
            Self::Active => pb::CustomerStatus::Active,
            Self::Suspended => pb::CustomerStatus::Suspended,
        }
    }

    /// The status a request names; UNSPECIFIED is None.
    pub fn from_proto(field: &str, value: i32, v: &mut Violations) -> Option<Self> {
        match pb::CustomerStatus::try_from(value) {
            Ok(pb::CustomerStatus::Active) => Some(Self::Active),
            Ok(pb::CustomerStatus::Suspended) => Some(Self::Suspended),
            Ok(pb::CustomerStatus::Unspecified) => None,
            Err(_) => {
                v.add(field, "must be ACTIVE or SUSPENDED");
                None
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contact {
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone: String,
}

/// A customer as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: String,
    pub name: String,
    /// Upper case, unique.
    pub account_number: String,
    pub billing_address: String,
    pub contacts: Vec<Contact>,
    pub default_payment_mode: PaymentMode,
    pub status: CustomerStatus,
    #[serde(with = "service_common::utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "service_common::utc_micros")]
    pub updated_at: DateTime<Utc>,
}

impl Customer {
    /// The text a customer search matches: name and account number, folded.
    pub fn search_text(&self) -> String {
        crate::search::fold(&format!("{} {}", self.name, self.account_number))
    }

    pub fn to_proto(&self) -> pb::Customer {
        pb::Customer {
            id: self.id.clone(),
            name: self.name.clone(),
            account_number: self.account_number.clone(),
            billing_address: self.billing_address.clone(),
            contacts: self
                .contacts
                .iter()
                .map(|c| pb::CustomerContact {
                    name: c.name.clone(),
                    email: c.email.clone(),
                    phone: c.phone.clone(),
                })
                .collect(),
            default_payment_mode: payment_mode_to_proto(self.default_payment_mode),
            status: self.status.to_proto().into(),
            create_time: Some(timestamp::to_proto(self.created_at)),
            update_time: Some(timestamp::to_proto(self.updated_at)),
        }
    }
}

fn payment_mode_to_proto(mode: PaymentMode) -> i32 {
    PaymentMode::ALL
        .iter()
        .position(|m| *m == mode)
        .map_or(0, |i| i as i32 + 1)
}

/// The paths of a customer an update may name.
pub const UPDATABLE: &[&str] = &[
    "name",
    "account_number",
    "billing_address",
    "contacts",
    "default_payment_mode",
    "status",
];

/// Checks the field at `path` of `input` and sets it on `customer`.
pub fn apply(path: &str, input: &pb::Customer, customer: &mut Customer, v: &mut Violations) {
    let field = |name: &str| format!("customer.{name}");
    match path {
        "name" => customer.name = v.text(&field("name"), &input.name, TextRule::line(200)),
        "account_number" => {
            customer.account_number =
                account_number(&field("account_number"), &input.account_number, v)
                    .unwrap_or_else(generated_account_number)
        }
        "billing_address" => {
            customer.billing_address = v.text(
                &field("billing_address"),
                &input.billing_address,
                TextRule::paragraph(500).optional(),
            )
        }
        "contacts" => {
            if input.contacts.len() > MAX_CONTACTS {
                v.add(
                    field("contacts"),
                    format!("at most {MAX_CONTACTS} contacts"),
                );
                return;
            }
            customer.contacts = input
                .contacts
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let at = |name: &str| format!("customer.contacts[{i}].{name}");
                    let email = v.text(&at("email"), &c.email, TextRule::line(254).optional());
                    if !email.is_empty() && !service_common::is_email(&email.to_lowercase()) {
                        v.add(at("email"), "Invalid email address format");
                    }
                    Contact {
                        name: v.text(&at("name"), &c.name, TextRule::line(100)),
                        email: email.to_lowercase(),
                        phone: v.text(&at("phone"), &c.phone, TextRule::line(30).optional()),
                    }
                })
                .collect();
        }
        "default_payment_mode" => {
            customer.default_payment_mode = if input.default_payment_mode == 0 {
                PaymentMode::BankTransfer
            } else {
                Choice::<PaymentMode>::KIND.check(
                    &field("default_payment_mode"),
                    &input.default_payment_mode,
                    v,
                )
            }
        }
        "status" => {
            customer.status = CustomerStatus::from_proto(&field("status"), input.status, v)
                .unwrap_or(CustomerStatus::Active)
        }
        _ => {}
    }
}

/// An account number as typed: None when empty (one is generated), upper case otherwise.
fn account_number(field: &str, input: &str, v: &mut Violations) -> Option<String> {
    let value = input.trim().to_uppercase();
    if value.is_empty() {
        return None;
    }
    if value.len() > 30
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        v.add(field, "must be 1 to 30 letters, digits or \"-\"");
    }
    Some(value)
}

/// "C" and 8 random digits.
pub fn generated_account_number() -> String {
    format!("C{:08}", rand::random::<u32>() % 100_000_000)
}

/// A new customer from a create request.
pub fn from_create(input: &pb::Customer, now: DateTime<Utc>) -> Result<Customer, ShipmentError> {
    let mut customer = Customer {
        id: service_common::new_id(),
        name: String::new(),
        account_number: String::new(),
        billing_address: String::new(),
        contacts: Vec::new(),
        default_payment_mode: PaymentMode::BankTransfer,
        status: CustomerStatus::Active,
        created_at: now,
        updated_at: now,
    };
    let mut v = Violations::default();
    for path in UPDATABLE {
        apply(path, input, &mut customer, &mut v);
    }
    v.into_result(customer).map_err(ShipmentError::Invalid)
}

/// A page of customers: by name, optionally only those whose name or account number holds
/// `text`, or in one status.
#[derive(Clone, Debug, Default)]
pub struct CustomerQuery {
    pub text: Option<String>,
    pub status: Option<CustomerStatus>,
    pub page_size: usize,
    pub after: Option<String>,
}

pub fn query(request: &pb::ListCustomersRequest) -> Result<CustomerQuery, ShipmentError> {
    let mut v = Violations::default();
    let page_size = v.page_size(request.page_size);
    let text =
        crate::search::fold(&v.text("query", &request.query, TextRule::line(200).optional()));
    let status = CustomerStatus::from_proto("status", request.status, &mut v);
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    Ok(CustomerQuery {
        text: (!text.is_empty()).then_some(text),
        status,
        page_size,
        after: paging::decode(&request.page_token)?,
    })
}

/// The invitation a staff member asked for, checked; the customer must exist and be active.
pub fn invitation(
    input: &pb::CustomerInvitation,
    customer: &Customer,
) -> Result<invitation::Invitation, ShipmentError> {
    let mut v = Violations::default();
    let email = input.email.trim().to_lowercase();
    if !service_common::is_email(&email) {
        v.add("invitation.email", "Invalid email address format");
    }
    let name = v.text("invitation.name", &input.name, TextRule::line(100));
    let role = match pb::Role::try_from(input.role) {
        Ok(pb::Role::Unspecified | pb::Role::CustomerUser) => Role::CustomerUser,
        Ok(pb::Role::CustomerAdmin) => Role::CustomerAdmin,
        _ => {
            v.add(
                "invitation.role",
                "must be ROLE_CUSTOMER_ADMIN or ROLE_CUSTOMER_USER",
            );
            Role::CustomerUser
        }
    };
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    if customer.status == CustomerStatus::Suspended {
        return Err(ShipmentError::Precondition(
            "This customer is suspended".into(),
        ));
    }
    Ok(invitation::Invitation {
        customer_id: customer.id.clone(),
        customer_name: customer.name.clone(),
        email,
        name,
        role,
    })
}

/// What a booking leaves to the carrier's staff, filled from what the customer gave: the carrier
/// is the company, the goods are its packages (their descriptions, count and weight), and
/// departure and delivery are the pickup's day and time (today and 09:00 when it names none)
/// until staff know better.
pub fn complete_booking(input: &mut pb::Shipment, today: chrono::NaiveDate, company: &str) {
    if input.carrier.trim().is_empty() {
        input.carrier = company.to_owned();
    }
    let pieces: i64 = input
        .packages
        .iter()
        .map(|p| i64::from(p.quantity.max(0)))
        .sum();
    let pieces = i32::try_from(pieces).unwrap_or(i32::MAX);
    if input.product.trim().is_empty() {
        let goods: Vec<&str> = input
            .packages
            .iter()
            .map(|p| p.description.trim())
            .filter(|d| !d.is_empty())
            .collect();
        let goods = goods.join(", ");
        input.product = if goods.is_empty() {
            "Parcels".into()
        } else {
            goods.chars().take(200).collect()
        };
    }
    if input.product_quantity == 0 {
        input.product_quantity = pieces;
    }
    if input.package_count == 0 {
        input.package_count = pieces;
    }
    if input.weight_kg == 0.0 {
        let kilograms: f64 = input
            .packages
            .iter()
            .map(|p| f64::from(p.quantity.max(0)) * p.weight_kg)
            .sum();
        input.weight_kg = (kilograms * 1000.0).round() / 1000.0;
    }
    let day = input.pickup_date.or_else(|| {
        use chrono::Datelike;
        Some(pb::Date {
            year: today.year(),
            month: today.month() as i32,
            day: today.day() as i32,
        })
    });
    if input.expected_delivery_date.is_none() {
        input.expected_delivery_date = day;
    }
    if input.departure_time.is_none() {
        input.departure_time = input.pickup_time.or(Some(pb::TimeOfDay {
            hours: 9,
            minutes: 0,
        }));
    }
}

/// Whose shipments a call may reach: staff reach every one, a customer's user only their
/// customer's. The one place the portal's isolation is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    Staff,
    Customer(String),
}

impl Scope {
    /// The scope of a verified caller: a customer's user is held to their customer.
    pub fn of(caller: &Caller) -> Self {
        match caller.customer() {
            Some(customer) => Self::Customer(customer.to_owned()),
            None => Self::Staff,
        }
    }

    /// The shipment when the scope reaches it; another customer's is NotFound, exactly as a
    /// missing one, so its existence is never confirmed.
    pub fn admit(&self, shipment: Shipment) -> Result<Shipment, ShipmentError> {
        match self {
            Self::Customer(id) if shipment.details.customer_id != *id => {
                Err(ShipmentError::NotFound)
            }
            _ => Ok(shipment),
        }
    }

    /// The list narrowed to the scope, whatever the request asked.
    pub fn narrow(&self, mut query: ListQuery) -> ListQuery {
        if let Self::Customer(id) = self {
            query.customer = Some(id.clone());
        }
        query
    }
}

/// One customer user's choice of the shipment changes that e-mail them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Watcher {
    pub customer_id: String,
    pub user_id: String,
    pub email: String,
    pub events: Vec<crate::updates::Event>,
    #[serde(default)]
    pub language: outbox::language::Language,
}

impl Watcher {
    pub fn choices(&self) -> pb::NotificationChoices {
        pb::NotificationChoices {
            events: self
                .events
                .iter()
                .map(|e| crate::convert::event_to_proto(*e) as i32)
                .collect(),
            language_code: self.language.code().to_owned(),
        }
    }
}

/// The choices a request makes, for `caller`; only the four status changes may be chosen.
pub fn watcher(
    caller: &Caller,
    customer_id: &str,
    input: &pb::NotificationChoices,
) -> Result<Watcher, ShipmentError> {
    use crate::updates::Event;
    let mut v = Violations::default();
    let mut events = Vec::new();
    for (i, number) in input.events.iter().enumerate() {
        let event = [
            Event::InTransit,
            Event::Delayed,
            Event::OnHold,
            Event::Delivered,
        ]
        .into_iter()
        .find(|e| crate::convert::event_to_proto(*e) as i32 == *number);
        match event {
            Some(event) if !events.contains(&event) => events.push(event),
            Some(_) => {}
            None => v.add(
                format!("choices.events[{i}]"),
                "must be one of in_transit, delayed, on_hold, delivered",
            ),
        }
    }
    events.sort();
    let language =
        outbox::language::Language::parse(&input.language_code).unwrap_or_else(|problem| {
            v.add("choices.language_code", problem);
            outbox::language::Language::En
        });
    v.into_result(Watcher {
        customer_id: customer_id.to_owned(),
        user_id: caller.sub.clone(),
        email: caller.email.clone(),
        events,
        language,
    })
    .map_err(ShipmentError::Invalid)
}
