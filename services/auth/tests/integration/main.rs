//! The auth service's tests in one binary, a module per concern.

mod api;
mod invitations;
mod user_store_contract;
