//! Update masks: the fields of a resource an update changes, each one the method knows.

use prost_types::FieldMask;

use crate::violations::Violations;

/// The request field the mask is read from.
pub const FIELD: &str = "update_mask";

/// The checked paths of an update mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask(Vec<String>);

impl Mask {
    /// The paths of `mask`: at least one, each one of `known`; else a violation of `update_mask`
    /// for the empty mask and for each unknown path.
    pub fn parse(mask: Option<&FieldMask>, known: &[&str]) -> Result<Self, Violations> {
        let mut v = Violations::default();
        let mask = Self::read(mask, known, &mut v);
        v.into_result(mask)
    }

    /// As `parse`, adding the violations to `v` and keeping the known paths, so the fields
    /// they name are still checked.
    pub fn read(mask: Option<&FieldMask>, known: &[&str], v: &mut Violations) -> Self {
        let paths = mask.map(|m| m.paths.as_slice()).unwrap_or_default();
        if paths.is_empty() {
            v.add(FIELD, "must name at least one field");
        }
        let mut kept = Vec::new();
        for path in paths {
            if known.contains(&path.as_str()) {
                kept.push(path.clone());
            } else {
                v.add(
                    FIELD,
                    format!("{path:?} cannot be changed ({})", listed(known)),
                );
            }
        }
        Self(kept)
    }

    /// Every one of `known`: what an unset mask means where a method reads it as "all fields".
    pub fn all(known: &[&str]) -> Self {
        Self(known.iter().map(|p| (*p).to_owned()).collect())
    }

    pub fn contains(&self, path: &str) -> bool {
        self.0.iter().any(|p| p == path)
    }

    /// The paths in the order the caller gave them.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

/// `a, b or c`.
fn listed(known: &[&str]) -> String {
    match known {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(paths: &[&str]) -> FieldMask {
        FieldMask {
            paths: paths.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    const KNOWN: &[&str] = &["name", "role", "permissions"];

    #[test]
    fn known_paths_pass() {
        let parsed = Mask::parse(Some(&mask(&["role", "name"])), KNOWN).unwrap();
        assert!(
            parsed.contains("role") && parsed.contains("name") && !parsed.contains("permissions")
        );
        assert_eq!(parsed.paths().collect::<Vec<_>>(), ["role", "name"]);
        assert!(Mask::all(KNOWN).contains("permissions"));
    }

    #[test]
    fn empty_and_unknown_paths_are_violations() {
        for empty in [None, Some(&mask(&[]))] {
            assert_eq!(
                Mask::parse(empty, KNOWN).unwrap_err().to_string(),
                "update_mask: must name at least one field"
            );
        }
        assert_eq!(
            Mask::parse(Some(&mask(&["name", "email", "id"])), KNOWN)
                .unwrap_err()
                .to_string(),
            "update_mask: \"email\" cannot be changed (name, role or permissions); \
             update_mask: \"id\" cannot be changed (name, role or permissions)"
        );
        let mut v = Violations::default();
        let kept = Mask::read(Some(&mask(&["bogus", "role"])), KNOWN, &mut v);
        assert_eq!(kept.paths().collect::<Vec<_>>(), ["role"]);
        assert_eq!(v.iter().count(), 1);
        assert_eq!(
            Mask::parse(Some(&mask(&["language"])), &["is_dark_mode"])
                .unwrap_err()
                .to_string(),
            "update_mask: \"language\" cannot be changed (is_dark_mode)"
        );
    }
}
