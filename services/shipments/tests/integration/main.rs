//! The shipments service's tests in one binary, a module per concern.

mod api;
mod attention;
mod batch;
mod blob_contract;
mod common;
mod customers;
mod dashboard;
mod import;
mod live;
mod pickups;
mod proof_of_delivery;
mod rates;
mod roles_and_audit;
mod shipment_emails;
mod store_contract;
mod tracking;
mod webhook_events;
