//! What a `#[redis_script::test]` function can take: each parameter's type
//! says what the harness makes for it from the test's [`Setup`].
//!
//! | Parameter | One server, or a `replica` pair (its primary) | `cluster` |
//! |---|---|---|
//! | `&mut redis::Connection`, `redis::Connection` | ✓ | |
//! | `redis::Client` | ✓ | |
//! | `r2d2::Pool<redis::Client>` | ✓ | |
//! | `redis::aio::MultiplexedConnection` (async tests) | ✓ | |
//! | `redis::aio::ConnectionManager` (async tests) | ✓ | |
//! | `&mut redis::cluster::ClusterConnection`, `redis::cluster::ClusterClient` | | ✓ |
//! | `redis::cluster_async::ClusterConnection` (async tests) | | ✓ |
//! | `&RedisServer` (the server itself: faults, URL, version) | ✓ | |
//! | `&Replicated` (`replica` only) | ✓ | |
//! | `&RedisCluster` | | ✓ |
//! | `&Setup` (whichever was started) | ✓ | ✓ |
//!
//! A parameter `&mut T` gets a `T` made for it and lent.

use std::future::Future;

use redis_script::redis;

use crate::cluster::RedisCluster;
use crate::replicated::Replicated;
use crate::server::RedisServer;
use crate::setup::Setup;

/// A parameter of a synchronous `#[redis_script::test]`. The types are
/// this crate's to choose (the trait is sealed): a test that needs another
/// makes it from one of these, e.g. a bb8 pool from `&RedisServer`'s URL.
#[diagnostic::on_unimplemented(
    message = "a synchronous `#[redis_script::test]` cannot take a `{Self}`",
    note = "it takes a redis::Connection, redis::Client, r2d2::Pool<redis::Client>, \
            redis::cluster::ClusterConnection or ClusterClient, or &RedisServer, \
            &RedisCluster, &Replicated, &Setup; async connections need an `async fn` test"
)]
pub trait TestArg<'a>: Sized + sealed::Sealed {
    /// Makes the value from the test's servers.
    ///
    /// # Errors
    ///
    /// A message, if the set-up has no such thing (a cluster connection on
    /// one server) or the connection fails.
    fn from_setup(setup: &'a Setup) -> Result<Self, String>;
}

/// A parameter of an `async fn` `#[redis_script::test]`: what a
/// [`TestArg`] is, and the async connections.
#[diagnostic::on_unimplemented(
    message = "an async `#[redis_script::test]` cannot take a `{Self}`",
    note = "it takes what a synchronous test takes, and redis::aio::MultiplexedConnection, \
            redis::aio::ConnectionManager or redis::cluster_async::ClusterConnection"
)]
pub trait AsyncTestArg<'a>: Sized + sealed::Sealed {
    /// Makes the value from the test's servers.
    ///
    /// # Errors
    ///
    /// As [`TestArg::from_setup`].
    fn from_setup_async(setup: &'a Setup) -> impl Future<Output = Result<Self, String>>;
}

/// The one server, or a pair's primary; an error on a cluster.
fn server<'a>(setup: &'a Setup, wanted: &str) -> Result<&'a RedisServer, String> {
    setup.server().ok_or_else(|| {
        format!(
            "this test runs on a cluster, and a {wanted} is for one server: \
             take a redis::cluster::ClusterConnection, or a &RedisCluster"
        )
    })
}

fn cluster<'a>(setup: &'a Setup, wanted: &str) -> Result<&'a RedisCluster, String> {
    setup.cluster().ok_or_else(|| {
        format!(
            "a {wanted} needs a cluster: write #[redis_script::test(cluster)] \
             (a test on one server takes a redis::Connection)"
        )
    })
}

fn failed(what: &str) -> impl FnOnce(redis::RedisError) -> String + '_ {
    move |error| format!("cannot make the test's {what}: {error}")
}

mod sealed {
    /// Only this crate implements the parameter traits.
    pub trait Sealed {}
}

/// Implements both traits for values made without a runtime.
macro_rules! sync_args {
    ($($(#[$doc:meta])* $ty:ty => |$setup:ident| $make:expr;)*) => {$(
        impl<'a> sealed::Sealed for $ty {}

        $(#[$doc])*
        impl<'a> TestArg<'a> for $ty {
            fn from_setup($setup: &'a Setup) -> Result<Self, String> {
                $make
            }
        }

        impl<'a> AsyncTestArg<'a> for $ty {
            async fn from_setup_async(setup: &'a Setup) -> Result<Self, String> {
                <$ty as TestArg<'a>>::from_setup(setup)
            }
        }
    )*};
}

sync_args! {
    &'a Setup => |setup| Ok(setup);
    &'a RedisServer => |setup| server(setup, "&RedisServer");
    &'a RedisCluster => |setup| cluster(setup, "&RedisCluster");
    &'a Replicated => |setup| setup.replicated().ok_or_else(|| {
        "a &Replicated needs a primary and a replica: write #[redis_script::test(replica)]"
            .to_owned()
    });
    redis::Client => |setup| Ok(server(setup, "redis::Client")?.client());
    redis::Connection => |setup| {
        server(setup, "redis::Connection")?
            .client()
            .get_connection()
            .map_err(failed("redis::Connection"))
    };
    r2d2::Pool<redis::Client> => |setup| {
        r2d2::Pool::builder()
            .build(server(setup, "r2d2::Pool")?.client())
            .map_err(|e| format!("cannot make the test's r2d2::Pool: {e}"))
    };
    redis::cluster::ClusterClient => |setup| Ok(cluster(setup, "ClusterClient")?.client());
    redis::cluster::ClusterConnection => |setup| {
        cluster(setup, "redis::cluster::ClusterConnection")?
            .client()
            .get_connection()
            .map_err(failed("redis::cluster::ClusterConnection"))
    };
}

impl sealed::Sealed for redis::aio::MultiplexedConnection {}

impl<'a> AsyncTestArg<'a> for redis::aio::MultiplexedConnection {
    async fn from_setup_async(setup: &'a Setup) -> Result<Self, String> {
        server(setup, "MultiplexedConnection")?
            .client()
            .get_multiplexed_async_connection()
            .await
            .map_err(failed("MultiplexedConnection"))
    }
}

impl sealed::Sealed for redis::aio::ConnectionManager {}

impl<'a> AsyncTestArg<'a> for redis::aio::ConnectionManager {
    async fn from_setup_async(setup: &'a Setup) -> Result<Self, String> {
        redis::aio::ConnectionManager::new(server(setup, "ConnectionManager")?.client())
            .await
            .map_err(failed("ConnectionManager"))
    }
}

impl sealed::Sealed for redis::cluster_async::ClusterConnection {}

impl<'a> AsyncTestArg<'a> for redis::cluster_async::ClusterConnection {
    async fn from_setup_async(setup: &'a Setup) -> Result<Self, String> {
        cluster(setup, "redis::cluster_async::ClusterConnection")?
            .client()
            .get_async_connection()
            .await
            .map_err(failed("redis::cluster_async::ClusterConnection"))
    }
}
