//! What an admin types about a shipment, listed once: the `details!` table below gives each
//! field its domain type, its proto path (the update mask's and the violations' name), its
//! CSV column and its kind, which says how it is checked, sent, exported and imported. The
//! domain struct, the patch, the proto conversion, the export's cells and the import's parser
//! all follow from it: a new field is its proto line and one line in the table.

use std::marker::PhantomData;

use chrono::{Datelike, NaiveDate, NaiveTime, Timelike};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;

use crate::error::Violations;
use outbox::language::Language;

/// Most packages one shipment may carry.
pub const MAX_PACKAGES: usize = 100;

/// The table's expansion: the domain struct and its patch, and each edge's conversion field by
/// field.
macro_rules! details {
    ($(
        $(#[$attr:meta])*
        $name:ident: $ty:ty = $path:literal ($($wire:ident).+), $column:literal, $kind:expr;
    )*) => {
        /// Everything an admin types about a shipment; validated before it reaches this type.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct ShipmentDetails {
            $($(#[$attr])* pub $name: $ty,)*
        }

        /// The details one save sets: each field left alone (None) or set to a valid value.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct DetailsPatch {
            $(pub $name: Option<$ty>,)*
        }

        /// Each field's update-mask path, in the table's order.
        pub const PATHS: &[&str] = &[$($path),*];
        /// Each field's CSV column, in the table's order.
        pub const COLUMNS: &[&str] = &[$($column),*];

        impl DetailsPatch {
            pub fn apply_to(&self, d: &mut ShipmentDetails) {
                $(if let Some(value) = &self.$name {
                    d.$name = value.clone();
                })*
            }

            /// Validates the field at update-mask `path` of `s` into the patch; false when no
            /// field has that path.
            pub fn parse(&mut self, path: &str, s: &pb::Shipment, v: &mut Violations) -> bool {
                match path {
                    $($path => self.$name = Some(Kind::check(&$kind, $path, &wire!(s, $($wire).+), v)),)*
                    _ => return false,
                }
                true
            }

            /// The details, when the patch sets every field.
            pub fn complete(self) -> Option<ShipmentDetails> {
                Some(ShipmentDetails {
                    $($name: self.$name?,)*
                })
            }
        }

        impl ShipmentDetails {
            /// The fields as a CreateShipment request carries them.
            pub fn to_proto(&self) -> pb::Shipment {
                let mut s = pb::Shipment::default();
                $(wire!(mut s, $($wire).+) = Kind::to_wire(&$kind, &self.$name);)*
                s
            }

            /// The CSV cells, in `COLUMNS` order, each with whether it is text a spreadsheet
            /// could run as a formula.
            pub fn cells(&self) -> Vec<(String, bool)> {
                vec![$((Kind::cell(&$kind, &self.$name), is_text(&$kind)),)*]
            }
        }

        /// Sets the field of CSV column `column` in `s` from its imported cell (trimmed, its
        /// escape undone); what is wrong with the cell when it cannot be read.
        pub fn parse_cell(column: &str, cell: &str, s: &mut pb::Shipment) -> Result<(), String> {
            match column {
                $($column => wire!(mut s, $($wire).+) = Kind::parse(&$kind, cell)?,)*
                _ => {}
            }
            Ok(())
        }
    };
}

/// A field of the proto message by its path: a top-level field or a party's.
macro_rules! wire {
    ($s:ident, $field:ident) => {
        $s.$field
    };
    ($s:ident, $party:ident . $field:ident) => {
        $s.$party.as_ref().unwrap_or(&NO_PARTY).$field
    };
    (mut $s:ident, $field:ident) => {
        $s.$field
    };
    (mut $s:ident, $party:ident . $field:ident) => {
        $s.$party.get_or_insert_default().$field
    };
}

static NO_PARTY: pb::Party = pb::Party {
    name: String::new(),
    address: String::new(),
    phone: String::new(),
    email: String::new(),
};

fn is_text<K: Kind>(_: &K) -> bool {
    K::TEXT
}

impl ShipmentDetails {
    /// The one rule for the figures the packages also give, whatever sent them (the form, the
    /// API, an import): the package count is the pieces the package lines hold, and the weight
    /// their total whenever they give weights; a typed figure that says otherwise is replaced,
    /// so a shipment never contradicts its own packages.
    pub fn follow_packages(&mut self) {
        self.package_count = self.packages.iter().map(|p| p.quantity).sum();
        let total: f64 = self
            .packages
            .iter()
            .map(|p| p.weight * f64::from(p.quantity))
            .sum();
        if total > 0.0 {
            self.weight = (total * 1e3).round() / 1e3;
        }
    }
}

details! {
    shipper_name: String = "shipper.name" (shipper.name), "shipper_name", Text::Rule(TextRule::line(100));
    shipper_address: String = "shipper.address" (shipper.address), "shipper_address", Text::Rule(TextRule::paragraph(300));
    shipper_phone: String = "shipper.phone" (shipper.phone), "shipper_phone", PHONE;
    shipper_email: String = "shipper.email" (shipper.email), "shipper_email", EMAIL;
    receiver_name: String = "receiver.name" (receiver.name), "receiver_name", Text::Rule(TextRule::line(100));
    receiver_address: String = "receiver.address" (receiver.address), "receiver_address", Text::Rule(TextRule::paragraph(300));
    receiver_phone: String = "receiver.phone" (receiver.phone), "receiver_phone", PHONE;
    receiver_email: String = "receiver.email" (receiver.email), "receiver_email", EMAIL;
    origin: String = "origin" (origin), "origin", Text::Rule(TextRule::line(200));
    destination: String = "destination" (destination), "destination", Text::Rule(TextRule::line(200));
    carrier: String = "carrier" (carrier), "carrier", Text::Rule(TextRule::line(100));
    type_of_shipment: ShipmentType = "type" (r#type), "type_of_shipment", Choice::<ShipmentType>::KIND;
    shipment_mode: ShipmentMode = "mode" (mode), "shipment_mode", Choice::<ShipmentMode>::KIND;
    package_count: u32 = "package_count" (package_count), "package_count", Count { max: 10_000 };
    product: String = "product" (product), "product", Text::Rule(TextRule::line(200));
    product_quantity: u32 = "product_quantity" (product_quantity), "product_quantity", Count { max: 1_000_000 };
    payment_mode: PaymentMode = "payment_mode" (payment_mode), "payment_mode", Choice::<PaymentMode>::KIND;
    total_freight_cents: i64 = "total_freight_cents" (total_freight_cents), "total_freight", Cents { max: 100_000_000_000 };
    /// Kilograms, as declared by the admin.
    weight: f64 = "weight_kg" (weight_kg), "weight_kg", Decimal { max: 1_000_000.0 };
    expected_delivery_date: NaiveDate = "expected_delivery_date" (expected_delivery_date), "expected_delivery_date", Date;
    #[serde(with = "hh_mm")]
    departure_time: NaiveTime = "departure_time" (departure_time), "departure_time", Time;
    pickup_date: NaiveDate = "pickup_date" (pickup_date), "pickup_date", Date;
    #[serde(with = "hh_mm")]
    pickup_time: NaiveTime = "pickup_time" (pickup_time), "pickup_time", Time;
    packages: Vec<Package> = "packages" (packages), "packages", Packages;
    comments: String = "comments" (comments), "comments", Text::Rule(TextRule::paragraph(2000).optional());
    /// The language of the shipment's e-mails and of the tracking links in them.
    #[serde(default, skip_serializing_if = "Language::is_english")]
    language: Language = "language_code" (language_code), "language_code", Languages;
    /// The customer who ships it, whose portal shows it; empty for none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    customer_id: String = "customer_id" (customer_id), "customer_id", Text::Rule(TextRule::line(64).optional());
}

/// How one kind of field crosses each edge.
pub trait Kind {
    /// The value in the domain.
    type Value;
    /// The value in the proto message.
    type Wire: Default;
    /// Whether its CSV cell is text a spreadsheet could run as a formula (escaped on export).
    const TEXT: bool = false;
    /// The wire value validated; what is wrong is added to `v` under `field`.
    fn check(&self, field: &str, wire: &Self::Wire, v: &mut Violations) -> Self::Value;
    fn to_wire(&self, value: &Self::Value) -> Self::Wire;
    /// The exported cell, before any escaping.
    fn cell(&self, value: &Self::Value) -> String;
    /// An imported cell (trimmed, its escape undone) as the wire value, or what is wrong with it.
    fn parse(&self, cell: &str) -> Result<Self::Wire, String>;
}

/// Text: by the services' one text rule, or required and in a format.
pub enum Text {
    Rule(TextRule),
    /// Trimmed and required; `message` when it is not `valid`.
    Format {
        valid: fn(&str) -> bool,
        message: &'static str,
    },
}

pub const EMAIL: Text = Text::Format {
    valid: service_common::is_email,
    message: "must be a valid e-mail address",
};

pub const PHONE: Text = Text::Format {
    valid: is_phone,
    message: "must be a phone number of 5 to 20 digits",
};

fn is_phone(value: &str) -> bool {
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let allowed = value
        .chars()
        .all(|c| c.is_ascii_digit() || " +-().".contains(c));
    allowed && (5..=20).contains(&digits) && value.len() <= 30
}

impl Kind for Text {
    type Value = String;
    type Wire = String;
    const TEXT: bool = true;
    fn check(&self, field: &str, wire: &String, v: &mut Violations) -> String {
        match self {
            Self::Rule(rule) => v.text(field, wire, *rule),
            Self::Format { valid, message } => {
                let value = wire.trim();
                if value.is_empty() {
                    v.add(field, "is required");
                } else if !valid(value) {
                    v.add(field, *message);
                }
                value.to_owned()
            }
        }
    }
    fn to_wire(&self, value: &String) -> String {
        value.clone()
    }
    fn cell(&self, value: &String) -> String {
        value.clone()
    }
    fn parse(&self, cell: &str) -> Result<String, String> {
        Ok(cell.to_owned())
    }
}

/// A whole number from 1 to `max`.
pub struct Count {
    pub max: i64,
}

impl Kind for Count {
    type Value = u32;
    type Wire = i32;
    fn check(&self, field: &str, wire: &i32, v: &mut Violations) -> u32 {
        whole(field, (*wire).into(), 1, self.max, v) as u32
    }
    fn to_wire(&self, value: &u32) -> i32 {
        *value as i32
    }
    fn cell(&self, value: &u32) -> String {
        value.to_string()
    }
    fn parse(&self, cell: &str) -> Result<i32, String> {
        cell.parse().map_err(|_| "must be a whole number".into())
    }
}

/// An amount in cents, from 0 to `max`; a decimal amount (`1250.50`) in a CSV cell.
pub struct Cents {
    pub max: i64,
}

impl Kind for Cents {
    type Value = i64;
    type Wire = i64;
    fn check(&self, field: &str, wire: &i64, v: &mut Violations) -> i64 {
        whole(field, *wire, 0, self.max, v)
    }
    fn to_wire(&self, value: &i64) -> i64 {
        *value
    }
    fn cell(&self, value: &i64) -> String {
        let sign = if *value < 0 { "-" } else { "" };
        let cents = value.unsigned_abs();
        format!("{sign}{}.{:02}", cents / 100, cents % 100)
    }
    fn parse(&self, cell: &str) -> Result<i64, String> {
        parse_cents(cell).ok_or_else(|| "must be an amount like 1250.50".into())
    }
}

/// A decimal amount (`1250.50`) in cents, exactly.
fn parse_cents(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || fraction.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

fn whole(field: &str, value: i64, min: i64, max: i64, v: &mut Violations) -> i64 {
    if !(min..=max).contains(&value) {
        v.add(field, format!("must be a whole number from {min} to {max}"));
    }
    value
}

/// A number from 0 to `max`.
pub struct Decimal {
    pub max: f64,
}

impl Kind for Decimal {
    type Value = f64;
    type Wire = f64;
    fn check(&self, field: &str, wire: &f64, v: &mut Violations) -> f64 {
        decimal(field, *wire, self.max, v)
    }
    fn to_wire(&self, value: &f64) -> f64 {
        *value
    }
    fn cell(&self, value: &f64) -> String {
        value.to_string()
    }
    fn parse(&self, cell: &str) -> Result<f64, String> {
        cell.parse().map_err(|_| "must be a number".into())
    }
}

fn decimal(field: &str, value: f64, max: f64, v: &mut Violations) -> f64 {
    if !value.is_finite() || value < 0.0 || value > max {
        v.add(field, format!("must be a number from 0 to {max}"));
    }
    value
}

/// A day from 2000 to 2100; `YYYY-MM-DD` in a CSV cell.
pub struct Date;

impl Kind for Date {
    type Value = NaiveDate;
    type Wire = Option<pb::Date>;
    fn check(&self, field: &str, wire: &Option<pb::Date>, v: &mut Violations) -> NaiveDate {
        let parsed = wire.as_ref().and_then(|d| {
            let date = NaiveDate::from_ymd_opt(
                d.year,
                u32::try_from(d.month).ok()?,
                u32::try_from(d.day).ok()?,
            )?;
            (2000..=2100).contains(&d.year).then_some(date)
        });
        required(
            field,
            wire,
            parsed,
            "must be a valid date between 2000 and 2100",
            v,
        )
    }
    fn to_wire(&self, value: &NaiveDate) -> Option<pb::Date> {
        Some(date(*value))
    }
    fn cell(&self, value: &NaiveDate) -> String {
        value.to_string()
    }
    fn parse(&self, cell: &str) -> Result<Option<pb::Date>, String> {
        NaiveDate::parse_from_str(cell, "%Y-%m-%d")
            .map(|d| Some(date(d)))
            .map_err(|_| "must be a date like 2027-03-01".into())
    }
}

pub fn date(d: NaiveDate) -> pb::Date {
    pb::Date {
        year: d.year(),
        month: d.month() as i32,
        day: d.day() as i32,
    }
}

/// A time of day to the minute; `HH:MM` (or `HH:MM:SS`) in a CSV cell.
pub struct Time;

impl Kind for Time {
    type Value = NaiveTime;
    type Wire = Option<pb::TimeOfDay>;
    fn check(&self, field: &str, wire: &Option<pb::TimeOfDay>, v: &mut Violations) -> NaiveTime {
        let parsed = wire.as_ref().and_then(|t| {
            NaiveTime::from_hms_opt(
                u32::try_from(t.hours).ok()?,
                u32::try_from(t.minutes).ok()?,
                0,
            )
        });
        required(field, wire, parsed, "must be a valid time of day", v)
    }
    fn to_wire(&self, value: &NaiveTime) -> Option<pb::TimeOfDay> {
        Some(time_of_day(*value))
    }
    fn cell(&self, value: &NaiveTime) -> String {
        value.format("%H:%M").to_string()
    }
    fn parse(&self, cell: &str) -> Result<Option<pb::TimeOfDay>, String> {
        let time = NaiveTime::parse_from_str(cell, "%H:%M")
            .or_else(|_| NaiveTime::parse_from_str(cell, "%H:%M:%S"))
            .map_err(|_| "must be a time like 14:30".to_owned())?;
        Ok(Some(time_of_day(time)))
    }
}

pub fn time_of_day(t: NaiveTime) -> pb::TimeOfDay {
    pb::TimeOfDay {
        hours: t.hour() as i32,
        minutes: t.minute() as i32,
    }
}

/// The `parsed` value of a required `wire` field; else "is required" when it is unset or
/// `invalid` when it was given.
fn required<W, T: Default>(
    field: &str,
    wire: &Option<W>,
    parsed: Option<T>,
    invalid: &str,
    v: &mut Violations,
) -> T {
    parsed.unwrap_or_else(|| {
        v.add(
            field,
            if wire.is_none() {
                "is required"
            } else {
                invalid
            },
        );
        T::default()
    })
}

/// The values of a choice, in the order of their proto enum's numbers (from 1).
pub trait Choices: Copy + Serialize + 'static {
    const ALL: &'static [Self];
    /// The allowed values as a violation lists them.
    fn listed() -> String {
        names::<Self>().join(", ")
    }
}

/// One of a fixed set: the proto enum on the wire, its stored name (`air_shipping`) in a CSV
/// cell, which may also give its label (`Air Shipping`).
pub struct Choice<T>(PhantomData<T>);

impl<T> Choice<T> {
    pub const KIND: Self = Self(PhantomData);
}

impl<T: Choices> Kind for Choice<T> {
    type Value = T;
    type Wire = i32;
    fn check(&self, field: &str, wire: &i32, v: &mut Violations) -> T {
        let found = usize::try_from(*wire - 1).ok().and_then(|i| T::ALL.get(i));
        match found {
            Some(value) => *value,
            None => {
                v.add(field, format!("must be one of {}", T::listed()));
                T::ALL[0]
            }
        }
    }
    fn to_wire(&self, value: &T) -> i32 {
        let name = name(value);
        names::<T>().iter().position(|n| *n == name).unwrap_or(0) as i32 + 1
    }
    fn cell(&self, value: &T) -> String {
        name(value)
    }
    fn parse(&self, cell: &str) -> Result<i32, String> {
        let wanted = cell.trim().to_ascii_lowercase().replace(' ', "_");
        let names = names::<T>();
        names
            .iter()
            .position(|n| *n == wanted)
            .map(|i| i as i32 + 1)
            .ok_or_else(|| format!("must be one of {}", names.join(", ")))
    }
}

/// An enum as stored (`in_transit`, `air_shipping`).
pub fn name(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn names<T: Choices>() -> Vec<String> {
    T::ALL.iter().map(name).collect()
}

/// The language of the e-mails, by its code.
pub struct Languages;

impl Kind for Languages {
    type Value = Language;
    type Wire = String;
    fn check(&self, field: &str, wire: &String, v: &mut Violations) -> Language {
        Language::parse(wire).unwrap_or_else(|problem| {
            v.add(field, problem);
            Language::En
        })
    }
    fn to_wire(&self, value: &Language) -> String {
        value.code().to_owned()
    }
    fn cell(&self, value: &Language) -> String {
        value.code().to_owned()
    }
    fn parse(&self, cell: &str) -> Result<String, String> {
        Ok(cell.to_owned())
    }
}

/// The packages; a JSON array of `{quantity, pieceType, description, length, width, height,
/// weight}` in a CSV cell.
pub struct Packages;

impl Kind for Packages {
    type Value = Vec<Package>;
    type Wire = Vec<pb::Package>;
    const TEXT: bool = true;
    fn check(&self, field: &str, wire: &Vec<pb::Package>, v: &mut Violations) -> Vec<Package> {
        if wire.is_empty() {
            v.add(field, "must hold at least one package");
        } else if wire.len() > MAX_PACKAGES {
            v.add(field, format!("must hold at most {MAX_PACKAGES} packages"));
        }
        wire.iter()
            .take(MAX_PACKAGES)
            .enumerate()
            .map(|(i, p)| {
                let f = |name: &str| format!("{field}[{i}].{name}");
                Package {
                    quantity: whole(&f("quantity"), p.quantity.into(), 1, 10_000, v) as u32,
                    piece_type: v.text(&f("piece_type"), &p.piece_type, TextRule::line(50)),
                    description: v.text(&f("description"), &p.description, TextRule::line(200)),
                    length: decimal(&f("length_cm"), p.length_cm, 10_000.0, v),
                    width: decimal(&f("width_cm"), p.width_cm, 10_000.0, v),
                    height: decimal(&f("height_cm"), p.height_cm, 10_000.0, v),
                    weight: decimal(&f("weight_kg"), p.weight_kg, 100_000.0, v),
                }
            })
            .collect()
    }
    fn to_wire(&self, value: &Vec<Package>) -> Vec<pb::Package> {
        value
            .iter()
            .map(|p| pb::Package {
                quantity: p.quantity as i32,
                piece_type: p.piece_type.clone(),
                description: p.description.clone(),
                length_cm: p.length,
                width_cm: p.width,
                height_cm: p.height,
                weight_kg: p.weight,
            })
            .collect()
    }
    fn cell(&self, value: &Vec<Package>) -> String {
        serde_json::to_string(value).unwrap_or_default()
    }
    fn parse(&self, cell: &str) -> Result<Vec<pb::Package>, String> {
        let packages: Vec<PackageCell> = serde_json::from_str(cell)
            .map_err(|_| "must be a JSON array of packages, as in the template".to_owned())?;
        Ok(packages
            .into_iter()
            .map(|p| pb::Package {
                quantity: p.quantity,
                piece_type: p.piece_type,
                description: p.description,
                length_cm: p.length,
                width_cm: p.width,
                height_cm: p.height,
                weight_kg: p.weight,
            })
            .collect())
    }
}

/// One package of the `packages` cell, as the export writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PackageCell {
    quantity: i32,
    #[serde(default)]
    piece_type: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    length: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    weight: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShipmentType {
    Standard,
    Express,
    Economy,
}

impl Choices for ShipmentType {
    const ALL: &'static [Self] = &[Self::Standard, Self::Express, Self::Economy];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShipmentMode {
    LandShipping,
    AirShipping,
    SeaShipping,
}

impl Choices for ShipmentMode {
    const ALL: &'static [Self] = &[Self::LandShipping, Self::AirShipping, Self::SeaShipping];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMode {
    BankTransfer,
    CreditCard,
    Cash,
    Check,
}

impl PaymentMode {
    pub fn label(self) -> &'static str {
        match self {
            Self::BankTransfer => "Bank Transfer",
            Self::CreditCard => "Credit Card",
            Self::Cash => "Cash",
            Self::Check => "Check",
        }
    }
}

impl Choices for PaymentMode {
    const ALL: &'static [Self] = &[
        Self::BankTransfer,
        Self::CreditCard,
        Self::Cash,
        Self::Check,
    ];
    fn listed() -> String {
        Self::ALL
            .iter()
            .map(|m| m.label())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Package {
    pub quantity: u32,
    pub piece_type: String,
    pub description: String,
    /// Centimetres.
    pub length: f64,
    pub width: f64,
    pub height: f64,
    /// Kilograms, per piece.
    pub weight: f64,
}

/// Times of day as HH:MM, the precision of the admin's time picker.
pub(crate) mod hh_mm {
    use chrono::NaiveTime;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &NaiveTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&t.format("%H:%M").to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<NaiveTime, D::Error> {
        let text = String::deserialize(d)?;
        NaiveTime::parse_from_str(&text, "%H:%M").map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
impl ShipmentDetails {
    /// Empty text, the first choice of each enum, no packages: a start for tests.
    pub fn blank() -> Self {
        ShipmentDetails {
            shipper_name: String::new(),
            shipper_address: String::new(),
            shipper_phone: String::new(),
            shipper_email: String::new(),
            receiver_name: String::new(),
            receiver_address: String::new(),
            receiver_phone: String::new(),
            receiver_email: String::new(),
            origin: String::new(),
            destination: String::new(),
            carrier: String::new(),
            type_of_shipment: ShipmentType::Standard,
            shipment_mode: ShipmentMode::AirShipping,
            package_count: 0,
            product: String::new(),
            product_quantity: 1,
            payment_mode: PaymentMode::Cash,
            total_freight_cents: 0,
            weight: 0.0,
            expected_delivery_date: NaiveDate::default(),
            departure_time: NaiveTime::default(),
            pickup_date: NaiveDate::default(),
            pickup_time: NaiveTime::default(),
            packages: Vec::new(),
            comments: String::new(),
            language: Language::En,
            customer_id: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(quantity: u32, weight: f64) -> Package {
        Package {
            quantity,
            piece_type: "Box".into(),
            description: String::new(),
            length: 0.0,
            width: 0.0,
            height: 0.0,
            weight,
        }
    }

    #[test]
    fn count_and_weight_follow_the_packages() {
        let mut patch = DetailsPatch {
            package_count: Some(7),
            weight: Some(100.0),
            packages: Some(vec![package(1, 20.0), package(2, 10.0)]),
            ..Default::default()
        };
        let mut d = ShipmentDetails::blank();
        patch.apply_to(&mut d);
        d.follow_packages();
        assert_eq!((d.package_count, d.weight), (3, 40.0));

        // Packages without weights leave the declared weight alone; the count still follows.
        patch.packages = Some(vec![package(4, 0.0)]);
        patch.apply_to(&mut d);
        d.follow_packages();
        assert_eq!((d.package_count, d.weight), (4, 100.0));
    }

    #[test]
    fn amounts_are_read_to_the_cent() {
        assert_eq!(parse_cents("1250.50"), Some(125_050));
        assert_eq!(parse_cents("12.5"), Some(1_250));
        assert_eq!(parse_cents("7"), Some(700));
        for bad in ["", "1.234", "-1", "1,50", "abc", ".5"] {
            assert_eq!(parse_cents(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn amounts_keep_every_cent() {
        assert_eq!(Cents { max: 0 }.cell(&125_050), "1250.50");
        assert_eq!(Cents { max: 0 }.cell(&5), "0.05");
        assert_eq!(Cents { max: 0 }.cell(&-101), "-1.01");
    }

    #[test]
    fn choices_are_numbered_as_their_proto_enums() {
        let kind = Choice::<PaymentMode>::KIND;
        assert_eq!(
            kind.to_wire(&PaymentMode::Check),
            pb::PaymentMode::Check as i32
        );
        assert_eq!(
            Choice::<ShipmentMode>::KIND.to_wire(&ShipmentMode::SeaShipping),
            pb::ShipmentMode::SeaShipping as i32
        );
        assert_eq!(
            Choice::<ShipmentType>::KIND.to_wire(&ShipmentType::Economy),
            pb::ShipmentType::Economy as i32
        );
        assert_eq!(
            kind.parse("Credit Card"),
            Ok(pb::PaymentMode::CreditCard as i32)
        );
    }
}
