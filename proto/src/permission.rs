//! A permission's name in the API, the stores and the tokens (`shipments.read`), derived from
//! its value in `logistics/v1/access.proto` (`PERMISSION_SHIPMENTS_READ`).

use std::sync::LazyLock;

use prost::Message;

use crate::v1::Permission;

/// Every permission the proto declares, in its order, with its name.
static NAMED: LazyLock<(Vec<Permission>, Vec<String>)> = LazyLock::new(|| {
    let set = prost_types::FileDescriptorSet::decode(crate::FILE_DESCRIPTOR_SET)
        .expect("the build wrote a valid descriptor set");
    let values = set
        .file
        .iter()
        .filter(|file| file.package() == "logistics.v1")
        .flat_map(|file| &file.enum_type)
        .find(|e| e.name() == "Permission")
        .expect("access.proto declares Permission")
        .value
        .iter()
        .filter_map(|value| Permission::try_from(value.number()).ok())
        .filter(|p| *p != Permission::Unspecified);
    values.map(|p| (p, name(p))).unzip()
});

/// `PERMISSION_SHIPMENTS_READ` → `shipments.read`.
fn name(permission: Permission) -> String {
    let bare = permission
        .as_str_name()
        .strip_prefix("PERMISSION_")
        .expect("every value has the enum's prefix")
        .to_ascii_lowercase();
    bare.replacen('_', ".", 1)
}

impl Permission {
    /// Every permission (UNSPECIFIED is none), in the proto's order.
    pub fn all() -> &'static [Permission] {
        &NAMED.0
    }

    /// Its name in the API and the stores, e.g. `shipments.read`; "" for UNSPECIFIED.
    pub fn as_str(self) -> &'static str {
        Self::all()
            .iter()
            .position(|p| *p == self)
            .map_or("", |i| NAMED.1[i].as_str())
    }

    /// The permission named `text` (e.g. `shipments.read`).
    pub fn parse(text: &str) -> Option<Self> {
        NAMED
            .1
            .iter()
            .position(|name| name == text)
            .map(|i| NAMED.0[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_proto_names_lower_cased_with_a_dot() {
        assert_eq!(Permission::ShipmentsRead.as_str(), "shipments.read");
        assert_eq!(Permission::DeliveriesRecord.as_str(), "deliveries.record");
        assert_eq!(Permission::all().len(), 20);
        for &p in Permission::all() {
            assert_eq!(Permission::parse(p.as_str()), Some(p));
        }
        assert_eq!(Permission::parse(""), None);
        assert_eq!(Permission::Unspecified.as_str(), "");
    }
}
