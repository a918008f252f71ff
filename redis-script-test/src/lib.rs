//! Test Redis Lua scripts, and the code that calls them, against real
//! throwaway Redis and Valkey servers: `#[redis_script::test]`.
//!
//! ```toml
//! [dev-dependencies]
//! redis-script-test = "0.1"
//! ```
//!
//! ```no_run
//! use redis_script::redis;
//! use redis_script_test::RedisServer;
//!
//! #[redis_script::redis_script(file = "scripts/visit.lua", keys = 1)]
//! fn visit(page: &str) -> i64;
//!
//! // A server of its own, started for this test and killed after it.
//! #[redis_script::test]
//! fn visits_are_counted(con: &mut redis::Connection) {
//!     assert_eq!(visit("page:home").invoke(con).unwrap(), 1);
//!     assert_eq!(visit("page:home").invoke(con).unwrap(), 2);
//! }
//!
//! // Async tests take async connections; the script cache is flushed
//! // mid-test and the binding recovers (EVALSHA, NOSCRIPT, EVAL).
//! #[redis_script::test]
//! async fn counting_survives_a_script_flush(
//!     server: &RedisServer,
//!     mut con: redis::aio::MultiplexedConnection,
//! ) -> Result<(), redis_script::Error> {
//!     visit("page:home").invoke_async(&mut con).await?;
//!     server.flush_scripts();
//!     assert_eq!(visit("page:home").invoke_async(&mut con).await?, 2);
//!     Ok(())
//! }
//! # fn main() {}
//! ```
//!
//! The guide's chapter [Testing your
//! scripts](https://docs.rs/redis-script/latest/redis_script/guide/testing_scripts/index.html)
//! says more.
//!
//! # Servers
//!
//! Each run of a test gets servers nobody else writes to: a fresh
//! `redis-server` (or `valkey-server`) on a free port of `127.0.0.1`, in a
//! temporary directory, with no persistence, killed when the run ends.
//! Starting one costs a few milliseconds (see the crate's benchmarks), and
//! buys a test its own data, script cache, libraries and configuration,
//! and faults that touch no other test.
//!
//! The binary is [`SERVER_ENV`] (`REDIS_SCRIPT_SERVER`, a path or a command
//! name), else `redis-server`, else `valkey-server` on `PATH`, else, with
//! the feature `bundled`, Valkey 9.1.2 built from source vendored in the
//! crate `redis-script-bundled-valkey` (needs `make` and a C compiler; about
//! 45 s once per target directory); a test without one fails with a
//! message that says how to get one. With
//! [`SERVERS_ENV`] (`REDIS_SCRIPT_SERVERS=redis-server:valkey-server`) every
//! test runs once on each, and a failure names the server it failed on.
//!
//! No server outlives the test process: `Drop` kills it when a test passes
//! or panics, a `timeout_secs` kills it when a test hangs, and on Linux the
//! kernel kills it when the process is killed (`PR_SET_PDEATHSIG`), as a
//! test runner's timeout or a Ctrl-C does.
//!
//! # The attribute
//!
//! `#[redis_script::test(...)]` takes, in any order:
//!
//! | Argument | Effect |
//! |---|---|
//! | `cluster` | a cluster of three primaries; `cluster(replicas = 1)` adds a replica to each |
//! | `replica` | a primary and a replica of it ([`Replicated`], which can fail over) |
//! | `fixtures("a.redis", "b.lua")` | files (relative to the crate's `Cargo.toml`) run first: see [`fixtures`] |
//! | `load_all` | every binding's script and library is loaded first ([`redis_script::load_all`]); without it a test starts from an empty script cache, as a server does after a restart |
//! | `timeout_secs = 30` | the test's body fails after that long, its servers killed |
//!
//! What the function takes is listed in [`test_args`]; it returns `()` or
//! a `Result` whose `Err` fails it, and may be `async` (it then runs on a
//! single-threaded tokio runtime of its own, as under `#[tokio::test]`).
//!
//! # Faults
//!
//! [`RedisServer`] has what a test of recovery needs: see [`faults`].

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The redis-rs the connections are made with: the one `redis-script`
/// builds on (its features `redis-1` and `redis-2` choose).
pub use redis_script::redis;

pub mod binary;
pub mod cluster;
pub mod faults;
pub mod fixtures;
pub mod replicated;
mod run;
pub mod sentinel;
pub mod server;
pub mod setup;
mod spawn;
pub mod test_args;
mod wait;

pub use binary::{Origin, SERVER_ENV, SERVERS_ENV, ServerBinary};
pub use cluster::RedisCluster;
pub use replicated::Replicated;
pub use sentinel::RedisSentinel;
pub use server::{Flavor, RedisServer};
pub use setup::{Setup, Topology};
pub use test_args::{AsyncTestArg, TestArg};

/// What `#[redis_script::test]` expands to; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::run::{Body, Options, Outcome, run};
    pub use crate::setup::Topology;

    /// Runs an async test's future on a runtime of its own.
    pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime for an async test")
            .block_on(future)
    }
}
