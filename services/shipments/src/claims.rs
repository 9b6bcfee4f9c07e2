//! The unique names a new shipment takes for itself (its external reference, the import row it
//! came from), so the same shipment is never created twice.

/// The claim of a shipment's external reference (followed by it).
pub const REFERENCE_CLAIM: &str = "reference:";

/// The claim of an external reference.
pub fn reference(reference: &str) -> String {
    format!("{REFERENCE_CLAIM}{reference}")
}

/// The claim of line `line` of the import file with hash `file_hash`.
pub fn file_row(file_hash: &str, line: i64) -> String {
    format!("row:{file_hash}:{line}")
}
