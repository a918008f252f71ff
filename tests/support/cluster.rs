// A throwaway real Redis Cluster (or Valkey cluster) on loopback ports.
//
// Each node is a [`RedisServer`] started with cluster mode on; the CLI of the
// same server (`redis-cli --cluster create`, or `valkey-cli`) joins them,
// and [`RedisCluster::start`] waits until every node agrees that all 16384
// slots are served and every replica has synced. Dropping it stops every
// node. Included next to `server.rs` (`#[path]`), which it needs as
// `super::server`.

use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use super::server::{RedisServer, cli_binary};

/// How long the cluster may take to agree on its slots and sync replicas.
const CLUSTER_READY_TIMEOUT: Duration = Duration::from_secs(60);
/// Pause between readiness probes.
const CLUSTER_POLL_INTERVAL: Duration = Duration::from_millis(50);

/// A running local cluster: primaries and replicas, each a private
/// [`RedisServer`] on `127.0.0.1`.
#[allow(dead_code)]
pub struct RedisCluster {
    primaries: Vec<RedisServer>,
    replicas: Vec<RedisServer>,
}

#[allow(dead_code)]
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
        let nodes: Vec<RedisServer> = (0..primaries * (1 + replicas_each))
            .map(|_| {
                let args = cluster_args();
                RedisServer::start_with(&args.iter().map(String::as_str).collect::<Vec<_>>())
            })
            .collect();
        let addresses: Vec<String> = nodes
            .iter()
            .map(|node| format!("127.0.0.1:{}", node.port()))
            .collect();
        let cli = cli_binary();
        let output = Command::new(&cli)
            .args(["--cluster", "create"])
            .args(&addresses)
            .args([
                "--cluster-replicas",
                &replicas_each.to_string(),
                "--cluster-yes",
            ])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", cli.display()));
        assert!(
            output.status.success(),
            "{} --cluster create failed: {}{}",
            cli.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let (primaries, replicas) = nodes.into_iter().partition(|node| role(node) == "master");
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
        redis::cluster::ClusterClient::new(self.urls()).expect("cluster URLs are valid")
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
                let role: Vec<redis::Value> = redis::cmd("ROLE")
                    .query(&mut replica.connection())
                    .expect("ROLE");
                role.get(2) == Some(&redis::Value::Int(i64::from(primary.port())))
            })
            .collect()
    }

    /// The primary that serves `key`'s slot.
    pub fn primary_for(&self, key: &str) -> &RedisServer {
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut self.primaries[0].connection())
            .expect("CLUSTER KEYSLOT");
        let port = slot_owner(&mut self.primaries[0].connection(), slot).map(|(_, port)| port);
        self.primaries
            .iter()
            .find(|node| Some(node.port()) == port)
            .unwrap_or_else(|| panic!("no primary serves slot {slot}"))
    }

    /// For each primary, in the order of [`primaries`](Self::primaries), the
    /// first of the keys `key(0)`, `key(1)`, ... that it serves: keys that
    /// spread a test over every node.
    pub fn one_key_per_primary(&self, key: impl Fn(usize) -> String) -> Vec<String> {
        const CANDIDATES: usize = 10_000;
        let mut con = self.primaries[0].connection();
        let mut found: Vec<Option<String>> = vec![None; self.primaries.len()];
        for candidate in (0..CANDIDATES).map(key) {
            let slot: u16 = redis::cmd("CLUSTER")
                .arg("KEYSLOT")
                .arg(&candidate)
                .query(&mut con)
                .expect("CLUSTER KEYSLOT");
            let port = slot_owner(&mut con, slot).map(|(_, port)| port);
            let index = self
                .primaries
                .iter()
                .position(|node| Some(node.port()) == port);
            if let Some(slot @ None) = index.map(|index| &mut found[index]) {
                *slot = Some(candidate);
            }
            if found.iter().all(Option::is_some) {
                return found.into_iter().flatten().collect();
            }
        }
        panic!("no key for every primary among {CANDIDATES} candidates");
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
            let ready = self.nodes().all(|node| {
                let info = info(node, "CLUSTER", Some("INFO"));
                info.contains("cluster_state:ok")
                    && info.contains("cluster_slots_ok:16384")
                    && info.contains(&format!("cluster_known_nodes:{expected_nodes}"))
            }) && self.replicas.iter().all(|node| {
                info(node, "INFO", Some("replication")).contains("master_link_status:up")
            }) && self
                .nodes()
                .all(|node| slot_ranges_list_replicas(node, replicas_each));
            if ready {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the test cluster was not ready within {CLUSTER_READY_TIMEOUT:?}: {}",
                info(&self.primaries[0], "CLUSTER", Some("INFO"))
            );
            thread::sleep(CLUSTER_POLL_INTERVAL);
        }
    }
}

/// Cluster mode, with the cluster bus on a port of its own: the default
/// (port + 10000) can be past 65535 for the high ports the OS hands out.
fn cluster_args() -> Vec<String> {
    let bus_port = free_bus_port().to_string();
    [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        "5000",
        "--cluster-port",
        &bus_port,
        // A primary otherwise waits 5 s for more replicas before it syncs one.
        "--repl-diskless-sync-delay",
        "0",
    ]
    .map(String::from)
    .to_vec()
}

fn free_bus_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("find a free port for the cluster bus")
        .port()
}

/// A command's reply as text, e.g. `CLUSTER INFO` or `INFO replication`.
fn info(node: &RedisServer, command: &str, section: Option<&str>) -> String {
    let mut cmd = redis::cmd(command);
    if let Some(section) = section {
        cmd.arg(section);
    }
    cmd.query(&mut node.connection()).unwrap_or_default()
}

fn role(node: &RedisServer) -> String {
    let role: Vec<redis::Value> = redis::cmd("ROLE")
        .query(&mut node.connection())
        .expect("ROLE");
    match role.first() {
        Some(redis::Value::BulkString(name)) => String::from_utf8_lossy(name).into_owned(),
        other => panic!("unexpected ROLE reply: {other:?}"),
    }
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

/// The address (host, port) of the primary that serves `slot`, as
/// `CLUSTER SLOTS` on `con` says: each range is `[start, end, [host, port,
/// id, ...], replicas...]`. Works on a node's or a cluster connection.
#[allow(dead_code)]
pub fn slot_owner(con: &mut dyn redis::ConnectionLike, slot: u16) -> Option<(String, u16)> {
    let ranges: Vec<Vec<redis::Value>> = redis::cmd("CLUSTER").arg("SLOTS").query(con).ok()?;
    let slot = i64::from(slot);
    ranges.iter().find_map(|range| match range.as_slice() {
        [
            redis::Value::Int(start),
            redis::Value::Int(end),
            redis::Value::Array(primary),
            ..,
        ] if (*start..=*end).contains(&slot) => match primary.as_slice() {
            [redis::Value::BulkString(host), redis::Value::Int(port), ..] => Some((
                String::from_utf8_lossy(host).into_owned(),
                u16::try_from(*port).ok()?,
            )),
            _ => None,
        },
        _ => None,
    })
}
