//! A failover to a replica that does not have the script: scripts are not
//! replicated, so a promoted replica's cache holds only what ran there. A
//! replica whose cache was flushed is promoted with `REPLICAOF NO ONE`,
//! and bindings recover on it as after a flush, applying each call once
//! on top of the replicated data.

use redis::{ConnectionLike, Value};
use redis_script::{Applied, NoScriptFallback, ScriptPipeline, redis_script};

use crate::counter::{counter_value, incr_counter};
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::replicas::{start_primary_and_replica, wait_for};

#[redis_script(file = "tests/lua/record_call.lua", keys = 1)]
fn record_call(calls: &str, id: u64) -> i64;

const COUNTER: &str = "failover:counter";
const CALLS: &str = "failover:calls";

/// The role the server reports: `master` or `slave`.
fn role(con: &mut dyn ConnectionLike) -> Vec<u8> {
    let role: Vec<Value> = redis::cmd("ROLE").query(con).unwrap();
    match role.first() {
        Some(Value::BulkString(name)) => name.clone(),
        other => panic!("ROLE: {other:?}"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn bindings_recover_on_a_promoted_replica_without_the_script() {
    let (primary, replica) = start_primary_and_replica();
    let mut on_primary = primary.connection();
    for expected in 1..=3 {
        let reply = incr_counter(COUNTER).invoke(&mut on_primary).unwrap();
        assert_eq!(reply, expected);
    }
    assert_eq!(record_call(CALLS, 1).invoke(&mut on_primary).unwrap(), 1);
    let mut con = replica.connection();
    wait_for("the writes to reach the replica", || {
        counter_value(&mut con, COUNTER) == 3
    });

    // Before the failover, the replica refuses a writing script before it
    // writes: not applied.
    let refused = incr_counter(COUNTER).invoke(&mut con).unwrap_err();
    assert_eq!(refused.code(), Some("READONLY"), "{refused}");
    assert_eq!(refused.applied(), Applied::No);
    assert_eq!(counter_value(&mut con, COUNTER), 3);

    // The failover: the replica, its cache flushed, becomes a primary and
    // the old primary is gone.
    flush_scripts(&mut con);
    assert!(!script_cached(&mut con, &incr_counter::SCRIPT));
    redis::cmd("REPLICAOF")
        .arg("NO")
        .arg("ONE")
        .exec(&mut con)
        .unwrap();
    assert_eq!(role(&mut con), b"master");
    primary.kill();
    reset_stats(&mut con);

    // Sync, recovering by EVAL; each call applied once, after the
    // replicated three.
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 4);
    assert_eq!(command_calls(&mut con, "evalsha"), 1);
    assert_eq!(command_calls(&mut con, "eval"), 1);
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 5);
    assert_eq!(command_calls(&mut con, "eval"), 1, "recovered once");

    // Async, recovering by SCRIPT LOAD + EVALSHA.
    let mut multiplexed = replica.multiplexed().await;
    let call = record_call(CALLS, 2).on_noscript(NoScriptFallback::Load);
    assert_eq!(call.invoke_async(&mut multiplexed).await.unwrap(), 2);
    assert_eq!(command_calls(&mut con, "script|load"), 1);

    // An atomic pipeline loads what it calls.
    flush_scripts(&mut con);
    let mut pipe = redis::pipe();
    pipe.atomic();
    pipe.evalsha_script(&incr_counter(COUNTER)).unwrap();
    pipe.evalsha_script(&record_call(CALLS, 3)).unwrap();
    let (counter, calls): (i64, i64) = pipe.query(&mut con).unwrap();
    assert_eq!((counter, calls), (6, 3));
    assert_eq!(counter_value(&mut con, COUNTER), 6);
}
