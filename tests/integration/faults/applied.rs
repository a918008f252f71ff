//! [`Error::applied`] on real servers, for the outcomes that need no fault:
//! a reply that does not fit (applied), a script that fails after writing
//! (maybe), and calls that never run (not applied), each checked against
//! what the server holds afterwards. The faults' own modules check the
//! rest: lost connections and refusals (`restart.rs`), BUSY and killed
//! scripts (`slow_script.rs`), READONLY (`promoted_replica.rs`), NOSCRIPT
//! (`flush_storm.rs`).

use redis_script::{Applied, ErrorKind, NoScriptFallback, redis_script};

use crate::counter::counter_value;
use crate::server::RedisServer;

/// `incr_counter.lua`, declared with a reply type too small for it.
#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn incr_counter_u8(counter: &str) -> u8;

#[redis_script(file = "tests/lua/incr_then_fail.lua", keys = 1)]
fn incr_then_fail(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn incr_some_counter<K: redis::ToRedisArgs>(counter: K) -> i64;

const COUNTER: &str = "applied:counter";

#[test]
fn a_reply_that_does_not_fit_was_applied() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("SET")
        .arg(COUNTER)
        .arg(255)
        .exec(&mut con)
        .unwrap();
    let error = incr_counter_u8(COUNTER).invoke(&mut con).unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Reply { .. }), "{error}");
    assert_eq!(error.applied(), Applied::Yes);
    assert_eq!(counter_value(&mut con, COUNTER), 256);
}

#[test]
fn a_script_that_fails_after_writing_may_have_been_applied() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let error = incr_then_fail(COUNTER).invoke(&mut con).unwrap_err();
    assert_eq!(error.code(), Some("HALFWAY"), "{error}");
    assert_eq!(error.applied(), Applied::Maybe);
    // Redis kept the write before the error.
    assert_eq!(counter_value(&mut con, COUNTER), 1);
}

#[test]
fn a_call_refused_before_sending_was_not_applied() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // A key that encodes to no value at all.
    let error = incr_some_counter(Option::<&str>::None)
        .invoke(&mut con)
        .unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::Argument { .. }),
        "{error}"
    );
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(counter_value(&mut con, COUNTER), 0);
}

/// A server without SCRIPT (as some proxies are): the `Load` recovery's
/// SCRIPT LOAD fails with a plain `ERR`, which for a script's own error
/// would mean "maybe", but here the script certainly did not run.
#[test]
fn a_refused_script_load_was_not_applied() {
    let server = RedisServer::start_with(&["--rename-command", "SCRIPT", ""]);
    let mut con = server.connection();
    let call = incr_some_counter(COUNTER).on_noscript(NoScriptFallback::Load);
    let error = call.invoke(&mut con).unwrap_err();
    assert_eq!(error.code(), Some("ERR"), "{error}");
    assert!(error.to_string().contains("unknown command"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    let error = incr_some_counter::SCRIPT.load(&mut con).unwrap_err();
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(counter_value(&mut con, COUNTER), 0);
    // The default recovery, EVAL, needs no SCRIPT command.
    assert_eq!(incr_some_counter(COUNTER).invoke(&mut con).unwrap(), 1);
}
