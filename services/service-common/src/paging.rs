//! Paging shared by every list: opaque page tokens (base64url of a store's cursor) with one
//! bad-token error, the `page_size` rule, and keyset pages (fetch one row more than the page
//! to learn whether another follows).

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::violations::FieldViolation;

/// The request field a bad token is reported against, and what is said about it.
pub const FIELD: &str = "page_token";
pub const INVALID: &str = "is not a token from a previous page";

/// A page token that no previous page handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadPageToken;

impl fmt::Display for BadPageToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{FIELD}: {INVALID}")
    }
}

impl std::error::Error for BadPageToken {}

impl From<BadPageToken> for FieldViolation {
    fn from(_: BadPageToken) -> Self {
        FieldViolation::new(FIELD, INVALID)
    }
}

/// The token a client gets for the page after `cursor`.
pub fn encode(cursor: &str) -> String {
    URL_SAFE_NO_PAD.encode(cursor)
}

/// The cursor inside a token from a previous page; None for the empty token (the first page).
pub fn decode(token: &str) -> Result<Option<String>, BadPageToken> {
    if token.is_empty() {
        return Ok(None);
    }
    let bytes = URL_SAFE_NO_PAD.decode(token).map_err(|_| BadPageToken)?;
    let cursor = String::from_utf8(bytes).map_err(|_| BadPageToken)?;
    if cursor.is_empty() || cursor.chars().any(char::is_control) {
        return Err(BadPageToken);
    }
    Ok(Some(cursor))
}

/// The rows of a page a list request asks for: `default` for 0 (unset), else 1 to `max`.
pub fn page_size(value: i32, default: usize, max: usize) -> Result<usize, FieldViolation> {
    page_size_of("page_size", value, default, max)
}

/// `page_size` for a request nested in another (`filter.page_size`).
pub fn page_size_of(
    field: impl Into<String>,
    value: i32,
    default: usize,
    max: usize,
) -> Result<usize, FieldViolation> {
    match usize::try_from(value) {
        Ok(0) => Ok(default),
        Ok(n) if n <= max => Ok(n),
        _ => Err(FieldViolation::new(
            field,
            format!("must be from 1 to {max}"),
        )),
    }
}

/// A keyset page of `page_size` rows: the store reads `limit()` rows past the cursor, and
/// `page` keeps `page_size` of them with the next cursor if the extra row showed more follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyset {
    pub page_size: usize,
}

impl Keyset {
    pub fn new(page_size: usize) -> Self {
        Self { page_size }
    }

    /// How many rows to read: one more than the page.
    pub fn limit(self) -> i64 {
        i64::try_from(self.page_size).unwrap_or(i64::MAX - 1) + 1
    }

    /// The page of `rows` (read with `limit()`) and, when more follow, the cursor of its last
    /// row.
    pub fn page<T, C>(self, mut rows: Vec<T>, cursor: impl FnOnce(&T) -> C) -> (Vec<T>, Option<C>) {
        let more = rows.len() > self.page_size;
        rows.truncate(self.page_size);
        let next = if more { rows.last().map(cursor) } else { None };
        (rows, next)
    }
}

/// The cursor of a row in an order by `value`, ties broken by its unique `key`.
pub fn cursor(value: impl fmt::Display, key: impl fmt::Display) -> String {
    format!("{value}|{key}")
}

/// The value and key of a `cursor(value, key)`.
pub fn split(cursor: &str) -> Result<(&str, &str), BadPageToken> {
    cursor.rsplit_once('|').ok_or(BadPageToken)
}

/// A cursor that is a sequence number.
pub fn sequence(cursor: &str) -> Result<i64, BadPageToken> {
    cursor.parse().map_err(|_| BadPageToken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for cursor in ["42", "2026-11-23T10:00:00.000001Z|u-1", "é|ü"] {
            let token = encode(cursor);
            assert!(
                token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
            assert_eq!(decode(&token), Ok(Some(cursor.to_owned())));
        }
        assert_eq!(decode(""), Ok(None));
    }

    #[test]
    fn refuses_what_no_page_handed_out() {
        for token in [
            // garbage and non-base64
            "!!!",
            "not a token",
            "abc=",
            "a",
            "Zm9v+/",
            // plain old cursors, from before tokens were opaque
            "2026-11-23T10:00:00.000001Z|u-1",
            "2026-11-23T10:00:00.000001Z|",
            // valid base64 of something that is no cursor: bad UTF-8, control characters
            &URL_SAFE_NO_PAD.encode([0xff, 0xfe]),
            &URL_SAFE_NO_PAD.encode("a\0b"),
        ] {
            assert_eq!(decode(token), Err(BadPageToken), "{token}");
        }
        assert_eq!(
            BadPageToken.to_string(),
            "page_token: is not a token from a previous page"
        );
    }

    #[test]
    fn page_size_defaults_and_bounds() {
        assert_eq!(page_size(0, 20, 100), Ok(20));
        assert_eq!(page_size(1, 20, 100), Ok(1));
        assert_eq!(page_size(100, 20, 100), Ok(100));
        for bad in [-1, 101, i32::MIN] {
            assert_eq!(
                page_size(bad, 20, 100),
                Err(FieldViolation::new("page_size", "must be from 1 to 100"))
            );
        }
        assert_eq!(
            page_size_of("filter.page_size", 51, 10, 50)
                .unwrap_err()
                .field,
            "filter.page_size"
        );
    }

    #[test]
    fn keyset_pages() {
        let keyset = Keyset::new(2);
        assert_eq!(keyset.limit(), 3);
        assert_eq!(
            keyset.page(vec![1, 2, 3], |n| n * 10),
            (vec![1, 2], Some(20))
        );
        assert_eq!(keyset.page(vec![1, 2], |n| n * 10), (vec![1, 2], None));
        assert_eq!(keyset.page(Vec::<i32>::new(), |n| n * 10), (vec![], None));
    }

    #[test]
    fn cursors() {
        let c = cursor("2026-11-23T10:00:00.000001Z", "u-1");
        assert_eq!(split(&c), Ok(("2026-11-23T10:00:00.000001Z", "u-1")));
        assert_eq!(split("a|b|c"), Ok(("a|b", "c")));
        assert_eq!(split("42"), Err(BadPageToken));
        assert_eq!(sequence("42"), Ok(42));
        assert_eq!(sequence("4|2"), Err(BadPageToken));
    }
}
