//! Stored documents as JSON text (the SQLite stores keep one per row).

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::StoreFault;

pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<String, StoreFault> {
    serde_json::to_string(value).map_err(|e| StoreFault::Internal(e.to_string()))
}

/// Reads a stored `what` (a "user", a "shipment") back.
pub fn decode<T: DeserializeOwned>(what: &str, doc: &str) -> Result<T, StoreFault> {
    serde_json::from_str(doc)
        .map_err(|e| StoreFault::Internal(format!("stored {what} unreadable: {e}")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip_and_unreadable() {
        let text = super::encode(&vec![1, 2]).unwrap();
        assert_eq!(
            super::decode::<Vec<i32>>("list", &text).unwrap(),
            vec![1, 2]
        );
        let e = super::decode::<Vec<i32>>("list", "{").unwrap_err();
        assert!(e.to_string().starts_with("stored list unreadable: "), "{e}");
    }
}
