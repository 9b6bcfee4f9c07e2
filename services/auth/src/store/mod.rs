//! Where users live: one trait, an embedded SQLite store (the default) and a MongoDB store.

use async_trait::async_trait;

use crate::domain::{Email, User};
use crate::error::AuthError;

pub mod mongo;
pub mod sqlite;

pub use mongo::MongoUserStore;
pub use sqlite::SqliteUserStore;

/// One page of users, oldest first; `next` is the cursor after the last one.
pub struct UserPage {
    pub users: Vec<User>,
    pub next: Option<String>,
}

#[async_trait]
pub trait UserStore: Send + Sync + 'static {
    /// Errors: AlreadyExists when the e-mail is taken.
    async fn insert(&self, user: &User) -> Result<(), AuthError>;
    async fn get(&self, id: &str) -> Result<User, AuthError>;
    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, AuthError>;
    async fn count(&self) -> Result<u64, AuthError>;
    /// The staff (`customer` None) or one customer's users, oldest first; `after` is a
    /// cursor from a previous page.
    async fn list(
        &self,
        customer: Option<&str>,
        page_size: usize,
        after: Option<&str>,
    ) -> Result<UserPage, AuthError>;
    /// Replaces a stored user (same id) and returns it; NotFound when missing.
    async fn replace(&self, user: &User) -> Result<User, AuthError>;
}
