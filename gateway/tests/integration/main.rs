//! The gateway's tests in one binary, a module per concern. Tests that own process-wide state
//! (the tracing subscriber, the metrics recorder) are test binaries of their own.

mod abuse;
mod backup;
mod balance;
#[path = "../common/mod.rs"]
mod common;
mod connections;
mod gateway;
mod one_click_unsubscribe;
mod reflection;
mod request_logs;
mod settings;
mod signing_keys;
mod state_stores;
mod upgrade;
mod webhook_payload;
