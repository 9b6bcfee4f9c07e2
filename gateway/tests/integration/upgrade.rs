//! Upgrading: the embedded data written by the product before its stores carried a schema
//! version (the fixture in tests/fixtures/unversioned-data, made by `write_the_fixture` on that
//! code) is migrated at start with every record intact, and the product serves it.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::site::{self, ADMIN_EMAIL, ADMIN_PASSWORD};
use common::wire::{sign_in, track};
use logistics_proto::v1 as pb;
use prost::Message;
use r2d2_sqlite::rusqlite::{Connection, types::ValueRef};

const FILES: [&str; 3] = ["shipments.sqlite3", "users.sqlite3", "preferences.sqlite3"];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/unversioned-data")
}

/// Every row of every table of every file, as text, by file and table; the stores' own
/// schema history tables and the derived search text left out (the upgrade adds or redoes them).
fn every_record(data: &Path) -> BTreeMap<String, Vec<String>> {
    let mut records = BTreeMap::new();
    for file in FILES {
        let conn = Connection::open(data.join(file)).unwrap();
        let tables: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_schema_history' \
                 AND name NOT LIKE 'shipments_search%' ORDER BY name",
            )
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for table in tables {
            let mut query = conn
                .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1"))
                .unwrap();
            // The search text is derived from the document, and folded anew by an upgrade.
            let kept: Vec<usize> = (0..query.column_count())
                .filter(|&i| query.column_name(i).unwrap() != "search_text")
                .collect();
            let rows = query
                .query_map([], |row| {
                    Ok(kept
                        .iter()
                        .map(|&i| match row.get_ref(i).unwrap() {
                            ValueRef::Null => "NULL".to_owned(),
                            ValueRef::Integer(n) => n.to_string(),
                            ValueRef::Real(x) => x.to_string(),
                            ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                            ValueRef::Blob(b) => format!("{b:?}"),
                        })
                        .collect::<Vec<_>>()
                        .join(" | "))
                })
                .unwrap()
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
            records.insert(format!("{file} {table}"), rows);
        }
    }
    records
}

fn copy_fixture() -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    for file in FILES {
        std::fs::copy(fixture().join(file), data.path().join(file)).unwrap();
    }
    data
}

/// Each shipment's tracking number and the length of its history, read from the file.
fn tracking_numbers(data: &Path) -> Vec<(String, i64)> {
    let conn = Connection::open(data.join("shipments.sqlite3")).unwrap();
    conn.prepare(
        "SELECT tracking_number, json_array_length(doc, '$.shipmentHistory') FROM shipments",
    )
    .unwrap()
    .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

#[tokio::test]
async fn data_written_before_schema_versions_is_migrated_with_every_record_intact() {
    let data = copy_fixture();
    let before = every_record(data.path());
    assert!(
        before["shipments.sqlite3 shipments"].len() >= 5
            && !before["shipments.sqlite3 outbox"].is_empty()
            && !before["shipments.sqlite3 audit"].is_empty()
            && !before["shipments.sqlite3 webhook_endpoints"].is_empty()
            && before["users.sqlite3 users"].len() >= 2
            && !before["preferences.sqlite3 user_preferences"].is_empty(),
        "the fixture holds a record of every kind: {before:#?}"
    );

    // Opening the stores migrates them, as the product does at start.
    site::open_stores(data.path()).await;
    let after = every_record(data.path());
    // A migration may add tables, empty or made from the records there were (each stored
    // shipment's exceptions); it never drops one.
    const DERIVED: &str = "shipments.sqlite3 shipment_exceptions";
    for (table, rows) in &after {
        assert!(
            before.contains_key(table) || rows.is_empty() || table == DERIVED,
            "{table} is new and empty"
        );
    }
    assert!(
        after[DERIVED].len() >= before["shipments.sqlite3 shipments"].len(),
        "every shipment stored before is watched for lateness (at least)"
    );
    for (table, rows) in &before {
        let now = &after[table];
        assert_eq!(now.len(), rows.len(), "{table}: no record went missing");
        for (was, is) in rows.iter().zip(now) {
            assert_eq!(is, was, "{table}: no record changed");
        }
    }
    for (file, store) in [
        ("shipments.sqlite3", "shipments"),
        ("shipments.sqlite3", "outbox"),
        ("shipments.sqlite3", "webhooks"),
        ("shipments.sqlite3", "audit"),
        ("users.sqlite3", "users"),
        ("preferences.sqlite3", "preferences"),
    ] {
        let conn = Connection::open(data.path().join(file)).unwrap();
        let version: i64 = conn
            .query_row(
                &format!("SELECT max(version) FROM {store}_schema_history"),
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert!(version >= 1, "{store} in {file} carries its schema version");
    }

    // The product serves the upgraded data: every shipment is tracked by its number with its
    // whole history, and the fixture's admin signs in with the password set back then.
    let shipments = tracking_numbers(data.path());
    let site = site::all_in_one_on(data.path()).await;
    for (number, history) in shipments {
        let reply = track(&site.base, &number).await;
        assert_eq!(reply.grpc_status, Some(0), "{number}: {}", reply.message);
        let found = pb::Shipment::decode(reply.body.unwrap()).unwrap();
        assert_eq!(found.history.len() as i64, history, "{number}");
    }
    let (reply, cookie) = sign_in(&site.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(0), "{}", reply.message);
    assert!(cookie.is_some(), "the fixture's admin signs in");
}

/// Writes the fixture with the stores of the code being built: run once, by hand, on the
/// code before a schema change, and commit the files.
#[tokio::test]
#[ignore = "writes tests/fixtures/unversioned-data; run by hand"]
async fn write_the_fixture() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path();
    let site = site::all_in_one_on(data).await;
    let webhooks = outbox::webhooks::SqliteWebhooks::open(data).unwrap();
    let (endpoint, _key) = outbox::webhooks::Endpoint::new(
        "https://erp.example.com/hooks/logistics",
        vec![outbox::webhooks::EventType::ShipmentCreated],
        "The ERP",
        "",
        chrono::Utc::now(),
    );
    outbox::webhooks::WebhookStore::create_endpoint(&webhooks, &endpoint)
        .await
        .unwrap();
    let demos = common::wire::demo_shipments(&site.store).await;
    assert!(demos.len() >= 5);
    let preferences =
        preferences::store::SqlitePreferenceStore::open(&data.join("preferences.sqlite3")).unwrap();
    let admin = site
        .users
        .find_by_email(&auth::domain::Email::parse(ADMIN_EMAIL).unwrap())
        .await
        .unwrap()
        .unwrap();
    preferences::store::PreferenceStore::update(
        &preferences,
        &admin.id,
        preferences::store::PreferenceChange {
            is_dark_mode: Some(Some(true)),
        },
    )
    .await
    .unwrap();
    // A consistent copy of each file while the product runs, its write-ahead log folded in.
    let dir = fixture();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for file in FILES {
        Connection::open(data.join(file))
            .unwrap()
            .execute("VACUUM INTO ?", [dir.join(file).to_str().unwrap()])
            .unwrap();
    }
}
