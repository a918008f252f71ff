//! A script that runs past the server's `busy-reply-threshold`: other
//! callers get an error they can tell apart ([`Error::is_busy`], not
//! applied), [`kill_running_script`] stops a script that has not written,
//! and reports one that has as [`ScriptKill::Unkillable`], which then runs
//! to its end. The slow script ends by itself within 2 s whatever happens,
//! so a kill that fails cannot hang the suite.

use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use redis_script::{
    Applied, Error, ScriptKill, kill_running_script, kill_running_script_async, redis_script,
};

use crate::counter::{counter_value, incr_counter};
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/spin.lua", keys = 1)]
fn spin(key: &str, milliseconds: u64, mode: &str) -> i64;

/// The server's `busy-reply-threshold` in these tests: low, so that the
/// tests are short.
const BUSY_AFTER_MS: &str = "100";
/// How long the slow scripts may run: well past the threshold, and short
/// enough for a test.
const KILLABLE_RUN_MS: u64 = 2_000;
const UNKILLABLE_RUN_MS: u64 = 1_500;
/// Bounds on waiting for the server to report BUSY.
const MAX_ATTEMPTS: usize = 10_000;
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Pause between calls that ran before the slow script started.
const POLL_INTERVAL: Duration = Duration::from_millis(1);
const COUNTER: &str = "slow:counter";

fn start_server() -> RedisServer {
    RedisServer::start_with(&["--busy-reply-threshold", BUSY_AFTER_MS])
}

/// Runs the slow script on a connection of its own, in a thread.
fn run_slow_script(
    server: &RedisServer,
    milliseconds: u64,
    mode: &'static str,
) -> JoinHandle<Result<i64, Error>> {
    let mut con = server.connection();
    thread::spawn(move || spin("slow:written", milliseconds, mode).invoke(&mut con))
}

/// Calls a binding on `server` until the server answers BUSY, and returns
/// that error and how many calls ran before (when the slow script had not
/// started yet).
fn wait_for_busy(server: &RedisServer) -> (Error, i64) {
    let mut con = server.connection();
    let deadline = Instant::now() + BUSY_TIMEOUT;
    let mut ran = 0;
    for _ in 0..MAX_ATTEMPTS {
        assert!(Instant::now() < deadline, "no BUSY within {BUSY_TIMEOUT:?}");
        match incr_counter(COUNTER).invoke(&mut con) {
            Ok(_) => {
                ran += 1;
                thread::sleep(POLL_INTERVAL);
            }
            Err(error) if error.is_busy() => return (error, ran),
            Err(error) => panic!("an error other than BUSY: {error}"),
        }
    }
    panic!("no BUSY in {MAX_ATTEMPTS} calls");
}

/// The BUSY error names the call's script, says it did not run, and does
/// not read as anything else.
fn assert_busy_refusal(error: &Error) {
    assert_eq!(error.script(), "incr_counter");
    assert_eq!(error.code(), Some("BUSY"));
    assert_eq!(error.applied(), Applied::No);
    assert!(
        error.to_string().contains("busy running a script"),
        "{error}"
    );
}

#[test]
fn a_busy_server_refuses_other_calls_and_kill_stops_a_script_that_has_not_written() {
    let server = start_server();
    let slow = run_slow_script(&server, KILLABLE_RUN_MS, "read");
    let (busy, ran) = wait_for_busy(&server);
    assert_busy_refusal(&busy);

    let mut admin = server.connection();
    assert_eq!(kill_running_script(&mut admin).unwrap(), ScriptKill::Killed);
    let killed = slow.join().unwrap().unwrap_err();
    assert_eq!(killed.script(), "spin");
    assert!(
        killed.to_string().contains("Script killed by user"),
        "{killed}"
    );
    // SCRIPT KILL only stops a script that wrote nothing.
    assert_eq!(killed.applied(), Applied::No);
    assert_eq!(
        kill_running_script(&mut admin).unwrap(),
        ScriptKill::NothingRunning
    );

    // Only the calls that ran before the slow script counted; the server
    // serves again.
    assert_eq!(counter_value(&mut admin, COUNTER), ran);
    let mut con = server.connection();
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), ran + 1);
}

#[test]
fn a_script_that_has_written_is_unkillable_and_runs_to_its_end() {
    let server = start_server();
    let slow = run_slow_script(&server, UNKILLABLE_RUN_MS, "write");
    let (busy, ran) = wait_for_busy(&server);
    assert_busy_refusal(&busy);

    let mut admin = server.connection();
    let outcome = kill_running_script(&mut admin).unwrap();
    assert_eq!(outcome, ScriptKill::Unkillable);
    assert!(outcome.to_string().contains("SHUTDOWN NOSAVE"));
    // It ends by itself, having done all it does.
    let reads = slow.join().unwrap().unwrap();
    assert!(reads > 0);
    let written: Option<String> = redis::cmd("GET")
        .arg("slow:written")
        .query(&mut admin)
        .unwrap();
    assert_eq!(written.as_deref(), Some("written"));
    assert_eq!(
        kill_running_script(&mut admin).unwrap(),
        ScriptKill::NothingRunning
    );
    assert_eq!(counter_value(&mut admin, COUNTER), ran);
}

#[tokio::test(flavor = "current_thread")]
async fn kill_running_script_async_kills_on_an_async_connection() {
    let server = start_server();
    let mut con = server.multiplexed().await;
    let outcome = kill_running_script_async(&mut con).await.unwrap();
    assert_eq!(outcome, ScriptKill::NothingRunning);

    let slow = run_slow_script(&server, KILLABLE_RUN_MS, "read");
    // The server holds every other client until the threshold passes: wait
    // in a blocking thread, not in the runtime.
    let waiter = thread::spawn({
        let client = server.client();
        move || {
            let mut con = client.get_connection().unwrap();
            let deadline = Instant::now() + BUSY_TIMEOUT;
            for _ in 0..MAX_ATTEMPTS {
                assert!(Instant::now() < deadline, "no BUSY within {BUSY_TIMEOUT:?}");
                let error = redis::cmd("PING").exec(&mut con).err();
                if error.is_some_and(|error| error.code() == Some("BUSY")) {
                    return;
                }
                thread::sleep(POLL_INTERVAL);
            }
            panic!("no BUSY in {MAX_ATTEMPTS} PINGs");
        }
    });
    tokio::task::spawn_blocking(move || waiter.join())
        .await
        .unwrap()
        .expect("waiting for BUSY failed");
    let outcome = kill_running_script_async(&mut con).await.unwrap();
    assert_eq!(outcome, ScriptKill::Killed);
    assert_eq!(slow.join().unwrap().unwrap_err().applied(), Applied::No);
}
