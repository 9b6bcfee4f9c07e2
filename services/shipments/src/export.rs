//! Shipments as CSV, one row per shipment, written page by page so any number of them leave
//! in constant memory: UTF-8 with a byte-order mark (so spreadsheets read it as UTF-8), and
//! text cells that a spreadsheet would run as a formula escaped in a way the import undoes.

use std::sync::Arc;

use logistics_proto::v1 as pb;
use tonic::Status;

use crate::details;
use crate::domain::Shipment;
use crate::store::{ListQuery, ShipmentStore};

/// Shipments per chunk of an export.
const EXPORT_PAGE: usize = 1_000;

/// An export's chunks of CSV, header first.
pub type CsvStream = std::pin::Pin<
    Box<dyn futures::Stream<Item = Result<pb::ExportShipmentsResponse, Status>> + Send>,
>;

/// The shipments `query` matches, as CSV chunks of a page each; the store is read no faster
/// than the client takes them (a channel of two).
pub fn stream(store: Arc<dyn ShipmentStore>, mut query: ListQuery) -> CsvStream {
    query.page_size = EXPORT_PAGE;
    query.after = None;
    let (sender, receiver) = tokio::sync::mpsc::channel(2);
    tokio::spawn(async move {
        let mut header = true;
        loop {
            let page = match store.list(&query).await {
                Ok(page) => page,
                Err(e) => {
                    let _ = sender.send(Err(Status::from(e))).await;
                    return;
                }
            };
            let csv = write(&page.shipments, header);
            header = false;
            if sender
                .send(Ok(pb::ExportShipmentsResponse { csv }))
                .await
                .is_err()
            {
                return; // The client went away.
            }
            match page.next {
                Some(next) => query.after = Some(next),
                None => return,
            }
        }
    });
    Box::pin(tokio_stream::wrappers::ReceiverStream::new(receiver))
}

/// A column of the shipment's own, and its cell.
type Own = (&'static str, fn(&Shipment) -> String);

/// A run of the export's columns: the shipment's own, or the details' (by their place in the
/// details table).
enum Part {
    Own(&'static [Own]),
    Details(usize, usize),
}

/// The export's layout (the README documents each column): the shipment's own columns between
/// runs of the details'; a detail added to the table comes last. `packages` holds the packages
/// as a JSON array of `{quantity, pieceType, description, length, width, height, weight}`.
const LAYOUT: [Part; 8] = [
    Part::Own(&[
        ("tracking_number", |s| s.tracking_number.to_string()),
        ("status", |s| s.status.as_str().to_owned()),
    ]),
    // shipper_name to destination.
    Part::Details(0, 10),
    Part::Own(&[("current_location", |s| text_cell(&s.current_location))]),
    // carrier to pickup_time.
    Part::Details(10, 23),
    // comments before packages, unlike the table.
    Part::Details(24, 25),
    Part::Details(23, 24),
    Part::Own(&[
        ("total_volumetric_weight_kg", |s| {
            s.totals.total_volumetric_weight.to_string()
        }),
        ("total_volume_m3", |s| s.totals.total_volume.to_string()),
        ("total_actual_weight_kg", |s| {
            s.totals.total_actual_weight.to_string()
        }),
        ("created_at", |s| {
            crate::domain::utc_micros::format(&s.created_at)
        }),
        ("updated_at", |s| {
            crate::domain::utc_micros::format(&s.updated_at)
        }),
        ("id", |s| s.id.clone()),
        ("external_reference", |s| text_cell(&s.external_reference)),
    ]),
    Part::Details(25, usize::MAX),
];

/// The columns, in order.
pub const COLUMNS: [&str; column_count()] = columns();

/// Where a run of details ends, its end bounded by the table's length.
const fn details_end(to: usize) -> usize {
    if to < details::COLUMNS.len() {
        to
    } else {
        details::COLUMNS.len()
    }
}

const fn column_count() -> usize {
    let (mut count, mut i) = (0, 0);
    while i < LAYOUT.len() {
        count += match &LAYOUT[i] {
            Part::Own(columns) => columns.len(),
            Part::Details(from, to) => details_end(*to) - *from,
        };
        i += 1;
    }
    count
}

const fn columns() -> [&'static str; column_count()] {
    let mut out = [""; column_count()];
    let (mut at, mut i) = (0, 0);
    while i < LAYOUT.len() {
        match &LAYOUT[i] {
            Part::Own(columns) => {
                let mut j = 0;
                while j < columns.len() {
                    out[at] = columns[j].0;
                    (at, j) = (at + 1, j + 1);
                }
            }
            Part::Details(from, to) => {
                let mut j = *from;
                while j < details_end(*to) {
                    out[at] = details::COLUMNS[j];
                    (at, j) = (at + 1, j + 1);
                }
            }
        }
        i += 1;
    }
    out
}

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

/// One shipment's row, cells in `COLUMNS` order.
pub fn row(s: &Shipment) -> Vec<String> {
    let details = s.details.cells();
    let mut row = Vec::with_capacity(COLUMNS.len());
    for part in &LAYOUT {
        match part {
            Part::Own(columns) => row.extend(columns.iter().map(|(_, cell)| cell(s))),
            Part::Details(from, to) => row.extend(
                details[*from..details_end(*to)]
                    .iter()
                    .map(|(cell, text)| if *text { text_cell(cell) } else { cell.clone() }),
            ),
        }
    }
    row
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
    fn the_columns_keep_the_layout_files_have() {
        let expected = "tracking_number,status,shipper_name,shipper_address,shipper_phone,\
            shipper_email,receiver_name,receiver_address,receiver_phone,receiver_email,origin,\
            destination,current_location,carrier,type_of_shipment,shipment_mode,package_count,\
            product,product_quantity,payment_mode,total_freight,weight_kg,\
            expected_delivery_date,departure_time,pickup_date,pickup_time,comments,packages,\
            total_volumetric_weight_kg,total_volume_m3,total_actual_weight_kg,created_at,\
            updated_at,id,external_reference,language_code,customer_id";
        assert_eq!(COLUMNS.join(","), expected);
    }
}
