//! The full-view grants of the tracking page: the shipments service hands one out (response
//! metadata) to a visitor who proved they are a party; the gateway keeps it in an HttpOnly
//! cookie per shipment, so page scripts never hold it, and passes it back on lookups.

use http::HeaderMap;
use shipments::domain::TrackingNumber;
pub use shipments::tracking::{ACCESS_METADATA, GRANT_METADATA};
const COOKIE_PREFIX: &str = "pse_track_";
/// A browser keeps grants for this many shipments at most; more are ignored.
const MOST_GRANTS: usize = 20;

/// The grants in a `Cookie` header.
pub fn grants_from_cookies(header: Option<&str>) -> Vec<String> {
    let Some(header) = header else {
        return Vec::new();
    };
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, value)| name.starts_with(COOKIE_PREFIX) && is_token(value))
        .map(|(_, value)| value.to_owned())
        .take(MOST_GRANTS)
        .collect()
}

/// Puts the grants of the browser's cookies into request metadata (the client's own header of
/// that name is already gone).
pub fn forward(headers: &mut HeaderMap, grants: Vec<String>) {
    for grant in grants {
        if let Ok(value) = grant.parse() {
            headers.append(ACCESS_METADATA, value);
        }
    }
}

/// Turns a grant in the service's response into a `Set-Cookie`, and takes it out of the
/// response so no script sees it.
pub fn grant_cookie(headers: &mut HeaderMap, secure: bool) -> Option<String> {
    let grant = headers.remove(GRANT_METADATA)?;
    let mut parts = grant.to_str().ok()?.split(' ');
    let (number, max_age, token) = (parts.next()?, parts.next()?, parts.next()?);
    // Exactly a tracking number as the service writes it: it becomes part of a cookie name.
    let number_ok = TrackingNumber::parse(number).is_ok_and(|n| n.as_str() == number);
    let max_age: u64 = max_age.parse().ok()?;
    if !number_ok || !is_token(token) {
        return None;
    }
    let secure = if secure { "; Secure" } else { "" };
    Some(format!(
        "{COOKIE_PREFIX}{number}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
}

/// A JWT's characters: base64url and dots, nothing a cookie or header could trip on.
fn is_token(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 2048
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_are_read_from_their_own_cookies_only() {
        assert_eq!(
            grants_from_cookies(Some(
                "session=s1; pse_track_PSE123456789=a.b.c; pse_track_PSE000000001=bad value; theme=x"
            )),
            vec!["a.b.c".to_owned()]
        );
        assert!(grants_from_cookies(None).is_empty());
    }

    #[test]
    fn a_grant_becomes_an_httponly_cookie_and_leaves_the_response() {
        let mut headers = HeaderMap::new();
        headers.insert(GRANT_METADATA, "PSE123456789 86400 a.b.c".parse().unwrap());
        assert_eq!(
            grant_cookie(&mut headers, true).unwrap(),
            "pse_track_PSE123456789=a.b.c; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400; Secure"
        );
        assert!(headers.get(GRANT_METADATA).is_none());
        headers.insert(GRANT_METADATA, "PSE1; 86400 a.b.c".parse().unwrap());
        assert_eq!(grant_cookie(&mut headers, false), None);
    }
}
