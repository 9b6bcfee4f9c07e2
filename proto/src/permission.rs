//! The names of permissions and of customers' key scopes in the API, the stores and the tokens
//! (`shipments.read`), derived from their values in `logistics/v1/access.proto`
//! (`PERMISSION_SHIPMENTS_READ`, `CUSTOMER_SCOPE_SHIPMENTS_BOOK`).

use std::sync::LazyLock;

use prost::Message;

use crate::v1::{CustomerScope, Permission};

/// Every value but UNSPECIFIED of the enum `enum_name`, in the proto's order, with its name:
/// the value's name without `prefix`, lower-cased, its first `_` a `.`.
fn named<T: TryFrom<i32>>(enum_name: &str, prefix: &str) -> (Vec<T>, Vec<String>) {
    let set = prost_types::FileDescriptorSet::decode(crate::FILE_DESCRIPTOR_SET)
        .expect("the build wrote a valid descriptor set");
    set.file
        .iter()
        .filter(|file| file.package() == "logistics.v1")
        .flat_map(|file| &file.enum_type)
        .find(|e| e.name() == enum_name)
        .expect("access.proto declares the enum")
        .value
        .iter()
        .filter(|value| value.number() != 0)
        .filter_map(|value| {
            let bare = value
                .name()
                .strip_prefix(prefix)
                .expect("every value has the enum's prefix")
                .to_ascii_lowercase();
            Some((
                T::try_from(value.number()).ok()?,
                bare.replacen('_', ".", 1),
            ))
        })
        .unzip()
}

/// The name methods of an enum whose values are named this way.
macro_rules! names {
    ($ty:ty, $table:ident, $enum_name:literal, $prefix:literal) => {
        static $table: LazyLock<(Vec<$ty>, Vec<String>)> =
            LazyLock::new(|| named($enum_name, $prefix));

        impl $ty {
            /// Every value (UNSPECIFIED is none), in the proto's order.
            pub fn all() -> &'static [$ty] {
                &$table.0
            }

            /// Its name in the API and the stores, e.g. `shipments.read`; "" for UNSPECIFIED.
            pub fn as_str(self) -> &'static str {
                Self::all()
                    .iter()
                    .position(|p| *p == self)
                    .map_or("", |i| $table.1[i].as_str())
            }

            /// The value named `text` (e.g. `shipments.read`).
            pub fn parse(text: &str) -> Option<Self> {
                $table
                    .1
                    .iter()
                    .position(|name| name == text)
                    .map(|i| $table.0[i])
            }
        }
    };
}

names!(Permission, PERMISSIONS, "Permission", "PERMISSION_");
names!(
    CustomerScope,
    CUSTOMER_SCOPES,
    "CustomerScope",
    "CUSTOMER_SCOPE_"
);
