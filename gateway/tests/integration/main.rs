//! The gateway's tests in one binary, a module per concern. Tests that own process-wide state
//! (the tracing subscriber, the metrics recorder) are test binaries of their own.

mod abuse;
mod access_changes;
mod api_keys;
mod backup;
mod balance;
mod calls;
#[path = "../common/mod.rs"]
mod common;
mod connect_json;
mod connections;
mod customer_webhooks;
mod customers;
mod emails;
mod exceptions;
mod files;
mod in_process;
mod labels;
mod live;
mod one_click_unsubscribe;
mod own_sessions;
mod preferences;
mod quotes;
mod reflection;
mod request_logs;
mod requests;
mod restarts;
mod sessions;
mod settings;
mod signing_keys;
mod staff_users;
mod state_stores;
mod static_files;
mod tracking;
mod upgrade;
mod webhook_payload;
mod webhooks;
