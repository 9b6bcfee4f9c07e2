//! The outbox's tests in one binary, a module per concern.

mod contract;
mod racers;
mod webhooks;
