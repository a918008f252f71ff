//! What one run of a test gets: servers of one binary, in the topology the
//! test asked for, with its fixtures applied.

use std::fmt;

use redis_script::redis;

use crate::binary::ServerBinary;
use crate::cluster::RedisCluster;
use crate::fixtures;
use crate::replicated::Replicated;
use crate::server::RedisServer;

/// The servers a test asked for: one server (the default), a cluster of
/// three primaries (`cluster`), or a primary and its replica (`replica`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Topology {
    /// One server.
    Server,
    /// A cluster of three primaries, each with `replicas` replicas.
    Cluster {
        /// Replicas of each primary.
        replicas: usize,
    },
    /// A primary and one replica.
    Replica,
}

/// The running servers of one run of a `#[redis_script::test]`: a test
/// can take `&Setup` to reach whichever it asked for.
pub struct Setup {
    binary: ServerBinary,
    deployment: Deployment,
}

enum Deployment {
    Server(RedisServer),
    Cluster(RedisCluster),
    Replicated(Replicated),
}

impl Setup {
    /// Starts `topology` with servers of `binary`.
    ///
    /// # Panics
    ///
    /// If a server does not start (the message quotes its log).
    pub(crate) fn start(binary: &ServerBinary, topology: Topology) -> Setup {
        let deployment = match topology {
            Topology::Server => Deployment::Server(RedisServer::start_on(binary)),
            Topology::Cluster { replicas } => {
                Deployment::Cluster(RedisCluster::start_on(binary, 3, replicas))
            }
            Topology::Replica => Deployment::Replicated(Replicated::start_on(binary)),
        };
        Setup {
            binary: binary.clone(),
            deployment,
        }
    }

    /// The binary every server runs.
    pub fn binary(&self) -> &ServerBinary {
        &self.binary
    }

    /// The one server, or the primary of a replicated pair; `None` on a
    /// cluster.
    ///
    /// # Panics
    ///
    /// For a pair in the middle of a failover, when neither server says it
    /// is the primary (see [`Replicated::primary`]).
    pub fn server(&self) -> Option<&RedisServer> {
        match &self.deployment {
            Deployment::Server(server) => Some(server),
            Deployment::Replicated(pair) => Some(pair.primary()),
            Deployment::Cluster(_) => None,
        }
    }

    /// The cluster, if the test asked for one.
    pub fn cluster(&self) -> Option<&RedisCluster> {
        match &self.deployment {
            Deployment::Cluster(cluster) => Some(cluster),
            _ => None,
        }
    }

    /// The primary and its replica, if the test asked for them.
    pub fn replicated(&self) -> Option<&Replicated> {
        match &self.deployment {
            Deployment::Replicated(pair) => Some(pair),
            _ => None,
        }
    }

    /// Every server process of the set-up.
    pub fn servers(&self) -> Vec<&RedisServer> {
        match &self.deployment {
            Deployment::Server(server) => vec![server],
            Deployment::Cluster(cluster) => cluster.nodes().collect(),
            Deployment::Replicated(pair) => pair.servers().iter().collect(),
        }
    }

    /// Runs each fixture (its name, and its text), then loads every
    /// binding's script and library if `load_all`: on the server, the
    /// primary of a pair (libraries reach the replica by replication,
    /// scripts do not) or the cluster (every primary).
    ///
    /// # Errors
    ///
    /// A fixture's failure, or the load's, as a message.
    pub(crate) fn prepare(&self, fixtures: &[(&str, &str)], load_all: bool) -> Result<(), String> {
        let mut con: Box<dyn redis::ConnectionLike> = match &self.deployment {
            Deployment::Cluster(cluster) => Box::new(
                cluster
                    .client()
                    .get_connection()
                    .map_err(|e| format!("connecting to the cluster: {e}"))?,
            ),
            Deployment::Server(server) => Box::new(connect(server)?),
            Deployment::Replicated(pair) => Box::new(connect(pair.primary())?),
        };
        for (name, text) in fixtures {
            if name.ends_with(".lua") && self.cluster().is_some() {
                return Err(format!(
                    "fixture {name}: a Lua fixture runs on one server; \
                     on a cluster, write the data as commands (a file not ending in .lua)"
                ));
            }
            fixtures::apply(con.as_mut(), name, text)?;
        }
        if load_all {
            redis_script::load_all(con.as_mut())
                .map_err(|e| format!("loading the bindings' scripts and libraries: {e}"))?;
        }
        Ok(())
    }

    /// What a failed run adds to its message: each server that exited
    /// during the test, with the tail of its log.
    pub(crate) fn crash_reports(&self) -> Vec<String> {
        self.servers()
            .iter()
            .filter_map(|server| server.crash_report())
            .collect()
    }

    /// Kills every server and removes its directory (a test that ran out
    /// of time, whose thread may never drop them).
    pub(crate) fn discard(&self) {
        for server in self.servers() {
            server.discard();
        }
    }
}

fn connect(server: &RedisServer) -> Result<redis::Connection, String> {
    server
        .client()
        .get_connection()
        .map_err(|e| format!("connecting to {}: {e}", server.url()))
}

impl fmt::Display for Setup {
    /// `Valkey 9.1.2, /usr/bin/valkey-server (from PATH)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self.servers()[0];
        write!(f, "{} {}, {}", first.flavor(), first.version(), self.binary)
    }
}
