//! A server killed mid-run and started again on the same port, with every
//! outcome checked call by call: each call adds its own id to a set, and
//! after the restart the set must hold every id whose call returned `Ok`,
//! none whose error says [`Applied::No`], and nothing but those and the
//! [`Applied::Maybe`] ones. Calls resume through a `ConnectionManager` and
//! through a sync connection that is opened again.
//!
//! The server keeps an AOF fsynced before every reply
//! ([`start_persistent_server`]): the kill is a crash, and only what was
//! acknowledged is guaranteed to be on disk, so the set seen after the
//! restart is what the calls before the kill really did.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis_script::{Applied, Error, redis_script};

use crate::restarts::start_persistent_server;
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/record_call.lua", keys = 1)]
fn record_call(calls: &str, id: usize) -> i64;

const CALLS: &str = "restart:calls";
/// Successful calls before the kill, and after the restart before stopping.
const CALLS_BEFORE_KILL: usize = 50;
const CALLS_AFTER_RESTART: usize = 50;
/// Calls a `ConnectionManager` must refuse while the server is down before
/// the server comes back.
const REFUSALS_DURING_OUTAGE: usize = 3;
/// Bounds on the whole run, whatever the server does.
const MAX_CALLS: usize = 20_000;
const RUN_TIMEOUT: Duration = Duration::from_secs(30);
/// Pause after a failed call, as a client backing off would.
const RETRY_PAUSE: Duration = Duration::from_millis(10);

/// What the calling loop has seen so far, shared with the restarting
/// thread, which waits on it rather than on the clock.
#[derive(Default)]
struct Progress {
    successes: AtomicUsize,
    /// Errors whose call may have been applied.
    maybes: AtomicUsize,
    /// Errors whose call certainly was not.
    refusals: AtomicUsize,
    restarted: AtomicBool,
}

/// Kills the server once [`CALLS_BEFORE_KILL`] calls succeeded, and starts
/// it again on its port once `outage_seen` holds: the callers have met the
/// outage. Hands the server back when joined.
fn restart_mid_run(
    server: RedisServer,
    progress: Arc<Progress>,
    outage_seen: fn(&Progress) -> bool,
) -> JoinHandle<RedisServer> {
    thread::spawn(move || {
        let deadline = Instant::now() + RUN_TIMEOUT;
        let wait = |what: &str, done: &dyn Fn() -> bool| {
            while !done() {
                assert!(Instant::now() < deadline, "waited too long for {what}");
                thread::sleep(Duration::from_millis(5));
            }
        };
        wait("calls before the kill", &|| {
            progress.successes.load(Ordering::SeqCst) >= CALLS_BEFORE_KILL
        });
        server.kill();
        wait("the callers to meet the outage", &|| outage_seen(&progress));
        server.start_again();
        progress.restarted.store(true, Ordering::SeqCst);
        server
    })
}

/// Each call's id, by what it returned.
#[derive(Default)]
struct Ledger {
    ok: Vec<usize>,
    no: Vec<usize>,
    maybe: Vec<usize>,
    /// Successes of calls sent after the restarted server answered.
    ok_after_restart: usize,
}

impl Ledger {
    fn record(&mut self, id: usize, reply: Result<i64, Error>, progress: &Progress, after: bool) {
        let error = match reply {
            Ok(_) => {
                self.ok.push(id);
                self.ok_after_restart += usize::from(after);
                progress.successes.fetch_add(1, Ordering::SeqCst);
                return;
            }
            Err(error) => error,
        };
        assert_eq!(error.script(), "record_call", "{error}");
        let cause = error.redis_error().expect("a connection error");
        match error.applied() {
            Applied::No => {
                // Never sent, as the manager could not connect, or refused
                // by the restarted server while it reloads its data.
                let loading = error.code() == Some("LOADING");
                assert!(cause.is_connection_refusal() || loading, "{error}");
                self.no.push(id);
                progress.refusals.fetch_add(1, Ordering::SeqCst);
            }
            Applied::Maybe => {
                // Sent, or sent on a connection that had died: the server
                // may have run it before dying.
                assert!(cause.is_io_error(), "{error}");
                self.maybe.push(id);
                progress.maybes.fetch_add(1, Ordering::SeqCst);
            }
            Applied::Yes => panic!("a connection error reported as applied: {error}"),
        }
    }

    fn done(&self) -> bool {
        self.ok_after_restart >= CALLS_AFTER_RESTART
    }

    /// Compares the outcomes with the ids the restarted server holds.
    fn check(&self, server: &RedisServer) {
        assert!(
            self.done(),
            "only {} successes after the restart ({} in all, {} refused, {} maybe)",
            self.ok_after_restart,
            self.ok.len(),
            self.no.len(),
            self.maybe.len()
        );
        let mut con = server.connection();
        let applied: HashSet<usize> = redis::cmd("SMEMBERS").arg(CALLS).query(&mut con).unwrap();
        for id in &self.ok {
            assert!(
                applied.contains(id),
                "call {id} returned Ok but is not applied"
            );
        }
        for id in &self.no {
            assert!(!applied.contains(id), "call {id} said No but is applied");
        }
        let reported: HashSet<usize> = self.ok.iter().chain(&self.maybe).copied().collect();
        assert!(
            applied.is_subset(&reported),
            "applied calls that reported neither Ok nor Maybe: {:?}",
            applied.difference(&reported).collect::<Vec<_>>()
        );
        let maybe_applied = self.maybe.iter().filter(|id| applied.contains(id)).count();
        eprintln!(
            "restart: {} ok, {} refused (No), {} maybe ({maybe_applied} of them applied)",
            self.ok.len(),
            self.no.len(),
            self.maybe.len()
        );
    }
}

/// Reconnects quickly, gives up on a dead server after one retry (so that
/// calls made meanwhile are refused rather than held), and never waits
/// forever for a reply.
fn manager_config() -> ConnectionManagerConfig {
    ConnectionManagerConfig::new()
        .set_number_of_retries(1)
        .set_min_delay(Duration::from_millis(10))
        .set_max_delay(Duration::from_millis(100))
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(5)))
}

#[tokio::test(flavor = "current_thread")]
async fn connection_manager_outcomes_say_what_was_applied_across_a_restart() {
    let server = start_persistent_server();
    let mut manager = ConnectionManager::new_with_config(server.client(), manager_config())
        .await
        .unwrap();
    let progress = Arc::new(Progress::default());
    let restarter = restart_mid_run(server, progress.clone(), |progress| {
        progress.refusals.load(Ordering::SeqCst) >= REFUSALS_DURING_OUTAGE
    });

    let mut ledger = Ledger::default();
    let deadline = Instant::now() + RUN_TIMEOUT;
    for id in 0..MAX_CALLS {
        if ledger.done() || Instant::now() >= deadline {
            break;
        }
        let after = progress.restarted.load(Ordering::SeqCst);
        let reply = record_call(CALLS, id).invoke_async(&mut manager).await;
        if reply.is_err() {
            tokio::time::sleep(RETRY_PAUSE).await;
        }
        ledger.record(id, reply, &progress, after);
    }
    let server = restarter.join().expect("the restart thread failed");
    ledger.check(&server);
    assert!(ledger.no.len() >= REFUSALS_DURING_OUTAGE);
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

#[test]
fn reopened_connection_outcomes_say_what_was_applied_across_a_restart() {
    let server = start_persistent_server();
    let client = server.client();
    let progress = Arc::new(Progress::default());
    // The first call on the dead connection fails; the restart waits for it.
    let restarter = restart_mid_run(server, progress.clone(), |progress| {
        progress.maybes.load(Ordering::SeqCst) >= 1
    });

    let mut ledger = Ledger::default();
    let mut con = None;
    let deadline = Instant::now() + RUN_TIMEOUT;
    for id in 0..MAX_CALLS {
        if ledger.done() || Instant::now() >= deadline {
            break;
        }
        // Opening fails while the server is down; that is redis-rs's error,
        // before any call.
        let Some(connection) = con.as_mut() else {
            con = open_with_timeouts(&client);
            if con.is_none() {
                thread::sleep(RETRY_PAUSE);
            }
            continue;
        };
        let after = progress.restarted.load(Ordering::SeqCst);
        let reply = record_call(CALLS, id).invoke(connection);
        if reply.is_err() {
            con = None;
            thread::sleep(RETRY_PAUSE);
        }
        ledger.record(id, reply, &progress, after);
    }
    let server = restarter.join().expect("the restart thread failed");
    ledger.check(&server);
    // The call on the connection the kill broke had been sent: Maybe.
    // (A `No` here is a LOADING refusal by the restarted server.)
    assert!(!ledger.maybe.is_empty());
}
