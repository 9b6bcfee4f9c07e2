//! Shared test helpers: sample shipments and the stores under test.
#![allow(dead_code)]

pub mod service;

use std::sync::Arc;

use chrono::{NaiveDate, NaiveTime};
use shipments::domain::{
    Package, PaymentMode, Shipment, ShipmentDetails, ShipmentMode, ShipmentType, TrackingNumber,
};
use shipments::store::{MongoShipmentStore, ShipmentStore, SqliteShipmentStore};

pub fn details(shipper: &str, origin: &str) -> ShipmentDetails {
    ShipmentDetails {
        shipper_name: shipper.into(),
        shipper_address: "1 Quay Street, Auckland".into(),
        shipper_phone: "+64 9 555 0100".into(),
        shipper_email: "shipper@example.com".into(),
        receiver_name: "Rita Receiver".into(),
        receiver_address: "2 Harbour Road, Sydney".into(),
        receiver_phone: "+61 2 5555 0100".into(),
        receiver_email: "receiver@example.com".into(),
        origin: origin.into(),
        destination: "Sydney".into(),
        carrier: "Oceanic".into(),
        type_of_shipment: ShipmentType::Standard,
        shipment_mode: ShipmentMode::SeaShipping,
        package_count: 1,
        product: "Wool".into(),
        product_quantity: 1,
        payment_mode: PaymentMode::BankTransfer,
        total_freight_cents: 10_050,
        weight: 10.0,
        expected_delivery_date: NaiveDate::from_ymd_opt(2026, 12, 24).unwrap(),
        departure_time: NaiveTime::from_hms_opt(8, 30, 0).unwrap(),
        pickup_date: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
        pickup_time: NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
        packages: vec![Package {
            quantity: 2,
            piece_type: "Bale".into(),
            description: "Merino wool".into(),
            length: 100.0,
            width: 50.0,
            height: 50.0,
            weight: 5.0,
        }],
        comments: String::new(),
        language: Default::default(),
        customer_id: String::new(),
    }
}

pub fn shipment(shipper: &str, origin: &str) -> Shipment {
    Shipment::create(
        details(shipper, origin),
        TrackingNumber::generate(),
        shipments::domain::now(),
        "clerk@example.com",
    )
}

pub fn sqlite_store() -> (Arc<dyn ShipmentStore>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteShipmentStore::open(&dir.path().join("shipments.sqlite3")).unwrap();
    (Arc::new(store), dir)
}

/// A shipment store and the audit log beside it (same file), embedded.
pub fn sqlite_store_and_audit() -> (
    Arc<dyn ShipmentStore>,
    Arc<dyn audit::AuditLog>,
    tempfile::TempDir,
) {
    let (store, dir) = sqlite_store();
    let log = audit::SqliteAuditLog::open(dir.path()).unwrap();
    (store, Arc::new(log), dir)
}

/// A shipment store and the audit log beside it (same database), on `TEST_MONGODB_URI`.
pub async fn mongo_store_and_audit() -> Option<(Arc<dyn ShipmentStore>, Arc<dyn audit::AuditLog>)> {
    let (uri, database) = test_servers::mongodb()?;
    let store = MongoShipmentStore::connect(&uri, &database)
        .await
        .expect("connect to TEST_MONGODB_URI");
    let log = audit::MongoAuditLog::connect(&uri, &database)
        .await
        .unwrap();
    Some((Arc::new(store), Arc::new(log)))
}

/// A shipment store and the outbox beside it (same file), embedded.
pub fn sqlite_stores() -> (
    Arc<dyn ShipmentStore>,
    Arc<dyn outbox::OutboxStore>,
    tempfile::TempDir,
) {
    let (store, dir) = sqlite_store();
    let outbox = outbox::SqliteOutbox::open(dir.path()).unwrap();
    (store, Arc::new(outbox), dir)
}

/// A shipment store and the outbox beside it (same database), on `TEST_MONGODB_URI`.
pub async fn mongo_stores() -> Option<(Arc<dyn ShipmentStore>, Arc<dyn outbox::OutboxStore>)> {
    let (uri, database) = test_servers::mongodb()?;
    let store = MongoShipmentStore::connect(&uri, &database)
        .await
        .expect("connect to TEST_MONGODB_URI");
    let outbox = outbox::MongoOutbox::connect(&uri, &database).await.unwrap();
    Some((Arc::new(store), Arc::new(outbox)))
}

/// One test module per store, each case a function taking the running service: `sqlite`
/// always, `mongo` when `TEST_MONGODB_URI` is set (each case's `start` and `start_on_mongo`
/// come from the calling module).
macro_rules! both_stores {
    ($($case:ident),*) => {
        mod sqlite { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                super::$case(super::start().await).await;
            }
        )* }
        mod mongo { $(
            #[tokio::test(flavor = "multi_thread")]
            async fn $case() {
                let Some(running) = super::start_on_mongo().await else { return };
                super::$case(running).await;
            }
        )* }
    };
}

pub(crate) use both_stores;

/// The cells of a CSV file as a spreadsheet reads them (Python's csv module, Excel dialect).
pub fn spreadsheet_view(bytes: &[u8]) -> Vec<Vec<String>> {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/tools/spreadsheet_view.py"
    );
    let output = std::process::Command::new("python3")
        .arg(script)
        .arg(file.path())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}
