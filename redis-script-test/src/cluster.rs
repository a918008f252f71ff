//! A throwaway real Redis Cluster (or Valkey cluster) on loopback ports.
//!
//! Each node is a [`RedisServer`] started with cluster mode on; the CLI of
//! the same server (`redis-cli --cluster create`, or `valkey-cli`) joins
//! them, and [`RedisCluster::start`] waits until every node agrees that all
//! 16384 slots are served, every replica has synced, and every node's
//! `CLUSTER SLOTS` lists the replicas. Dropping it stops every node.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use redis_script::redis;

use crate::binary::ServerBinary;
use crate::replicated::NO_SYNC_DELAY;
use crate::server::{RedisServer, free_port};

/// How long `--cluster create` may take to join the nodes.
const CREATE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the cluster may take to agree on its slots and sync replicas.
const CLUSTER_READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a client may take to connect to a node.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// Pause between readiness probes.
const CLUSTER_POLL_INTERVAL: Duration = Duration::from_millis(50);

/// A running local cluster: primaries and replicas, each a private
/// [`RedisServer`] on `127.0.0.1`.
pub struct RedisCluster {
    primaries: Vec<RedisServer>,
    replicas: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts `primaries` primaries (at least 3, as `--cluster create`
    /// requires), each with `replicas_each` replicas, and waits until the
    /// cluster serves every slot and every replica is in sync.
    ///
    /// # Panics
    ///
    /// If a node does not start, the CLI fails, or the cluster is not ready
    /// within a minute.
    pub fn start(primaries: usize, replicas_each: usize) -> RedisCluster {
        RedisCluster::start_on(&ServerBinary::find(), primaries, replicas_each)
    }

    /// [`start`](Self::start) with the nodes of `binary`, rather than the
    /// one the environment names.
    pub fn start_on(binary: &ServerBinary, primaries: usize, replicas_each: usize) -> RedisCluster {
        let nodes: Vec<RedisServer> = (0..primaries * (1 + replicas_each))
            .map(|_| RedisServer::start_binary(binary, None, cluster_args))
            .collect();
        let addresses: Vec<String> = nodes
            .iter()
            .map(|node| format!("127.0.0.1:{}", node.port()))
            .collect();
        create(&binary.cli(), &addresses, replicas_each);
        let (primaries, replicas) = nodes.into_iter().partition(is_primary);
        let cluster = RedisCluster {
            primaries,
            replicas,
        };
        cluster.wait_ready();
        cluster
    }

    /// The primaries, which serve the slots.
    pub fn primaries(&self) -> &[RedisServer] {
        &self.primaries
    }

    /// The replicas, each of one primary.
    pub fn replicas(&self) -> &[RedisServer] {
        &self.replicas
    }

    /// Every node's URL, primaries first: the seed list for a `ClusterClient`.
    pub fn urls(&self) -> Vec<String> {
        self.nodes().map(RedisServer::url).collect()
    }

    /// A client of the whole cluster.
    pub fn client(&self) -> redis::cluster::ClusterClient {
        // redis-rs's 1 s connect bound can pass on a loaded 2-core machine.
        redis::cluster::ClusterClient::builder(self.urls())
            .connection_timeout(CONNECT_TIMEOUT)
            .build()
            .expect("cluster URLs are valid")
    }

    /// A new synchronous cluster connection.
    pub fn connection(&self) -> redis::cluster::ClusterConnection {
        self.client()
            .get_connection()
            .expect("connect to the test cluster")
    }

    /// The replicas of `primary`.
    pub fn replicas_of(&self, primary: &RedisServer) -> Vec<&RedisServer> {
        self.replicas
            .iter()
            .filter(|replica| {
                role(replica).get(2) == Some(&redis::Value::Int(i64::from(primary.port())))
            })
            .collect()
    }

    /// The primary that serves `key`'s slot.
    pub fn primary_for(&self, key: &str) -> &RedisServer {
        let mut con = self.primaries[0].connection();
        let slots = SlotMap::read(&mut con);
        self.primary_serving(&slots, key_slot(&mut con, key))
    }

    /// For each primary, in the order of [`primaries`](Self::primaries), the
    /// first of the keys `key(0)`, `key(1)`, ... that it serves: keys that
    /// spread a test over every node.
    pub fn one_key_per_primary(&self, key: impl Fn(usize) -> String) -> Vec<String> {
        const CANDIDATES: usize = 10_000;
        let mut con = self.primaries[0].connection();
        let slots = SlotMap::read(&mut con);
        let mut found: Vec<Option<String>> = vec![None; self.primaries.len()];
        for candidate in (0..CANDIDATES).map(key) {
            let owner = self.primary_serving(&slots, key_slot(&mut con, &candidate));
            let index = self
                .primaries
                .iter()
                .position(|node| node.port() == owner.port())
                .expect("the owner is a primary");
            found[index].get_or_insert(candidate);
            if found.iter().all(Option::is_some) {
                return found.into_iter().flatten().collect();
            }
        }
        panic!("no key for every primary among {CANDIDATES} candidates");
    }

    fn primary_serving(&self, slots: &SlotMap, slot: u16) -> &RedisServer {
        let port = slots.owner(slot).map(|(_, port)| port);
        self.primaries
            .iter()
            .find(|node| Some(node.port()) == port)
            .unwrap_or_else(|| panic!("no primary serves slot {slot}"))
    }

    /// Every node, primaries first.
    pub fn nodes(&self) -> impl Iterator<Item = &RedisServer> {
        self.primaries.iter().chain(&self.replicas)
    }

    /// Polls every node until all agree the cluster is `ok` with every
    /// node known, every replica's link to its primary is up, and every
    /// node's `CLUSTER SLOTS` lists the replicas (which clients read the
    /// topology from; it lags the replication link).
    fn wait_ready(&self) {
        let expected_nodes = self.primaries.len() + self.replicas.len();
        let replicas_each = self.replicas.len() / self.primaries.len();
        let deadline = Instant::now() + CLUSTER_READY_TIMEOUT;
        loop {
            let ready =
                self.nodes().all(|node| {
                    let info = info(node, "CLUSTER", "INFO");
                    info.contains("cluster_state:ok")
                        && info.contains("cluster_slots_ok:16384")
                        && info.contains(&format!("cluster_known_nodes:{expected_nodes}"))
                }) && self.replicas.iter().all(|node| {
                    info(node, "INFO", "replication").contains("master_link_status:up")
                }) && self
                    .nodes()
                    .all(|node| slot_ranges_list_replicas(node, replicas_each));
            if ready {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the test cluster was not ready within {CLUSTER_READY_TIMEOUT:?}: {}",
                info(&self.primaries[0], "CLUSTER", "INFO")
            );
            thread::sleep(CLUSTER_POLL_INTERVAL);
        }
    }
}

/// Joins the nodes at `addresses` into a cluster with the server's CLI
/// (`--cluster create`), killing it if it has not finished in time.
fn create(cli: &Path, addresses: &[String], replicas_each: usize) {
    let mut child = Command::new(cli)
        .args(["--cluster", "create"])
        .args(addresses)
        .args([
            "--cluster-replicas",
            &replicas_each.to_string(),
            "--cluster-yes",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", cli.display()));
    let deadline = Instant::now() + CREATE_TIMEOUT;
    while child.try_wait().expect("wait for the CLI").is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            break;
        }
        thread::sleep(CLUSTER_POLL_INTERVAL);
    }
    // The CLI prints little; reading after it ended cannot block.
    let output = child.wait_with_output().expect("the CLI's output");
    assert!(
        output.status.success(),
        "{} --cluster create failed (or ran past {CREATE_TIMEOUT:?}): {}{}",
        cli.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Cluster mode, with the cluster bus on a port of its own: the default
/// (port + 10000) can be past 65535 for the high ports the OS hands out.
fn cluster_args() -> Vec<String> {
    let bus_port = free_port().to_string();
    [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        "5000",
        "--cluster-port",
        &bus_port,
    ]
    .into_iter()
    .chain(NO_SYNC_DELAY)
    .map(String::from)
    .collect()
}

/// A command's reply as text, e.g. `CLUSTER INFO` or `INFO replication`.
fn info(node: &RedisServer, command: &str, section: &str) -> String {
    redis::cmd(command)
        .arg(section)
        .query(&mut node.connection())
        .unwrap_or_default()
}

/// The node's `ROLE` reply: `[role, ...]`; a replica's third item is its
/// primary's port.
fn role(node: &RedisServer) -> Vec<redis::Value> {
    redis::cmd("ROLE")
        .query(&mut node.connection())
        .expect("ROLE")
}

fn is_primary(node: &RedisServer) -> bool {
    node.role().as_deref() == Some("master")
}

/// Whether every slot range in `node`'s `CLUSTER SLOTS` lists `replicas`
/// replicas after its primary.
fn slot_ranges_list_replicas(node: &RedisServer, replicas: usize) -> bool {
    let ranges: Vec<Vec<redis::Value>> = redis::cmd("CLUSTER")
        .arg("SLOTS")
        .query(&mut node.connection())
        .unwrap_or_default();
    !ranges.is_empty() && ranges.iter().all(|range| range.len() == 3 + replicas)
}

/// The slot of `key`, as the server computes it.
fn key_slot(con: &mut redis::Connection, key: &str) -> u16 {
    redis::cmd("CLUSTER")
        .arg("KEYSLOT")
        .arg(key)
        .query(con)
        .expect("CLUSTER KEYSLOT")
}

/// Which primary serves which slots, as `CLUSTER SLOTS` said once.
pub struct SlotMap {
    /// `(first slot, last slot, primary host, primary port)`.
    ranges: Vec<(i64, i64, String, u16)>,
}

impl SlotMap {
    /// Reads `CLUSTER SLOTS` on `con` (a node's or a cluster connection):
    /// each range is `[start, end, [host, port, id, ...], replicas...]`.
    pub fn read(con: &mut dyn redis::ConnectionLike) -> SlotMap {
        let ranges: Vec<Vec<redis::Value>> = redis::cmd("CLUSTER")
            .arg("SLOTS")
            .query(con)
            .unwrap_or_default();
        let ranges = ranges
            .iter()
            .filter_map(|range| match range.as_slice() {
                [
                    redis::Value::Int(start),
                    redis::Value::Int(end),
                    redis::Value::Array(primary),
                    ..,
                ] => match primary.as_slice() {
                    [redis::Value::BulkString(host), redis::Value::Int(port), ..] => Some((
                        *start,
                        *end,
                        String::from_utf8_lossy(host).into_owned(),
                        u16::try_from(*port).ok()?,
                    )),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        SlotMap { ranges }
    }

    /// The address (host, port) of the primary that serves `slot`.
    pub fn owner(&self, slot: u16) -> Option<(&str, u16)> {
        let slot = i64::from(slot);
        self.ranges
            .iter()
            .find(|(start, end, _, _)| (*start..=*end).contains(&slot))
            .map(|(_, _, host, port)| (host.as_str(), *port))
    }
}
