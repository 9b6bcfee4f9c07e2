//! Files the shipments keep beside their records (proof-of-delivery images, import files):
//! one trait, files under `DATA_DIR/blobs` (the default) or MongoDB GridFS.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use futures::{AsyncReadExt, AsyncWriteExt, TryStreamExt};
use mongodb::bson::doc;
use mongodb::gridfs::GridFsBucket;
use mongodb::options::GridFsBucketOptions;
use service_common::settings::{ExposeSecret, StoreConfig};

use crate::error::ShipmentError;

/// A blob's name: slash-separated segments of letters, digits, `-`, `_` and `.`, none of
/// them empty or dots only, so that no name can leave the store's directory.
fn check_key(key: &str) -> Result<(), ShipmentError> {
    let fine = !key.is_empty()
        && key.len() <= 200
        && key.split('/').all(|segment| {
            !segment.is_empty()
                && !segment.bytes().all(|b| b == b'.')
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        });
    if fine {
        Ok(())
    } else {
        Err(ShipmentError::Internal(format!("bad blob name {key:?}")))
    }
}

#[async_trait]
pub trait BlobStore: Send + Sync + 'static {
    /// Stores `data` under `key`, replacing what was there; readers see the old or the new
    /// bytes, never a part.
    async fn put(&self, key: &str, data: &[u8]) -> Result<(), ShipmentError>;
    /// The bytes under `key`; None when there are none.
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, ShipmentError>;
    /// Removes the blob; removing a missing one succeeds.
    async fn delete(&self, key: &str) -> Result<(), ShipmentError>;
}

/// Opens the blob store beside the shipment store the configuration names.
pub async fn open(config: &StoreConfig) -> anyhow::Result<Arc<dyn BlobStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(FsBlobStore::open(&data_dir.join("blobs"))?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(GridFsBlobStore::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// One file per blob under a directory; written to a temporary file, synced, then renamed.
pub struct FsBlobStore {
    root: PathBuf,
}

impl FsBlobStore {
    pub fn open(root: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(root)?;
        Ok(Self {
            root: root.to_owned(),
        })
    }

    fn path(&self, key: &str) -> Result<PathBuf, ShipmentError> {
        check_key(key)?;
        Ok(self.root.join(key))
    }
}

fn io_fault(e: std::io::Error) -> ShipmentError {
    ShipmentError::Unavailable(format!("blob store: {e}"))
}

#[async_trait]
impl BlobStore for FsBlobStore {
    async fn put(&self, key: &str, data: &[u8]) -> Result<(), ShipmentError> {
        let path = self.path(key)?;
        let data = data.to_vec();
        tokio::task::spawn_blocking(move || {
            let dir = path.parent().expect("a blob path has a parent");
            std::fs::create_dir_all(dir)?;
            let mut file = tempfile::NamedTempFile::new_in(dir)?;
            std::io::Write::write_all(&mut file, &data)?;
            file.as_file().sync_all()?;
            file.persist(&path).map_err(|e| e.error)?;
            Ok(())
        })
        .await
        .map_err(|e| ShipmentError::Internal(e.to_string()))?
        .map_err(io_fault)
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, ShipmentError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(data) => Ok(Some(data)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_fault(e)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), ShipmentError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_fault(e)),
            _ => Ok(()),
        }
    }
}

/// GridFS bucket `blobs`: a put uploads a new revision and then removes the older ones, so a
/// reader gets the latest complete revision.
pub struct GridFsBlobStore {
    bucket: GridFsBucket,
}

fn mongo_fault(e: mongodb::error::Error) -> ShipmentError {
    ShipmentError::Unavailable(format!("blob store: {e}"))
}

impl GridFsBlobStore {
    pub async fn connect(uri: &str, database: &str) -> anyhow::Result<Self> {
        let client = mongodb::Client::with_uri_str(uri).await?;
        let bucket = client.database(database).gridfs_bucket(
            GridFsBucketOptions::builder()
                .bucket_name("blobs".to_owned())
                .build(),
        );
        Ok(Self { bucket })
    }

    /// The ids of the revisions stored under `key`, oldest first.
    async fn revisions(&self, key: &str) -> Result<Vec<mongodb::bson::Bson>, ShipmentError> {
        let files: Vec<_> = self
            .bucket
            .find(doc! { "filename": key })
            .sort(doc! { "uploadDate": 1, "_id": 1 })
            .await
            .map_err(mongo_fault)?
            .try_collect()
            .await
            .map_err(mongo_fault)?;
        Ok(files.into_iter().map(|file| file.id).collect())
    }
}

#[async_trait]
impl BlobStore for GridFsBlobStore {
    async fn put(&self, key: &str, data: &[u8]) -> Result<(), ShipmentError> {
        check_key(key)?;
        let older = self.revisions(key).await?;
        let mut upload = self
            .bucket
            .open_upload_stream(key)
            .await
            .map_err(mongo_fault)?;
        upload.write_all(data).await.map_err(io_fault)?;
        upload.close().await.map_err(io_fault)?;
        for id in older {
            match self.bucket.delete(id).await {
                Ok(()) => {}
                // Another put removed it already.
                Err(e) if matches!(*e.kind, mongodb::error::ErrorKind::GridFs(_)) => {}
                Err(e) => return Err(mongo_fault(e)),
            }
        }
        Ok(())
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, ShipmentError> {
        check_key(key)?;
        let Some(latest) = self.revisions(key).await?.pop() else {
            return Ok(None);
        };
        let mut download = match self.bucket.open_download_stream(latest).await {
            Ok(download) => download,
            Err(e) if matches!(*e.kind, mongodb::error::ErrorKind::GridFs(_)) => return Ok(None),
            Err(e) => return Err(mongo_fault(e)),
        };
        let mut data = Vec::new();
        download.read_to_end(&mut data).await.map_err(io_fault)?;
        Ok(Some(data))
    }

    async fn delete(&self, key: &str) -> Result<(), ShipmentError> {
        check_key(key)?;
        for id in self.revisions(key).await? {
            match self.bucket.delete(id).await {
                Ok(()) => {}
                Err(e) if matches!(*e.kind, mongodb::error::ErrorKind::GridFs(_)) => {}
                Err(e) => return Err(mongo_fault(e)),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check_key;

    #[test]
    fn names_cannot_leave_the_store() {
        for bad in [
            "",
            "../x",
            "a/../b",
            "/etc/passwd",
            "a//b",
            "a/./b",
            "a b",
            "a\\b",
        ] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
        for good in ["deliveries/abc/signature.png", "imports/x-1/part-000001"] {
            assert!(check_key(good).is_ok(), "{good:?}");
        }
    }
}
