//! Bindings on a real local Redis Cluster: routing by the first key, NOSCRIPT
//! recovered on whichever node answers, SCRIPT LOAD on every primary, keys
//! across slots refused with every key and its slot, and cluster pipelines.

use redis::Value;
use redis::cluster::ClusterConnection;
use redis_script::{ErrorKind, NoScriptFallback, ScriptPipeline, key_slot, redis_script};

use crate::cluster_server::RedisCluster;
use crate::invocation::{flush_scripts, script_cached};
use crate::server::RedisServer;

/// Sets KEYS[1] to ARGV[1] and replies the port of the node that ran it.
#[redis_script(file = "tests/lua/set_and_tell_port.lua", keys = 1)]
fn set_and_tell_port(key: &str, value: &str) -> i64;

/// Replies with its KEYS and ARGV.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 2)]
fn echo_two(a: &str, b: &str) -> Vec<String>;

/// Replies KEYS[1]'s value; `#!lua flags=no-writes`, so sent as EVALSHA_RO.
#[redis_script(file = "tests/lua/read_only_get.lua", keys = 1)]
fn read_only_get(key: &str) -> Option<String>;

/// Reads KEYS[1] and the undeclared key ARGV[1]; `allow-cross-slot-keys`.
#[redis_script(file = "tests/lua/cross_slot_read.lua", keys = 1)]
fn cross_slot_read(declared: &str, undeclared: &str) -> Vec<String>;

/// The same script with a second, declared key in another slot.
#[redis_script(file = "tests/lua/cross_slot_read.lua", keys = 2, allow(unread))]
fn cross_slot_read_declared(declared: &str, other: &str, undeclared: &str) -> Vec<String>;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 0)]
fn echo_keyless(word: &str) -> Vec<String>;

/// `error` is a `CrossSlot` refusal of a call of `binding` whose message
/// names each of the `expected` keys with its slot.
pub(crate) fn assert_names_every_key_and_slot(
    error: &redis_script::Error,
    binding: &str,
    expected: &[(String, u16)],
) {
    assert!(
        matches!(error.kind(), ErrorKind::CrossSlot { keys } if *keys == expected),
        "{error}"
    );
    let message = error.to_string();
    assert!(message.contains(binding), "{message}");
    for (key, slot) in expected {
        assert!(
            message.contains(&format!("`{key}` (slot {slot})")),
            "{message}"
        );
    }
}

fn get_on(node: &RedisServer, key: &str) -> Option<String> {
    redis::cmd("GET")
        .arg(key)
        .query(&mut node.connection())
        .unwrap()
}

#[test]
fn sync_calls_run_on_the_primary_of_their_first_key_and_recover_from_a_flush_on_one_node() {
    let cluster = RedisCluster::start(3, 0);
    let mut con: ClusterConnection = cluster.connection();
    let keys = cluster.one_key_per_primary(|n| format!("key:{n}"));
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        for key in &keys {
            let primary = cluster.primary_for(key);
            let port = set_and_tell_port(key, "v1")
                .on_noscript(fallback)
                .invoke(&mut con)
                .unwrap();
            assert_eq!(port, i64::from(primary.port()), "{key}");
            assert_eq!(get_on(primary, key).as_deref(), Some("v1"));
            assert!(script_cached(
                &mut primary.connection(),
                &set_and_tell_port::SCRIPT
            ));
        }
        // Only one node forgets the script: the call that lands there recovers.
        let flushed = cluster.primary_for(&keys[1]);
        flush_scripts(&mut flushed.connection());
        let port = set_and_tell_port(&keys[1], "v2")
            .on_noscript(fallback)
            .invoke(&mut con)
            .unwrap();
        assert_eq!(port, i64::from(flushed.port()));
        assert_eq!(get_on(flushed, &keys[1]).as_deref(), Some("v2"));
        assert!(script_cached(
            &mut flushed.connection(),
            &set_and_tell_port::SCRIPT
        ));
        for primary in cluster.primaries() {
            flush_scripts(&mut primary.connection());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_calls_run_on_the_primary_of_their_first_key_and_recover_from_a_flush_on_one_node() {
    let cluster = tokio::task::block_in_place(|| RedisCluster::start(3, 0));
    let mut con = cluster.client().get_async_connection().await.unwrap();
    let keys = tokio::task::block_in_place(|| cluster.one_key_per_primary(|n| format!("key:{n}")));
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        for key in &keys {
            let port = set_and_tell_port(key, "a1")
                .on_noscript(fallback)
                .invoke_async(&mut con)
                .await
                .unwrap();
            tokio::task::block_in_place(|| {
                let primary = cluster.primary_for(key);
                assert_eq!(port, i64::from(primary.port()), "{key}");
                assert_eq!(get_on(primary, key).as_deref(), Some("a1"));
            });
        }
        let flushed_port = tokio::task::block_in_place(|| {
            let flushed = cluster.primary_for(&keys[2]);
            flush_scripts(&mut flushed.connection());
            flushed.port()
        });
        let port = set_and_tell_port(&keys[2], "a2")
            .on_noscript(fallback)
            .invoke_async(&mut con)
            .await
            .unwrap();
        assert_eq!(port, i64::from(flushed_port));
        tokio::task::block_in_place(|| {
            assert_eq!(
                get_on(cluster.primary_for(&keys[2]), &keys[2]).as_deref(),
                Some("a2")
            );
            for primary in cluster.primaries() {
                flush_scripts(&mut primary.connection());
            }
        });
    }
}

#[test]
fn load_reaches_every_primary_and_keyless_scripts_run_anywhere() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    set_and_tell_port::SCRIPT.load(&mut con).unwrap();
    for primary in cluster.primaries() {
        assert!(script_cached(
            &mut primary.connection(),
            &set_and_tell_port::SCRIPT
        ));
    }
    // No key, no slot: the cluster client picks a node at random, and the
    // script runs there.
    let reply = echo_keyless("hello").invoke(&mut con).unwrap();
    assert_eq!(reply, ["hello"]);
}

#[test]
fn keys_across_slots_are_refused_with_every_key_and_its_slot() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    let (a, b) = ("user:1", "user:2");
    assert_ne!(key_slot(a.as_bytes()), key_slot(b.as_bytes()));

    // The client's slots are the server's.
    for key in [a, b, "{user:1}:cart", "", "{}x", "a{b}c{d}"] {
        let server_slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut con)
            .unwrap();
        assert_eq!(key_slot(key.as_bytes()), server_slot, "{key:?}");
    }

    let call = echo_two(a, b);
    let expected = vec![
        (a.to_owned(), key_slot(a.as_bytes())),
        (b.to_owned(), key_slot(b.as_bytes())),
    ];
    // Checked before sending, as cluster pipelines do ...
    let early = call.check_slots().unwrap_err();
    assert!(matches!(early.kind(), ErrorKind::CrossSlot { keys } if *keys == expected));
    // ... and the cluster's own refusal carries the same detail.
    let refused = call.invoke(&mut con).unwrap_err();
    assert_names_every_key_and_slot(&refused, "echo_two", &expected);

    // One hash tag, one slot: the same script runs.
    let tagged = echo_two("{user:1}:a", "{user:1}:b");
    tagged.check_slots().unwrap();
    assert_eq!(
        tagged.invoke(&mut con).unwrap(),
        ["{user:1}:a", "{user:1}:b"]
    );
}

#[test]
fn cluster_pipelines_take_script_calls_whose_keys_share_a_slot() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    let keys = cluster.one_key_per_primary(|n| format!("key:{n}"));

    // Calls for every primary in one pipeline, mixed with plain commands.
    let mut pipe = redis::cluster::cluster_pipe();
    for key in &keys {
        pipe.eval_script(&set_and_tell_port(key, "p")).unwrap();
        pipe.cmd("GET").arg(key);
    }
    let replies: Vec<Value> = pipe.query(&mut con).unwrap();
    for (index, key) in keys.iter().enumerate() {
        let port = set_and_tell_port(key, "p").decode(Ok(replies[2 * index].clone()));
        assert_eq!(port.unwrap(), i64::from(cluster.primary_for(key).port()));
        assert_eq!(replies[2 * index + 1], Value::BulkString(b"p".to_vec()));
    }

    // evalsha_script queues EVAL here (a keyless SCRIPT LOAD has no node):
    // nothing to load first, and a flushed cache does not matter.
    for key in &keys {
        flush_scripts(&mut cluster.primary_for(key).connection());
    }
    let mut pipe = redis::cluster::cluster_pipe();
    for key in &keys {
        pipe.evalsha_script(&set_and_tell_port(key, "p")).unwrap();
    }
    assert_eq!(pipe.cmd_iter().count(), keys.len());
    let ports: Vec<i64> = pipe.query(&mut con).unwrap();
    for (port, key) in ports.into_iter().zip(&keys) {
        assert_eq!(port, i64::from(cluster.primary_for(key).port()));
    }

    // A call whose keys span slots is refused before anything is queued.
    let mut pipe = redis::cluster::cluster_pipe();
    let error = pipe.eval_script(&echo_two("user:1", "user:2")).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::CrossSlot { .. }));
    let error = pipe
        .evalsha_script(&echo_two("user:1", "user:2"))
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::CrossSlot { .. }));
    pipe.cmd("GET").arg(&keys[0]);
    let replies: Vec<Value> = pipe.query(&mut con).unwrap();
    assert_eq!(replies, [Value::BulkString(b"p".to_vec())]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_cluster_pipelines_go_to_one_slot_and_refuse_two() {
    let cluster = tokio::task::block_in_place(|| RedisCluster::start(3, 0));
    let mut con = cluster.client().get_async_connection().await.unwrap();

    let mut pipe = redis::pipe();
    pipe.atomic();
    pipe.eval_script(&set_and_tell_port("{order:9}:state", "paid"))
        .unwrap();
    pipe.eval_script(&echo_two("{order:9}:a", "{order:9}:b"))
        .unwrap();
    let (port, echoed): (i64, Vec<String>) = pipe.query_async(&mut con).await.unwrap();
    let expected_port =
        tokio::task::block_in_place(|| cluster.primary_for("{order:9}:state").port());
    assert_eq!(port, i64::from(expected_port));
    assert_eq!(echoed, ["{order:9}:a", "{order:9}:b"]);

    // evalsha_script's SCRIPT LOAD has no key: the pipeline still goes to
    // the node of the calls, which loads the script it had lost.
    tokio::task::block_in_place(|| {
        flush_scripts(&mut cluster.primary_for("{order:9}:state").connection());
    });
    let mut pipe = redis::pipe();
    pipe.atomic();
    pipe.evalsha_script(&set_and_tell_port("{order:9}:state", "shipped"))
        .unwrap();
    pipe.evalsha_script(&echo_two("{order:9}:a", "{order:9}:b"))
        .unwrap();
    let (port, echoed): (i64, Vec<String>) = pipe.query_async(&mut con).await.unwrap();
    assert_eq!(port, i64::from(expected_port));
    assert_eq!(echoed, ["{order:9}:a", "{order:9}:b"]);
    let loaded = tokio::task::block_in_place(|| {
        let mut node = cluster.primary_for("{order:9}:state").connection();
        script_cached(&mut node, &set_and_tell_port::SCRIPT)
    });
    assert!(loaded);

    // Two slots in one pipeline: the client refuses it whole.
    let mut pipe = redis::pipe();
    pipe.eval_script(&set_and_tell_port("user:1", "x")).unwrap();
    pipe.eval_script(&set_and_tell_port("user:2", "x")).unwrap();
    let error = pipe.query_async::<Vec<Value>>(&mut con).await.unwrap_err();
    assert_eq!(error.code(), Some("CROSSSLOT"), "{error}");
    let written: Option<String> = redis::cmd("GET")
        .arg("user:1")
        .query_async(&mut con)
        .await
        .unwrap();
    assert_eq!(written, None);
}

#[test]
fn read_only_scripts_run_on_replicas_when_the_client_reads_from_them() {
    let cluster = RedisCluster::start(3, 1);
    let mut writer = cluster.connection();
    let keys = cluster.one_key_per_primary(|n| format!("replicated:{n}"));
    for key in &keys {
        redis::cmd("SET")
            .arg(key)
            .arg("v")
            .exec(&mut writer)
            .unwrap();
        // Wait until the primary's replica has the write.
        let acknowledged: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(10_000)
            .query(&mut cluster.primary_for(key).connection())
            .unwrap();
        assert_eq!(acknowledged, 1);
    }
    // A plain unit struct in redis-rs 1.x, `non_exhaustive` in 2.0: only
    // `default()` builds it on both.
    #[allow(clippy::default_constructed_unit_structs)]
    let replicas = redis::cluster_read_routing::RandomReplicaStrategy::default();
    let client = redis::cluster::ClusterClient::builder(cluster.urls())
        .read_routing_strategy(replicas)
        .build()
        .unwrap();
    let mut reader = client.get_connection().unwrap();
    for key in &keys {
        // The replica's script cache starts empty: the call recovers there.
        let reply = read_only_get(key).invoke(&mut reader).unwrap();
        assert_eq!(reply.as_deref(), Some("v"));
        let primary = cluster.primary_for(key);
        let [replica] = cluster.replicas_of(primary)[..] else {
            panic!("one replica per primary");
        };
        assert!(script_cached(
            &mut replica.connection(),
            &read_only_get::SCRIPT
        ));
        assert!(!script_cached(
            &mut primary.connection(),
            &read_only_get::SCRIPT
        ));
    }
}

#[test]
fn allow_cross_slot_keys_reaches_undeclared_keys_on_the_node_but_declared_keys_share_a_slot() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    // Two keys of different slots on one primary.
    let (a, b) = ("user:1", "user:2");
    assert_ne!(key_slot(a.as_bytes()), key_slot(b.as_bytes()));
    let node = cluster.primary_for(a);
    assert_eq!(node.port(), cluster.primary_for(b).port());
    for key in [a, b] {
        redis::cmd("SET")
            .arg(key)
            .arg(key)
            .exec(&mut node.connection())
            .unwrap();
    }
    let reply = cross_slot_read(a, b).invoke(&mut con).unwrap();
    assert_eq!(reply, [a, b]);
    // Declared, the same two keys are refused before the script runs.
    let call = cross_slot_read_declared(a, b, b);
    assert!(matches!(
        call.check_slots().unwrap_err().kind(),
        ErrorKind::CrossSlot { .. }
    ));
    let refused = call.invoke(&mut con).unwrap_err();
    assert!(
        matches!(refused.kind(), ErrorKind::CrossSlot { .. }),
        "{refused}"
    );
}
