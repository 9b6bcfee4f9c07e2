//! Password hashing with argon2id at OWASP's recommended parameters.

use std::sync::LazyLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::AuthError;

/// OWASP (2024): argon2id, 19 MiB of memory, 2 iterations, 1 lane.
fn argon2() -> Argon2<'static> {
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(19 * 1024, 2, 1, None).expect("valid parameters"),
    )
}

/// Verified against when the e-mail is unknown, so both failures take the same time.
static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| hash("not a real password, only for timing").expect("hashing works"));

pub fn hash(password: &str) -> Result<String, AuthError> {
    let salt_bytes: [u8; 16] = rand::random();
    let salt =
        SaltString::encode_b64(&salt_bytes).map_err(|e| AuthError::Internal(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AuthError::Internal(e.to_string()))
}

/// Whether `password` matches `stored`; `None` checks against a dummy hash and is always false.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let stored_hash = stored.unwrap_or(DUMMY_HASH.as_str());
    let matches = PasswordHash::new(stored_hash).is_ok_and(|parsed| {
        argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    });
    matches && stored.is_some()
}

/// Work that would block the async runtime for tens of milliseconds.
pub async fn hash_off_thread(password: String) -> Result<String, AuthError> {
    tokio::task::spawn_blocking(move || hash(&password))
        .await
        .map_err(|e| AuthError::Internal(e.to_string()))?
}

pub async fn verify_off_thread(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || verify(&password, stored.as_deref()))
        .await
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = super::hash("correct horse battery").unwrap();
        let b = super::hash("correct horse battery").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert_ne!(a, b, "salted");
        assert!(super::verify("correct horse battery", Some(&a)));
        assert!(!super::verify("wrong horse battery", Some(&a)));
        assert!(!super::verify("anything", None));
    }
}
