//! Key prefixes on real servers: per call and per connection, sync, async,
//! in pipelines, after NOSCRIPT recovery, with Functions and on a cluster,
//! where the prefixed keys' slots decide routing. ARGV is never touched.

use redis::Value;
use redis_script::{
    ErrorKind, KeyPrefix, NoScriptFallback, PrefixedConnection, ScriptPipeline, key_slot,
    redis_function, redis_script,
};

use crate::cluster_server::RedisCluster;
use crate::invocation::flush_scripts;
use crate::server::RedisServer;

/// Replies with its KEYS and ARGV.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 2)]
fn echo_keys(a: &str, b: &str, arg: &str) -> Vec<String>;

/// Sets KEYS[1] to ARGV[1] and replies the port of the node that ran it.
#[redis_script(file = "tests/lua/set_and_tell_port.lua", keys = 1)]
fn set_and_tell_port(key: &str, value: &str) -> i64;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn add_stock(stock: &str, item: &str, amount: i64) -> i64;

fn prefix(text: &str) -> KeyPrefix {
    KeyPrefix::new(text).unwrap()
}

fn get(con: &mut dyn redis::ConnectionLike, key: &str) -> Option<String> {
    redis::cmd("GET").arg(key).query(con).unwrap()
}

#[test]
fn a_call_under_a_prefix_runs_on_prefixed_keys_and_the_same_argv() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = prefix("tenant-a:");

    // ARGV that looks like a key stays as it is.
    let echoed = echo_keys("{cart:1}:items", "b", "{cart:1}:items")
        .key_prefix(&tenant)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        echoed,
        ["tenant-a:{cart:1}:items", "tenant-a:b", "{cart:1}:items"]
    );
    // The commands that can be taken out of a call carry the prefix too.
    let call = echo_keys("k1", "k2", "v").key_prefix(&tenant);
    let mut expected = redis::cmd("EVALSHA");
    expected
        .arg(echo_keys::SCRIPT.sha1())
        .arg(2)
        .arg("tenant-a:k1")
        .arg("tenant-a:k2")
        .arg("v");
    assert_eq!(
        call.evalsha_cmd().unwrap().get_packed_command(),
        expected.get_packed_command()
    );

    // The same call with and without the prefix: two keys, two values.
    set_and_tell_port("shared", "plain")
        .invoke(&mut con)
        .unwrap();
    set_and_tell_port("shared", "tenant")
        .key_prefix(&tenant)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(get(&mut con, "shared").as_deref(), Some("plain"));
    assert_eq!(get(&mut con, "tenant-a:shared").as_deref(), Some("tenant"));

    // Prefixes nest, the outer one first; the empty prefix changes nothing.
    let nested = echo_keys("x", "y", "z")
        .key_prefix(&prefix("inner:"))
        .key_prefix(&prefix("outer:"))
        .key_prefix(&prefix(""))
        .invoke(&mut con)
        .unwrap();
    assert_eq!(nested, ["outer:inner:x", "outer:inner:y", "z"]);
}

#[test]
fn recovery_from_noscript_sends_the_prefixed_keys() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = prefix("t:");
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        flush_scripts(&mut con);
        let echoed = echo_keys("a", "b", "c")
            .on_noscript(fallback)
            .key_prefix(&tenant)
            .invoke(&mut con)
            .unwrap();
        assert_eq!(echoed, ["t:a", "t:b", "c"], "{fallback:?}");
    }
}

#[test]
fn a_prefixed_connection_prefixes_script_calls_and_leaves_plain_commands_alone() {
    let server = RedisServer::start();
    let mut tenant = PrefixedConnection::new(server.connection(), prefix("tenant-b:"));
    let echoed = tenant.invoke(&echo_keys("a", "b", "a")).unwrap();
    assert_eq!(echoed, ["tenant-b:a", "tenant-b:b", "a"]);
    // A call that already has a prefix gets the connection's in front.
    let echoed = tenant
        .invoke(&echo_keys("a", "b", "a").key_prefix(&prefix("job:")))
        .unwrap();
    assert_eq!(echoed, ["tenant-b:job:a", "tenant-b:job:b", "a"]);

    tenant.invoke(&set_and_tell_port("k", "v")).unwrap();
    assert_eq!(get(&mut *tenant, "k"), None);
    assert_eq!(get(&mut *tenant, "tenant-b:k").as_deref(), Some("v"));
    assert_eq!(tenant.prefix().as_str(), "tenant-b:");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_calls_take_a_prefix_per_call_and_per_connection() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let con = server.multiplexed().await;
    let mut tenant = PrefixedConnection::new(con.clone(), prefix("tenant-c:"));
    let echoed = tenant
        .invoke_async(&echo_keys("a", "b", "arg"))
        .await
        .unwrap();
    assert_eq!(echoed, ["tenant-c:a", "tenant-c:b", "arg"]);

    let mut con = con;
    let echoed = echo_keys("a", "b", "arg")
        .key_prefix(&prefix("other:"))
        .invoke_async(&mut con)
        .await
        .unwrap();
    assert_eq!(echoed, ["other:a", "other:b", "arg"]);

    // NOSCRIPT recovery on an async connection keeps the prefix.
    tokio::task::block_in_place(|| flush_scripts(&mut server.connection()));
    set_and_tell_port("k", "v")
        .on_noscript(NoScriptFallback::Load)
        .key_prefix(&prefix("other:"))
        .invoke_async(&mut con)
        .await
        .unwrap();
    let value: Option<String> = redis::cmd("GET")
        .arg("other:k")
        .query_async(&mut con)
        .await
        .unwrap();
    assert_eq!(value.as_deref(), Some("v"));
}

#[test]
fn pipelines_queue_prefixed_calls_by_every_method() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = prefix("p:");
    let call = echo_keys("a", "b", "c").key_prefix(&tenant);
    let expected = ["p:a", "p:b", "c"];
    for atomic in [false, true] {
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        pipe.evalsha_script(&call).unwrap();
        pipe.eval_script(&call).unwrap();
        pipe.evalsha_script(&echo_keys("a", "b", "c")).unwrap();
        let (first, second, plain): (Vec<String>, Vec<String>, Vec<String>) =
            pipe.observed().query(&mut con).unwrap();
        assert_eq!(first, expected, "atomic: {atomic}");
        assert_eq!(second, expected, "atomic: {atomic}");
        assert_eq!(plain, ["a", "b", "c"], "atomic: {atomic}");
    }
}

#[test]
fn function_calls_take_the_prefix_in_their_fcall_keys() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut tenant = PrefixedConnection::new(server.connection(), prefix("shop-1:"));
    // The library is missing: the recovery loads it and calls again, prefixed.
    assert_eq!(tenant.invoke(&add_stock("stock", "apple", 3)).unwrap(), 3);
    assert_eq!(add_stock("stock", "apple", 1).invoke(&mut con).unwrap(), 1);
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&add_stock("stock", "apple", 2).key_prefix(tenant.prefix()))
        .unwrap();
    let (count,): (i64,) = pipe.query(&mut con).unwrap();
    assert_eq!(count, 5);
    let count: Option<i64> = redis::cmd("HGET")
        .arg("shop-1:stock")
        .arg("apple")
        .query(&mut con)
        .unwrap();
    assert_eq!(count, Some(5));
}

#[test]
fn on_a_cluster_the_prefixed_keys_decide_the_node_and_user_tags_keep_their_slot() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    let tenant = prefix("tenant-d:");

    // A key without a tag moves with its name: the call runs on the node of
    // the prefixed key.
    let keys = cluster.one_key_per_primary(|n| format!("key:{n}"));
    for key in &keys {
        let prefixed = tenant.apply(key);
        let port = set_and_tell_port(key, "v")
            .key_prefix(&tenant)
            .invoke(&mut con)
            .unwrap();
        assert_eq!(port, i64::from(cluster.primary_for(&prefixed).port()));
        assert_eq!(get(&mut con, &prefixed).as_deref(), Some("v"));
    }

    // The user's tag keeps the keys of a call together, and in their slot.
    let call = echo_keys("{user:1}:a", "{user:1}:b", "arg").key_prefix(&tenant);
    call.check_slots().unwrap();
    assert_eq!(
        call.invoke(&mut con).unwrap(),
        ["tenant-d:{user:1}:a", "tenant-d:{user:1}:b", "arg"]
    );
    let port = set_and_tell_port("{user:1}:a", "v")
        .key_prefix(&tenant)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(port, i64::from(cluster.primary_for("user:1").port()));

    // Keys apart stay apart, and the refusal names the prefixed keys.
    let apart = echo_keys("user:1", "user:2", "arg").key_prefix(&tenant);
    let error = apart.check_slots().unwrap_err();
    let expected: Vec<(String, u16)> = ["tenant-d:user:1", "tenant-d:user:2"]
        .iter()
        .map(|key| (key.to_string(), key_slot(key.as_bytes())))
        .collect();
    assert!(
        matches!(error.kind(), ErrorKind::CrossSlot { keys } if *keys == expected),
        "{error}"
    );
    let error = apart.invoke(&mut con).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::CrossSlot { .. }),
        "{error}"
    );

    // A prefix that would break the tag is refused before any call.
    let refused = KeyPrefix::new("tenant{d:").unwrap_err();
    assert!(refused.to_string().contains("contains `{`"), "{refused}");

    // A tagged prefix puts every key on the node of its own tag.
    let pinned = KeyPrefix::tagged("{tenant-e}:").unwrap();
    let call = echo_keys("user:1", "user:2", "arg").key_prefix(&pinned);
    call.check_slots().unwrap();
    call.invoke(&mut con).unwrap();
    let port = set_and_tell_port("{user:1}:a", "v")
        .key_prefix(&pinned)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(port, i64::from(cluster.primary_for("tenant-e").port()));

    // A cluster pipeline routes each prefixed call by its prefixed key.
    let mut pipe = redis::cluster::cluster_pipe();
    for key in &keys {
        pipe.evalsha_script(&set_and_tell_port(key, "w").key_prefix(&tenant))
            .unwrap();
    }
    let error = pipe.eval_script(&apart).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::CrossSlot { .. }));
    let ports: Vec<i64> = pipe.query(&mut con).unwrap();
    for (port, key) in ports.into_iter().zip(&keys) {
        assert_eq!(
            port,
            i64::from(cluster.primary_for(&tenant.apply(key)).port())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_cluster_connection_takes_prefixed_calls() {
    let cluster = tokio::task::block_in_place(|| RedisCluster::start(3, 0));
    let con = cluster.client().get_async_connection().await.unwrap();
    let mut tenant = PrefixedConnection::new(con, prefix("tenant-f:"));
    let keys = tokio::task::block_in_place(|| cluster.one_key_per_primary(|n| format!("k:{n}")));
    for key in &keys {
        let port = tenant
            .invoke_async(&set_and_tell_port(key, "v"))
            .await
            .unwrap();
        let expected =
            tokio::task::block_in_place(|| cluster.primary_for(&tenant.prefix().apply(key)).port());
        assert_eq!(port, i64::from(expected));
    }
    let reply: Value = redis::cmd("GET")
        .arg(tenant.prefix().apply(&keys[0]))
        .query_async(&mut *tenant)
        .await
        .unwrap();
    assert_eq!(reply, Value::BulkString(b"v".to_vec()));
}
