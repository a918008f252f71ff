//! Redis Cluster faults through redis-rs, on a real local cluster: a slot
//! moving between primaries (ASK while it migrates, MOVED once it has
//! moved) and a primary killed and replaced by its replica (CLUSTER
//! FAILOVER TAKEOVER). Single calls follow both redirections, applied
//! once; a `ClusterPipeline` does not, and [`redirected_commands`] names
//! the calls to run again; a kept sync `ClusterConnection` never recovers
//! from the failover, where the async one and a new connection do.

use std::thread;
use std::time::{Duration, Instant};

use redis_script::{Applied, ErrorClass, ScriptPipeline, key_slot, redirected_commands};

use crate::cluster_server::{RedisCluster, SlotMap};
use crate::counter::incr_counter;
use crate::server::RedisServer;

/// Bounds on waiting for the cluster to agree on a slot's new owner.
const AGREE_TIMEOUT: Duration = Duration::from_secs(30);
const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// A sync and an async connection to one cluster, each keeping its own
/// slot map, as an application keeps them.
struct Clients {
    sync: redis::cluster::ClusterConnection,
    runtime: tokio::runtime::Runtime,
    async_con: redis::cluster_async::ClusterConnection,
}

impl Clients {
    fn open(cluster: &RedisCluster) -> Clients {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let async_con = runtime
            .block_on(cluster.client().get_async_connection())
            .unwrap();
        Clients {
            sync: cluster.connection(),
            runtime,
            async_con,
        }
    }

    /// `incr_counter(key)` on the async connection.
    fn incr_async(&mut self, key: &str) -> Result<i64, redis_script::Error> {
        self.runtime
            .block_on(incr_counter(key).invoke_async(&mut self.async_con))
    }
}

fn node_id(node: &RedisServer) -> String {
    redis::cmd("CLUSTER")
        .arg("MYID")
        .query(&mut node.connection())
        .unwrap()
}

/// `CLUSTER SETSLOT <slot> <state> <node id>` on `node`.
fn set_slot(node: &RedisServer, slot: u16, state: &str, id: &str) {
    redis::cmd("CLUSTER")
        .arg("SETSLOT")
        .arg(slot)
        .arg(state)
        .arg(id)
        .exec(&mut node.connection())
        .unwrap();
}

/// The counter as the node that holds it has it.
fn counter_on(node: &RedisServer, key: &str) -> i64 {
    let value: Option<i64> = redis::cmd("GET")
        .arg(key)
        .query(&mut node.connection())
        .unwrap();
    value.unwrap_or(0)
}

/// Queues one `incr_counter(key)` call per key in a cluster pipeline and
/// runs it, expecting it to fail: returns the error's `redirected_commands`.
fn run_redirected_pipeline(
    con: &mut redis::cluster::ClusterConnection,
    keys: &[&str],
) -> Vec<usize> {
    let mut pipe = redis::cluster::cluster_pipe();
    for key in keys {
        pipe.eval_script(&incr_counter(key)).unwrap();
    }
    let error = pipe.query::<Vec<i64>>(con).unwrap_err();
    redirected_commands(&error)
}

#[test]
fn calls_follow_a_moving_slot_and_cluster_pipelines_name_the_redirected_calls() {
    let cluster = RedisCluster::start(3, 0);
    let key = "{moving}:counter";
    let slot = key_slot(key.as_bytes());
    let source = cluster.primary_for(key);
    let target = cluster
        .primaries()
        .iter()
        .find(|node| node.port() != source.port())
        .unwrap();
    let mut clients = Clients::open(&cluster);
    // Both connections learn the slot map while the slot is the source's.
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 1);
    assert_eq!(clients.incr_async(key).unwrap(), 2);

    // Migrating: the key moves to the target, and the source answers ASK.
    let (source_id, target_id) = (node_id(source), node_id(target));
    set_slot(target, slot, "IMPORTING", &source_id);
    set_slot(source, slot, "MIGRATING", &target_id);
    redis::cmd("MIGRATE")
        .arg("127.0.0.1")
        .arg(target.port())
        .arg("")
        .arg(0)
        .arg(5000)
        .arg("KEYS")
        .arg(key)
        .exec(&mut source.connection())
        .unwrap();
    // The target has never seen the script: the call also recovers NOSCRIPT there.
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 3);
    assert_eq!(clients.incr_async(key).unwrap(), 4);
    // A cluster pipeline does not follow ASK: both calls were refused, and
    // ran nowhere. Run again one by one, they follow it.
    assert_eq!(
        run_redirected_pipeline(&mut clients.sync, &[key, key]),
        [0, 1]
    );
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 5);
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 6);
    // The refusal as a call decodes it: not applied.
    let ask = format!("-ASK {slot} 127.0.0.1:{}\r\n", target.port());
    let ask = redis::parse_redis_value(ask.as_bytes()).unwrap();
    let refused = incr_counter(key).decode(Ok(ask)).unwrap_err();
    assert_eq!(refused.code(), Some("ASK"), "{refused}");
    assert_eq!(refused.applied(), Applied::No);
    assert_eq!(refused.class(), ErrorClass::Refused);

    // Moved: every node says the target owns the slot; the connections'
    // maps still name the source, which answers MOVED.
    for node in cluster.primaries() {
        set_slot(node, slot, "NODE", &target_id);
    }
    assert_eq!(run_redirected_pipeline(&mut clients.sync, &[key]), [0]);
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 7);
    assert_eq!(clients.incr_async(key).unwrap(), 8);
    // Now that the sync connection refreshed its map, pipelines run again.
    let mut pipe = redis::cluster::cluster_pipe();
    pipe.eval_script(&incr_counter(key)).unwrap();
    assert_eq!(pipe.query::<Vec<i64>>(&mut clients.sync).unwrap(), [9]);
    // Each call that succeeded ran once, and no refused one ran.
    assert_eq!(counter_on(target, key), 9);
}

#[test]
fn after_a_failover_a_kept_sync_cluster_connection_fails_and_a_new_one_recovers() {
    let cluster = RedisCluster::start(3, 1);
    let key = "{failing}:counter";
    let slot = key_slot(key.as_bytes());
    let primary = cluster.primary_for(key);
    let [replica] = cluster.replicas_of(primary)[..] else {
        panic!("one replica per primary");
    };
    let mut clients = Clients::open(&cluster);
    assert_eq!(incr_counter(key).invoke(&mut clients.sync).unwrap(), 1);
    assert_eq!(clients.incr_async(key).unwrap(), 2);
    let synced: i64 = redis::cmd("WAIT")
        .arg(1)
        .arg(10_000)
        .query(&mut primary.connection())
        .unwrap();
    assert_eq!(synced, 1);

    // The primary dies; its replica takes over without asking anyone.
    let _ = redis::cmd("SHUTDOWN")
        .arg("NOSAVE")
        .exec(&mut primary.connection());
    redis::cmd("CLUSTER")
        .arg("FAILOVER")
        .arg("TAKEOVER")
        .exec(&mut replica.connection())
        .unwrap();
    let survivors: Vec<&RedisServer> = cluster
        .nodes()
        .filter(|node| node.port() != primary.port())
        .collect();
    let deadline = Instant::now() + AGREE_TIMEOUT;
    while !survivors.iter().all(|node| {
        SlotMap::read(&mut node.connection())
            .owner(slot)
            .is_some_and(|(_, port)| port == replica.port())
    }) {
        assert!(
            Instant::now() < deadline,
            "no agreement in {AGREE_TIMEOUT:?}"
        );
        thread::sleep(POLL_INTERVAL);
    }

    // The kept sync connection goes on dialling the dead primary, call
    // after call: refused, so not applied.
    for _ in 0..3 {
        let error = incr_counter(key).invoke(&mut clients.sync).unwrap_err();
        assert_eq!(error.class(), ErrorClass::Connection, "{error}");
        assert_eq!(error.applied(), Applied::No, "{error}");
    }
    // The async connection refreshes its slots and goes on.
    assert_eq!(clients.incr_async(key).unwrap(), 3);
    // A new sync connection from the client finds the new primary.
    let mut con = cluster.connection();
    assert_eq!(incr_counter(key).invoke(&mut con).unwrap(), 4);
    assert_eq!(counter_on(replica, key), 4);
}
