//! The lock: mutual exclusion under concurrent clients, only the holder
//! releases or extends, every lock expires.

use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use redis::Commands;
use redis_script::recipes::lock::Lock;
use redis_script::recipes::random_token;

use super::multiplexed;
use crate::server::RedisServer;

const CLIENTS: usize = 8;
const SECTIONS_PER_CLIENT: usize = 2_000;
/// Far longer than any critical section here: a lock must never expire
/// under its holder in these tests unless the test lets it.
const LONG_TTL: Duration = Duration::from_secs(60);
/// How long one client may wait for the lock before the test fails.
const ACQUIRE_WAIT: Duration = Duration::from_secs(60);

/// Polls until `key` is gone (expired), failing the test after `within`.
pub(super) fn wait_until_gone(con: &mut redis::Connection, key: &str, within: Duration) {
    let deadline = Instant::now() + within;
    while con.exists::<_, bool>(key).unwrap() {
        assert!(
            Instant::now() < deadline,
            "{key} still exists after {within:?}"
        );
        thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn critical_sections_of_concurrent_clients_never_overlap() {
    let server = RedisServer::start();
    let lock = Arc::new(Lock::new("lock:counter", LONG_TTL));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let mut con = server.connection();
            let lock = Arc::clone(&lock);
            thread::spawn(move || {
                for section in 0..SECTIONS_PER_CLIENT {
                    let held = lock
                        .acquire(&mut con, ACQUIRE_WAIT)
                        .unwrap()
                        .unwrap_or_else(|| {
                            panic!("client {client} waited {ACQUIRE_WAIT:?} for section {section}")
                        });
                    // GET then SET, not INCR: without mutual exclusion,
                    // concurrent sections lose increments.
                    let count: Option<u64> = con.get("counter").unwrap();
                    let () = con.set("counter", count.unwrap_or(0) + 1).unwrap();
                    assert!(
                        held.release(&mut con).unwrap(),
                        "client {client} lost the lock during section {section}"
                    );
                }
            })
        })
        .collect();
    for client in clients {
        client.join().unwrap();
    }
    let mut con = server.connection();
    let count: u64 = con.get("counter").unwrap();
    assert_eq!(count, (CLIENTS * SECTIONS_PER_CLIENT) as u64);
    assert!(!con.exists::<_, bool>("lock:counter").unwrap());
}

#[test]
fn a_wrong_token_neither_releases_nor_extends_the_lock() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let lock = Lock::new("lock:report", LONG_TTL);
    let held = lock.try_acquire(&mut con).unwrap().expect("lock is free");

    // Most of its time to live gone: an extend would show in PTTL.
    let () = con.pexpire("lock:report", 5_000).unwrap();
    let near_misses = [
        random_token(),
        String::new(),
        held.token()[1..].to_owned(),
        held.token().to_uppercase(),
        format!("{} ", held.token()),
    ];
    for token in near_misses {
        let impostor = lock.with_token(token.clone());
        assert!(!impostor.extend(&mut con).unwrap(), "{token:?}");
        assert!(!impostor.release(&mut con).unwrap(), "{token:?}");
        let stored: Option<String> = con.get("lock:report").unwrap();
        assert_eq!(stored.as_deref(), Some(held.token()));
        let left: i64 = con.pttl("lock:report").unwrap();
        assert!(left > 0 && left <= 5_000, "PTTL {left} after {token:?}");
    }
    assert!(lock.try_acquire(&mut con).unwrap().is_none());

    assert!(held.release(&mut con).unwrap());
    assert!(!con.exists::<_, bool>("lock:report").unwrap());
}

#[test]
fn an_expired_lock_is_taken_again_and_its_old_holder_cannot_extend_or_release() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let lock = Lock::new("lock:short", Duration::from_millis(50));
    let first = lock.try_acquire(&mut con).unwrap().expect("lock is free");
    assert!(lock.try_acquire(&mut con).unwrap().is_none());

    wait_until_gone(&mut con, "lock:short", Duration::from_secs(5));
    let second = lock
        .try_acquire(&mut con)
        .unwrap()
        .expect("the expired lock is free");
    assert_ne!(first.token(), second.token());

    // Lost: the first holder learns it, and cannot touch the second's lock.
    assert!(!first.extend(&mut con).unwrap());
    assert!(!first.release(&mut con).unwrap());
    let stored: Option<String> = con.get("lock:short").unwrap();
    assert_eq!(stored.as_deref(), Some(second.token()));
}

#[test]
fn extend_gives_the_holder_its_full_ttl_again() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let lock = Lock::new("lock:long-job", LONG_TTL);
    let held = lock.try_acquire(&mut con).unwrap().expect("lock is free");
    // As if most of the time to live had passed.
    let () = con.pexpire("lock:long-job", 1_000).unwrap();

    assert!(held.extend(&mut con).unwrap());
    let left: i64 = con.pttl("lock:long-job").unwrap();
    assert!(left > 1_000 && left <= 60_000, "PTTL {left}");
    let stored: Option<String> = con.get("lock:long-job").unwrap();
    assert_eq!(stored.as_deref(), Some(held.token()));
}

#[test]
fn every_lock_has_an_expiry_and_a_ttl_the_server_rejects_takes_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let lock = Lock::new("lock:a", Duration::from_secs(30));
    let held = lock.try_acquire(&mut con).unwrap().expect("lock is free");
    let left: i64 = con.pttl("lock:a").unwrap();
    assert!(left > 0 && left <= 30_000, "PTTL {left}");

    for ttl in [Duration::ZERO, Duration::MAX] {
        let lock = Lock::new("lock:b", ttl);
        let error = lock.try_acquire(&mut con).unwrap_err();
        assert_eq!(error.script(), "acquire_lock_script");
        assert!(!con.exists::<_, bool>("lock:b").unwrap(), "{ttl:?}");
        // Extending with such a TTL fails too, and leaves the lock as it was.
        let error = Lock::new("lock:a", ttl)
            .with_token(held.token())
            .extend(&mut con)
            .unwrap_err();
        assert_eq!(error.script(), "extend_lock_script");
        let left: i64 = con.pttl("lock:a").unwrap();
        assert!(left > 0 && left <= 30_000, "PTTL {left} after {ttl:?}");
    }
}

#[test]
fn acquire_waits_for_a_release_and_gives_up_on_a_lock_that_stays_held() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let lock = Lock::new("lock:shared", LONG_TTL);
    let held = lock.try_acquire(&mut con).unwrap().expect("lock is free");

    // Held all along: the wait ends without the lock, and the holder keeps it.
    assert!(
        lock.acquire(&mut con, Duration::from_millis(30))
            .unwrap()
            .is_none()
    );
    assert!(held.extend(&mut con).unwrap());

    // Released while another client waits: the waiter gets it.
    let mut waiter_con = server.connection();
    let waiter_lock = lock.clone();
    let waiter = thread::spawn(move || waiter_lock.acquire(&mut waiter_con, ACQUIRE_WAIT));
    assert!(held.release(&mut con).unwrap());
    let taken = waiter.join().unwrap().unwrap().expect("released lock");
    let stored: Option<String> = con.get("lock:shared").unwrap();
    assert_eq!(stored.as_deref(), Some(taken.token()));
}

#[test]
fn the_calls_carry_durations_and_tokens_never_the_client_clock() {
    // Expiry is the server's business (SET PX, PEXPIRE): a client with a
    // skewed clock can neither shorten nor stretch a lock. No value a call
    // sends is a time, in seconds, milliseconds or microseconds.
    let lock = Lock::new("lock:clock", Duration::from_secs(30));
    let held = lock.with_token(random_token());
    let calls = [
        lock.acquire_call(held.token()).evalsha_cmd().unwrap(),
        held.extend_call().evalsha_cmd().unwrap(),
        held.release_call().evalsha_cmd().unwrap(),
    ];
    for call in &calls {
        assert_no_client_time(call);
    }
    // The check does see a time.
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let mut timed = redis::cmd("EVALSHA");
    timed.arg("sha").arg(1).arg("lock:clock").arg(now_ms as u64);
    assert!(std::panic::catch_unwind(|| assert_no_client_time(&timed)).is_err());
}

/// Fails if any value of `call` reads as the current Unix time, give or take
/// a day, in seconds, milliseconds or microseconds.
pub(super) fn assert_no_client_time(call: &redis::Cmd) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let day = Duration::from_secs(86_400);
    let near_now = |n: u128| {
        [
            (now.as_secs() as u128, day.as_secs() as u128),
            (now.as_millis(), day.as_millis()),
            (now.as_micros(), day.as_micros()),
        ]
        .iter()
        .any(|&(now, slack)| n.abs_diff(now) <= slack)
    };
    for arg in call.args_iter() {
        let redis::Arg::Simple(bytes) = arg else {
            continue;
        };
        let number = std::str::from_utf8(bytes).ok().and_then(|s| s.parse().ok());
        assert!(
            !number.is_some_and(near_now),
            "a call sends the client's time: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_calls_run_on_async_connections() {
    let server = RedisServer::start();
    let mut con = multiplexed(&server).await;
    let lock = Lock::new("lock:async", LONG_TTL);
    let token = random_token();
    let taken = lock.acquire_call(&token).invoke_async(&mut con).await;
    assert_eq!(taken.unwrap().as_deref(), Some("OK"));
    let other = lock
        .acquire_call(&random_token())
        .invoke_async(&mut con)
        .await;
    assert_eq!(other.unwrap(), None);

    let held = lock.with_token(token);
    assert!(held.extend_call().invoke_async(&mut con).await.unwrap());
    assert!(held.release_call().invoke_async(&mut con).await.unwrap());
    assert!(!held.extend_call().invoke_async(&mut con).await.unwrap());
}
