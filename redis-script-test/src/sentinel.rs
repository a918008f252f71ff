//! A throwaway Redis Sentinel set-up (or Valkey's) on loopback ports.
//!
//! One primary, one replica of it, and one sentinel (the same server
//! binary in Sentinel mode, `--sentinel`, with a configuration file
//! generated in its temporary directory) that monitors them under
//! [`MASTER_NAME`] with a quorum of one. Each is a [`RedisServer`]: no
//! persistence, free ports, stopped on drop. [`RedisSentinel::start`]
//! returns once the sentinel knows the replica as fit to be promoted, so a
//! failover can start at once; the sentinel's timers are shortened
//! (`SENTINEL DEBUG`) so that a failover completes in about a second.

use std::collections::HashMap;
use std::time::Duration;

use redis_script::redis;

use redis::sentinel::{SentinelClient, SentinelServerType};

use crate::replicated::Replicated;
use crate::server::RedisServer;
use crate::wait;

/// The name under which the sentinel monitors the primary.
pub const MASTER_NAME: &str = "mymaster";

/// How long the primary may be unreachable before the sentinel deems it
/// down, and the bound on each step of a failover.
const DOWN_AFTER_MS: u64 = 1000;
const FAILOVER_TIMEOUT_MS: u64 = 2000;
/// The sentinel's periods (`SENTINEL DEBUG`), in milliseconds: how often
/// it asks every server for `INFO`, pings them and publishes its hello,
/// and how long it stays in TILT mode (acting on nothing) after its timer
/// was held up, as a loaded machine can. The defaults (10 s, 1 s, 2 s,
/// 30 s) make it take some 10 s to turn a demoted primary into a replica
/// after a failover, and a TILT outlast a test's bounds.
const SENTINEL_PERIODS_MS: [(&str, u64); 4] = [
    ("info-period", 200),
    ("ping-period", 200),
    ("publish-period", 200),
    ("tilt-period", 1000),
];
/// The bound on every wait for the set-up to reach a state.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// A running primary, replica and sentinel, each a private [`RedisServer`]
/// on `127.0.0.1`.
pub struct RedisSentinel {
    // Declared first, so dropped first: a sentinel that outlived the
    // primary would start a failover while the set-up is torn down.
    sentinel: RedisServer,
    /// The primary and the replica as started; a failover swaps their roles.
    pair: Replicated,
}

impl RedisSentinel {
    /// Starts a primary, a replica of it and a sentinel monitoring the
    /// primary, and waits until the sentinel knows both and the replica is
    /// in sync.
    ///
    /// # Panics
    ///
    /// If a server does not start, or the set-up is not ready within 30 s.
    pub fn start() -> RedisSentinel {
        let pair = Replicated::start();
        let config = sentinel_config(pair.servers()[0].port());
        let sentinel =
            RedisServer::start_with_config(Some(&config), || vec!["--sentinel".to_owned()]);
        let mut con = sentinel.connection();
        for (name, millis) in SENTINEL_PERIODS_MS {
            redis::cmd("SENTINEL")
                .arg("DEBUG")
                .arg(name)
                .arg(millis)
                .exec(&mut con)
                .unwrap_or_else(|e| panic!("SENTINEL DEBUG {name} {millis}: {e}"));
        }
        let setup = RedisSentinel { sentinel, pair };
        setup.wait_for_replica(&setup.pair.servers()[1]);
        setup
    }

    /// The sentinel (a server in Sentinel mode).
    pub fn sentinel(&self) -> &RedisServer {
        &self.sentinel
    }

    /// The sentinel's URL: what a client of the set-up is given.
    pub fn sentinel_url(&self) -> String {
        self.sentinel.url()
    }

    /// A redis-rs Sentinel client for [`MASTER_NAME`]: each connection it
    /// makes goes to the server of `server_type` the sentinel names then.
    pub fn client(&self, server_type: SentinelServerType) -> SentinelClient {
        SentinelClient::build(
            vec![self.sentinel_url()],
            MASTER_NAME.to_owned(),
            None,
            server_type,
        )
        .expect("the sentinel URL is valid")
    }

    /// The server that started as the primary.
    pub fn first_primary(&self) -> &RedisServer {
        &self.pair.servers()[0]
    }

    /// The server that started as the replica.
    pub fn first_replica(&self) -> &RedisServer {
        &self.pair.servers()[1]
    }

    /// The server the sentinel names as the primary now.
    pub fn primary(&self) -> &RedisServer {
        let port = self.primary_port();
        self.pair
            .servers()
            .iter()
            .find(|server| server.port() == port)
            .unwrap_or_else(|| panic!("the sentinel names port {port}, none of the set-up's"))
    }

    /// The port of the primary, as `SENTINEL GET-MASTER-ADDR-BY-NAME` says.
    pub fn primary_port(&self) -> u16 {
        primary_port(&mut self.sentinel.connection())
    }

    /// Asks the sentinel for a failover (`SENTINEL FAILOVER`), which
    /// promotes the replica without waiting for the primary to fail; the
    /// failover goes on after this returns (see
    /// [`wait_for_primary`](Self::wait_for_primary)). A sentinel that finds
    /// no replica fit yet (NOGOODSLAVE) is asked again.
    ///
    /// # Panics
    ///
    /// If the sentinel refuses otherwise, or finds no replica within 30 s.
    pub fn failover(&self) {
        let mut con = self.sentinel.connection();
        wait::until(READY_TIMEOUT, "the sentinel to accept a failover", || {
            let reply = redis::cmd("SENTINEL")
                .arg("FAILOVER")
                .arg(MASTER_NAME)
                .exec(&mut con);
            match reply {
                Ok(()) => true,
                Err(error) if error.code() == Some("NOGOODSLAVE") => false,
                Err(error) => panic!("SENTINEL FAILOVER: {error}"),
            }
        });
    }

    /// Waits until the sentinel names `server` as the primary and `server`
    /// says it is one (`ROLE`).
    ///
    /// # Panics
    ///
    /// After 30 s.
    pub fn wait_for_primary(&self, server: &RedisServer) {
        let mut sentinel = self.sentinel.connection();
        wait::until(
            READY_TIMEOUT,
            "the sentinel to name the new primary",
            || {
                primary_port(&mut sentinel) == server.port()
                    && server.role().as_deref() == Some("master")
            },
        );
    }

    /// Waits until `server` is a replica of the primary the sentinel names,
    /// in sync (link up), and the sentinel lists it as a replica fit to be
    /// promoted: after a failover, the demoted primary.
    ///
    /// # Panics
    ///
    /// After 30 s.
    pub fn wait_for_replica(&self, server: &RedisServer) {
        let mut sentinel = self.sentinel.connection();
        wait::until(
            READY_TIMEOUT,
            "the replica to be in sync and known to the sentinel",
            || {
                if server.role().as_deref() != Some("slave") {
                    return false;
                }
                let replicas: Vec<HashMap<String, String>> = redis::cmd("SENTINEL")
                    .arg("REPLICAS")
                    .arg(MASTER_NAME)
                    .query(&mut sentinel)
                    .expect("the sentinel lists the replicas");
                let primary = primary_port(&mut sentinel).to_string();
                replicas.iter().any(|replica| {
                    let field = |name: &str| replica.get(name).map(String::as_str);
                    field("port") == Some(&server.port().to_string())
                        && field("flags") == Some("slave")
                        && field("master-link-status") == Some("ok")
                        && field("master-port") == Some(&primary)
                })
            },
        );
    }
}

/// The sentinel's configuration: it monitors the primary on
/// `127.0.0.1:primary_port` alone (quorum 1), deems it down after
/// [`DOWN_AFTER_MS`], and bounds a failover by [`FAILOVER_TIMEOUT_MS`].
/// Every address is an IP, so it resolves no host names.
fn sentinel_config(primary_port: u16) -> String {
    format!(
        "sentinel monitor {MASTER_NAME} 127.0.0.1 {primary_port} 1\n\
         sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n\
         sentinel failover-timeout {MASTER_NAME} {FAILOVER_TIMEOUT_MS}\n"
    )
}

/// The port of the primary, as `SENTINEL GET-MASTER-ADDR-BY-NAME` says on
/// `sentinel`.
fn primary_port(sentinel: &mut redis::Connection) -> u16 {
    let (_host, port): (String, u16) = redis::cmd("SENTINEL")
        .arg("GET-MASTER-ADDR-BY-NAME")
        .arg(MASTER_NAME)
        .query(sentinel)
        .expect("the sentinel knows the primary");
    port
}
