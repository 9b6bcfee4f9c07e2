//! `gateway backup` and `gateway restore`: a backup taken while shipments are being written
//! holds every write acknowledged before it started, and restores into a product that serves.

use crate::common;

use std::sync::{Arc, Mutex};

use common::site::{self, ADMIN_EMAIL, ADMIN_PASSWORD};
use common::wire::{demo_shipments, sign_in, track};
use service_common::backup;
use shipments::blobs::BlobStore;

#[tokio::test]
async fn a_backup_under_writes_restores_every_acknowledged_write_and_the_product_serves() {
    let work = tempfile::tempdir().unwrap();
    let live = work.path().join("live");
    let site = site::all_in_one_on(&live).await;
    let blobs = shipments::blobs::FsBlobStore::open(&live.join("blobs")).unwrap();
    blobs
        .put("pod/signature.png", b"a signature")
        .await
        .unwrap();

    // Shipments created without pause, each one noted once the service acknowledged it.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let load = tokio::spawn({
        let store = site.store.clone();
        let acknowledged = acknowledged.clone();
        async move {
            while !*stopped.borrow_and_update() {
                for shipment in demo_shipments(&store).await {
                    acknowledged
                        .lock()
                        .unwrap()
                        .push(shipment.tracking_number.to_string());
                }
            }
        }
    });
    while acknowledged.lock().unwrap().len() < 36 {
        tokio::task::yield_now().await;
    }

    let before: Vec<String> = acknowledged.lock().unwrap().clone();
    let file = work.path().join("nightly.backup");
    let summary = tokio::task::spawn_blocking({
        let (live, file) = (live.clone(), file.clone());
        move || backup::backup(&live, &file)
    })
    .await
    .unwrap()
    .unwrap();
    stop.send(true).unwrap();
    load.await.unwrap();
    assert!(summary.files >= 4, "{summary:?}");

    let restored = work.path().join("restored");
    backup::restore(&file, &restored).unwrap();
    let copy = site::all_in_one_on(&restored).await;
    for number in &before {
        let reply = track(&copy.base, number).await;
        assert_eq!(reply.grpc_status, Some(0), "{number}: {}", reply.message);
    }
    let (reply, cookie) = sign_in(&copy.base, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(reply.grpc_status, Some(0), "{}", reply.message);
    assert!(cookie.is_some(), "the restored users sign in");
    let restored_blobs = shipments::blobs::FsBlobStore::open(&restored.join("blobs")).unwrap();
    assert_eq!(
        restored_blobs.get("pod/signature.png").await.unwrap(),
        Some(b"a signature".to_vec())
    );
}

#[tokio::test]
async fn restore_refuses_a_data_dir_in_use_and_a_damaged_file_and_writes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let live = work.path().join("live");
    let site = site::all_in_one_on(&live).await;
    demo_shipments(&site.store).await;
    let file = work.path().join("copy.backup");
    backup::backup(&live, &file).unwrap();

    let again = backup::backup(&live, &file).unwrap_err();
    assert!(format!("{again:#}").contains("exists already"), "{again:#}");

    let in_use = backup::restore(&file, &live).unwrap_err();
    assert!(format!("{in_use:#}").contains("is not empty"), "{in_use:#}");

    // One byte changed inside the copy of a database.
    let mut bytes = std::fs::read(&file).unwrap();
    let database = bytes
        .windows(15)
        .position(|w| w == b"SQLite format 3")
        .unwrap();
    bytes[database + 2000] ^= 0x55;
    let damaged = work.path().join("damaged.backup");
    std::fs::write(&damaged, &bytes).unwrap();
    let empty = work.path().join("empty");
    let refused = backup::restore(&damaged, &empty).unwrap_err();
    assert!(format!("{refused:#}").contains("damaged"), "{refused:#}");
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);

    // Cut short.
    let cut = work.path().join("cut.backup");
    std::fs::write(&cut, &std::fs::read(&file).unwrap()[..database + 2000]).unwrap();
    assert!(backup::restore(&cut, &empty).is_err());
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);

    let not_a_backup = work.path().join("notes.txt");
    std::fs::write(&not_a_backup, "shopping list").unwrap();
    let refused = backup::restore(&not_a_backup, &empty).unwrap_err();
    assert!(
        format!("{refused:#}").contains("is not a readable backup"),
        "{refused:#}"
    );
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
}

/// The mode and modification time (Unix seconds) of a file.
fn stat(path: &std::path::Path) -> (u32, u64) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).unwrap();
    let mtime = meta.modified().unwrap();
    (
        meta.permissions().mode() & 0o777,
        mtime
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
}

#[tokio::test]
async fn a_backup_is_its_owners_alone_keeps_modes_and_times_and_carries_the_signing_keys() {
    use std::os::unix::fs::PermissionsExt;
    let work = tempfile::tempdir().unwrap();
    let live = work.path().join("live");
    let site = site::all_in_one_keyed(&live, &service_auth::TokenSettings::default()).await;
    let link = site.tokens.sign_link(
        "test",
        &serde_json::json!({"sub": "PSE123456789"}),
        std::time::Duration::from_secs(3600),
    );
    let blobs = shipments::blobs::FsBlobStore::open(&live.join("blobs")).unwrap();
    blobs.put("pod/photo.jpg", b"a photo").await.unwrap();
    let photo = live.join("blobs/pod/photo.jpg");
    std::fs::set_permissions(&photo, std::fs::Permissions::from_mode(0o640)).unwrap();
    let taken = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_767_323_045);
    std::fs::File::options()
        .write(true)
        .open(&photo)
        .unwrap()
        .set_modified(taken)
        .unwrap();
    let key_file = live.join(service_auth::keyfile::FILE);

    let file = work.path().join("nightly.backup");
    backup::backup(&live, &file).unwrap();
    assert_eq!(stat(&file).0, 0o600, "only its owner reads a backup");

    let mut archive = tar::Archive::new(std::fs::File::open(&file).unwrap());
    let mut entries = std::collections::BTreeMap::new();
    for entry in archive.entries().unwrap() {
        let entry = entry.unwrap();
        let header = entry.header();
        entries.insert(
            entry.path().unwrap().to_string_lossy().into_owned(),
            (header.mode().unwrap(), header.mtime().unwrap()),
        );
    }
    assert_eq!(entries["blobs/pod/photo.jpg"], stat(&photo));
    assert_eq!(entries[service_auth::keyfile::FILE], stat(&key_file));
    assert_eq!(entries[service_auth::keyfile::FILE].0, 0o600);
    let database = entries["shipments.sqlite3"];
    assert!(database.1 > 1_700_000_000, "a real time: {database:?}");

    let restored = work.path().join("restored");
    backup::restore(&file, &restored).unwrap();
    assert_eq!(stat(&restored.join("blobs/pod/photo.jpg")), stat(&photo));
    assert_eq!(
        stat(&restored.join(service_auth::keyfile::FILE)),
        stat(&key_file),
        "the key file stays 0600"
    );
    let keys = service_auth::keyfile::load_or_create(&restored).unwrap();
    let opened = keys.verify_link::<serde_json::Value>("test", &link);
    assert_eq!(
        opened.map(|claims| claims["sub"].clone()),
        Some(serde_json::json!("PSE123456789")),
        "a link made before the backup opens on the restored copy"
    );
}
