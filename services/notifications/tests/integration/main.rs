//! The notifications service's tests in one binary, a module per concern. Tests that change
//! the process's environment (proxies, the system certificate store) are binaries of their own.

mod email_api;
mod smtp;
mod webhooks;
