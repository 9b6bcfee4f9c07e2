//! Numbered schema migrations, one list per store, applied at start by one process at a time.
//! Each store records the versions it has applied (SQLite: a `<store>_schema_history` table
//! in its file; MongoDB: a document in `schema_versions`), and a store whose data is newer
//! than the running code is refused rather than misread.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use futures::future::BoxFuture;
use mongodb::Database;
use mongodb::bson::{DateTime, Document, doc};
use r2d2_sqlite::rusqlite::Connection;

/// The migrations of one store in a SQLite file, oldest first: version `n` is `steps[n - 1]`.
/// A step, once released, is never edited (its checksum is recorded): a change is a new step.
pub struct Schema {
    /// Names the store in logs, in errors and in its history table, `<store>_schema_history`.
    pub store: &'static str,
    pub steps: &'static [Step],
}

pub struct Step {
    /// Lower case words joined by `_`: what the step does.
    pub name: &'static str,
    pub sql: &'static str,
}

/// Applies the steps of `schema` that the file at `path` lacks, all in one transaction, while
/// holding a lock that other processes opening the same file wait for.
pub fn sqlite(conn: &mut Connection, path: &Path, schema: &Schema) -> anyhow::Result<()> {
    let store = schema.store;
    let migrations = schema
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            refinery_core::Migration::unapplied(&format!("V{}__{}", i + 1, step.name), step.sql)
        })
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("the {store} migrations"))?;
    let _lock = lock_file(path)?;
    let table = format!("{store}_schema_history");
    let mut runner = refinery_core::Runner::new(&migrations).set_grouped(true);
    runner.set_migration_table_name(&table);
    let has_history: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = ?",
        [&table],
        |row| row.get(0),
    )?;
    if has_history {
        let applied = runner
            .get_last_applied_migration(conn)
            .with_context(|| format!("{}: reading the {store} schema version", path.display()))?;
        if let Some(applied) = applied.filter(|m| m.version() as usize > migrations.len()) {
            bail!(
                "{}: the {store} data is at schema version {} ({}), newer than this version of \
                 the product knows (up to {}); run the newer version, or restore a backup made \
                 by this one",
                path.display(),
                applied.version(),
                applied.name(),
                migrations.len()
            );
        }
    }
    let report = runner
        .run(conn)
        .with_context(|| format!("{}: migrating the {store} schema", path.display()))?;
    for m in report.applied_migrations() {
        tracing::info!(
            store,
            file = %path.display(),
            version = m.version(),
            name = m.name(),
            "schema migration applied"
        );
    }
    Ok(())
}

/// An exclusive lock beside the database file, held until dropped. A file of its own: SQLite's
/// locks on the database must stay SQLite's.
fn lock_file(path: &Path) -> anyhow::Result<std::fs::File> {
    let mut name = path.as_os_str().to_owned();
    name.push("-migrations.lock");
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .with_context(|| format!("opening {}", Path::new(&name).display()))?;
    file.lock()
        .with_context(|| format!("locking {}", Path::new(&name).display()))?;
    Ok(file)
}

/// One step of a store in MongoDB. Index builds are not transactional, so a step must be safe
/// to run again after a crash part-way through.
pub struct MongoStep {
    pub name: &'static str,
    pub apply: fn(Database) -> BoxFuture<'static, mongodb::error::Result<()>>,
}

/// The collection holding one document per store: its version, history and migration lock.
pub const VERSIONS: &str = "schema_versions";

/// How long a migration lock is held before another process may take it over: a process that
/// died while migrating does not block every later start.
const MONGO_LOCK_LEASE: Duration = Duration::from_secs(300);

/// Applies the steps of `store` that `db` lacks, one after the other, while holding the store's
/// migration lock in `schema_versions`.
pub async fn mongo(db: &Database, store: &str, steps: &[MongoStep]) -> anyhow::Result<()> {
    let versions = db.collection::<Document>(VERSIONS);
    let owner = format!("{:032x}", rand::random::<u128>());
    let waited = std::time::Instant::now();
    loop {
        let now = DateTime::now();
        let until =
            DateTime::from_millis(now.timestamp_millis() + MONGO_LOCK_LEASE.as_millis() as i64);
        let free =
            doc! { "_id": store, "$or": [{ "lock": null }, { "lock.until": { "$lt": now } }] };
        let take = doc! { "$set": { "lock": { "owner": &owner, "until": until } } };
        match versions.update_one(free, take).upsert(true).await {
            Ok(_) => break,
            // Another process holds the lock: its document exists and did not match.
            Err(e) if crate::store::mongo::is_duplicate_key(&e) => {
                if waited.elapsed() > MONGO_LOCK_LEASE * 2 {
                    bail!("the {store} schema stayed locked by another process for too long");
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(e).context(format!("taking the {store} migration lock")),
        }
    }
    let result = apply_mongo(db, store, steps, &owner).await;
    let release = versions
        .update_one(
            doc! { "_id": store, "lock.owner": &owner },
            doc! { "$unset": { "lock": "" } },
        )
        .await;
    result?;
    release.context(format!("releasing the {store} migration lock"))?;
    Ok(())
}

async fn apply_mongo(
    db: &Database,
    store: &str,
    steps: &[MongoStep],
    owner: &str,
) -> anyhow::Result<()> {
    let versions = db.collection::<Document>(VERSIONS);
    let current = versions
        .find_one(doc! { "_id": store })
        .await?
        .and_then(|d| d.get("version").and_then(|v| v.as_i64()))
        .unwrap_or(0) as usize;
    if current > steps.len() {
        bail!(
            "database {}: the {store} data is at schema version {current}, newer than this \
             version of the product knows (up to {}); run the newer version, or restore a \
             backup made by this one",
            db.name(),
            steps.len()
        );
    }
    for (i, step) in steps.iter().enumerate().skip(current) {
        let version = i as i64 + 1;
        (step.apply)(db.clone()).await.with_context(|| {
            format!(
                "migrating the {store} schema to version {version} ({})",
                step.name
            )
        })?;
        let recorded = versions
            .update_one(
                doc! { "_id": store, "lock.owner": owner },
                doc! {
                    "$set": { "version": version },
                    "$push": { "history": { "version": version, "name": step.name, "appliedAt": DateTime::now() } },
                },
            )
            .await?;
        if recorded.matched_count == 0 {
            bail!("the {store} migration lock was taken over while migrating to version {version}");
        }
        tracing::info!(
            store,
            database = db.name(),
            version,
            name = step.name,
            "schema migration applied"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: Step = Step {
        name: "parcels",
        sql: "CREATE TABLE parcels (id TEXT PRIMARY KEY);",
    };
    /// Not idempotent: run twice, it fails.
    const V2: Step = Step {
        name: "parcel_weight",
        sql: "ALTER TABLE parcels ADD COLUMN weight_kg REAL NOT NULL DEFAULT 0;",
    };

    fn schema(steps: &'static [Step]) -> Schema {
        Schema {
            store: "parcels",
            steps,
        }
    }

    fn history(conn: &Connection, store: &str) -> Vec<(i64, String)> {
        conn.prepare(&format!(
            "SELECT version, name FROM {store}_schema_history ORDER BY version"
        ))
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    #[test]
    fn sqlite_upgrades_keep_rows_and_record_each_version_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3");
        let mut conn = Connection::open(&path).unwrap();
        sqlite(&mut conn, &path, &schema(&[V1])).unwrap();
        conn.execute("INSERT INTO parcels (id) VALUES ('p1')", [])
            .unwrap();

        sqlite(&mut conn, &path, &schema(&[V1, V2])).unwrap();
        sqlite(&mut conn, &path, &schema(&[V1, V2])).unwrap();

        let weight: f64 = conn
            .query_row("SELECT weight_kg FROM parcels WHERE id = 'p1'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(weight, 0.0);
        assert_eq!(
            history(&conn, "parcels"),
            [(1, "parcels".to_owned()), (2, "parcel_weight".to_owned())]
        );
    }

    #[test]
    fn sqlite_data_newer_than_the_code_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3");
        let mut conn = Connection::open(&path).unwrap();
        sqlite(&mut conn, &path, &schema(&[V1, V2])).unwrap();

        let refused = sqlite(&mut conn, &path, &schema(&[V1])).unwrap_err();

        let message = format!("{refused:#}");
        assert!(
            message.contains("the parcels data is at schema version 2 (parcel_weight), newer than this version of the product knows (up to 1)"),
            "{message}"
        );
        assert_eq!(history(&conn, "parcels").len(), 2);
    }

    #[test]
    fn sqlite_stores_sharing_a_file_keep_their_own_versions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3");
        let mut conn = Connection::open(&path).unwrap();
        let other = Schema {
            store: "labels",
            steps: &[Step {
                name: "labels",
                sql: "CREATE TABLE labels (id TEXT);",
            }],
        };
        sqlite(&mut conn, &path, &schema(&[V1, V2])).unwrap();
        sqlite(&mut conn, &path, &other).unwrap();

        assert_eq!(history(&conn, "parcels").len(), 2);
        assert_eq!(history(&conn, "labels"), [(1, "labels".to_owned())]);
    }

    #[test]
    fn sqlite_processes_starting_together_migrate_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3");
        let starts: Vec<_> = (0..6)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut conn = Connection::open(&path).unwrap();
                    conn.busy_timeout(Duration::from_secs(5)).unwrap();
                    sqlite(&mut conn, &path, &schema(&[V1, V2]))
                })
            })
            .collect();
        for start in starts {
            start.join().unwrap().unwrap();
        }
        let conn = Connection::open(&path).unwrap();
        assert_eq!(history(&conn, "parcels").len(), 2);
    }

    fn add_index(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
        Box::pin(async move {
            db.collection::<Document>("parcels")
                .create_index(
                    mongodb::IndexModel::builder()
                        .keys(doc! { "trackingNumber": 1 })
                        .build(),
                )
                .await
                .map(|_| ())
        })
    }

    /// Not idempotent: counts its runs in the database.
    fn count_run(db: Database) -> BoxFuture<'static, mongodb::error::Result<()>> {
        Box::pin(async move {
            db.collection::<Document>("runs")
                .insert_one(doc! { "step": 2 })
                .await
                .map(|_| ())
        })
    }

    const MONGO_STEPS: [MongoStep; 2] = [
        MongoStep {
            name: "parcels_by_tracking_number",
            apply: add_index,
        },
        MongoStep {
            name: "count_run",
            apply: count_run,
        },
    ];

    #[tokio::test]
    async fn mongo_applies_each_step_once_and_refuses_newer_data() {
        let Some((uri, database)) = test_servers::mongodb() else {
            return;
        };
        let db = crate::mongo_client(&uri).await.unwrap().database(&database);

        let starts: Vec<_> = (0..4)
            .map(|_| {
                let db = db.clone();
                tokio::spawn(async move { mongo(&db, "parcels", &MONGO_STEPS).await })
            })
            .collect();
        for start in starts {
            start.await.unwrap().unwrap();
        }
        mongo(&db, "parcels", &MONGO_STEPS).await.unwrap();

        let runs = db
            .collection::<Document>("runs")
            .count_documents(doc! {})
            .await
            .unwrap();
        assert_eq!(runs, 1, "a step runs once however many processes start");
        let version = db
            .collection::<Document>(VERSIONS)
            .find_one(doc! { "_id": "parcels" })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(version.get_i64("version").unwrap(), 2);
        assert_eq!(version.get_array("history").unwrap().len(), 2);
        assert!(version.get("lock").is_none(), "the lock is released");

        let refused = mongo(&db, "parcels", &MONGO_STEPS[..1]).await.unwrap_err();
        assert!(
            format!("{refused:#}").contains("the parcels data is at schema version 2, newer than this version of the product knows (up to 1)"),
            "{refused:#}"
        );
        let _ = db.drop().await;
    }
}
