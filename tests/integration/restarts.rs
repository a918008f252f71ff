//! A server killed and started again on the same port while calls keep
//! coming: calls resume, the emptied script cache is recovered transparently,
//! and no call reports success for a write that did not happen.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis_script::Error;

use crate::counter::{counter_value, incr_counter};
use crate::invocation::{command_calls, script_cached};
use crate::server::RedisServer;

/// Successful calls before the kill, and after the restart before stopping.
const CALLS_BEFORE_KILL: usize = 50;
const CALLS_AFTER_RESTART: usize = 50;
/// Bounds on the whole run, whatever the server does.
const MAX_CALLS: usize = 20_000;
const RUN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the server stays down while calls keep coming.
const OUTAGE: Duration = Duration::from_millis(300);
/// Pause after a failed call, as a client backing off would.
const RETRY_PAUSE: Duration = Duration::from_millis(10);
const COUNTER: &str = "restarts:counter";

/// A server whose acknowledged writes survive being killed.
///
/// `kill` is a crash: the server keeps only what is on disk. With the AOF
/// fsynced before every reply, a write a client saw succeed is on disk, so
/// after the restart the counter must account for every `Ok`; without
/// persistence the restart would empty it, and counting would prove nothing.
pub(crate) fn start_persistent_server() -> RedisServer {
    RedisServer::start_with(&["--appendonly", "yes", "--appendfsync", "always"])
}

/// Kills the server and starts it again on its port, from a thread of its
/// own (the harness blocks while it waits), once `successes` reach
/// [`CALLS_BEFORE_KILL`]; `restarted` turns true when it answers again. The
/// thread hands the server back when joined.
fn restart_mid_run(
    server: RedisServer,
    successes: Arc<AtomicUsize>,
    restarted: Arc<AtomicBool>,
) -> JoinHandle<RedisServer> {
    thread::spawn(move || {
        let deadline = Instant::now() + RUN_TIMEOUT;
        while successes.load(Ordering::SeqCst) < CALLS_BEFORE_KILL {
            assert!(
                Instant::now() < deadline,
                "no {CALLS_BEFORE_KILL} successful calls before the kill"
            );
            thread::sleep(Duration::from_millis(5));
        }
        server.kill();
        thread::sleep(OUTAGE);
        server.start_again();
        restarted.store(true, Ordering::SeqCst);
        server
    })
}

/// What the calls of a run returned.
#[derive(Default)]
struct Tally {
    /// The counter's value each successful call replied with.
    replies: Vec<i64>,
    /// Successes of calls sent after the restarted server answered.
    after_restart: usize,
    errors: usize,
}

impl Tally {
    /// Records one call; `sent_after_restart` says whether the server had come
    /// back before it was sent.
    fn record(&mut self, reply: Result<i64, Error>, sent_after_restart: bool) {
        match reply {
            Ok(value) => {
                self.replies.push(value);
                self.after_restart += usize::from(sent_after_restart);
            }
            Err(error) => {
                // A failed call is an error naming the script, never a
                // NOSCRIPT left over from the emptied cache.
                assert_eq!(error.script(), "incr_counter", "{error}");
                assert!(error.to_string().contains("incr_counter"), "{error}");
                assert_ne!(error.code(), Some("NOSCRIPT"), "{error}");
                self.errors += 1;
            }
        }
    }

    /// Whether the run has done what it came for.
    fn done(&self) -> bool {
        self.after_restart >= CALLS_AFTER_RESTART
    }

    /// The invariants, against the restarted server.
    fn check(&self, server: &RedisServer) {
        assert!(
            self.done(),
            "only {} successful calls after the restart ({} before, {} errors)",
            self.after_restart,
            self.replies.len() - self.after_restart,
            self.errors
        );
        // A success whose write was lost would let a later call get its value again.
        let mut distinct = self.replies.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            self.replies.len(),
            "a value was replied twice"
        );

        let mut con = server.connection();
        let counter = counter_value(&mut con, COUNTER);
        let successes = self.replies.len() as i64;
        // Each success wrote once; a failed call may have written before its
        // reply was lost.
        assert!(
            (successes..=successes + self.errors as i64).contains(&counter),
            "counter {counter}, {successes} successes, {} errors",
            self.errors
        );
        assert!(distinct.last().is_some_and(|&last| last <= counter));
        // The restarted server started with an empty cache and fresh
        // statistics: the script is there because one call recovered it.
        assert!(script_cached(&mut con, &incr_counter::SCRIPT));
        assert_eq!(command_calls(&mut con, "eval"), 1);
    }
}

/// Reconnects quickly and never waits forever for one reply.
fn manager_config() -> ConnectionManagerConfig {
    ConnectionManagerConfig::new()
        .set_min_delay(Duration::from_millis(50))
        .set_max_delay(Duration::from_millis(500))
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(5)))
}

/// A sync connection that gives up on a dead server instead of hanging.
fn open_with_timeouts(client: &redis::Client) -> Option<redis::Connection> {
    let con = client
        .get_connection_with_timeout(Duration::from_secs(1))
        .ok()?;
    con.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    con.set_write_timeout(Some(Duration::from_secs(5))).ok()?;
    Some(con)
}

#[tokio::test(flavor = "current_thread")]
async fn connection_manager_calls_resume_after_a_restart_without_false_successes() {
    let server = start_persistent_server();
    let client = server.client();
    let mut manager = ConnectionManager::new_with_config(client, manager_config())
        .await
        .unwrap();
    let successes = Arc::new(AtomicUsize::new(0));
    let restarted = Arc::new(AtomicBool::new(false));
    let restarter = restart_mid_run(server, successes.clone(), restarted.clone());

    let mut tally = Tally::default();
    let deadline = Instant::now() + RUN_TIMEOUT;
    for _ in 0..MAX_CALLS {
        if tally.done() || Instant::now() >= deadline {
            break;
        }
        let sent_after_restart = restarted.load(Ordering::SeqCst);
        let reply = incr_counter(COUNTER).invoke_async(&mut manager).await;
        if reply.is_err() {
            tokio::time::sleep(RETRY_PAUSE).await;
        }
        tally.record(reply, sent_after_restart);
        successes.store(tally.replies.len(), Ordering::SeqCst);
    }
    let server = restarter.join().expect("the restart thread failed");
    tally.check(&server);
}

#[test]
fn a_reopened_connection_resumes_after_a_restart_without_false_successes() {
    let server = start_persistent_server();
    let client = server.client();
    let successes = Arc::new(AtomicUsize::new(0));
    let restarted = Arc::new(AtomicBool::new(false));
    let restarter = restart_mid_run(server, successes.clone(), restarted.clone());

    let mut tally = Tally::default();
    let mut con = None;
    let deadline = Instant::now() + RUN_TIMEOUT;
    for _ in 0..MAX_CALLS {
        if tally.done() || Instant::now() >= deadline {
            break;
        }
        // (Re)open the connection after a failure; while the server is down
        // this fails too, and the next round tries again.
        let Some(connection) = con.as_mut() else {
            con = open_with_timeouts(&client);
            if con.is_none() {
                thread::sleep(RETRY_PAUSE);
            }
            continue;
        };
        let sent_after_restart = restarted.load(Ordering::SeqCst);
        let reply = incr_counter(COUNTER).invoke(connection);
        if reply.is_err() {
            con = None;
            thread::sleep(RETRY_PAUSE);
        }
        tally.record(reply, sent_after_restart);
        successes.store(tally.replies.len(), Ordering::SeqCst);
    }
    let server = restarter.join().expect("the restart thread failed");
    tally.check(&server);
}
