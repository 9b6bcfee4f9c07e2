//! What the gateway's test files share: a real `redis-server`, and the product started the
//! way its binaries start it (each service's `build`, the gateway's `Upstreams::build`).
#![allow(dead_code)]

mod redis;
pub mod site;
pub mod wire;

pub use redis::RedisServer;
