//! Real throwaway Redis and Valkey servers for testing Redis Lua scripts and
//! the code that calls them: `#[redis_script::test]`.
//!
//! Placeholder: the crate documentation is written with the attribute.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The redis-rs the connections are made with: the one `redis-script`
/// builds on (its features `redis-1` and `redis-2` choose).
pub use redis_script::redis;

pub mod binary;
pub mod cluster;
pub mod sentinel;
pub mod server;
mod spawn;

pub use binary::{Origin, SERVER_ENV, SERVERS_ENV, ServerBinary};
pub use cluster::RedisCluster;
pub use sentinel::RedisSentinel;
pub use server::{Flavor, RedisServer};
