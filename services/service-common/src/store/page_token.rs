//! Page tokens: opaque to clients (base64url of a store's cursor), checked on the way in.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

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
}
