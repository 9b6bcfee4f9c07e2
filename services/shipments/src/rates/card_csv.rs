//! A rate card as one CSV table a spreadsheet opens: a `record` column says what each row is
//! (`card`, `zone`, `service`, `lane`, `break`) and which of the other columns it fills.
//! Amounts are in major units (`12.50`), percentages as percent (`12.5`).

use logistics_proto::v1 as pb;
use service_common::violations::Violations;

use super::RateCard;
use crate::export::{BOM, is_escaped, text_cell};

/// Largest file read, checked before it is parsed.
pub const MAX_BYTES: usize = 1_000_000;
pub const MAX_ROWS: usize = 5_000;

pub const COLUMNS: [&str; 25] = [
    "record",
    "code",
    "name",
    "places",
    "remote",
    "mode",
    "service",
    "origin_zone",
    "destination_zone",
    "up_to_kg",
    "price",
    "per_kg",
    "minimum_charge",
    "volumetric_divisor",
    "fuel_percent",
    "remote_area_surcharge",
    "oversize_surcharge",
    "transit_days_min",
    "transit_days_max",
    "currency",
    "discount_percent",
    "valid_from",
    "valid_until",
    "oversize_length_cm",
    "oversize_weight_kg",
];

fn column(name: &str) -> usize {
    COLUMNS
        .iter()
        .position(|c| *c == name)
        .expect("a known column")
}

/// Digits after the decimal point of a currency's minor unit (ISO 4217).
pub fn minor_digits(currency: &str) -> u32 {
    match currency {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX"
        | "UYI" | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        _ => 2,
    }
}

/// 1250 with 2 digits → `12.50`.
fn format_amount(minor: i64, digits: u32) -> String {
    if digits == 0 {
        return minor.to_string();
    }
    let scale = 10_i64.pow(digits);
    let sign = if minor < 0 { "-" } else { "" };
    let minor = minor.unsigned_abs();
    format!(
        "{sign}{}.{:0width$}",
        minor / scale as u64,
        minor % scale as u64,
        width = digits as usize
    )
}

/// `12.5` with 2 digits → 1250; no float on the way, and no more decimals than the currency has.
fn parse_amount(text: &str, digits: u32) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || whole.len() > 13
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > digits as usize
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let padded = format!("{fraction:0<width$}", width = digits as usize);
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = if padded.is_empty() {
        0
    } else {
        padded.parse().ok()?
    };
    whole.checked_mul(10_i64.pow(digits))?.checked_add(fraction)
}

/// Basis points as a percent: 1250 → `12.5`.
pub fn format_percent(bp: u32) -> String {
    let text = format_amount(bp as i64, 2);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn number(value: f64) -> String {
    if value == 0.0 {
        String::new()
    } else {
        // Shortest text that reads back as the same number.
        format!("{value}")
    }
}

fn mode_name(mode: i32) -> &'static str {
    match pb::ShipmentMode::try_from(mode) {
        Ok(pb::ShipmentMode::LandShipping) => "land",
        Ok(pb::ShipmentMode::AirShipping) => "air",
        Ok(pb::ShipmentMode::SeaShipping) => "sea",
        _ => "",
    }
}

/// The card as CSV, after a byte-order mark (spreadsheets then read it as UTF-8).
pub fn write(card: &RateCard) -> String {
    let digits = minor_digits(&card.currency);
    let mut out = csv::Writer::from_writer(Vec::new());
    let row = |cells: &[(&str, String)]| {
        let mut row = vec![String::new(); COLUMNS.len()];
        for (name, value) in cells {
            row[column(name)] = value.clone();
        }
        row
    };
    let mut rows = vec![COLUMNS.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>()];
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| d.to_string()).unwrap_or_default();
    rows.push(row(&[
        ("record", "card".into()),
        ("currency", card.currency.clone()),
        (
            "discount_percent",
            if card.discount_bp > 0 {
                format_percent(card.discount_bp)
            } else {
                String::new()
            },
        ),
        ("valid_from", date(card.valid_from)),
        ("valid_until", date(card.valid_until)),
        ("oversize_length_cm", number(card.oversize_length_cm)),
        (
            "oversize_weight_kg",
            number(card.oversize_weight_g as f64 / 1000.0),
        ),
    ]));
    for zone in &card.zones {
        rows.push(row(&[
            ("record", "zone".into()),
            ("code", zone.code.clone()),
            ("name", text_cell(&zone.name)),
            ("places", text_cell(&zone.places.join("; "))),
            ("remote", if zone.remote { "yes" } else { "no" }.into()),
        ]));
    }
    for service in &card.services {
        rows.push(row(&[
            ("record", "service".into()),
            ("code", service.code.clone()),
            ("name", text_cell(&service.name)),
            ("mode", mode_name(service.mode).into()),
        ]));
    }
    for lane in &card.lanes {
        let keys = [
            ("service", lane.service.clone()),
            ("origin_zone", lane.origin.clone()),
            ("destination_zone", lane.destination.clone()),
        ];
        let mut cells = vec![("record", "lane".to_owned())];
        cells.extend(keys.iter().cloned());
        cells.extend([
            ("minimum_charge", format_amount(lane.minimum, digits)),
            ("volumetric_divisor", lane.divisor.to_string()),
            ("fuel_percent", format_percent(lane.fuel_bp)),
            (
                "remote_area_surcharge",
                format_amount(lane.remote_fee, digits),
            ),
            (
                "oversize_surcharge",
                format_amount(lane.oversize_fee, digits),
            ),
            ("transit_days_min", lane.transit_min.to_string()),
            ("transit_days_max", lane.transit_max.to_string()),
        ]);
        rows.push(row(&cells));
        for band in &lane.breaks {
            let mut cells = vec![("record", "break".to_owned())];
            cells.extend(keys.iter().cloned());
            cells.extend([
                ("up_to_kg", number(band.up_to_g as f64 / 1000.0)),
                ("price", format_amount(band.price, digits)),
                ("per_kg", if band.per_kg { "yes" } else { "no" }.into()),
            ]);
            rows.push(row(&cells));
        }
    }
    for row in rows {
        out.write_record(&row)
            .expect("writing to memory cannot fail");
    }
    let bytes = out.into_inner().expect("writing to memory cannot fail");
    format!(
        "{}{}",
        String::from_utf8_lossy(BOM),
        String::from_utf8(bytes).expect("CSV of UTF-8 text is UTF-8")
    )
}

/// The card a CSV file describes, as a proto for `RateCard::from_proto` to check. Each
/// violation names its row (the file's line of it) and column.
pub fn read(text: &str, id: &str, version: i32, v: &mut Violations) -> Option<pb::RateCard> {
    if text.len() > MAX_BYTES {
        v.add("csv", "is larger than 1 MB");
        return None;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = match reader.headers() {
        Ok(header) => header.clone(),
        Err(e) => {
            v.add("csv", format!("cannot be read: {e}"));
            return None;
        }
    };
    let index: Vec<Option<usize>> = COLUMNS
        .iter()
        .map(|name| header.iter().position(|h| h.trim() == *name))
        .collect();
    if index[0].is_none() {
        v.add(
            "csv",
            "has no `record` column: export a card to see the format",
        );
        return None;
    }
    let mut card = pb::RateCard {
        id: id.to_owned(),
        version,
        ..pb::RateCard::default()
    };
    let mut digits = 2;
    for (n, record) in reader.records().enumerate() {
        if n >= MAX_ROWS {
            v.add("csv", format!("has more than {MAX_ROWS} rows"));
            break;
        }
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                v.add(format!("row {}", n + 2), format!("cannot be read: {e}"));
                continue;
            }
        };
        let line = record.position().map_or(n as u64 + 2, |p| p.line());
        let cell = |name: &str| -> String {
            let raw = index[column(name)]
                .and_then(|i| record.get(i))
                .unwrap_or("")
                .trim();
            if is_escaped(raw) {
                raw[1..].to_owned()
            } else {
                raw.to_owned()
            }
        };
        let mut row = Row { line, v: &mut *v };
        match cell("record").to_ascii_lowercase().as_str() {
            "" => continue,
            "card" => {
                card.currency = cell("currency").to_ascii_uppercase();
                digits = minor_digits(&card.currency);
                card.discount_basis_points =
                    row.percent("discount_percent", &cell("discount_percent"));
                card.valid_from = row.date("valid_from", &cell("valid_from"));
                card.valid_until = row.date("valid_until", &cell("valid_until"));
                card.oversize_length_cm =
                    row.decimal("oversize_length_cm", &cell("oversize_length_cm"));
                card.oversize_weight_kg =
                    row.decimal("oversize_weight_kg", &cell("oversize_weight_kg"));
            }
            "zone" => card.zones.push(pb::RateZone {
                code: cell("code"),
                name: cell("name"),
                places: cell("places")
                    .split(';')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect(),
                remote: row.yes("remote", &cell("remote")),
            }),
            "service" => card.services.push(pb::RateService {
                code: cell("code"),
                name: cell("name"),
                mode: match cell("mode").to_ascii_lowercase().as_str() {
                    "land" => pb::ShipmentMode::LandShipping as i32,
                    "air" => pb::ShipmentMode::AirShipping as i32,
                    "sea" => pb::ShipmentMode::SeaShipping as i32,
                    _ => {
                        row.bad("mode", "must be land, air or sea");
                        0
                    }
                },
            }),
            "lane" => card.lanes.push(pb::RateLane {
                service_code: cell("service"),
                origin_zone: cell("origin_zone"),
                destination_zone: cell("destination_zone"),
                weight_breaks: Vec::new(),
                minimum_charge_minor: row.amount("minimum_charge", &cell("minimum_charge"), digits),
                volumetric_divisor: row.whole("volumetric_divisor", &cell("volumetric_divisor")),
                fuel_surcharge_basis_points: row.percent("fuel_percent", &cell("fuel_percent")),
                remote_area_surcharge_minor: row.amount(
                    "remote_area_surcharge",
                    &cell("remote_area_surcharge"),
                    digits,
                ),
                oversize_surcharge_minor: row.amount(
                    "oversize_surcharge",
                    &cell("oversize_surcharge"),
                    digits,
                ),
                transit_days_min: row.whole("transit_days_min", &cell("transit_days_min")),
                transit_days_max: row.whole("transit_days_max", &cell("transit_days_max")),
            }),
            "break" => {
                let (service, origin, destination) = (
                    cell("service"),
                    cell("origin_zone"),
                    cell("destination_zone"),
                );
                let band = pb::WeightBreak {
                    up_to_kg: row.decimal("up_to_kg", &cell("up_to_kg")),
                    price_minor: row.amount("price", &cell("price"), digits),
                    per_kg: row.yes("per_kg", &cell("per_kg")),
                };
                match card.lanes.iter_mut().rev().find(|l| {
                    l.service_code.eq_ignore_ascii_case(&service)
                        && l.origin_zone.eq_ignore_ascii_case(&origin)
                        && l.destination_zone.eq_ignore_ascii_case(&destination)
                }) {
                    Some(lane) => lane.weight_breaks.push(band),
                    None => row.bad("service", "no lane row above has this service and zones"),
                }
            }
            other => row.bad(
                "record",
                format!("{other} is not card, zone, service, lane or break"),
            ),
        }
    }
    Some(card)
}

/// One row's cells read into numbers, each failure a violation naming the row and column.
struct Row<'a> {
    line: u64,
    v: &'a mut Violations,
}

impl Row<'_> {
    fn bad(&mut self, column: &str, why: impl Into<String>) {
        self.v.add(format!("row {}, {column}", self.line), why);
    }

    fn amount(&mut self, column: &str, text: &str, digits: u32) -> i64 {
        if text.is_empty() {
            return 0;
        }
        parse_amount(text, digits).unwrap_or_else(|| {
            self.bad(
                column,
                format!("{text} is not an amount with at most {digits} decimals, e.g. 12.50"),
            );
            0
        })
    }

    fn percent(&mut self, column: &str, text: &str) -> i32 {
        if text.is_empty() {
            return 0;
        }
        match parse_amount(text, 2) {
            Some(bp) if bp <= 10_000 => bp as i32,
            _ => {
                self.bad(column, format!("{text} is not a percentage from 0 to 100"));
                0
            }
        }
    }

    fn whole(&mut self, column: &str, text: &str) -> i32 {
        if text.is_empty() {
            return 0;
        }
        text.parse::<u16>().map(i32::from).unwrap_or_else(|_| {
            self.bad(column, format!("{text} is not a whole number"));
            0
        })
    }

    fn decimal(&mut self, column: &str, text: &str) -> f64 {
        if text.is_empty() {
            return 0.0;
        }
        match text.parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => n,
            _ => {
                self.bad(column, format!("{text} is not a number"));
                0.0
            }
        }
    }

    fn yes(&mut self, column: &str, text: &str) -> bool {
        match text.to_ascii_lowercase().as_str() {
            "yes" | "true" | "1" => true,
            "" | "no" | "false" | "0" => false,
            _ => {
                self.bad(column, format!("{text} is not yes or no"));
                false
            }
        }
    }

    fn date(&mut self, column: &str, text: &str) -> Option<pb::Date> {
        if text.is_empty() {
            return None;
        }
        match chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            Ok(date) => Some(crate::details::date(date)),
            Err(_) => {
                self.bad(column, format!("{text} is not a date (YYYY-MM-DD)"));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rates::sample_public_card;

    #[test]
    fn a_card_reads_back_from_its_own_csv_exactly() {
        let mut card = sample_public_card();
        card.zones[0].name = "=HYPERLINK(\"x\")".into();
        let text = write(&card);
        let mut v = Violations::default();
        let proto = read(&text, "public", 1, &mut v).unwrap();
        assert!(v.is_empty(), "{v}");
        let back = RateCard::from_proto(&proto, "", &mut v);
        assert!(v.is_empty(), "{v}");
        assert_eq!(
            RateCard {
                updated_by: String::new(),
                ..back
            },
            RateCard {
                updated_by: String::new(),
                ..card
            }
        );
        assert!(text.contains("\"'=HYPERLINK"), "the formula stays text");
    }

    #[test]
    fn a_bad_cell_is_named_by_its_row_and_column() {
        let text = "record,service,origin_zone,destination_zone,up_to_kg,price\n\
                    break,EXPRESS_AIR,WA,EU,1,abc\n";
        let mut v = Violations::default();
        read(text, "public", 1, &mut v);
        let named: Vec<String> = v.iter().map(|f| f.field.clone()).collect();
        assert_eq!(named, ["row 2, price", "row 2, service"]);
    }

    #[test]
    fn amounts_are_exact_in_the_currency_s_minor_unit() {
        assert_eq!(parse_amount("12.5", 2), Some(1_250));
        assert_eq!(parse_amount("0.07", 2), Some(7));
        assert_eq!(parse_amount("1.005", 2), None);
        assert_eq!(parse_amount("1500", 0), Some(1_500));
        assert_eq!(parse_amount("-1", 2), None);
        assert_eq!(format_amount(1_250, 2), "12.50");
        assert_eq!(format_amount(5, 3), "0.005");
        assert_eq!(format_percent(1_250), "12.5");
        assert_eq!(format_percent(600), "6");
    }
}
