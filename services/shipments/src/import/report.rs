//! The report of an import's rejected rows: each row as the file had it, after its line and
//! the errors found, so a fixed report imports as it is.

use super::CellError;

pub(super) fn report_blob(id: &str, part: i64) -> String {
    format!("imports/{id}/rejected-{part:06}")
}

/// The report's header (the file's, after `row` and `errors`), and which cells of a file's row
/// it keeps: all but the `row` and `errors` of a report imported again.
pub(super) fn report_columns(names: &[String]) -> (Vec<String>, Vec<usize>) {
    let mut header = vec!["row".to_owned(), "errors".to_owned()];
    header.extend(
        names
            .iter()
            .filter(|n| *n != "row" && *n != "errors")
            .cloned(),
    );
    let kept = names
        .iter()
        .enumerate()
        .filter(|(_, n)| *n != "row" && *n != "errors")
        .map(|(i, _)| i)
        .collect();
    (header, kept)
}

pub(super) fn write_rejected(
    report: &mut csv::Writer<Vec<u8>>,
    line: i64,
    errors: &[CellError],
    row: &csv::StringRecord,
    kept: &[usize],
) {
    let reasons = errors
        .iter()
        .map(|e| format!("{}: {}", e.column, e.message))
        .collect::<Vec<_>>()
        .join("; ");
    let mut cells = vec![line.to_string(), reasons];
    cells.extend(
        kept.iter()
            .map(|&i| crate::export::text_cell(row.get(i).unwrap_or(""))),
    );
    report.write_record(&cells).expect("writing to memory");
}
