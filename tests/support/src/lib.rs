//! Throwaway real servers for redis-script's tests, examples and doc tests:
//! no mocks of Redis.
//!
//! - [`server::RedisServer`]: one `redis-server` (or `valkey-server`) on a
//!   free loopback port, in a temporary directory, without persistence,
//!   killed on drop; restartable on the same port, with extra arguments for
//!   replicas and cluster nodes.
//! - [`cluster::RedisCluster`]: a local Redis Cluster of such servers,
//!   primaries and replicas, joined with the server's own CLI and ready when
//!   returned.
//! - [`sentinel::RedisSentinel`]: a primary, a replica and a sentinel (the
//!   same binary in Sentinel mode) monitoring them, ready for a failover.
//!
//! - [`lua`]: the repository's Lua and the edits of the tests that mutate
//!   scripts.
//!
//! Which server binary runs is chosen by one environment variable,
//! [`server::SERVER_ENV`] (`REDIS_SCRIPT_SERVER`): a path, or a command name
//! on `PATH`; unset, `redis-server`. The CLI of the same server
//! (`redis-cli`, `valkey-cli`) is expected beside it.
//!
//! ```no_run
//! use redis_script_test_support::redis;
//! use redis_script_test_support::server::RedisServer;
//!
//! let server = RedisServer::start();
//! let mut con = server.connection();
//! redis::cmd("SET").arg("k").arg("v").exec(&mut con).unwrap();
//! // The server stops when `server` is dropped.
//! ```

#![warn(missing_docs)]

/// The redis-rs of the clients this crate makes: 1.x, or 2.0 with `redis-2`
/// (also when `redis-1` is on as well, as in the facade).
#[cfg(all(feature = "redis-1", not(feature = "redis-2")))]
pub use redis;
/// The redis-rs of the clients this crate makes: 1.x, or 2.0 with `redis-2`.
// The aliased `extern crate` also makes it `redis` throughout this crate.
#[cfg(feature = "redis-2")]
pub extern crate redis2 as redis;

pub mod lua;

// Without a redis-rs there are no servers to offer: trybuild's UI cases
// build this crate with no features.
#[cfg(any(feature = "redis-1", feature = "redis-2"))]
pub mod cluster;
#[cfg(any(feature = "redis-1", feature = "redis-2"))]
pub mod sentinel;
#[cfg(any(feature = "redis-1", feature = "redis-2"))]
pub mod server;
