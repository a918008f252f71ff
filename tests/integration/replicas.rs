//! Read-only scripts on replicas: a `no-writes` script runs as EVALSHA_RO /
//! EVAL_RO on a replica, recovering from NOSCRIPT there; writes are refused.

use std::thread;
use std::time::{Duration, Instant};

use redis::{ConnectionLike, Value};
use redis_script::{Error, redis_script};

use crate::counter::{counter_value, incr_counter};
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/read_only_get.lua", keys = 1)]
pub(crate) fn read_only_get(key: &str) -> Option<String>;

#[redis_script(file = "tests/lua/read_only_call.lua", keys = 1)]
fn read_only_call(key: &str, command: &str, #[variadic] args: &[&str]) -> Value;

/// How long a replica may take to connect, sync, or show a write.
const REPLICATION_TIMEOUT: Duration = Duration::from_secs(30);
const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// A primary, and a replica of it whose link is up.
pub(crate) fn start_primary_and_replica() -> (RedisServer, RedisServer) {
    // The primary otherwise waits 5 s for more replicas before a diskless sync.
    let primary = RedisServer::start_with(&["--repl-diskless-sync-delay", "0"]);
    let port = primary.port().to_string();
    let replica = RedisServer::start_with(&["--replicaof", "127.0.0.1", &port]);
    let mut con = replica.connection();
    wait_for("the replica's link to the primary to be up", || {
        let info: String = redis::cmd("INFO")
            .arg("replication")
            .query(&mut con)
            .unwrap();
        info.lines()
            .any(|line| line.trim() == "master_link_status:up")
    });
    (primary, replica)
}

/// Polls `done` until it holds, panicking after [`REPLICATION_TIMEOUT`].
pub(crate) fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + REPLICATION_TIMEOUT;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited {REPLICATION_TIMEOUT:?} for {what}"
        );
        thread::sleep(POLL_INTERVAL);
    }
}

/// Writes `key` on the primary and waits until the replica shows it.
fn set_and_replicate(primary: &RedisServer, replica: &RedisServer, key: &str, value: &str) {
    let mut primary_con = primary.connection();
    redis::cmd("SET")
        .arg(key)
        .arg(value)
        .exec(&mut primary_con)
        .unwrap();
    let mut replica_con = replica.connection();
    wait_for("the write to reach the replica", || {
        let seen: Option<String> = redis::cmd("GET").arg(key).query(&mut replica_con).unwrap();
        seen.as_deref() == Some(value)
    });
}

/// A replica connection, as the server itself sees it.
fn assert_is_replica(con: &mut dyn ConnectionLike) {
    let role: Vec<Value> = redis::cmd("ROLE").query(con).unwrap();
    assert_eq!(
        role.first(),
        Some(&Value::BulkString(b"slave".to_vec())),
        "{role:?}"
    );
}

/// The replica's cache did not have the script before the call and has it
/// after, and the call ran as `EVALSHA_RO` then `EVAL_RO`: recovered there,
/// read-only.
fn assert_recovered_read_only(replica: &mut dyn ConnectionLike) {
    assert!(script_cached(replica, &read_only_get::SCRIPT));
    assert_eq!(command_calls(replica, "evalsha_ro"), 1);
    assert_eq!(command_calls(replica, "eval_ro"), 1);
    assert_eq!(command_calls(replica, "evalsha"), 0);
    assert_eq!(command_calls(replica, "eval"), 0);
}

#[test]
fn a_read_only_script_recovers_and_reads_on_a_replica() {
    let (primary, replica) = start_primary_and_replica();
    set_and_replicate(&primary, &replica, "greeting", "hello");
    // Running on the primary caches it there only: scripts are not replicated.
    let mut primary_con = primary.connection();
    let on_primary = read_only_get("greeting").invoke(&mut primary_con);
    assert_eq!(on_primary.unwrap().as_deref(), Some("hello"));

    let mut con = replica.connection();
    assert_is_replica(&mut con);
    assert!(!script_cached(&mut con, &read_only_get::SCRIPT));
    reset_stats(&mut con);
    let reply = read_only_get("greeting").invoke(&mut con).unwrap();
    assert_eq!(reply.as_deref(), Some("hello"));
    assert_recovered_read_only(&mut con);
    assert_eq!(read_only_get("missing").invoke(&mut con).unwrap(), None);
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_only_script_recovers_and_reads_on_a_replica_async() {
    let (primary, replica) = start_primary_and_replica();
    set_and_replicate(&primary, &replica, "greeting", "hello");
    let mut admin = replica.connection();
    flush_scripts(&mut admin);
    reset_stats(&mut admin);
    let mut con = replica.multiplexed().await;
    let reply = read_only_get("greeting").invoke_async(&mut con).await;
    assert_eq!(reply.unwrap().as_deref(), Some("hello"));
    assert_recovered_read_only(&mut admin);
}

/// A `no-writes` script that writes fails with the server's own words and
/// names the script; `key` keeps its old value.
fn assert_write_refused(error: Error, con: &mut dyn ConnectionLike, key: &str, old: &str) {
    assert_eq!(error.script(), "read_only_call");
    let message = error.to_string();
    assert!(message.contains("read_only_call"), "{message}");
    // The same words on Redis 7.0, Valkey 8.1 and Valkey 9.1.
    assert!(
        message.contains("Write commands are not allowed from read-only scripts"),
        "{message}"
    );
    let value: Option<String> = redis::cmd("GET").arg(key).query(con).unwrap();
    assert_eq!(value.as_deref(), Some(old));
}

#[test]
fn a_write_from_a_read_only_script_is_refused_on_primary_and_replica() {
    let (primary, replica) = start_primary_and_replica();
    set_and_replicate(&primary, &replica, "greeting", "hello");
    for server in [&primary, &replica] {
        let mut con = server.connection();
        // The same script reads fine: only the write is refused.
        let read = read_only_call("greeting", "GET", &[]).invoke(&mut con);
        assert_eq!(read.unwrap(), Value::BulkString(b"hello".to_vec()));
        let error = read_only_call("greeting", "SET", &["overwritten"])
            .invoke(&mut con)
            .unwrap_err();
        assert_write_refused(error, &mut con, "greeting", "hello");
    }
}

#[test]
fn a_write_script_on_a_replica_fails_with_readonly_and_writes_nothing() {
    let (primary, replica) = start_primary_and_replica();
    let mut con = replica.connection();
    let error = incr_counter("replicated").invoke(&mut con).unwrap_err();
    assert_eq!(error.script(), "incr_counter");
    assert_eq!(error.code(), Some("READONLY"), "{error}");
    let message = error.to_string();
    assert!(message.contains("incr_counter"), "{message}");
    assert!(
        message.contains("You can't write against a read only replica"),
        "{message}"
    );
    assert_eq!(counter_value(&mut con, "replicated"), 0);
    assert_eq!(counter_value(&mut primary.connection(), "replicated"), 0);
}
