//! Bindings whose last key parameter is `#[variadic]`: a list of keys of
//! any length, sent as KEYS with the call's own numkeys, on a real server
//! (sync, async, pipelines, NOSCRIPT recovery) and a real cluster (same-slot
//! lists run, a list across slots is refused naming every key and slot).

use redis::{Arg, Value};
use redis_script::{
    Arity, ErrorKind, Invocation, NoScriptFallback, ScriptPipeline, key_slot, redis_script,
};

use crate::cluster::assert_names_every_key_and_slot;
use crate::cluster_server::RedisCluster;
use crate::invocation::flush_scripts;
use crate::server::RedisServer;

/// `DEL` of every key given; how many existed.
#[redis_script(file = "tests/lua/delete_keys.lua", keys = 1)]
fn delete_keys(#[variadic] keys: &[&str]) -> i64;

/// `SUNIONSTORE destination sources..`, then `SADD` of `members` and an
/// expiry; the union's size. Its header declares the same (`---@key ...`).
#[redis_script(file = "tests/lua/headed/union_sets.lua", keys = 2)]
fn union_sets(
    destination: &str,
    #[variadic] keys: &[&str],
    ttl_secs: i64,
    #[variadic] rest: &[&str],
) -> i64;

fn set(con: &mut dyn redis::ConnectionLike, key: &str, value: &str) {
    redis::cmd("SET").arg(key).arg(value).exec(con).unwrap();
}

fn exists(con: &mut dyn redis::ConnectionLike, keys: &[&str]) -> i64 {
    redis::cmd("EXISTS").arg(keys).query(con).unwrap()
}

fn sadd(con: &mut dyn redis::ConnectionLike, key: &str, members: &[&str]) {
    redis::cmd("SADD").arg(key).arg(members).exec(con).unwrap();
}

fn members(con: &mut dyn redis::ConnectionLike, key: &str) -> Vec<String> {
    let mut members: Vec<String> = redis::cmd("SMEMBERS").arg(key).query(con).unwrap();
    members.sort();
    members
}

/// The arguments of a call's EVALSHA after the SHA1: numkeys, KEYS, ARGV.
fn sent<T>(call: &Invocation<T>) -> Vec<String> {
    call.evalsha_cmd()
        .unwrap()
        .args_iter()
        .skip(2)
        .map(|arg| match arg {
            Arg::Simple(bytes) => String::from_utf8_lossy(bytes).into_owned(),
            _ => unreachable!("no cursor in a script call"),
        })
        .collect()
}

#[test]
fn the_metadata_and_each_call_count_the_keys() {
    let script = &union_sets::SCRIPT;
    assert_eq!(script.key_names(), ["destination"]);
    assert_eq!(script.key_count(), 1);
    assert_eq!(script.key_arity(), Arity::AtLeast(1));
    assert_eq!(script.arg_names(), ["ttl_secs"]);
    assert_eq!(script.arg_arity(), Arity::AtLeast(1));
    assert_eq!(delete_keys::SCRIPT.key_arity(), Arity::AtLeast(0));
    assert!(delete_keys::SCRIPT.key_names().is_empty());

    // numkeys is each call's own: the fixed keys and the list's, none
    // included, and the keys sit before every argument.
    assert_eq!(
        sent(&union_sets("u", &["a", "b", "c"], 60, &["x"])),
        ["4", "u", "a", "b", "c", "60", "x"]
    );
    assert_eq!(sent(&union_sets("u", &[], 0, &[])), ["1", "u", "0"]);
    assert_eq!(sent(&delete_keys(&[])), ["0"]);
    let many: Vec<String> = (0..120).map(|n| format!("k{n}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let args = sent(&delete_keys(&many));
    assert_eq!(args[0], "120");
    assert_eq!(args[1..], many);
}

#[test]
fn sync_calls_pass_every_key_and_recover_from_noscript() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for key in ["a", "b", "c"] {
        set(&mut con, key, "1");
    }
    assert_eq!(
        delete_keys(&["a", "b", "missing"])
            .invoke(&mut con)
            .unwrap(),
        2
    );
    assert_eq!(exists(&mut con, &["a", "b", "c"]), 1);
    // No keys at all: numkeys 0, a legal call that deletes nothing.
    assert_eq!(delete_keys(&[]).invoke(&mut con).unwrap(), 0);
    assert_eq!(exists(&mut con, &["c"]), 1);

    sadd(&mut con, "s1", &["x", "y"]);
    sadd(&mut con, "s2", &["y", "z"]);
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        flush_scripts(&mut con);
        let size = union_sets("u", &["s1", "s2"], 60, &["w"])
            .on_noscript(fallback)
            .invoke(&mut con)
            .unwrap();
        assert_eq!(size, 4, "{fallback:?}");
        assert_eq!(members(&mut con, "u"), ["w", "x", "y", "z"]);
        let ttl: i64 = redis::cmd("TTL").arg("u").query(&mut con).unwrap();
        assert!((1..=60).contains(&ttl), "{ttl}");
    }
    // Only the fixed key: the union of nothing, plus the members.
    assert_eq!(
        union_sets("u", &[], 0, &["only"]).invoke(&mut con).unwrap(),
        1
    );
    assert_eq!(members(&mut con, "u"), ["only"]);
}

#[tokio::test(flavor = "current_thread")]
async fn async_calls_pass_every_key() {
    let server = RedisServer::start();
    let mut con = server.multiplexed().await;
    let mut admin = server.connection();
    sadd(&mut admin, "s1", &["x"]);
    sadd(&mut admin, "s2", &["y"]);
    sadd(&mut admin, "s3", &["z"]);
    flush_scripts(&mut admin);
    let size = union_sets("u", &["s1", "s2", "s3"], 0, &[])
        .invoke_async(&mut con)
        .await
        .unwrap();
    assert_eq!(size, 3);
    let deleted = delete_keys(&["s1", "s2", "s3", "u"])
        .invoke_async(&mut con)
        .await
        .unwrap();
    assert_eq!(deleted, 4);
    assert_eq!(exists(&mut admin, &["s1", "s2", "s3", "u"]), 0);
}

#[test]
fn pipelines_take_calls_of_different_key_counts() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for atomic in [false, true] {
        for key in ["a", "b", "c", "d"] {
            set(&mut con, key, "1");
        }
        flush_scripts(&mut con);
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        pipe.evalsha_script(&delete_keys(&["a"])).unwrap();
        pipe.evalsha_script(&delete_keys(&[])).unwrap();
        pipe.eval_script(&delete_keys(&["b", "c", "missing"]))
            .unwrap();
        pipe.evalsha_script(&union_sets("u", &["none"], 0, &["m1", "m2"]))
            .unwrap();
        let replies: (i64, i64, i64, i64) = pipe.query(&mut con).unwrap();
        assert_eq!(replies, (1, 0, 2, 2), "atomic: {atomic}");
        assert_eq!(exists(&mut con, &["a", "b", "c", "d"]), 1);
    }
}

#[test]
fn a_cluster_runs_a_list_in_one_slot_and_refuses_one_across_slots() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();

    // One hash tag, one slot: the call goes to that slot's primary.
    let tagged = ["{cart:7}:a", "{cart:7}:b", "{cart:7}:c"];
    for key in tagged {
        set(&mut con, key, "1");
    }
    let call = delete_keys(&tagged[..2]);
    call.check_slots().unwrap();
    assert_eq!(call.invoke(&mut con).unwrap(), 2);
    assert_eq!(exists(&mut con, &tagged[..1]), 0);
    assert_eq!(exists(&mut con, &tagged[2..]), 1);

    // Three slots: refused before sending, naming every key and its slot.
    let apart = ["user:1", "user:2", "user:3"];
    for key in apart {
        set(&mut con, key, "kept");
    }
    let expected: Vec<(String, u16)> = apart
        .iter()
        .map(|key| ((*key).to_owned(), key_slot(key.as_bytes())))
        .collect();
    assert!(expected.windows(2).all(|pair| pair[0].1 != pair[1].1));
    let call = delete_keys(&apart);
    let early = call.check_slots().unwrap_err();
    assert_names_every_key_and_slot(&early, "delete_keys", &expected);
    // A cluster pipeline queues nothing of it; sent anyway, the cluster
    // refuses it with the same detail. Either way no key was deleted.
    let mut pipe = redis::cluster::cluster_pipe();
    let refused = pipe.eval_script(&call).unwrap_err();
    assert!(matches!(refused.kind(), ErrorKind::CrossSlot { keys } if *keys == expected));
    let refused = pipe.evalsha_script(&call).unwrap_err();
    assert!(matches!(refused.kind(), ErrorKind::CrossSlot { .. }));
    assert_eq!(pipe.cmd_iter().count(), 0);
    let refused = call.invoke(&mut con).unwrap_err();
    assert_names_every_key_and_slot(&refused, "delete_keys", &expected);
    for key in apart {
        assert_eq!(exists(&mut con, &[key]), 1, "{key}");
    }

    // A fixed key and the list must share a slot as well.
    let refused = union_sets("{u}:dest", &["{u}:a", "other"], 0, &[])
        .check_slots()
        .unwrap_err();
    assert!(
        matches!(refused.kind(), ErrorKind::CrossSlot { keys } if keys.len() == 3),
        "{refused}"
    );

    // Cluster pipelines route each call by its first key.
    sadd(&mut con, "{u}:a", &["x"]);
    sadd(&mut con, "{u}:b", &["y"]);
    let mut pipe = redis::cluster::cluster_pipe();
    pipe.evalsha_script(&union_sets("{u}:dest", &["{u}:a", "{u}:b"], 0, &[]))
        .unwrap();
    pipe.eval_script(&delete_keys(&["{cart:7}:c"])).unwrap();
    let replies: Vec<Value> = pipe.query(&mut con).unwrap();
    assert_eq!(replies, [Value::Int(2), Value::Int(1)]);

    // No keys at all: no slot, so the client sends the call to any node.
    assert_eq!(delete_keys(&[]).invoke(&mut con).unwrap(), 0);
}

#[test]
fn a_key_prefix_reaches_every_key_of_the_list_and_no_argument() {
    let prefix = redis_script::KeyPrefix::new("tenant-7:").unwrap();
    // The list and the fixed key get the prefix, numkeys counts them all,
    // and the ARGV tail is sent as it was.
    assert_eq!(
        sent(&union_sets("u", &["a", "b"], 60, &["x"]).key_prefix(&prefix)),
        ["3", "tenant-7:u", "tenant-7:a", "tenant-7:b", "60", "x"]
    );
    assert_eq!(sent(&delete_keys(&[]).key_prefix(&prefix)), ["0"]);

    let server = RedisServer::start();
    let mut con = server.connection();
    for key in ["tenant-7:a", "tenant-7:b", "a", "b"] {
        set(&mut con, key, "1");
    }
    let deleted = delete_keys(&["a", "b", "c"])
        .key_prefix(&prefix)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(deleted, 2);
    // The tenant's keys are gone; the same names without the prefix stay.
    assert_eq!(exists(&mut con, &["tenant-7:a", "tenant-7:b"]), 0);
    assert_eq!(exists(&mut con, &["a", "b"]), 2);
}
