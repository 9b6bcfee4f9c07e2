//! Pricing parcels on a card: zones of the two places, the lanes between them, chargeable
//! weight, the weight break, the surcharges and a customer's discount.

use std::collections::HashMap;

use chrono::NaiveDate;
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::violations::Violations;

use super::{Lane, RateCard, grams, place_key};

/// How long a quote may be booked.
pub const QUOTE_VALID_DAYS: i64 = 7;
/// What a quote token is signed for: no other token is accepted as one.
pub const QUOTE_AUDIENCE: &str = "quote";
const MAX_PARCEL_LINES: usize = 20;
/// Chargeable weight is rounded up to this step, in grams.
const WEIGHT_STEP_G: u64 = 500;
const CITY: TextRule = TextRule::line(80).optional();

/// A place, checked: an upper-case country and a trimmed city (maybe empty).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Place {
    pub country: String,
    pub city: String,
}

/// Identical parcels; weight in grams, sides in cm (all zero: not given).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Parcel {
    pub weight_kg: f64,
    pub length_cm: f64,
    pub width_cm: f64,
    pub height_cm: f64,
    pub count: u32,
}

/// A quote request, checked. Its serde form is the token's `req` claim, which the web app
/// reads to prefill a booking.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuoteRequest {
    pub origin: Place,
    pub destination: Place,
    pub parcels: Vec<Parcel>,
}

impl QuoteRequest {
    pub fn parse(request: &pb::CreateQuoteRequest, prefix: &str, v: &mut Violations) -> Self {
        let parcels_field = format!("{prefix}parcels");
        if request.parcels.is_empty() {
            v.add(&parcels_field, "add at least one parcel");
        } else if request.parcels.len() > MAX_PARCEL_LINES {
            v.add(&parcels_field, format!("at most {MAX_PARCEL_LINES} lines"));
        }
        QuoteRequest {
            origin: place(request.origin.as_ref(), &format!("{prefix}origin."), v),
            destination: place(
                request.destination.as_ref(),
                &format!("{prefix}destination."),
                v,
            ),
            parcels: request
                .parcels
                .iter()
                .take(MAX_PARCEL_LINES)
                .enumerate()
                .map(|(i, p)| parcel(p, &format!("{parcels_field}[{i}]."), v))
                .collect(),
        }
    }

    pub fn to_proto(&self) -> pb::CreateQuoteRequest {
        let place = |p: &Place| pb::QuotePlace {
            country: p.country.clone(),
            city: p.city.clone(),
        };
        pb::CreateQuoteRequest {
            origin: Some(place(&self.origin)),
            destination: Some(place(&self.destination)),
            parcels: self
                .parcels
                .iter()
                .map(|p| pb::QuoteParcel {
                    weight_kg: p.weight_kg,
                    length_cm: p.length_cm,
                    width_cm: p.width_cm,
                    height_cm: p.height_cm,
                    count: p.count as i32,
                })
                .collect(),
        }
    }

    /// All parcels' weight, in grams (each parcel's rounded up to a gram).
    pub fn actual_g(&self) -> u64 {
        self.parcels
            .iter()
            .map(|p| grams(p.weight_kg) * p.count as u64)
            .sum()
    }

    /// All parcels' volumetric weight at `divisor` cm³ per kg, in grams.
    fn volumetric_g(&self, divisor: u32) -> u64 {
        if divisor == 0 {
            return 0;
        }
        self.parcels
            .iter()
            .map(|p| {
                let cm3 = p.length_cm * p.width_cm * p.height_cm;
                (cm3 * 1000.0 / divisor as f64 - 1e-6).ceil().max(0.0) as u64 * p.count as u64
            })
            .sum()
    }
}

fn place(place: Option<&pb::QuotePlace>, at: &str, v: &mut Violations) -> Place {
    let default = pb::QuotePlace::default();
    let place = place.unwrap_or(&default);
    let country = place.country.trim().to_ascii_uppercase();
    if !(country.len() == 2 && country.bytes().all(|b| b.is_ascii_uppercase())) {
        v.add(
            format!("{at}country"),
            "choose a country (its code of two letters, e.g. NG)",
        );
    }
    Place {
        country,
        city: v.text(&format!("{at}city"), &place.city, CITY),
    }
}

fn parcel(parcel: &pb::QuoteParcel, at: &str, v: &mut Violations) -> Parcel {
    let weight_kg =
        if parcel.weight_kg.is_finite() && parcel.weight_kg > 0.0 && parcel.weight_kg <= 10_000.0 {
            parcel.weight_kg
        } else {
            v.add(
                format!("{at}weight_kg"),
                "must be more than 0 and at most 10,000 kg",
            );
            0.0
        };
    let sides = [parcel.length_cm, parcel.width_cm, parcel.height_cm];
    let given = sides.iter().filter(|s| **s != 0.0).count();
    let mut checked = [0.0; 3];
    if given > 0 {
        for (i, (name, side)) in ["length_cm", "width_cm", "height_cm"]
            .into_iter()
            .zip(sides)
            .enumerate()
        {
            if side.is_finite() && side > 0.0 && side <= 1_000.0 {
                checked[i] = side;
            } else {
                v.add(
                    format!("{at}{name}"),
                    "must be more than 0 and at most 1,000 cm (give all three sides, or none)",
                );
            }
        }
    }
    let count = match parcel.count {
        n @ 1..=999 => n as u32,
        _ => {
            v.add(format!("{at}count"), "must be between 1 and 999");
            1
        }
    };
    Parcel {
        weight_kg,
        length_cm: checked[0],
        width_cm: checked[1],
        height_cm: checked[2],
        count,
    }
}

/// A card ready to price from: its places and lanes indexed.
pub struct PricedCard {
    pub card: RateCard,
    /// The card whose lanes price a discount card's quotes (the public one).
    base: Option<std::sync::Arc<PricedCard>>,
    zone_of_place: HashMap<String, usize>,
    lanes: HashMap<(usize, usize), Vec<usize>>,
}

impl PricedCard {
    pub fn new(card: RateCard, base: Option<std::sync::Arc<PricedCard>>) -> Self {
        let mut zone_of_place = HashMap::new();
        for (i, zone) in card.zones.iter().enumerate() {
            for place in &zone.places {
                zone_of_place.insert(place_key(place), i);
            }
        }
        let zone_index = |code: &str| card.zones.iter().position(|z| z.code == code);
        let mut lanes: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (i, lane) in card.lanes.iter().enumerate() {
            if let (Some(from), Some(to)) =
                (zone_index(&lane.origin), zone_index(&lane.destination))
            {
                lanes.entry((from, to)).or_default().push(i);
            }
        }
        PricedCard {
            card,
            base,
            zone_of_place,
            lanes,
        }
    }

    /// The currency of the prices: a discount card's are its base card's.
    pub fn currency(&self) -> &str {
        match &self.base {
            Some(base) => &base.card.currency,
            None => &self.card.currency,
        }
    }

    /// A city's own zone, else its country's.
    fn zone(&self, place: &Place) -> Option<usize> {
        (!place.city.is_empty())
            .then(|| {
                self.zone_of_place
                    .get(&place_key(&format!("{}/{}", place.country, place.city)))
            })
            .flatten()
            .or_else(|| self.zone_of_place.get(&place.country))
            .copied()
    }

    /// Every service that carries these parcels between these places, cheapest first.
    pub fn price(&self, request: &QuoteRequest, today: NaiveDate) -> Vec<pb::QuoteOption> {
        let (prices, discount_bp) = match &self.base {
            Some(base) => (base.as_ref(), self.card.discount_bp),
            None => (self, 0),
        };
        let (Some(from), Some(to)) = (
            prices.zone(&request.origin),
            prices.zone(&request.destination),
        ) else {
            return Vec::new();
        };
        let remote = prices.card.zones[from].remote || prices.card.zones[to].remote;
        let mut options: Vec<(usize, pb::QuoteOption)> = prices
            .lanes
            .get(&(from, to))
            .into_iter()
            .flatten()
            .filter_map(|&i| {
                let lane = &prices.card.lanes[i];
                let service_index = prices
                    .card
                    .services
                    .iter()
                    .position(|s| s.code == lane.service)?;
                let option =
                    prices.price_lane(lane, service_index, request, remote, discount_bp, today)?;
                Some((service_index, option))
            })
            .collect();
        options.sort_by_key(|(service, option)| (option.price_minor, *service));
        options.into_iter().map(|(_, option)| option).collect()
    }

    fn price_lane(
        &self,
        lane: &Lane,
        service_index: usize,
        request: &QuoteRequest,
        remote: bool,
        discount_bp: u32,
        today: NaiveDate,
    ) -> Option<pb::QuoteOption> {
        let service = &self.card.services[service_index];
        let actual = request.actual_g();
        let volumetric = request.volumetric_g(lane.divisor);
        let chargeable = actual.max(volumetric).div_ceil(WEIGHT_STEP_G) * WEIGHT_STEP_G;
        let band = lane.breaks.iter().find(|b| b.up_to_g >= chargeable)?;
        let freight = if band.per_kg {
            // Rounded up to a whole minor unit.
            (band.price as u128 * chargeable as u128).div_ceil(1000) as i64
        } else {
            band.price
        }
        .max(lane.minimum);
        let fuel = share(freight, lane.fuel_bp);
        let remote_fee = if remote { lane.remote_fee } else { 0 };
        let oversize_count: u64 = request
            .parcels
            .iter()
            .filter(|p| self.oversize(p))
            .map(|p| p.count as u64)
            .sum();
        let oversize = lane.oversize_fee.saturating_mul(oversize_count as i64);
        let mut charges = vec![(pb::QuoteChargeKind::Freight, freight)];
        charges.extend(
            [
                (pb::QuoteChargeKind::Fuel, fuel),
                (pb::QuoteChargeKind::RemoteArea, remote_fee),
                (pb::QuoteChargeKind::Oversize, oversize),
            ]
            .into_iter()
            .filter(|(_, amount)| *amount != 0),
        );
        let subtotal: i64 = charges.iter().map(|(_, amount)| amount).sum();
        if discount_bp > 0 {
            charges.push((pb::QuoteChargeKind::Discount, -share(subtotal, discount_bp)));
        }
        let date = |days: u32| crate::details::date(today + chrono::Days::new(days as u64));
        Some(pb::QuoteOption {
            service_code: service.code.clone(),
            service_name: service.name.clone(),
            mode: service.mode,
            price_minor: charges.iter().map(|(_, amount)| amount).sum(),
            chargeable_weight_kg: chargeable as f64 / 1000.0,
            actual_weight_kg: actual as f64 / 1000.0,
            volumetric_weight_kg: volumetric as f64 / 1000.0,
            chargeable_weight_basis: if volumetric > actual {
                pb::ChargeableWeightBasis::Volumetric
            } else {
                pb::ChargeableWeightBasis::Actual
            } as i32,
            transit_days_min: lane.transit_min as i32,
            transit_days_max: lane.transit_max as i32,
            earliest_delivery_date: Some(date(lane.transit_min)),
            latest_delivery_date: Some(date(lane.transit_max)),
            charges: charges
                .into_iter()
                .map(|(kind, amount_minor)| pb::QuoteCharge {
                    kind: kind as i32,
                    amount_minor,
                })
                .collect(),
        })
    }

    fn oversize(&self, parcel: &super::quote::Parcel) -> bool {
        let limit = self.card.oversize_length_cm;
        let longest = parcel.length_cm.max(parcel.width_cm).max(parcel.height_cm);
        (limit > 0.0 && longest > limit)
            || (self.card.oversize_weight_g > 0
                && grams(parcel.weight_kg) > self.card.oversize_weight_g)
    }
}

/// `basis_points` of `amount`, rounded half up.
fn share(amount: i64, basis_points: u32) -> i64 {
    ((amount as i128 * basis_points as i128 + 5_000) / 10_000) as i64
}

/// What a quote token carries: enough to book at the quoted price, and for the web app to
/// prefill the booking. Signed, so nothing of it can be changed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QuoteClaims {
    pub qid: String,
    pub cur: String,
    pub card: String,
    pub ver: u32,
    /// The customer whose card priced it; empty for the public card.
    pub cus: String,
    pub req: QuoteRequest,
    pub opts: Vec<OptionClaim>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OptionClaim {
    pub code: String,
    pub name: String,
    pub mode: i32,
    pub price: i64,
    /// Chargeable weight, kg.
    pub kg: f64,
}

/// `Q-` and 10 characters of Crockford's base 32 (no I, L, O or U to misread).
pub fn new_quote_id() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut id = String::from("Q-");
    for _ in 0..10 {
        id.push(ALPHABET[rand::random_range(0..ALPHABET.len())] as char);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rates::{Service, WeightBreak, Zone};

    fn card() -> RateCard {
        RateCard {
            id: "public".into(),
            version: 1,
            currency: "USD".into(),
            zones: vec![
                Zone {
                    code: "WA".into(),
                    name: "West Africa".into(),
                    places: vec!["NG".into(), "GH".into()],
                    remote: false,
                },
                Zone {
                    code: "LAG".into(),
                    name: "Lagos".into(),
                    places: vec!["NG/Lagos".into()],
                    remote: false,
                },
                Zone {
                    code: "EU".into(),
                    name: "Europe".into(),
                    places: vec!["NL".into()],
                    remote: true,
                },
            ],
            services: vec![Service {
                code: "EXPRESS_AIR".into(),
                name: "Express Air".into(),
                mode: pb::ShipmentMode::AirShipping as i32,
            }],
            lanes: vec![Lane {
                service: "EXPRESS_AIR".into(),
                origin: "LAG".into(),
                destination: "EU".into(),
                breaks: vec![
                    WeightBreak {
                        up_to_g: 1_000,
                        price: 4_000,
                        per_kg: false,
                    },
                    WeightBreak {
                        up_to_g: 100_000,
                        price: 1_250,
                        per_kg: true,
                    },
                ],
                minimum: 2_500,
                divisor: 5_000,
                fuel_bp: 1_000,
                remote_fee: 700,
                oversize_fee: 3_000,
                transit_min: 3,
                transit_max: 5,
            }],
            oversize_length_cm: 120.0,
            ..RateCard::default()
        }
    }

    fn request(city: &str, weight_kg: f64, sides: [f64; 3], count: u32) -> QuoteRequest {
        QuoteRequest {
            origin: Place {
                country: "NG".into(),
                city: city.into(),
            },
            destination: Place {
                country: "NL".into(),
                city: "Rotterdam".into(),
            },
            parcels: vec![Parcel {
                weight_kg,
                length_cm: sides[0],
                width_cm: sides[1],
                height_cm: sides[2],
                count,
            }],
        }
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 27).unwrap()
    }

    #[test]
    fn volumetric_weight_wins_when_larger_and_is_rounded_up_to_half_a_kilo() {
        // 40×30×20 cm at 5000 cm³/kg is 4.8 kg, more than the 2 kg it weighs: 5 kg chargeable.
        let options = PricedCard::new(card(), None)
            .price(&request("lagos", 2.0, [40.0, 30.0, 20.0], 1), today());
        let option = &options[0];
        assert_eq!(option.chargeable_weight_kg, 5.0);
        assert_eq!(option.volumetric_weight_kg, 4.8);
        assert_eq!(
            option.chargeable_weight_basis,
            pb::ChargeableWeightBasis::Volumetric as i32
        );
        // 5 kg × 12.50 = 62.50; fuel 10% = 6.25; Rotterdam's zone is remote: 7.00.
        let charges: Vec<i64> = option.charges.iter().map(|c| c.amount_minor).collect();
        assert_eq!(charges, [6_250, 625, 700]);
        assert_eq!(option.price_minor, 7_575);
        assert_eq!(
            option.earliest_delivery_date,
            Some(crate::details::date(
                NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()
            ))
        );
    }

    #[test]
    fn a_city_zone_wins_over_its_country_and_a_place_without_a_lane_has_no_option() {
        assert_eq!(
            PricedCard::new(card(), None)
                .price(&request("LAGOS ", 0.4, [0.0; 3], 1), today())
                .len(),
            1
        );
        // Abuja is in West Africa, which has no lane to Europe.
        assert!(
            PricedCard::new(card(), None)
                .price(&request("Abuja", 0.4, [0.0; 3], 1), today())
                .is_empty()
        );
    }

    #[test]
    fn the_minimum_charge_oversize_and_a_weight_beyond_the_last_break() {
        let priced = PricedCard::new(card(), None);
        // 0.3 kg: the flat band of 40.00, above the 25.00 minimum; two 130 cm parcels are oversize.
        let option = &priced.price(&request("Lagos", 0.3, [130.0, 1.0, 1.0], 2), today())[0];
        assert_eq!(option.charges[0].amount_minor, 4_000);
        assert!(
            option
                .charges
                .iter()
                .any(|c| c.kind == pb::QuoteChargeKind::Oversize as i32 && c.amount_minor == 6_000)
        );
        assert!(
            priced
                .price(&request("Lagos", 101.0, [0.0; 3], 1), today())
                .is_empty()
        );
    }

    #[test]
    fn a_discount_card_prices_from_its_base_and_takes_its_share_off() {
        let base = std::sync::Arc::new(PricedCard::new(card(), None));
        let discounted = PricedCard::new(
            RateCard {
                id: "c1".into(),
                discount_bp: 1_000,
                ..RateCard::default()
            },
            Some(base),
        );
        let option = &discounted.price(&request("Lagos", 2.0, [40.0, 30.0, 20.0], 1), today())[0];
        assert_eq!(option.charges.last().unwrap().amount_minor, -758);
        assert_eq!(option.price_minor, 7_575 - 758);
    }
}
