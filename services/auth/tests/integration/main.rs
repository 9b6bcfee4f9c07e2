//! The auth service's tests in one binary, a module per concern.

mod api;
mod api_key_store_contract;
mod invitations;
mod user_store_contract;
