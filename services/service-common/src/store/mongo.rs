//! Stored documents in MongoDB: a value's `id` is the document's `_id`.

use futures::TryStreamExt;
use mongodb::Collection;
use mongodb::bson::{self, Bson, Document};
use mongodb::error::{Error, ErrorKind, WriteFailure};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::StoreFault;
use crate::paging::{self, BadPageToken, Keyset};

/// The server's code for a write a unique index refused.
pub const DUPLICATE_KEY: i32 = 11000;

/// The document of `value`, its `id` field stored as `_id`.
pub fn to_document<T: Serialize>(value: &T) -> Result<Document, StoreFault> {
    let mut d = bson::to_document(value).map_err(|e| StoreFault::Internal(e.to_string()))?;
    let id = d.remove("id").unwrap_or(Bson::Null);
    d.insert("_id", id);
    Ok(d)
}

/// Reads a stored `what` (a "user", a "shipment") back, its `_id` as `id`.
pub fn from_document<T: DeserializeOwned>(what: &str, mut d: Document) -> Result<T, StoreFault> {
    if let Some(id) = d.remove("_id") {
        d.insert("id", id);
    }
    bson::from_document(d)
        .map_err(|e| StoreFault::Internal(format!("stored {what} unreadable: {e}")))
}

/// Whether a unique index refused the write, however the driver reports it (a write error, a
/// command error such as findAndModify's, or one of an insert_many's).
pub fn is_duplicate_key(e: &Error) -> bool {
    match &*e.kind {
        ErrorKind::Write(WriteFailure::WriteError(w)) => w.code == DUPLICATE_KEY,
        ErrorKind::Command(c) => c.code == DUPLICATE_KEY,
        ErrorKind::InsertMany(m) => m
            .write_errors
            .iter()
            .flatten()
            .any(|w| w.code == DUPLICATE_KEY),
        _ => false,
    }
}

/// Escapes every ASCII punctuation character, so the search text is matched literally.
pub fn regex_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if c.is_ascii_punctuation() || c == ' ' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The documents past a keyset cursor (`value`, `id`) in the order by `field` then `_id`.
pub fn past_cursor(field: &str, value: impl Into<Bson>, id: &str, descending: bool) -> Document {
    let past = if descending { "$lt" } else { "$gt" };
    let value = value.into();
    bson::doc! { "$or": [
        { field: { past: value.clone() } },
        { field: value, "_id": { past: id } },
    ] }
}

/// A keyset order of a collection: by the string `field`, ties broken by `_id`.
#[derive(Clone, Copy, Debug)]
pub struct Order<'a> {
    pub field: &'a str,
    pub descending: bool,
}

/// One keyset page of `collection`: the documents matching `filter` past `after` (a
/// [`paging::cursor`] of a document's field and `_id`) in `order`, each read by `read`, and
/// the cursor of the page's last one when more follow.
pub async fn find_page<T, E>(
    collection: &Collection<Document>,
    filter: Document,
    order: Order<'_>,
    after: Option<&str>,
    keyset: Keyset,
    read: impl FnMut(Document) -> Result<T, E>,
) -> Result<(Vec<T>, Option<String>), E>
where
    E: From<StoreFault> + From<BadPageToken>,
{
    let filter = match after {
        Some(cursor) => {
            let (value, id) = paging::split(cursor)?;
            let past = past_cursor(order.field, value, id, order.descending);
            bson::doc! { "$and": [filter, past] }
        }
        None => filter,
    };
    let direction = if order.descending { -1 } else { 1 };
    let docs: Vec<Document> = collection
        .find(filter)
        .sort(bson::doc! { order.field: direction, "_id": direction })
        .limit(keyset.limit())
        .await
        .map_err(StoreFault::from)?
        .try_collect()
        .await
        .map_err(StoreFault::from)?;
    let (docs, next) = keyset.page(docs, |d| match (d.get_str(order.field), d.get_str("_id")) {
        (Ok(value), Ok(id)) => Ok(paging::cursor(value, id)),
        _ => Err(StoreFault::Internal(format!(
            "stored document without a string {} and _id",
            order.field
        ))),
    });
    let next = next.transpose()?;
    let rows = docs.into_iter().map(read).collect::<Result<Vec<_>, _>>()?;
    Ok((rows, next))
}

#[cfg(test)]
mod tests {
    use mongodb::bson::doc;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Thing {
        id: String,
        name: String,
    }

    #[test]
    fn past_cursor_breaks_ties_by_id() {
        assert_eq!(
            super::past_cursor("createdAt", "t", "u-1", true),
            doc! { "$or": [
                { "createdAt": { "$lt": "t" } },
                { "createdAt": "t", "_id": { "$lt": "u-1" } },
            ] }
        );
        assert_eq!(
            super::past_cursor("seq", 7_i64, "i-1", false),
            doc! { "$or": [
                { "seq": { "$gt": 7_i64 } },
                { "seq": 7_i64, "_id": { "$gt": "i-1" } },
            ] }
        );
    }

    #[test]
    fn id_is_stored_as_underscore_id() {
        let thing = Thing {
            id: "t1".into(),
            name: "a".into(),
        };
        let d = super::to_document(&thing).unwrap();
        assert_eq!(d, doc! { "name": "a", "_id": "t1" });
        assert_eq!(super::from_document::<Thing>("thing", d).unwrap(), thing);
        let e = super::from_document::<Thing>("thing", doc! { "_id": 1 }).unwrap_err();
        assert!(
            e.to_string().starts_with("stored thing unreadable: "),
            "{e}"
        );
    }
}
