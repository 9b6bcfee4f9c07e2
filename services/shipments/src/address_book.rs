//! A customer's address book: the senders and receivers it ships from and to often, typed one
//! by one or imported from a CSV file (all rows, or none if any is bad).

use chrono::{DateTime, Utc};
use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_common::text::TextRule;
use service_common::{paging, timestamp};

use crate::convert::TimeChecks;
use crate::error::{ShipmentError, Violations};

/// Most entries one customer keeps.
pub const MAX_ENTRIES: u64 = 5_000;
/// Most rows, and bytes, of one imported file.
pub const MAX_IMPORT_ROWS: usize = 1_000;
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    Sender,
    Receiver,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sender => "sender",
            Self::Receiver => "receiver",
        }
    }

    fn to_proto(self) -> pb::AddressBookEntryKind {
        match self {
            Self::Sender => pb::AddressBookEntryKind::Sender,
            Self::Receiver => pb::AddressBookEntryKind::Receiver,
        }
    }

    /// The kind a request names; UNSPECIFIED is None.
    pub fn from_proto(field: &str, value: i32, v: &mut Violations) -> Option<Self> {
        match pb::AddressBookEntryKind::try_from(value) {
            Ok(pb::AddressBookEntryKind::Sender) => Some(Self::Sender),
            Ok(pb::AddressBookEntryKind::Receiver) => Some(Self::Receiver),
            Ok(pb::AddressBookEntryKind::Unspecified) => None,
            Err(_) => {
                v.add(field, "must be SENDER or RECEIVER");
                None
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub customer_id: String,
    pub kind: EntryKind,
    pub name: String,
    pub address: String,
    pub phone: String,
    pub email: String,
    #[serde(with = "service_common::utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "service_common::utc_micros")]
    pub updated_at: DateTime<Utc>,
}

impl Entry {
    pub fn search_text(&self) -> String {
        crate::search::fold(&format!("{} {}", self.name, self.address))
    }

    pub fn to_proto(&self) -> pb::AddressBookEntry {
        pb::AddressBookEntry {
            id: self.id.clone(),
            kind: self.kind.to_proto().into(),
            name: self.name.clone(),
            address: self.address.clone(),
            phone: self.phone.clone(),
            email: self.email.clone(),
            create_time: Some(timestamp::to_proto(self.created_at)),
            update_time: Some(timestamp::to_proto(self.updated_at)),
        }
    }
}

/// The paths of an entry an update may name.
pub const UPDATABLE: &[&str] = &["kind", "name", "address", "phone", "email"];

/// The fields of an entry as typed, each checked under `prefix` (`entry.` or `rows[3].`).
pub struct Typed<'a> {
    pub kind: Option<EntryKind>,
    pub name: &'a str,
    pub address: &'a str,
    pub phone: &'a str,
    pub email: &'a str,
}

/// Checks the field at `path` and sets it on `entry`.
pub fn apply(path: &str, prefix: &str, typed: &Typed, entry: &mut Entry, v: &mut Violations) {
    let field = format!("{prefix}{path}");
    match path {
        "kind" => match typed.kind {
            Some(kind) => entry.kind = kind,
            None => v.add(field, "must be sender or receiver"),
        },
        "name" => entry.name = v.text(&field, typed.name, TextRule::line(100)),
        "address" => entry.address = v.text(&field, typed.address, TextRule::paragraph(300)),
        "phone" => entry.phone = v.text(&field, typed.phone, TextRule::line(30).optional()),
        "email" => {
            let email = v
                .text(&field, typed.email, TextRule::line(254).optional())
                .to_lowercase();
            if !email.is_empty() && !service_common::is_email(&email) {
                v.add(field, "Invalid email address format");
            }
            entry.email = email;
        }
        _ => {}
    }
}

/// A new entry of `customer_id`, every field checked.
pub fn new_entry(
    customer_id: &str,
    prefix: &str,
    typed: &Typed,
    now: DateTime<Utc>,
    v: &mut Violations,
) -> Entry {
    let mut entry = Entry {
        id: service_common::new_id(),
        customer_id: customer_id.to_owned(),
        kind: EntryKind::Receiver,
        name: String::new(),
        address: String::new(),
        phone: String::new(),
        email: String::new(),
        created_at: now,
        updated_at: now,
    };
    for path in UPDATABLE {
        apply(path, prefix, typed, &mut entry, v);
    }
    entry
}

/// The fields of an entry as a request gives them.
pub fn typed(entry: &pb::AddressBookEntry) -> Typed<'_> {
    let mut ignored = Violations::default();
    // An unknown number is reported by `apply` as the missing kind it amounts to.
    let kind = EntryKind::from_proto("entry.kind", entry.kind, &mut ignored);
    Typed {
        kind,
        name: &entry.name,
        address: &entry.address,
        phone: &entry.phone,
        email: &entry.email,
    }
}

/// The entries of a CSV file (header `kind,name,address,phone,email`, in any order; phone and
/// email may be left out), all checked: a bad cell names its row and column.
pub fn from_csv(
    customer_id: &str,
    csv: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Entry>, ShipmentError> {
    let mut v = Violations::default();
    if csv.len() > MAX_IMPORT_BYTES {
        v.add("csv", "must be at most 1 MB");
        return Err(ShipmentError::Invalid(v));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(csv.as_bytes());
    let header: Vec<String> = match reader.headers() {
        Ok(header) => header.iter().map(|h| h.trim().to_lowercase()).collect(),
        Err(e) => {
            v.add("csv", format!("cannot be read: {e}"));
            return Err(ShipmentError::Invalid(v));
        }
    };
    for required in ["kind", "name", "address"] {
        if !header.iter().any(|h| h == required) {
            v.add("csv", format!("the header must name the column {required}"));
        }
    }
    if !v.is_empty() {
        return Err(ShipmentError::Invalid(v));
    }
    let column = |name: &str| header.iter().position(|h| h == name);
    let mut entries = Vec::new();
    for (i, record) in reader.records().enumerate() {
        if i == MAX_IMPORT_ROWS {
            v.add("csv", format!("must have at most {MAX_IMPORT_ROWS} rows"));
            break;
        }
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                v.add(format!("rows[{}]", i + 1), format!("cannot be read: {e}"));
                continue;
            }
        };
        let cell = |name: &str| column(name).and_then(|c| record.get(c)).unwrap_or("");
        let kind = match cell("kind").trim().to_lowercase().as_str() {
            "sender" => Some(EntryKind::Sender),
            "receiver" => Some(EntryKind::Receiver),
            _ => None,
        };
        let typed = Typed {
            kind,
            name: cell("name"),
            address: cell("address"),
            phone: cell("phone"),
            email: cell("email"),
        };
        entries.push(new_entry(
            customer_id,
            &format!("rows[{}].", i + 1),
            &typed,
            now,
            &mut v,
        ));
    }
    if entries.is_empty() && v.is_empty() {
        v.add("csv", "has no rows");
    }
    v.into_result(entries).map_err(ShipmentError::Invalid)
}

/// A page of one customer's entries, by name.
#[derive(Clone, Debug, Default)]
pub struct EntryQuery {
    pub customer_id: String,
    pub kind: Option<EntryKind>,
    pub text: Option<String>,
    pub page_size: usize,
    pub after: Option<String>,
}

pub fn query(
    customer_id: &str,
    request: &pb::ListAddressBookEntriesRequest,
) -> Result<EntryQuery, ShipmentError> {
    let mut v = Violations::default();
    let page_size = v.page_size(request.page_size);
    let kind = EntryKind::from_proto("kind", request.kind, &mut v);
    let text =
        crate::search::fold(&v.text("query", &request.query, TextRule::line(200).optional()));
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    Ok(EntryQuery {
        customer_id: customer_id.to_owned(),
        kind,
        text: (!text.is_empty()).then_some(text),
        page_size,
        after: paging::decode(&request.page_token)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_file_gives_every_row_or_names_each_bad_cell() {
        let now = crate::domain::now();
        let good = "Kind,Name,Address,Email\nsender,Acme Depot,1 Harbour Rd,\nreceiver,Bea,2 Hill St,bea@example.com\n";
        let entries = from_csv("c1", good, now).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(
            (entries[1].kind, entries[1].email.as_str()),
            (EntryKind::Receiver, "bea@example.com")
        );

        let bad = "kind,name,address,email\nsender,Acme,1 Rd,\nparcel,,2 Rd,nope\n";
        let Err(ShipmentError::Invalid(v)) = from_csv("c1", bad, now) else {
            panic!("a bad row refuses the file");
        };
        let fields: Vec<&str> = v.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["rows[2].kind", "rows[2].name", "rows[2].email"]);

        let Err(ShipmentError::Invalid(v)) = from_csv("c1", "name,address\nA,B\n", now) else {
            panic!("a header without kind is refused");
        };
        assert_eq!(v.iter().next().unwrap().field, "csv");
        let long = format!(
            "kind,name,address\n{}",
            "sender,A,B\n".repeat(MAX_IMPORT_ROWS + 1)
        );
        assert!(from_csv("c1", &long, now).is_err());
    }
}
