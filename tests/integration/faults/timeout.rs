//! A call that times out on the client: the connection stays usable, and
//! the late reply of the timed-out call is skipped, never taken for the
//! next call's reply. Shown on a sync `Connection` (a read timeout) and on
//! an async `MultiplexedConnection` (a response timeout), with a script that
//! keeps the server busy well past the timeout.

use std::time::Duration;

use redis_script::{Applied, ErrorClass, redis_script};

use crate::counter::{counter_value, incr_counter};
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/spin.lua", keys = 1)]
fn spin(key: &str, milliseconds: u64, mode: &str) -> i64;

/// How long the slow script runs: many times the timeout.
const SLOW_MS: u64 = 400;
/// The client's timeout for the slow call.
const TIMEOUT: Duration = Duration::from_millis(50);
/// A timeout no call of these tests comes near: the wait for the late reply.
const PATIENT: Duration = Duration::from_secs(30);
const COUNTER: &str = "timeout:counter";

#[test]
fn a_sync_connection_skips_the_late_reply_of_a_timed_out_call() {
    let server = RedisServer::start();
    let mut con = server.connection();
    con.set_read_timeout(Some(TIMEOUT)).unwrap();
    let error = spin("timeout:spin", SLOW_MS, "read")
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Timeout, "{error}");
    assert_eq!(error.applied(), Applied::Maybe);

    // The next calls wait behind the slow script, whose reply (a count of
    // clock reads, far above 1) reaches this connection first: redis-rs
    // drops it, and each call gets its own reply.
    con.set_read_timeout(Some(PATIENT)).unwrap();
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 1);
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 2);
    assert_eq!(counter_value(&mut con, COUNTER), 2);
}

#[tokio::test(flavor = "current_thread")]
async fn a_multiplexed_connection_skips_the_late_reply_of_a_timed_out_call() {
    let server = RedisServer::start();
    let mut con = server.multiplexed().await;
    con.set_response_timeout(TIMEOUT);
    let error = spin("timeout:spin", SLOW_MS, "read")
        .invoke_async(&mut con)
        .await
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Timeout, "{error}");
    assert_eq!(error.applied(), Applied::Maybe);

    con.set_response_timeout(PATIENT);
    assert_eq!(
        incr_counter(COUNTER).invoke_async(&mut con).await.unwrap(),
        1
    );
    assert_eq!(
        incr_counter(COUNTER).invoke_async(&mut con).await.unwrap(),
        2
    );
    let value: i64 = redis::cmd("GET")
        .arg(COUNTER)
        .query_async(&mut con)
        .await
        .unwrap();
    assert_eq!(value, 2);
}
