//! The public card a new installation starts with, so its quote page answers at once; staff
//! edit or replace it under Rates.

use logistics_proto::v1::ShipmentMode;

use super::{Lane, PUBLIC, RateCard, Service, WeightBreak, Zone};

const ZONES: [(&str, &str, &[&str], bool); 6] = [
    (
        "WA",
        "West Africa",
        &["NG", "GH", "BJ", "TG", "CI", "SN", "CM"],
        false,
    ),
    (
        "NG-NORTH",
        "Northern Nigeria",
        &["NG/Kano", "NG/Maiduguri", "NG/Sokoto"],
        true,
    ),
    (
        "EU",
        "Europe",
        &[
            "NL", "BE", "DE", "FR", "GB", "IE", "ES", "PT", "IT", "AT", "CH", "DK", "SE", "NO",
            "PL",
        ],
        false,
    ),
    ("NA", "North America", &["US", "CA", "MX"], false),
    (
        "ME",
        "Middle East",
        &["AE", "SA", "QA", "KW", "BH", "OM", "EG", "JO"],
        false,
    ),
    (
        "AS",
        "Asia",
        &["CN", "HK", "JP", "KR", "SG", "IN", "MY", "TH", "VN"],
        false,
    ),
];

/// A service of the sample card: its price per kg above 5 kg (in cents), and its transit days
/// (min, max) within a region and between regions.
struct Sample {
    code: &'static str,
    name: &'static str,
    mode: ShipmentMode,
    per_kg: i64,
    near: (u32, u32),
    far: (u32, u32),
}

const SERVICES: [Sample; 4] = [
    Sample {
        code: "EXPRESS_AIR",
        name: "Express Air",
        mode: ShipmentMode::AirShipping,
        per_kg: 1_450,
        near: (1, 2),
        far: (2, 4),
    },
    Sample {
        code: "STANDARD_AIR",
        name: "Standard Air",
        mode: ShipmentMode::AirShipping,
        per_kg: 950,
        near: (2, 4),
        far: (5, 8),
    },
    Sample {
        code: "SEA_FREIGHT",
        name: "Sea Freight",
        mode: ShipmentMode::SeaShipping,
        per_kg: 180,
        near: (10, 14),
        far: (25, 40),
    },
    Sample {
        code: "GROUND",
        name: "Ground",
        mode: ShipmentMode::LandShipping,
        per_kg: 220,
        near: (2, 5),
        far: (7, 12),
    },
];

pub fn sample_public_card() -> RateCard {
    let zones = ZONES
        .iter()
        .map(|(code, name, places, remote)| Zone {
            code: (*code).to_owned(),
            name: (*name).to_owned(),
            places: places.iter().map(|p| (*p).to_owned()).collect(),
            remote: *remote,
        })
        .collect::<Vec<_>>();
    let services = SERVICES
        .iter()
        .map(|sample| Service {
            code: sample.code.to_owned(),
            name: sample.name.to_owned(),
            mode: sample.mode as i32,
        })
        .collect();
    let mut lanes = Vec::new();
    for from in &zones {
        for to in &zones {
            let within = from.code == to.code
                || (from.code.starts_with("NG") || from.code == "WA")
                    && (to.code.starts_with("NG") || to.code == "WA");
            for Sample {
                code,
                mode,
                per_kg,
                near,
                far,
                ..
            } in SERVICES
            {
                // Ground within a region only; sea between regions only.
                let carried = match mode {
                    ShipmentMode::LandShipping => within,
                    ShipmentMode::SeaShipping => !within,
                    _ => true,
                };
                if !carried {
                    continue;
                }
                let (transit_min, transit_max) = if within { near } else { far };
                let per_kg = if within { per_kg / 2 } else { per_kg };
                lanes.push(Lane {
                    service: code.to_owned(),
                    origin: from.code.clone(),
                    destination: to.code.clone(),
                    breaks: vec![
                        WeightBreak {
                            up_to_g: 1_000,
                            price: per_kg * 3,
                            per_kg: false,
                        },
                        WeightBreak {
                            up_to_g: 5_000,
                            price: per_kg * 6,
                            per_kg: false,
                        },
                        WeightBreak {
                            up_to_g: 1_000_000,
                            price: per_kg,
                            per_kg: true,
                        },
                    ],
                    minimum: per_kg * 2,
                    divisor: if mode == ShipmentMode::SeaShipping {
                        1_000
                    } else {
                        5_000
                    },
                    fuel_bp: if mode == ShipmentMode::AirShipping {
                        1_250
                    } else {
                        600
                    },
                    remote_fee: 1_500,
                    oversize_fee: 4_500,
                    transit_min,
                    transit_max,
                });
            }
        }
    }
    RateCard {
        id: PUBLIC.to_owned(),
        version: 1,
        currency: "USD".to_owned(),
        zones,
        services,
        lanes,
        oversize_length_cm: 120.0,
        oversize_weight_g: 70_000,
        updated_by: "sample card".to_owned(),
        ..RateCard::default()
    }
}
