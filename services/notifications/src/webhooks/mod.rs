//! Signed webhooks: the endpoints admins register, the worker that delivers shipment events
//! to them, and the checks that keep deliveries off the product's own network.

pub mod address;
pub mod send;
pub mod service;
pub mod worker;

pub use address::AddressPolicy;
pub use send::{WebhookSender, sign};
pub use service::WebhooksService;
pub use worker::{Alerts, WebhookWorker};
