//! Shipments as CSV, one row per shipment, written page by page so any number of them leave
//! in constant memory: UTF-8 with a byte-order mark (so spreadsheets read it as UTF-8), and
//! text cells that a spreadsheet would run as a formula escaped in a way the import undoes.

use serde::Serialize;

use crate::domain::Shipment;

/// The columns, in order (the README documents each). `packages` holds the packages as a
/// JSON array of `{quantity, pieceType, description, length, width, height, weight}`.
pub const COLUMNS: [&str; 36] = [
    "tracking_number",
    "status",
    "shipper_name",
    "shipper_address",
    "shipper_phone",
    "shipper_email",
    "receiver_name",
    "receiver_address",
    "receiver_phone",
    "receiver_email",
    "origin",
    "destination",
    "current_location",
    "carrier",
    "type_of_shipment",
    "shipment_mode",
    "package_count",
    "product",
    "product_quantity",
    "payment_mode",
    "total_freight",
    "weight_kg",
    "expected_delivery_date",
    "departure_time",
    "pickup_date",
    "pickup_time",
    "comments",
    "packages",
    "total_volumetric_weight_kg",
    "total_volume_m3",
    "total_actual_weight_kg",
    "created_at",
    "updated_at",
    "id",
    "external_reference",
    "language_code",
];

/// The byte-order mark that starts every file written for people (exports, reports).
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The first characters that make a spreadsheet run a cell as a formula.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether `text` starts with the apostrophe `text_cell` adds: one followed by a formula's
/// first character or by another apostrophe.
pub fn is_escaped(text: &str) -> bool {
    text.strip_prefix('\'')
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c == '\'' || FORMULA_STARTS.contains(&c))
}

/// A cell a spreadsheet would read as a formula gets a leading apostrophe, so it stays text;
/// so does a text that already looks escaped, so the import's undoing (dropping one such
/// apostrophe) gives back every text exactly.
pub fn text_cell(value: &str) -> String {
    if value.starts_with(FORMULA_STARTS) || is_escaped(value) {
        format!("'{value}")
    } else {
        value.to_owned()
    }
}

/// An enum as stored (`in_transit`, `air_shipping`).
fn name(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The cents as a decimal amount (`1250.50`).
fn amount(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

/// One shipment's row, cells in `COLUMNS` order.
pub fn row(s: &Shipment) -> Vec<String> {
    let d = &s.details;
    let text = |v: &str| text_cell(v);
    vec![
        s.tracking_number.to_string(),
        s.status.as_str().to_owned(),
        text(&d.shipper_name),
        text(&d.shipper_address),
        text(&d.shipper_phone),
        text(&d.shipper_email),
        text(&d.receiver_name),
        text(&d.receiver_address),
        text(&d.receiver_phone),
        text(&d.receiver_email),
        text(&d.origin),
        text(&d.destination),
        text(&s.current_location),
        text(&d.carrier),
        name(&d.type_of_shipment),
        name(&d.shipment_mode),
        d.package_count.to_string(),
        text(&d.product),
        d.product_quantity.to_string(),
        name(&d.payment_mode),
        amount(d.total_freight_cents),
        d.weight.to_string(),
        d.expected_delivery_date.to_string(),
        d.departure_time.format("%H:%M").to_string(),
        d.pickup_date.to_string(),
        d.pickup_time.format("%H:%M").to_string(),
        text(&d.comments),
        text(&serde_json::to_string(&d.packages).unwrap_or_default()),
        s.totals.total_volumetric_weight.to_string(),
        s.totals.total_volume.to_string(),
        s.totals.total_actual_weight.to_string(),
        crate::domain::utc_micros::format(&s.created_at),
        crate::domain::utc_micros::format(&s.updated_at),
        s.id.clone(),
        text(&s.external_reference),
        d.language.code().to_owned(),
    ]
}

/// CSV text of `rows` (after the byte-order mark and the header row when `header`).
pub fn write(shipments: &[Shipment], header: bool) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(shipments.len() * 512 + 1024);
    if header {
        buffer.extend_from_slice(BOM);
    }
    let mut out = csv::Writer::from_writer(buffer);
    if header {
        out.write_record(COLUMNS).expect("writing to memory");
    }
    for s in shipments {
        out.write_record(row(s)).expect("writing to memory");
    }
    out.into_inner().expect("writing to memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_escaped_and_other_text_is_kept() {
        assert_eq!(
            text_cell("=HYPERLINK(\"http://x\")"),
            "'=HYPERLINK(\"http://x\")"
        );
        for risky in ["+1 555", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert!(text_cell(risky).starts_with('\''), "{risky:?}");
        }
        assert_eq!(
            text_cell("Maria O'Neil, \"Quay\" 1"),
            "Maria O'Neil, \"Quay\" 1"
        );
        assert_eq!(text_cell("'=x"), "''=x");
        assert_eq!(text_cell("''"), "'''");
        assert_eq!(text_cell("'quoted'"), "'quoted'");
    }

    #[test]
    fn amounts_keep_every_cent() {
        assert_eq!(amount(125_050), "1250.50");
        assert_eq!(amount(5), "0.05");
        assert_eq!(amount(-101), "-1.01");
    }
}
