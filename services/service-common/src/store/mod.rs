//! The store plumbing every service shares: one classification of database errors, the
//! SQLite handle that runs work off the async runtime, the JSON and MongoDB document codecs.
//! Each service converts a [`StoreFault`] into its own error type once.

pub mod json;
pub mod migrate;
pub mod mongo;
pub mod sqlite;

use std::fmt;

use r2d2_sqlite::rusqlite::{self, ErrorCode, ffi};

pub use sqlite::Sqlite;

/// What went wrong in a database, as far as a caller cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreFault {
    /// The database cannot answer now (busy, locked, unreachable, no free connection): worth
    /// UNAVAILABLE and a later try.
    Unavailable(String),
    /// A unique index refused the write; the text is the database's (it names the index).
    Duplicate(String),
    /// Anything else: a bug, a refused or malformed operation, an unreadable document.
    Internal(String),
}

impl fmt::Display for StoreFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unavailable(cause) | Self::Internal(cause) => f.write_str(cause),
            Self::Duplicate(cause) => write!(f, "duplicate key: {cause}"),
        }
    }
}

impl std::error::Error for StoreFault {}

impl From<rusqlite::Error> for StoreFault {
    fn from(e: rusqlite::Error) -> Self {
        match &e {
            rusqlite::Error::SqliteFailure(f, _) => match f.code {
                ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => {
                    Self::Unavailable(e.to_string())
                }
                ErrorCode::ConstraintViolation
                    if matches!(
                        f.extended_code,
                        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    ) =>
                {
                    Self::Duplicate(e.to_string())
                }
                _ => Self::Internal(e.to_string()),
            },
            _ => Self::Internal(e.to_string()),
        }
    }
}

/// No connection came free in time.
impl From<r2d2::Error> for StoreFault {
    fn from(e: r2d2::Error) -> Self {
        Self::Unavailable(e.to_string())
    }
}

impl From<mongodb::error::Error> for StoreFault {
    fn from(e: mongodb::error::Error) -> Self {
        if crate::mongo_unreachable(&e) {
            Self::Unavailable(e.to_string())
        } else if mongo::is_duplicate_key(&e) {
            Self::Duplicate(e.to_string())
        } else {
            Self::Internal(e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongodb::bson::doc;
    use mongodb::error::{CommandError, Error as MongoError, ErrorKind, WriteError, WriteFailure};

    fn sqlite(code: std::ffi::c_int) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(ffi::Error::new(code), Some("the database says".into()))
    }

    #[test]
    fn sqlite_busy_and_locked_are_unavailable() {
        for code in [
            ffi::SQLITE_BUSY,
            ffi::SQLITE_LOCKED,
            ffi::SQLITE_BUSY_SNAPSHOT,
            ffi::SQLITE_LOCKED_SHAREDCACHE,
        ] {
            assert!(
                matches!(StoreFault::from(sqlite(code)), StoreFault::Unavailable(_)),
                "{code}"
            );
        }
    }

    #[test]
    fn sqlite_unique_constraints_are_duplicates() {
        for code in [
            ffi::SQLITE_CONSTRAINT_UNIQUE,
            ffi::SQLITE_CONSTRAINT_PRIMARYKEY,
        ] {
            assert_eq!(
                StoreFault::from(sqlite(code)),
                StoreFault::Duplicate("the database says".into())
            );
        }
        assert!(matches!(
            StoreFault::from(sqlite(ffi::SQLITE_CONSTRAINT_NOTNULL)),
            StoreFault::Internal(_)
        ));
    }

    #[test]
    fn real_sqlite_errors_are_classified() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (k TEXT PRIMARY KEY, u TEXT UNIQUE); INSERT INTO t VALUES ('a', 'x');",
        )
        .unwrap();
        let e = conn
            .execute("INSERT INTO t VALUES ('b', 'x')", [])
            .unwrap_err();
        assert!(matches!(StoreFault::from(e), StoreFault::Duplicate(m) if m.contains("t.u")));
        let e = conn.execute("SELECT nonsense", []).unwrap_err();
        assert!(matches!(StoreFault::from(e), StoreFault::Internal(_)));
    }

    #[test]
    fn pool_timeouts_are_unavailable() {
        let manager = r2d2_sqlite::SqliteConnectionManager::file("/nonexistent/dir/db.sqlite3");
        let Err(e) = r2d2::Pool::builder()
            .connection_timeout(std::time::Duration::from_millis(50))
            .build(manager)
        else {
            panic!("no pool on a missing directory");
        };
        assert!(matches!(StoreFault::from(e), StoreFault::Unavailable(_)));
    }

    fn write_error(code: i32) -> MongoError {
        let w: WriteError =
            mongodb::bson::from_document(doc! { "code": code, "errmsg": "E11000 duplicate key" })
                .unwrap();
        MongoError::from(ErrorKind::Write(WriteFailure::WriteError(w)))
    }

    #[test]
    fn mongo_duplicate_key_is_duplicate() {
        assert!(matches!(
            StoreFault::from(write_error(11000)),
            StoreFault::Duplicate(_)
        ));
        let c: CommandError = mongodb::bson::from_document(
            doc! { "code": 11000, "codeName": "DuplicateKey", "errmsg": "E11000" },
        )
        .unwrap();
        assert!(matches!(
            StoreFault::from(MongoError::from(ErrorKind::Command(c))),
            StoreFault::Duplicate(_)
        ));
        assert!(matches!(
            StoreFault::from(write_error(121)),
            StoreFault::Internal(_)
        ));
    }

    #[test]
    fn mongo_unreachable_is_unavailable() {
        let e = MongoError::from(ErrorKind::Io(std::sync::Arc::new(std::io::Error::other(
            "connection refused",
        ))));
        assert!(matches!(StoreFault::from(e), StoreFault::Unavailable(_)));
        assert!(matches!(
            StoreFault::from(MongoError::custom("refused")),
            StoreFault::Internal(_)
        ));
    }
}
