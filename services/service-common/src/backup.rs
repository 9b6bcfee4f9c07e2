//! Backups of the embedded stores: one file holding a consistent copy of every SQLite database
//! in DATA_DIR (taken with `VACUUM INTO` while the product serves) and the proof-of-delivery
//! files, and its restore into an empty DATA_DIR. MongoDB has its own tools (mongodump).

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail, ensure};
use r2d2_sqlite::rusqlite::Connection;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::StoreConfig;

/// `backup` and `restore`, a subcommand of every binary that owns embedded data.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum DataCommand {
    /// Writes a consistent copy of the embedded stores in DATA_DIR (shipments, outbox,
    /// webhooks, audit log, users, preferences, proof-of-delivery files) to FILE, while the
    /// product keeps serving.
    Backup {
        #[arg(long, value_name = "FILE")]
        to: PathBuf,
    },
    /// Restores a backup FILE into DATA_DIR, which must be empty (stop the product first).
    Restore {
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
    },
}

/// The database files a DATA_DIR may hold.
pub const DATABASES: [&str; 3] = ["shipments.sqlite3", "users.sqlite3", "preferences.sqlite3"];
/// The all-in-one's token signing keys (service_auth::keyfile::FILE).
pub const KEY_FILE: &str = "signing-keys.json";
/// The directory of the proof-of-delivery files.
const BLOBS: &str = "blobs";
const MANIFEST: &str = "manifest.json";
const FORMAT: &str = "logistics-backup";
const FORMAT_VERSION: u32 = 1;

/// What a backup file lists first: every other entry, its size and checksum.
#[derive(Serialize, Deserialize)]
struct Manifest {
    format: String,
    version: u32,
    #[serde(rename = "createdAt")]
    created_at: String,
    files: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    path: String,
    bytes: u64,
    sha256: String,
}

/// What a backup or restore copied.
#[derive(Debug)]
pub struct Summary {
    pub files: usize,
    pub bytes: u64,
}

/// Runs `command` on the data the store configuration names, printing what it did.
pub fn run(command: &DataCommand, config: &StoreConfig) -> anyhow::Result<()> {
    let StoreConfig::Embedded { data_dir } = config else {
        bail!(
            "backup and restore copy the embedded stores in DATA_DIR; with MONGODB_URI set, use \
             mongodump and mongorestore, and copy DATA_DIR/{KEY_FILE} (README, Operations)"
        );
    };
    match command {
        DataCommand::Backup { to } => {
            let done = backup(data_dir, to)?;
            println!(
                "backed up {} files ({} bytes) from {} to {}",
                done.files,
                done.bytes,
                data_dir.display(),
                to.display()
            );
        }
        DataCommand::Restore { from } => {
            let done = restore(from, data_dir)?;
            println!(
                "restored {} files ({} bytes) from {} into {}",
                done.files,
                done.bytes,
                from.display(),
                data_dir.display()
            );
        }
    }
    Ok(())
}

/// Copies `from` into `to` and returns the SHA-256 (hex) and size of what passed through.
fn copy_hashed(from: &mut impl Read, to: &mut impl Write) -> std::io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = from.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        to.write_all(&buffer[..n])?;
        total += n as u64;
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((hex, total))
}

/// Writes the backup of `data_dir` to `to`: whole or not at all (a partial file is removed).
pub fn backup(data_dir: &Path, to: &Path) -> anyhow::Result<Summary> {
    ensure!(
        data_dir.is_dir(),
        "DATA_DIR {} does not exist: nothing to back up",
        data_dir.display()
    );
    ensure!(
        !to.exists(),
        "{} exists already: choose a new file name",
        to.display()
    );
    let parent = match to.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let staging = tempfile::Builder::new()
        .prefix(".backup-")
        .tempdir_in(parent)
        .with_context(|| format!("making a working directory in {}", parent.display()))?;
    // Each file copied into `staging` first, so the archive describes files that stay still;
    // each with the mode and modification time of the live file.
    let mut staged: Vec<(String, Stat)> = Vec::new();
    for name in DATABASES {
        let live = data_dir.join(name);
        if !live.exists() {
            continue;
        }
        let stat = Stat::of(&live)?;
        let conn = Connection::open(&live)?;
        conn.busy_timeout(Duration::from_secs(30))?;
        // A read transaction of its own: every write committed before it is in the copy.
        conn.execute(
            "VACUUM INTO ?",
            [staging.path().join(name).to_string_lossy()],
        )
        .with_context(|| format!("copying {}", live.display()))?;
        staged.push((name.to_owned(), stat));
    }
    ensure!(
        !staged.is_empty(),
        "DATA_DIR {} holds no database: nothing to back up",
        data_dir.display()
    );
    // After the databases: a proof-of-delivery file they name was written before them.
    let blobs = data_dir.join(BLOBS);
    let mut others = vec![data_dir.join(KEY_FILE)];
    if blobs.is_dir() {
        others.extend(walk(&blobs)?);
    }
    for path in others {
        let relative = path.strip_prefix(data_dir)?.to_string_lossy().into_owned();
        let copy = staging.path().join(&relative);
        std::fs::create_dir_all(copy.parent().unwrap_or(staging.path()))?;
        let copied = Stat::of(&path).and_then(|stat| Ok((stat, std::fs::copy(&path, &copy)?)));
        match copied {
            Ok((stat, _)) => staged.push((relative, stat)),
            // Absent (no key file: JWT_SIGNING_KEY is set) or deleted since the listing.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }
    let mut files = Vec::with_capacity(staged.len());
    for (path, _) in &staged {
        let mut file = std::fs::File::open(staging.path().join(path))?;
        let (sha256, bytes) = copy_hashed(&mut file, &mut std::io::sink())?;
        files.push(Entry {
            path: path.clone(),
            bytes,
            sha256,
        });
    }
    let manifest = Manifest {
        format: FORMAT.to_owned(),
        version: FORMAT_VERSION,
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        files,
    };
    let partial = staging.path().join(".backup.tar");
    {
        // It holds the signing keys and every party's details: its owner's alone.
        let mut archive = tar::Builder::new(std::io::BufWriter::new(private_file(&partial)?));
        let text = serde_json::to_vec_pretty(&manifest)?;
        let now = Stat {
            mode: 0o600,
            mtime: chrono::Utc::now().timestamp().max(0) as u64,
        };
        append(
            &mut archive,
            MANIFEST,
            text.len() as u64,
            now,
            text.as_slice(),
        )?;
        for (entry, (_, stat)) in manifest.files.iter().zip(&staged) {
            let file = std::fs::File::open(staging.path().join(&entry.path))?;
            append(&mut archive, &entry.path, entry.bytes, *stat, file)?;
        }
        let file = archive.into_inner()?.into_inner()?;
        file.sync_all()?;
    }
    std::fs::rename(&partial, to).with_context(|| format!("writing {}", to.display()))?;
    Ok(Summary {
        files: manifest.files.len(),
        bytes: manifest.files.iter().map(|f| f.bytes).sum(),
    })
}

/// A live file's permission bits and modification time (Unix seconds), as a tar entry keeps them.
#[derive(Clone, Copy)]
struct Stat {
    mode: u32,
    mtime: u64,
}

impl Stat {
    fn of(path: &Path) -> std::io::Result<Self> {
        let meta = std::fs::metadata(path)?;
        #[cfg(unix)]
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777;
        #[cfg(not(unix))]
        let mode = 0o600;
        let mtime = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Ok(Self { mode, mtime })
    }
}

/// A new file only its owner may read, from its creation on.
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

fn append(
    archive: &mut tar::Builder<impl Write>,
    path: &str,
    size: u64,
    stat: Stat,
    data: impl Read,
) -> anyhow::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(size);
    header.set_mode(stat.mode);
    header.set_mtime(stat.mtime);
    header.set_cksum();
    archive.append_data(&mut header, path, data)?;
    Ok(())
}

/// Gives a restored file the mode (read and write bits: data is never executable) and the
/// modification time its entry carries; backups of version 1 carried none (time 0).
fn keep_mode_and_time(file: &std::fs::File, header: &tar::Header) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = header.mode()? & 0o666;
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    let mtime = header.mtime()?;
    if mtime > 0 {
        file.set_modified(std::time::UNIX_EPOCH + Duration::from_secs(mtime))?;
    }
    Ok(())
}

/// Every file under `dir`, depth first.
fn walk(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files.extend(walk(&path)?);
        } else if path.is_file() {
            files.push(path);
        }
    }
    Ok(files)
}

/// Whether a path from an archive may be written under DATA_DIR: a database name, or a file
/// under `blobs/` with plain segments (no `..`, no root).
fn allowed(path: &str) -> bool {
    let p = Path::new(path);
    let plain = p.components().all(|c| matches!(c, Component::Normal(_)));
    plain
        && (DATABASES.contains(&path)
            || path == KEY_FILE
            || (p.starts_with(BLOBS) && p.components().count() > 1))
}

/// Restores the backup `from` into `data_dir`, which must be empty or absent. Everything is
/// checked (sizes, checksums, each database's integrity) before the first file lands; on any
/// error DATA_DIR stays empty.
pub fn restore(from: &Path, data_dir: &Path) -> anyhow::Result<Summary> {
    if data_dir.exists() {
        ensure!(
            std::fs::read_dir(data_dir)?.next().is_none(),
            "DATA_DIR {} is not empty: restore into an empty directory (move the current data \
             aside first, with the product stopped)",
            data_dir.display()
        );
    } else {
        std::fs::create_dir_all(data_dir)?;
    }
    let staging = tempfile::Builder::new()
        .prefix(".restore-")
        .tempdir_in(data_dir)?;
    let summary = unpack(from, staging.path())
        .with_context(|| format!("{} is not a readable backup", from.display()))?;
    for entry in std::fs::read_dir(staging.path())? {
        let entry = entry?;
        std::fs::rename(entry.path(), data_dir.join(entry.file_name()))?;
    }
    Ok(summary)
}

fn unpack(from: &Path, into: &Path) -> anyhow::Result<Summary> {
    let mut archive = tar::Archive::new(std::io::BufReader::new(
        std::fs::File::open(from).with_context(|| format!("opening {}", from.display()))?,
    ));
    let mut entries = archive.entries()?;
    let mut first = entries.next().context("the file is empty")??;
    ensure!(
        first.path()?.to_str() == Some(MANIFEST),
        "it does not start with {MANIFEST}"
    );
    let mut text = String::new();
    first.by_ref().take(1 << 20).read_to_string(&mut text)?;
    let manifest: Manifest = serde_json::from_str(&text).context(MANIFEST)?;
    ensure!(
        manifest.format == FORMAT && manifest.version == FORMAT_VERSION,
        "its format is {} version {}, this version of the product reads {FORMAT} version \
         {FORMAT_VERSION}",
        manifest.format,
        manifest.version
    );
    let mut seen = 0;
    for entry in entries {
        let mut entry = entry?;
        let path = entry.path()?.to_string_lossy().into_owned();
        ensure!(
            allowed(&path),
            "it holds {path:?}, which is no part of DATA_DIR"
        );
        let listed = manifest
            .files
            .iter()
            .find(|f| f.path == path)
            .with_context(|| format!("{path} is not in its manifest"))?;
        ensure!(entry.size() == listed.bytes, "{path} has the wrong size");
        let target = into.join(&path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut file = private_file(&target)?;
        let (sha256, bytes) = copy_hashed(&mut entry, &mut file)?;
        ensure!(
            bytes == listed.bytes && sha256 == listed.sha256,
            "{path} does not match its checksum: the file is damaged"
        );
        keep_mode_and_time(&file, entry.header())?;
        file.sync_all()?;
        seen += 1;
    }
    ensure!(
        seen == manifest.files.len(),
        "it ends before the last of its {} files: the file is cut short",
        manifest.files.len()
    );
    for name in DATABASES {
        let path = into.join(name);
        if path.exists() {
            let verdict: String =
                Connection::open(&path)?.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
            ensure!(
                verdict == "ok",
                "{name} fails SQLite's integrity check: {verdict}"
            );
        }
    }
    Ok(Summary {
        files: seen,
        bytes: manifest.files.iter().map(|f| f.bytes).sum(),
    })
}
