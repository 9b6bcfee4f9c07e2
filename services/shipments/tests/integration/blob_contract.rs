//! One contract for both blob stores: files under a directory and MongoDB GridFS.

use std::sync::Arc;

use shipments::blobs::{BlobStore, FsBlobStore, GridFsBlobStore};

async fn put_then_get_and_replace(store: Arc<dyn BlobStore>) {
    let key = "deliveries/s1/photo.jpg";
    assert_eq!(store.get(key).await.unwrap(), None);
    for data in [&b"first"[..], b"second, longer"] {
        store.put(key, data).await.unwrap();
        assert_eq!(store.get(key).await.unwrap().as_deref(), Some(data));
    }
    assert_eq!(store.get("deliveries/s1/other.png").await.unwrap(), None);
}

async fn large_blobs_come_back_byte_for_byte(store: Arc<dyn BlobStore>) {
    // Several GridFS chunks (255 KiB each), and bytes that are not text.
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
    store.put("imports/big/part-000000", &data).await.unwrap();
    assert_eq!(
        store.get("imports/big/part-000000").await.unwrap(),
        Some(data)
    );
    store.put("imports/empty/part-000000", b"").await.unwrap();
    assert_eq!(
        store.get("imports/empty/part-000000").await.unwrap(),
        Some(Vec::new())
    );
}

async fn delete_removes_and_missing_is_fine(store: Arc<dyn BlobStore>) {
    store
        .put("deliveries/s2/signature.png", b"sig")
        .await
        .unwrap();
    store.delete("deliveries/s2/signature.png").await.unwrap();
    assert_eq!(
        store.get("deliveries/s2/signature.png").await.unwrap(),
        None
    );
    store.delete("deliveries/s2/signature.png").await.unwrap();
}

async fn names_that_could_escape_are_refused(store: Arc<dyn BlobStore>) {
    for bad in ["../outside", "a/../../b", "/etc/passwd", "", "a//b"] {
        assert!(store.put(bad, b"x").await.is_err(), "{bad:?}");
        assert!(store.get(bad).await.is_err(), "{bad:?}");
    }
}

async fn concurrent_puts_leave_one_whole_value(store: Arc<dyn BlobStore>) {
    let values: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 300_000]).collect();
    let puts = values.iter().map(|v| {
        let store = store.clone();
        let v = v.clone();
        async move { store.put("deliveries/race/photo.jpg", &v).await }
    });
    for outcome in futures::future::join_all(puts).await {
        outcome.unwrap();
    }
    let kept = store
        .get("deliveries/race/photo.jpg")
        .await
        .unwrap()
        .unwrap();
    assert!(values.contains(&kept), "one of the values, whole");
}

macro_rules! contract {
    ($($case:ident),* $(,)?) => {
        mod files {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    let dir = tempfile::tempdir().unwrap();
                    let store = super::FsBlobStore::open(&dir.path().join("blobs")).unwrap();
                    super::$case(std::sync::Arc::new(store)).await;
                }
            )*
        }
        mod gridfs {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $case() {
                    // Without TEST_MONGODB_URI this fails, unless SKIP_MONGO_TESTS=1.
                    if let Some((uri, database)) = test_servers::mongodb() {
                        let store = super::GridFsBlobStore::connect(&uri, &database).await.unwrap();
                        super::$case(std::sync::Arc::new(store)).await;
                    }
                }
            )*
        }
    };
}

contract!(
    put_then_get_and_replace,
    large_blobs_come_back_byte_for_byte,
    delete_removes_and_missing_is_fine,
    names_that_could_escape_are_refused,
    concurrent_puts_leave_one_whole_value,
);
