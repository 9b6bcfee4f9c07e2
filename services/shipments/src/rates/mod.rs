//! Rate cards and the quotes priced from them. Money is integer minor units; weights are
//! grams, so a price never passes through a float.

pub mod api;
pub mod card_csv;
mod demo;
pub mod quote;

use chrono::{DateTime, NaiveDate, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::violations::Violations;

use crate::convert::TimeChecks;

pub use demo::sample_public_card;

/// The id of the card everyone without a card of their own is priced from.
pub const PUBLIC: &str = "public";
const MAX_ZONES: usize = 200;
const MAX_SERVICES: usize = 20;
const MAX_LANES: usize = 2_000;
const MAX_BREAKS: usize = 50;
const MAX_PLACES: usize = 500;
/// Largest amount of one price, in minor units (ten billion in a two-decimal currency).
const MAX_AMOUNT: i64 = 1_000_000_000_000;
/// Heaviest weight break, in grams (100 t).
const MAX_BREAK_GRAMS: u64 = 100_000_000;
const NAME: TextRule = TextRule::line(80);

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RateCard {
    /// [`PUBLIC`] or a customer's id.
    pub id: String,
    pub version: u32,
    pub currency: String,
    /// A customer's discount off the public card; such a card has no prices of its own.
    pub discount_bp: u32,
    pub zones: Vec<Zone>,
    pub services: Vec<Service>,
    pub lanes: Vec<Lane>,
    pub valid_from: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    /// 0: no limit.
    pub oversize_length_cm: f64,
    pub oversize_weight_g: u64,
    pub updated_at: Option<DateTime<Utc>>,
    pub updated_by: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub code: String,
    pub name: String,
    /// `NG` or `NG/Lagos`, as staff wrote them (the country upper case).
    pub places: Vec<String>,
    pub remote: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Service {
    pub code: String,
    pub name: String,
    /// A `pb::ShipmentMode`.
    pub mode: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    pub service: String,
    pub origin: String,
    pub destination: String,
    pub breaks: Vec<WeightBreak>,
    pub minimum: i64,
    /// cm³ per kg; 0: actual weight only.
    pub divisor: u32,
    pub fuel_bp: u32,
    pub remote_fee: i64,
    pub oversize_fee: i64,
    pub transit_min: u32,
    pub transit_max: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WeightBreak {
    pub up_to_g: u64,
    pub price: i64,
    pub per_kg: bool,
}

impl RateCard {
    /// Whether quotes may come from the card on `today`.
    pub fn valid_on(&self, today: NaiveDate) -> bool {
        self.valid_from.is_none_or(|from| from <= today)
            && self.valid_until.is_none_or(|until| today <= until)
    }

    pub fn is_public(&self) -> bool {
        self.id == PUBLIC
    }

    /// The card a caller sent, checked whole; violations are named under `prefix`
    /// (`rate_card.`). Output-only fields are left at their defaults.
    pub fn from_proto(card: &pb::RateCard, prefix: &str, v: &mut Violations) -> RateCard {
        let is_public = card.id == PUBLIC;
        let currency = card.currency.trim().to_ascii_uppercase();
        if is_public && !(currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase())) {
            v.add(
                format!("{prefix}currency"),
                "must be an ISO 4217 code of 3 letters, e.g. USD",
            );
        }
        let discount_bp = match card.discount_basis_points {
            0 => 0,
            _ if is_public => {
                v.add(
                    format!("{prefix}discount_basis_points"),
                    "only a customer's card has a discount",
                );
                0
            }
            bp @ 1..=10_000 => bp as u32,
            _ => {
                v.add(
                    format!("{prefix}discount_basis_points"),
                    "must be between 0.01% and 100%",
                );
                0
            }
        };
        let zones = bounded(&card.zones, MAX_ZONES, &format!("{prefix}zones"), v)
            .iter()
            .enumerate()
            .map(|(i, z)| zone(z, &format!("{prefix}zones[{i}]."), v))
            .collect::<Vec<_>>();
        let services = bounded(
            &card.services,
            MAX_SERVICES,
            &format!("{prefix}services"),
            v,
        )
        .iter()
        .enumerate()
        .map(|(i, s)| service(s, &format!("{prefix}services[{i}]."), v))
        .collect::<Vec<_>>();
        let lanes = bounded(&card.lanes, MAX_LANES, &format!("{prefix}lanes"), v)
            .iter()
            .enumerate()
            .map(|(i, l)| lane(l, &format!("{prefix}lanes[{i}]."), v))
            .collect::<Vec<_>>();
        let parsed = RateCard {
            id: card.id.clone(),
            version: card.version.max(0) as u32,
            currency,
            discount_bp,
            zones,
            services,
            lanes,
            valid_from: v.optional_date(&format!("{prefix}valid_from"), card.valid_from.as_ref()),
            valid_until: v
                .optional_date(&format!("{prefix}valid_until"), card.valid_until.as_ref()),
            oversize_length_cm: measure(
                card.oversize_length_cm,
                10_000.0,
                &format!("{prefix}oversize_length_cm"),
                v,
            ),
            oversize_weight_g: grams(measure(
                card.oversize_weight_kg,
                100_000.0,
                &format!("{prefix}oversize_weight_kg"),
                v,
            )),
            updated_at: None,
            updated_by: String::new(),
        };
        parsed.check_references(prefix, v);
        parsed
    }

    /// What only the whole card can tell: unique codes, lanes naming what exists, one zone a
    /// place, and a discount card without prices of its own.
    fn check_references(&self, prefix: &str, v: &mut Violations) {
        if let (Some(from), Some(until)) = (self.valid_from, self.valid_until)
            && until < from
        {
            v.add(
                format!("{prefix}valid_until"),
                "must not be before valid_from",
            );
        }
        if self.discount_bp > 0 && !(self.zones.is_empty() && self.lanes.is_empty()) {
            v.add(
                format!("{prefix}discount_basis_points"),
                "a card with a discount has no zones or lanes of its own",
            );
        }
        if !self.is_public() && self.discount_bp == 0 && self.lanes.is_empty() {
            v.add(
                format!("{prefix}lanes"),
                "add at least one lane, or give a discount off the public card",
            );
        }
        let mut seen = std::collections::HashMap::new();
        for (i, zone) in self.zones.iter().enumerate() {
            if self.zones[..i].iter().any(|z| z.code == zone.code) {
                v.add(
                    format!("{prefix}zones[{i}].code"),
                    "is used by another zone",
                );
            }
            for place in &zone.places {
                let key = place_key(place);
                if let Some(other) = seen.insert(key, zone.code.clone()) {
                    v.add(
                        format!("{prefix}zones[{i}].places"),
                        format!("{place} is in zone {other} too"),
                    );
                }
            }
        }
        for (i, service) in self.services.iter().enumerate() {
            if self.services[..i].iter().any(|s| s.code == service.code) {
                v.add(
                    format!("{prefix}services[{i}].code"),
                    "is used by another service",
                );
            }
        }
        for (i, lane) in self.lanes.iter().enumerate() {
            let at = format!("{prefix}lanes[{i}].");
            if !self.services.iter().any(|s| s.code == lane.service) {
                v.add(format!("{at}service_code"), "is not a service of this card");
            }
            for (field, code) in [
                ("origin_zone", &lane.origin),
                ("destination_zone", &lane.destination),
            ] {
                if !self.zones.iter().any(|z| &z.code == code) {
                    v.add(format!("{at}{field}"), "is not a zone of this card");
                }
            }
            let same = |l: &Lane| {
                l.service == lane.service
                    && l.origin == lane.origin
                    && l.destination == lane.destination
            };
            if self.lanes[..i].iter().any(same) {
                v.add(
                    format!("{at}service_code"),
                    "another lane has this service between these zones",
                );
            }
        }
    }

    pub fn to_proto(&self, customer_name: &str) -> pb::RateCard {
        pb::RateCard {
            id: self.id.clone(),
            customer_name: customer_name.to_owned(),
            version: self.version as i32,
            currency: self.currency.clone(),
            discount_basis_points: self.discount_bp as i32,
            zones: self
                .zones
                .iter()
                .map(|z| pb::RateZone {
                    code: z.code.clone(),
                    name: z.name.clone(),
                    places: z.places.clone(),
                    remote: z.remote,
                })
                .collect(),
            services: self
                .services
                .iter()
                .map(|s| pb::RateService {
                    code: s.code.clone(),
                    name: s.name.clone(),
                    mode: s.mode,
                })
                .collect(),
            lanes: self.lanes.iter().map(Lane::to_proto).collect(),
            valid_from: self.valid_from.map(crate::details::date),
            valid_until: self.valid_until.map(crate::details::date),
            oversize_length_cm: self.oversize_length_cm,
            oversize_weight_kg: self.oversize_weight_g as f64 / 1000.0,
            update_time: self.updated_at.map(service_common::timestamp::to_proto),
            updated_by: self.updated_by.clone(),
        }
    }

    /// The list's line: the card without its zones, services and lanes.
    pub fn summary_proto(&self, customer_name: &str) -> pb::RateCard {
        // Built from the card's own fields: its zones, services and lanes are never copied.
        RateCard {
            id: self.id.clone(),
            version: self.version,
            currency: self.currency.clone(),
            discount_bp: self.discount_bp,
            zones: Vec::new(),
            services: Vec::new(),
            lanes: Vec::new(),
            valid_from: self.valid_from,
            valid_until: self.valid_until,
            oversize_length_cm: self.oversize_length_cm,
            oversize_weight_g: self.oversize_weight_g,
            updated_at: self.updated_at,
            updated_by: self.updated_by.clone(),
        }
        .to_proto(customer_name)
    }
}

impl Lane {
    fn to_proto(&self) -> pb::RateLane {
        pb::RateLane {
            service_code: self.service.clone(),
            origin_zone: self.origin.clone(),
            destination_zone: self.destination.clone(),
            weight_breaks: self
                .breaks
                .iter()
                .map(|b| pb::WeightBreak {
                    up_to_kg: b.up_to_g as f64 / 1000.0,
                    price_minor: b.price,
                    per_kg: b.per_kg,
                })
                .collect(),
            minimum_charge_minor: self.minimum,
            volumetric_divisor: self.divisor as i32,
            fuel_surcharge_basis_points: self.fuel_bp as i32,
            remote_area_surcharge_minor: self.remote_fee,
            oversize_surcharge_minor: self.oversize_fee,
            transit_days_min: self.transit_min as i32,
            transit_days_max: self.transit_max as i32,
        }
    }
}

/// How a place is looked up: `NG`, or `NG/lagos` (a city compared without case).
pub fn place_key(place: &str) -> String {
    match place.split_once('/') {
        Some((country, city)) => format!(
            "{}/{}",
            country.trim().to_ascii_uppercase(),
            city.trim().to_lowercase()
        ),
        None => place.trim().to_ascii_uppercase(),
    }
}

fn bounded<'a, T>(items: &'a [T], max: usize, field: &str, v: &mut Violations) -> &'a [T] {
    if items.len() > max {
        v.add(field, format!("at most {max}"));
        &items[..max]
    } else {
        items
    }
}

fn code(value: &str, max: usize, extra: u8, field: String, v: &mut Violations) -> String {
    let code = value.trim().to_ascii_uppercase();
    if code.is_empty()
        || code.len() > max
        || !code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == extra)
    {
        v.add(
            field,
            format!(
                "must be 1 to {max} of the letters A–Z, digits and `{}`",
                extra as char
            ),
        );
    }
    code
}

fn zone(zone: &pb::RateZone, at: &str, v: &mut Violations) -> Zone {
    let places_field = format!("{at}places");
    if zone.places.is_empty() {
        v.add(&places_field, "add at least one country or city");
    }
    let places = bounded(&zone.places, MAX_PLACES, &places_field, v)
        .iter()
        .filter_map(|place| match normalise_place(place) {
            Ok(place) => Some(place),
            Err(why) => {
                v.add(&places_field, why);
                None
            }
        })
        .collect();
    Zone {
        code: code(&zone.code, 16, b'-', format!("{at}code"), v),
        name: v.text(&format!("{at}name"), &zone.name, NAME),
        places,
        remote: zone.remote,
    }
}

/// `ng / Lagos ` → `NG/Lagos`; a country is two letters (ISO 3166 alpha-2).
pub fn normalise_place(place: &str) -> Result<String, String> {
    let (country, city) = match place.split_once('/') {
        Some((country, city)) => (country.trim(), Some(city.trim())),
        None => (place.trim(), None),
    };
    let country = country.to_ascii_uppercase();
    if !(country.len() == 2 && country.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(format!(
            "{} is not a country code of two letters (NG) or a city of one (NG/Lagos)",
            place.trim()
        ));
    }
    match city {
        None => Ok(country),
        Some(city) if city.is_empty() || city.chars().count() > 80 => Err(format!(
            "{} must name a city of 1 to 80 characters after the /",
            place.trim()
        )),
        Some(city) => Ok(format!("{country}/{city}")),
    }
}

fn service(service: &pb::RateService, at: &str, v: &mut Violations) -> Service {
    let mode = match pb::ShipmentMode::try_from(service.mode) {
        Ok(pb::ShipmentMode::Unspecified) | Err(_) => {
            v.add(format!("{at}mode"), "choose land, air or sea");
            0
        }
        Ok(mode) => mode as i32,
    };
    Service {
        code: code(&service.code, 32, b'_', format!("{at}code"), v),
        name: v.text(&format!("{at}name"), &service.name, NAME),
        mode,
    }
}

fn lane(lane: &pb::RateLane, at: &str, v: &mut Violations) -> Lane {
    let breaks_field = format!("{at}weight_breaks");
    if lane.weight_breaks.is_empty() {
        v.add(&breaks_field, "add at least one weight break");
    }
    let breaks: Vec<WeightBreak> = bounded(&lane.weight_breaks, MAX_BREAKS, &breaks_field, v)
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let field = format!("{breaks_field}[{i}].");
            let kg = measure(
                b.up_to_kg,
                MAX_BREAK_GRAMS as f64 / 1000.0,
                &format!("{field}up_to_kg"),
                v,
            );
            if kg == 0.0 && b.up_to_kg.is_finite() && b.up_to_kg <= 0.0 {
                v.add(format!("{field}up_to_kg"), "must be more than 0");
            }
            WeightBreak {
                up_to_g: grams(kg),
                price: amount(b.price_minor, &format!("{field}price_minor"), v),
                per_kg: b.per_kg,
            }
        })
        .collect();
    for i in 1..breaks.len() {
        if breaks[i].up_to_g <= breaks[i - 1].up_to_g {
            v.add(
                format!("{breaks_field}[{i}].up_to_kg"),
                "must be more than the break before it",
            );
        }
    }
    let divisor = match lane.volumetric_divisor {
        0 => 0,
        d @ 1_000..=10_000 => d as u32,
        _ => {
            v.add(
                format!("{at}volumetric_divisor"),
                "must be 0 (actual weight only) or between 1000 and 10000",
            );
            0
        }
    };
    let transit_min = days(lane.transit_days_min, &format!("{at}transit_days_min"), v);
    let transit_max = days(lane.transit_days_max, &format!("{at}transit_days_max"), v);
    if transit_max < transit_min {
        v.add(
            format!("{at}transit_days_max"),
            "must not be fewer than transit_days_min",
        );
    }
    Lane {
        service: lane.service_code.trim().to_ascii_uppercase(),
        origin: lane.origin_zone.trim().to_ascii_uppercase(),
        destination: lane.destination_zone.trim().to_ascii_uppercase(),
        breaks,
        minimum: amount(
            lane.minimum_charge_minor,
            &format!("{at}minimum_charge_minor"),
            v,
        ),
        divisor,
        fuel_bp: match lane.fuel_surcharge_basis_points {
            bp @ 0..=10_000 => bp as u32,
            _ => {
                v.add(
                    format!("{at}fuel_surcharge_basis_points"),
                    "must be between 0% and 100%",
                );
                0
            }
        },
        remote_fee: amount(
            lane.remote_area_surcharge_minor,
            &format!("{at}remote_area_surcharge_minor"),
            v,
        ),
        oversize_fee: amount(
            lane.oversize_surcharge_minor,
            &format!("{at}oversize_surcharge_minor"),
            v,
        ),
        transit_min,
        transit_max,
    }
}

fn amount(value: i64, field: &str, v: &mut Violations) -> i64 {
    if (0..=MAX_AMOUNT).contains(&value) {
        value
    } else {
        v.add(field, "must be between 0 and 1,000,000,000,000 minor units");
        0
    }
}

fn days(value: i32, field: &str, v: &mut Violations) -> u32 {
    if (0..=365).contains(&value) {
        value as u32
    } else {
        v.add(field, "must be between 0 and 365 days");
        0
    }
}

/// A finite measure between 0 and `max`; 0 for anything else (with its violation).
fn measure(value: f64, max: f64, field: &str, v: &mut Violations) -> f64 {
    if value.is_finite() && (0.0..=max).contains(&value) {
        value
    } else {
        v.add(field, format!("must be between 0 and {max}"));
        0.0
    }
}

/// kg to whole grams, rounded up.
pub fn grams(kg: f64) -> u64 {
    (kg * 1000.0 - 1e-6).ceil().max(0.0) as u64
}
