//! The all-in-one's own signing keys, kept in DATA_DIR/signing-keys.json when JWT_SIGNING_KEY
//! is unset: made once (mode 0600, written whole or not at all), reused at every start, so
//! e-mailed links and cookies outlive restarts. A rotation adds a key that signs and retires
//! the one before, which keeps verifying for LONGEST_LINK_LIFETIME.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use base64::Engine;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::{LONGEST_LINK_LIFETIME, TokenKey, decode_secret, key_id, random_secret};

/// The key file's name in DATA_DIR.
pub const FILE: &str = "signing-keys.json";

#[derive(Serialize, Deserialize)]
struct KeyFile {
    /// The key that signs first (no `retiredAt`), then the retired ones, newest first.
    keys: Vec<StoredKey>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredKey {
    /// Base64 of the secret.
    secret: String,
    created_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retired_at: Option<DateTime<Utc>>,
}

impl StoredKey {
    fn new(now: DateTime<Utc>) -> Self {
        Self {
            secret: base64::engine::general_purpose::STANDARD.encode(random_secret()),
            created_at: now,
            retired_at: None,
        }
    }

    /// Whether it still verifies at `now`: signing, or retired less than the longest link
    /// lifetime ago.
    fn verifies(&self, now: DateTime<Utc>) -> bool {
        self.retired_at
            .is_none_or(|at| now - at < chrono::Duration::from_std(LONGEST_LINK_LIFETIME).unwrap())
    }
}

pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

/// The keys of `data_dir`'s key file, made there (with a new random key) if there is none.
pub fn load_or_create(data_dir: &Path) -> anyhow::Result<TokenKey> {
    let file = path(data_dir);
    if !file.exists() {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("creating DATA_DIR {}", data_dir.display()))?;
        let fresh = KeyFile {
            keys: vec![StoredKey::new(Utc::now())],
        };
        match write(data_dir, &fresh, false) {
            Ok(()) => tracing::info!(
                file = %file.display(),
                "made the token signing key; it stays with the data (backups include it)"
            ),
            // Another process starting on the same DATA_DIR made it first: theirs is used.
            Err(_) if file.exists() => {}
            Err(e) => return Err(e),
        }
    }
    let (keys, now) = (read(&file)?, Utc::now());
    let secrets = keys
        .keys
        .iter()
        .filter(|k| k.verifies(now))
        .map(|k| decode_secret(&format!("{}", file.display()), &k.secret))
        .collect::<anyhow::Result<Vec<_>>>()?;
    TokenKey::with_retired(&secrets[0], &secrets[1..])
}

/// What a rotation did.
#[derive(Debug)]
pub struct Rotation {
    /// The id (`kid`) of the key that signs from now on.
    pub signing: String,
    /// The ids of the retired keys that still verify.
    pub retired: Vec<String>,
    /// How many keys stopped verifying.
    pub dropped: usize,
}

/// Adds a new key that signs from the next start on and retires the one that signed, which
/// keeps verifying for the longest link lifetime; `forget_retired` drops every retired key
/// (after a leak: everything they signed stops working).
pub fn rotate(data_dir: &Path, forget_retired: bool) -> anyhow::Result<Rotation> {
    let file = path(data_dir);
    ensure!(
        file.exists(),
        "{} does not exist: there is no key to rotate (it is made at the first start without \
         JWT_SIGNING_KEY)",
        file.display()
    );
    let old = read(&file)?;
    let now = Utc::now();
    let before = old.keys.len();
    let mut keys = vec![StoredKey::new(now)];
    if !forget_retired {
        keys.extend(old.keys.into_iter().filter_map(|mut k| {
            k.retired_at.get_or_insert(now);
            k.verifies(now).then_some(k)
        }));
    }
    let dropped = before + 1 - keys.len();
    let ids = |k: &StoredKey| {
        base64::engine::general_purpose::STANDARD
            .decode(&k.secret)
            .map(|s| key_id(&s))
            .unwrap_or_default()
    };
    let rotation = Rotation {
        signing: ids(&keys[0]),
        retired: keys[1..].iter().map(ids).collect(),
        dropped,
    };
    write(data_dir, &KeyFile { keys }, true)?;
    Ok(rotation)
}

/// Reads and checks the key file: private to its owner, one signing key first.
fn read(file: &Path) -> anyhow::Result<KeyFile> {
    let name = file.display();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file)
            .with_context(|| format!("reading {name}"))?
            .permissions()
            .mode();
        ensure!(
            mode & 0o077 == 0,
            "{name} holds the token signing keys but others may read it (mode {:o}): run \
             `chmod 600 {name}`",
            mode & 0o777
        );
    }
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {name}"))?;
    let keys: KeyFile =
        serde_json::from_str(&text).with_context(|| format!("{name} is not a key file"))?;
    match keys.keys.first() {
        Some(first) if first.retired_at.is_none() => {}
        _ => bail!("{name}: its first key must be the one that signs (no retiredAt)"),
    }
    ensure!(
        keys.keys[1..].iter().all(|k| k.retired_at.is_some()),
        "{name}: only its first key may sign; every other needs a retiredAt"
    );
    for k in &keys.keys {
        decode_secret(&name.to_string(), &k.secret)?;
    }
    Ok(keys)
}

/// Writes `keys` to the key file whole or not at all, mode 0600; over an existing one only
/// where `replace`.
fn write(data_dir: &Path, keys: &KeyFile, replace: bool) -> anyhow::Result<()> {
    let file = path(data_dir);
    // A temporary file is made 0600 from its first byte, so the secret is never readable by others.
    let mut temp = tempfile::Builder::new()
        .prefix(".signing-keys-")
        .tempfile_in(data_dir)
        .with_context(|| format!("writing in {}", data_dir.display()))?;
    temp.write_all(&serde_json::to_vec_pretty(keys)?)?;
    temp.as_file().sync_all()?;
    if replace {
        temp.persist(&file)
    } else {
        temp.persist_noclobber(&file)
    }
    .with_context(|| format!("writing {}", file.display()))?;
    std::fs::File::open(data_dir)?.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Link {
        sub: String,
    }

    fn link() -> Link {
        Link { sub: "s".into() }
    }

    fn sign(key: &TokenKey) -> String {
        key.sign_link("test", &link(), std::time::Duration::from_secs(60))
    }

    #[test]
    fn the_key_is_made_once_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let first = load_or_create(&data).unwrap();
        let token = sign(&first);
        let again = load_or_create(&data).unwrap();
        assert_eq!(again.verify_link::<Link>("test", &token), Some(link()));
        assert_eq!(first.signing_id(), again.signing_id());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path(&data)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            std::fs::set_permissions(path(&data), std::fs::Permissions::from_mode(0o644)).unwrap();
            let refused = load_or_create(&data).err().unwrap().to_string();
            assert!(refused.contains("chmod 600"), "{refused}");
        }
        let names: Vec<_> = std::fs::read_dir(&data).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn after_a_rotation_the_new_key_signs_and_the_retired_one_still_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let before = load_or_create(dir.path()).unwrap();
        let old = sign(&before);
        let rotation = rotate(dir.path(), false).unwrap();
        assert_eq!(rotation.retired, [before.signing_id()]);
        let after = load_or_create(dir.path()).unwrap();
        assert_eq!(after.signing_id(), rotation.signing);
        assert_ne!(after.signing_id(), before.signing_id());
        assert_eq!(after.verify_link::<Link>("test", &old), Some(link()));
        let new = sign(&after);
        assert!(
            before.verify_link::<Link>("test", &new).is_none(),
            "signed with the new key"
        );
        let stranger = sign(&TokenKey::generate());
        assert!(after.verify_link::<Link>("test", &stranger).is_none());

        // Retired longer ago than the longest link lifetime: no longer verifies.
        let mut file = read(&path(dir.path())).unwrap();
        file.keys[1].retired_at =
            Some(Utc::now() - chrono::Duration::from_std(LONGEST_LINK_LIFETIME).unwrap());
        write(dir.path(), &file, true).unwrap();
        let later = load_or_create(dir.path()).unwrap();
        assert!(later.verify_link::<Link>("test", &old).is_none());
        assert_eq!(rotate(dir.path(), false).unwrap().dropped, 1);

        rotate(dir.path(), true).unwrap();
        let forgotten = load_or_create(dir.path()).unwrap();
        assert!(forgotten.verify_link::<Link>("test", &new).is_none());
    }

    #[test]
    fn a_damaged_key_file_stops_the_start_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &KeyFile { keys: vec![] }, false).unwrap();
        let refused = load_or_create(dir.path()).err().unwrap().to_string();
        assert!(refused.contains(FILE), "{refused}");
    }
}
