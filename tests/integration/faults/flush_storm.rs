//! A SCRIPT FLUSH storm: another client empties the script cache every
//! millisecond while 100,000 calls run, in each way a call can run. No call
//! fails, and each is applied exactly once: the counter the script keeps
//! ends at the number of calls, and the calls' replies are exactly `1..=N`.
//!
//! Each way uses what the docs promise survives the storm: `invoke` and
//! `invoke_async` (EVALSHA, recovered by EVAL), `eval_script` in a plain
//! pipeline, `evalsha_script` in an atomic one. The last test shows why a
//! plain pipeline must not use `evalsha_script` there: a flush placed
//! between its SCRIPT LOAD and a call fails that call.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use redis::{ConnectionLike, Value};
use redis_script::{Applied, Error, Invocation, ScriptPipeline};

use crate::counter::{counter_value, incr_counter};
use crate::invocation::{command_calls, flush_scripts, reset_stats};
use crate::server::RedisServer;

/// Calls per way of running them.
const CALLS: usize = 100_000;
/// Calls per pipeline in the pipeline modes.
const PIPELINE_CALLS: usize = 100;
/// Tasks sharing one multiplexed connection in the async mode.
const TASKS: usize = 10;
const FLUSH_INTERVAL: Duration = Duration::from_millis(1);
/// Bounds on one run and on its storm, whatever the machine does.
const RUN_TIMEOUT: Duration = Duration::from_secs(300);
const MAX_FLUSHES: usize = 1_000_000;
const COUNTER: &str = "storm:counter";

/// Another client that sends `SCRIPT FLUSH` every [`FLUSH_INTERVAL`] from
/// a thread of its own, until stopped (or dropped, e.g. by a failed
/// assertion), [`RUN_TIMEOUT`] passes or it has sent [`MAX_FLUSHES`].
struct FlushStorm {
    stop: Arc<AtomicBool>,
    flushes: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl FlushStorm {
    /// Starts the storm, and returns once its first flush is done.
    fn start(server: &RedisServer) -> FlushStorm {
        let mut con = server.connection();
        let stop = Arc::new(AtomicBool::new(false));
        let flushes = Arc::new(AtomicUsize::new(0));
        let thread = {
            let (stop, flushes) = (stop.clone(), flushes.clone());
            thread::spawn(move || {
                let deadline = Instant::now() + RUN_TIMEOUT;
                while !stop.load(Ordering::SeqCst)
                    && Instant::now() < deadline
                    && flushes.load(Ordering::SeqCst) < MAX_FLUSHES
                {
                    flush_scripts(&mut con);
                    flushes.fetch_add(1, Ordering::SeqCst);
                    thread::sleep(FLUSH_INTERVAL);
                }
            })
        };
        let storm = FlushStorm {
            stop,
            flushes,
            thread: Some(thread),
        };
        let deadline = Instant::now() + RUN_TIMEOUT;
        while storm.flushes.load(Ordering::SeqCst) == 0 {
            assert!(Instant::now() < deadline, "the storm never flushed");
            thread::sleep(FLUSH_INTERVAL);
        }
        storm
    }

    /// Ends the storm; returns how many flushes it sent.
    fn stop(mut self) -> usize {
        self.halt();
        self.flushes.load(Ordering::SeqCst)
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the flushing thread failed");
        }
    }
}

impl Drop for FlushStorm {
    fn drop(&mut self) {
        self.halt();
    }
}

/// What the calls of one run returned.
#[derive(Default)]
struct Outcomes {
    /// The counter's value each successful call replied with.
    replies: Vec<i64>,
    failures: usize,
    first_failure: Option<Error>,
}

impl Outcomes {
    fn record(&mut self, reply: Result<i64, Error>) {
        match reply {
            Ok(value) => self.replies.push(value),
            Err(error) => {
                self.failures += 1;
                self.first_failure.get_or_insert(error);
            }
        }
    }

    /// No call failed, and each was applied exactly once: the replies are
    /// `1..=CALLS` (`in_order` when the calls ran one after another) and
    /// the counter ends at `CALLS`.
    fn check(mut self, con: &mut dyn ConnectionLike, in_order: bool) {
        assert_eq!(
            self.failures, 0,
            "failed calls; the first: {:?}",
            self.first_failure
        );
        if !in_order {
            self.replies.sort_unstable();
        }
        let expected: Vec<i64> = (1..=CALLS as i64).collect();
        assert!(
            self.replies == expected,
            "{} replies, not each of 1..={CALLS} once",
            self.replies.len()
        );
        assert_eq!(counter_value(con, COUNTER), CALLS as i64);
    }
}

/// Fails the run once it has taken [`RUN_TIMEOUT`].
fn check_time(started: Instant, calls: usize) {
    assert!(
        started.elapsed() < RUN_TIMEOUT,
        "only {calls} calls in {RUN_TIMEOUT:?}"
    );
}

/// Shows what a run cost, for the README's numbers (`--nocapture`).
fn report(mode: &str, started: Instant, flushes: usize) {
    eprintln!(
        "flush storm, {mode}: {CALLS} calls in {:.1?} under {flushes} flushes",
        started.elapsed()
    );
}

#[test]
fn sync_calls_survive_a_flush_storm() {
    let server = RedisServer::start();
    let mut con = server.connection();
    reset_stats(&mut con);
    let started = Instant::now();
    let storm = FlushStorm::start(&server);
    let mut outcomes = Outcomes::default();
    for call in 0..CALLS {
        if call % 1_000 == 0 {
            check_time(started, call);
        }
        outcomes.record(incr_counter(COUNTER).invoke(&mut con));
    }
    let flushes = storm.stop();
    report("sync invoke", started, flushes);
    outcomes.check(&mut con, true);
    // The storm did reach the calls: some met an empty cache and were
    // recovered, each by one EVAL.
    let recoveries = command_calls(&mut con, "eval");
    eprintln!("flush storm, sync invoke: {recoveries} calls recovered from NOSCRIPT");
    assert!(recoveries >= 1, "no call met a flushed cache");
    assert_eq!(command_calls(&mut con, "evalsha"), CALLS as u64);
}

#[tokio::test(flavor = "current_thread")]
async fn async_calls_of_tasks_sharing_a_connection_survive_a_flush_storm() {
    let server = RedisServer::start();
    let mut admin = server.connection();
    reset_stats(&mut admin);
    let con = server.multiplexed().await;
    let started = Instant::now();
    let storm = FlushStorm::start(&server);
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..TASKS {
        // A clone shares the one connection.
        let mut con = con.clone();
        tasks.spawn(async move {
            let mut outcomes = Outcomes::default();
            for call in 0..CALLS / TASKS {
                if call % 100 == 0 {
                    check_time(started, call);
                }
                outcomes.record(incr_counter(COUNTER).invoke_async(&mut con).await);
            }
            outcomes
        });
    }
    let mut outcomes = Outcomes::default();
    while let Some(task) = tasks.join_next().await {
        let task = task.expect("a calling task failed");
        outcomes.replies.extend(task.replies);
        outcomes.failures += task.failures;
        outcomes.first_failure = outcomes.first_failure.or(task.first_failure);
    }
    let flushes = storm.stop();
    report("invoke_async, 10 tasks on one connection", started, flushes);
    outcomes.check(&mut admin, false);
    let recoveries = command_calls(&mut admin, "eval");
    eprintln!("flush storm, invoke_async: {recoveries} calls recovered from NOSCRIPT");
    assert!(recoveries >= 1, "no call met a flushed cache");
    assert_eq!(command_calls(&mut admin, "evalsha"), CALLS as u64);
}

/// Runs [`CALLS`] calls in pipelines of [`PIPELINE_CALLS`] under a storm,
/// each queued by `queue`, each reply decoded as `invoke` would.
fn run_pipelines(
    server: &RedisServer,
    atomic: bool,
    queue: impl Fn(&mut redis::Pipeline, &Invocation<i64>),
) -> Outcomes {
    let mut con = server.connection();
    let started = Instant::now();
    let storm = FlushStorm::start(server);
    let mut outcomes = Outcomes::default();
    for pipeline in 0..CALLS / PIPELINE_CALLS {
        check_time(started, pipeline * PIPELINE_CALLS);
        let calls: Vec<Invocation<i64>> =
            (0..PIPELINE_CALLS).map(|_| incr_counter(COUNTER)).collect();
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        for call in &calls {
            queue(&mut pipe, call);
        }
        // Errors stay in their places, so each call is judged on its own.
        pipe.ignore_errors();
        let replies: Vec<Value> = pipe.query(&mut con).expect("the pipeline failed");
        assert_eq!(replies.len(), PIPELINE_CALLS);
        for (call, reply) in calls.iter().zip(replies) {
            outcomes.record(call.decode(Ok(reply)));
        }
    }
    let flushes = storm.stop();
    let mode = if atomic {
        "MULTI/EXEC pipelines of 100, evalsha_script"
    } else {
        "plain pipelines of 100, eval_script"
    };
    report(mode, started, flushes);
    outcomes
}

#[test]
fn plain_pipelines_of_eval_script_survive_a_flush_storm() {
    let server = RedisServer::start();
    let mut con = server.connection();
    reset_stats(&mut con);
    let outcomes = run_pipelines(&server, false, |pipe, call| {
        pipe.eval_script(call).unwrap();
    });
    outcomes.check(&mut con, true);
    assert_eq!(command_calls(&mut con, "eval"), CALLS as u64);
    assert_eq!(command_calls(&mut con, "evalsha"), 0);
}

#[test]
fn transactions_of_evalsha_script_survive_a_flush_storm() {
    let server = RedisServer::start();
    let mut con = server.connection();
    reset_stats(&mut con);
    let outcomes = run_pipelines(&server, true, |pipe, call| {
        pipe.evalsha_script(call).unwrap();
    });
    outcomes.check(&mut con, true);
    // One SCRIPT LOAD per transaction, every call an EVALSHA.
    let transactions = (CALLS / PIPELINE_CALLS) as u64;
    assert_eq!(command_calls(&mut con, "script|load"), transactions);
    assert_eq!(command_calls(&mut con, "evalsha"), CALLS as u64);
    assert_eq!(command_calls(&mut con, "eval"), 0);
}

/// How long the blocked pipeline below may wait for its gate, in seconds.
const GATE_TIMEOUT_SECS: u64 = 10;

/// Runs a plain pipeline of `call`, `BLPOP gate`, `call`, queued by
/// `queue`, and while the server holds it at the BLPOP (it serves no more
/// of that pipeline until the gate opens), flushes the script cache from
/// another connection and opens the gate. Returns the two calls' outcomes.
fn pipeline_with_a_flush_in_the_middle(
    server: &RedisServer,
    queue: fn(&mut redis::Pipeline, &Invocation<i64>),
) -> (Result<i64, Error>, Result<i64, Error>) {
    let (first, second) = (
        incr_counter("window:counter"),
        incr_counter("window:counter"),
    );
    let mut pipe = redis::pipe();
    queue(&mut pipe, &first);
    pipe.cmd("BLPOP").arg("window:gate").arg(GATE_TIMEOUT_SECS);
    queue(&mut pipe, &second);
    pipe.ignore_errors();
    let mut con = server.connection();
    let blocked = thread::spawn(move || pipe.query::<Vec<Value>>(&mut con));

    let mut admin = server.connection();
    crate::replicas::wait_for("the pipeline to block on its gate", || {
        let info: String = redis::cmd("INFO").arg("clients").query(&mut admin).unwrap();
        info.lines().any(|line| line.trim() == "blocked_clients:1")
    });
    flush_scripts(&mut admin);
    redis::cmd("LPUSH")
        .arg("window:gate")
        .arg("open")
        .exec(&mut admin)
        .unwrap();

    let replies = blocked.join().unwrap().expect("the pipeline failed");
    let [first_reply, gate, second_reply] = <[Value; 3]>::try_from(replies).unwrap();
    assert_ne!(gate, Value::Nil, "the gate timed out instead of opening");
    (
        first.decode(Ok(first_reply)),
        second.decode(Ok(second_reply)),
    )
}

#[test]
fn a_flush_between_the_load_and_a_call_of_a_plain_pipeline_fails_that_call() {
    let server = RedisServer::start();
    let mut con = server.connection();

    // evalsha_script: SCRIPT LOAD, EVALSHA, BLPOP, EVALSHA. The flush lands
    // after the load, so the second call finds no script.
    let (first, second) = pipeline_with_a_flush_in_the_middle(&server, |pipe, call| {
        pipe.evalsha_script(call).unwrap();
    });
    assert_eq!(first.unwrap(), 1);
    let error = second.unwrap_err();
    assert_eq!(error.code(), Some("NOSCRIPT"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(counter_value(&mut con, "window:counter"), 1);

    // eval_script in the same place: both calls run.
    let (first, second) = pipeline_with_a_flush_in_the_middle(&server, |pipe, call| {
        pipe.eval_script(call).unwrap();
    });
    assert_eq!((first.unwrap(), second.unwrap()), (2, 3));
    assert_eq!(counter_value(&mut con, "window:counter"), 3);
}
