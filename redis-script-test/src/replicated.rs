//! A throwaway primary and its replica, which can fail over.

use std::time::Duration;

use redis_script::redis;

use crate::binary::ServerBinary;
use crate::server::RedisServer;
use crate::wait;

/// A primary otherwise waits 5 s for more replicas before it syncs one.
pub(crate) const NO_SYNC_DELAY: [&str; 2] = ["--repl-diskless-sync-delay", "0"];

/// The bound on every wait for the pair to reach a state.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// A primary and one replica of it, each a private [`RedisServer`]; a
/// [`failover`](Self::failover) swaps their roles, as production's does.
pub struct Replicated {
    /// As started: the primary, then the replica.
    servers: [RedisServer; 2],
}

impl Replicated {
    /// Starts a primary and a replica of it, and returns once the replica
    /// is in sync.
    ///
    /// # Panics
    ///
    /// If a server does not start, or the replica is not in sync within
    /// 30 s.
    pub fn start() -> Replicated {
        Replicated::start_on(&ServerBinary::find())
    }

    /// [`start`](Self::start) with servers of `binary`.
    pub fn start_on(binary: &ServerBinary) -> Replicated {
        // Set on both, as each may become the primary.
        let primary =
            RedisServer::start_binary(binary, None, || NO_SYNC_DELAY.map(String::from).to_vec());
        let replica_of = primary.port().to_string();
        let replica = RedisServer::start_binary(binary, None, || {
            let mut args = NO_SYNC_DELAY.map(String::from).to_vec();
            args.extend(["--replicaof".to_owned(), "127.0.0.1".to_owned()]);
            args.push(replica_of.clone());
            args
        });
        let pair = Replicated {
            servers: [primary, replica],
        };
        pair.wait_in_sync();
        pair
    }

    /// The server that is the primary now.
    ///
    /// # Panics
    ///
    /// If neither says it is (as for a moment during a failover).
    pub fn primary(&self) -> &RedisServer {
        self.with_role("master")
    }

    /// The server that is the replica now.
    ///
    /// # Panics
    ///
    /// If neither says it is.
    pub fn replica(&self) -> &RedisServer {
        self.with_role("slave")
    }

    /// Both servers, the primary as started first.
    pub fn servers(&self) -> &[RedisServer; 2] {
        &self.servers
    }

    /// Promotes the replica and demotes the primary to a replica of it
    /// (`FAILOVER`: the primary holds writes until the replica has them
    /// all, so nothing acknowledged is lost), and returns once the new
    /// replica is in sync. Clients of the old primary get READONLY on
    /// writes; clients that follow the topology reconnect.
    ///
    /// # Panics
    ///
    /// If the server refuses, or the swap is not done within 30 s.
    pub fn failover(&self) {
        let (primary, replica) = (self.primary(), self.replica());
        redis::cmd("FAILOVER")
            .arg("TO")
            .arg("127.0.0.1")
            .arg(replica.port())
            .exec(&mut primary.connection())
            .unwrap_or_else(|e| panic!("FAILOVER TO port {}: {e}", replica.port()));
        wait::until(READY_TIMEOUT, "the replica to become the primary", || {
            replica.role().as_deref() == Some("master")
        });
        self.wait_in_sync();
    }

    fn with_role(&self, role: &str) -> &RedisServer {
        self.servers
            .iter()
            .find(|server| server.role().as_deref() == Some(role))
            .unwrap_or_else(|| panic!("neither server of the pair is a {role}"))
    }

    /// Waits until one server is the primary and the other a replica of it
    /// in sync, as both see it: the replica's link is up, and the primary
    /// lists it as online (which FAILOVER requires; the primary learns it a
    /// moment after the replica).
    fn wait_in_sync(&self) {
        wait::until(READY_TIMEOUT, "the replica to be in sync", || {
            let [first, second] = &self.servers;
            [(first, second), (second, first)]
                .iter()
                .any(|(primary, replica)| {
                    replica.role().as_deref() == Some("slave")
                        && replication_info(replica).contains("master_link_status:up")
                        && replication_info(primary)
                            .contains(&format!("port={},state=online", replica.port()))
                })
        });
    }
}

/// `INFO replication`, empty if the server does not answer.
fn replication_info(server: &RedisServer) -> String {
    redis::cmd("INFO")
        .arg("replication")
        .query(&mut server.connection())
        .unwrap_or_default()
}
