//! Redis Sentinel: bindings on connections that redis-rs's `SentinelClient`
//! resolves, and a failover under load in which every call is accounted
//! for by its own id.
//!
//! Replication is asynchronous: a write the primary acknowledged can be
//! lost in a failover, before the replica has it, and while a failover
//! runs the old primary goes on accepting writes (some 1 s here, with the
//! sentinel's shortened periods; some 10 s with its defaults) that are
//! dropped when it turns into a replica. So the clients here confirm each
//! successful call with `WAIT 1`: a call the replica acknowledged is on the
//! promoted replica, and only those are asserted never lost. A call whose
//! `WAIT` counted no replica tells the client to ask Sentinel again.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use redis::AsyncConnectionConfig;
use redis::aio::MultiplexedConnection;
use redis::sentinel::{SentinelClient, SentinelServerType};
use redis_script::{Applied, Error, redis_script};
use redis_script_test::sentinel::RedisSentinel;

use crate::counter::{counter_value, incr_counter};
use crate::replicas::read_only_get;

#[redis_script(file = "tests/lua/record_and_count.lua", keys = 2)]
fn record_and_count(calls: &str, counter: &str, id: u64) -> i64;

const CALLS: &str = "sentinel:calls";
const COUNTER: &str = "sentinel:counter";

#[tokio::test(flavor = "current_thread")]
async fn bindings_run_on_connections_sentinel_resolves() {
    let setup = RedisSentinel::start();
    let mut primary = setup.client(SentinelServerType::Master);
    let mut con = primary.get_connection().unwrap();
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 1);
    let mut con = primary.get_async_connection().await.unwrap();
    let reply = incr_counter(COUNTER).invoke_async(&mut con).await;
    assert_eq!(reply.unwrap(), 2);
    // Both ran on the primary the sentinel names, which the replica follows.
    let mut admin = setup.first_primary().connection();
    assert_eq!(counter_value(&mut admin, COUNTER), 2);
    // Replication is asynchronous, and on a busy machine slower than a
    // `WAIT` within a connection's response timeout: the replica is read
    // until it has both writes (bounded).
    let mut on_replica = setup.first_replica().connection();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while counter_value(&mut on_replica, COUNTER) != 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the replica did not get the writes within 10 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }

    // A read-only script on the replica the sentinel names, recovering
    // NOSCRIPT there (scripts are not replicated).
    let mut replica = setup.client(SentinelServerType::Replica);
    let mut con = replica.get_async_connection().await.unwrap();
    let reply = read_only_get(COUNTER).invoke_async(&mut con).await;
    assert_eq!(reply.unwrap().as_deref(), Some("2"));
}

/// Concurrent clients, each with its own connection.
const TASKS: u64 = 4;
/// Ids of one task are `task * ID_STRIDE + n`, so no two calls share one.
const ID_STRIDE: u64 = 1_000_000;
/// Confirmed calls (all tasks) before the failover is asked for.
const CONFIRMED_BEFORE_FAILOVER: usize = 100;
/// Confirmed calls each task makes after the sentinel names the new
/// primary, before it stops.
const CONFIRMED_AFTER_FAILOVER: usize = 25;
/// Bounds on each task, whatever the servers do.
const MAX_ATTEMPTS: usize = 5_000;
const RUN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long `WAIT 1` waits for the replica's acknowledgement.
const WAIT_TIMEOUT_MS: u64 = 500;
/// Pause after a failure, as a client backing off would.
const RETRY_PAUSE: Duration = Duration::from_millis(20);

/// What the tasks have done, shared with the thread that runs the failover.
#[derive(Default)]
struct Progress {
    confirmed: AtomicUsize,
    /// The sentinel names the new primary.
    switched: AtomicBool,
}

/// One task's calls, by id and outcome. Each id is in one list.
#[derive(Default)]
struct Ledger {
    /// `Ok`, and `WAIT 1` counted the replica: on the replica too.
    confirmed: Vec<u64>,
    /// `Ok`, but `WAIT` counted no replica (or failed): acknowledged by a
    /// primary alone, so a failover may lose it.
    unconfirmed: Vec<u64>,
    /// Failed with `Applied::Maybe`: not sent again.
    maybe: Vec<u64>,
    /// Failed with `Applied::No` on its last attempt, when the task stopped.
    refused: Vec<u64>,
    /// Attempts sent again after `Applied::No`.
    retries: usize,
    confirmed_after_failover: usize,
}

/// Connect and reply bounds well above what a loaded 2-core machine
/// needs, and above `WAIT`'s own timeout.
fn connection_config() -> AsyncConnectionConfig {
    AsyncConnectionConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(5)))
        .set_response_timeout(Some(Duration::from_secs(5)))
}

/// Whether the replica acknowledged what `con` wrote so far.
async fn replicated(con: &mut MultiplexedConnection) -> bool {
    let replicas: redis::RedisResult<i64> = redis::cmd("WAIT")
        .arg(1)
        .arg(WAIT_TIMEOUT_MS)
        .query_async(con)
        .await;
    matches!(replicas, Ok(count) if count >= 1)
}

/// Calls `record_and_count` with fresh ids until it has made
/// [`CONFIRMED_AFTER_FAILOVER`] confirmed calls after the switch, on a
/// connection it asks `client` for again after any failure or unconfirmed
/// call. Only a call that was certainly not applied is sent again.
async fn run_client(mut client: SentinelClient, task: u64, progress: Arc<Progress>) -> Ledger {
    let mut ledger = Ledger::default();
    let mut connection: Option<MultiplexedConnection> = None;
    let mut refused: Option<u64> = None;
    let mut next = 0;
    let deadline = Instant::now() + RUN_TIMEOUT;
    for _ in 0..MAX_ATTEMPTS {
        if ledger.confirmed_after_failover >= CONFIRMED_AFTER_FAILOVER || Instant::now() >= deadline
        {
            break;
        }
        let con = match &mut connection {
            Some(con) => con,
            None => match client
                .get_async_connection_with_config(&connection_config())
                .await
            {
                Ok(con) => connection.insert(con),
                // The sentinel names no primary that says it is one, or
                // it cannot be reached: ask again.
                Err(_) => {
                    tokio::time::sleep(RETRY_PAUSE).await;
                    continue;
                }
            },
        };
        let switched = progress.switched.load(Ordering::SeqCst);
        let id = refused.take().unwrap_or_else(|| {
            next += 1;
            task * ID_STRIDE + next
        });
        match record_and_count(CALLS, COUNTER, id).invoke_async(con).await {
            Ok(_) if replicated(con).await => {
                ledger.confirmed.push(id);
                ledger.confirmed_after_failover += usize::from(switched);
                progress.confirmed.fetch_add(1, Ordering::SeqCst);
            }
            Ok(_) => {
                // The replica did not follow: a failover may be under way.
                ledger.unconfirmed.push(id);
                connection = None;
            }
            Err(error) => {
                match outcome(&error) {
                    Applied::No => {
                        refused = Some(id);
                        ledger.retries += 1;
                    }
                    _ => ledger.maybe.push(id),
                }
                connection = None;
                tokio::time::sleep(RETRY_PAUSE).await;
            }
        }
    }
    // A call refused on the last attempt was not sent again.
    ledger.retries -= usize::from(refused.is_some());
    ledger.refused.extend(refused);
    ledger
}

/// The failed call's `applied()`, which a connection or server error
/// leaves `No` or `Maybe`.
fn outcome(error: &Error) -> Applied {
    assert_eq!(error.script(), "record_and_count", "{error}");
    let applied = error.applied();
    assert_ne!(applied, Applied::Yes, "{error}");
    applied
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failover_under_load_loses_no_confirmed_call_and_doubles_none() {
    let setup = Arc::new(RedisSentinel::start());
    let progress = Arc::new(Progress::default());
    let tasks: Vec<_> = (1..=TASKS)
        .map(|task| {
            let client = setup.client(SentinelServerType::Master);
            tokio::spawn(run_client(client, task, progress.clone()))
        })
        .collect();

    // Once the calls are under way: a failover, which the sentinel starts
    // by promoting the replica.
    let failover = {
        let (setup, progress) = (setup.clone(), progress.clone());
        tokio::task::spawn_blocking(move || {
            let deadline = Instant::now() + RUN_TIMEOUT;
            while progress.confirmed.load(Ordering::SeqCst) < CONFIRMED_BEFORE_FAILOVER {
                assert!(
                    Instant::now() < deadline,
                    "too few calls before the failover"
                );
                thread::sleep(Duration::from_millis(5));
            }
            setup.failover();
            setup.wait_for_primary(setup.first_replica());
            progress.switched.store(true, Ordering::SeqCst);
        })
    };
    let mut ledgers = Vec::new();
    for task in tasks {
        ledgers.push(task.await.unwrap());
    }
    failover.await.unwrap();

    // The promoted replica is the primary the sentinel names, and it holds
    // every confirmed call, each once.
    assert_eq!(setup.primary().port(), setup.first_replica().port());
    let mut con = setup.first_replica().connection();
    let applied: HashSet<u64> = redis::cmd("SMEMBERS").arg(CALLS).query(&mut con).unwrap();
    let counted = counter_value(&mut con, COUNTER);
    assert_eq!(counted, applied.len() as i64, "a call was applied twice");
    let all = |list: fn(&Ledger) -> &Vec<u64>| -> Vec<u64> {
        ledgers.iter().flat_map(list).copied().collect()
    };
    let (confirmed, unconfirmed) = (all(|l| &l.confirmed), all(|l| &l.unconfirmed));
    let (maybe, refused) = (all(|l| &l.maybe), all(|l| &l.refused));
    for id in &confirmed {
        assert!(applied.contains(id), "confirmed call {id} is lost");
    }
    for id in &refused {
        assert!(!applied.contains(id), "call {id} said No but is applied");
    }
    let sent: HashSet<u64> = [&confirmed, &unconfirmed, &maybe]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    assert!(
        applied.is_subset(&sent),
        "applied calls that reported none of Ok and Maybe: {:?}",
        applied.difference(&sent).collect::<Vec<_>>()
    );
    for (task, ledger) in ledgers.iter().enumerate() {
        assert!(
            ledger.confirmed_after_failover >= CONFIRMED_AFTER_FAILOVER,
            "task {task}: {} confirmed calls after the failover, {} in all",
            ledger.confirmed_after_failover,
            ledger.confirmed.len()
        );
    }
    let lost = |ids: &[u64]| ids.iter().filter(|id| !applied.contains(id)).count();
    eprintln!(
        "sentinel failover: {} confirmed, {} unconfirmed ({} of them lost), {} maybe \
         ({} of them lost), {} sent again after No",
        confirmed.len(),
        unconfirmed.len(),
        lost(&unconfirmed),
        maybe.len(),
        lost(&maybe),
        ledgers.iter().map(|ledger| ledger.retries).sum::<usize>()
    );

    // A client still holding the old primary's address, once the sentinel
    // made it a replica, is refused (READONLY, not applied); asking the
    // sentinel again, the same call runs once on the new primary.
    let old = setup.clone();
    tokio::task::spawn_blocking(move || old.wait_for_replica(old.first_primary()))
        .await
        .unwrap();
    let id = ID_STRIDE * (TASKS + 1);
    let mut stale = setup.first_primary().connection();
    let error = record_and_count(CALLS, COUNTER, id)
        .invoke(&mut stale)
        .unwrap_err();
    assert_eq!(error.code(), Some("READONLY"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    let mut client = setup.client(SentinelServerType::Master);
    let mut con = client.get_connection().unwrap();
    let reply = record_and_count(CALLS, COUNTER, id).invoke(&mut con);
    assert_eq!(reply.unwrap(), counted + 1);
    let size: i64 = redis::cmd("SCARD").arg(CALLS).query(&mut con).unwrap();
    assert_eq!(size, counted + 1);
}
