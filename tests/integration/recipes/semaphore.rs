//! The counting semaphore: never more than `limit` holders under concurrent
//! clients, timed out by the server's clock, and a holder that is out stays
//! out.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use redis::Commands;
use redis_script::recipes::semaphore::Semaphore;

use super::multiplexed;
use crate::server::RedisServer;

const CLIENTS: usize = 16;
const LIMIT: u64 = 3;
const ATTEMPTS_PER_CLIENT: usize = 100;
/// Far longer than any holder here keeps its slot: nobody times out in these
/// tests unless the test makes it.
const LONG_TIMEOUT: Duration = Duration::from_secs(60);
/// How long one attempt may wait for a slot.
const ACQUIRE_WAIT: Duration = Duration::from_secs(10);

/// The server's clock, in Unix microseconds (the scores' unit).
fn server_micros(con: &mut redis::Connection) -> u64 {
    let (seconds, micros): (u64, u64) = redis::cmd("TIME").query(con).unwrap();
    seconds * 1_000_000 + micros
}

fn score(con: &mut redis::Connection, semaphore: &str, token: &str) -> Option<u64> {
    con.zscore(semaphore, token).unwrap()
}

#[test]
fn concurrent_clients_never_exceed_the_limit_and_all_make_progress() {
    let server = RedisServer::start();
    let semaphore = Arc::new(Semaphore::new("semaphore:jobs", LIMIT, LONG_TIMEOUT));
    // The most holders seen inside at once, from the INCR replies.
    let most_inside = Arc::new(AtomicI64::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let mut con = server.connection();
            let semaphore = Arc::clone(&semaphore);
            let most_inside = Arc::clone(&most_inside);
            thread::spawn(move || {
                let mut acquired = 0;
                for _ in 0..ATTEMPTS_PER_CLIENT {
                    let Some(permit) = semaphore.acquire(&mut con, ACQUIRE_WAIT).unwrap() else {
                        continue;
                    };
                    acquired += 1;
                    let inside: i64 = con.incr("inside", 1).unwrap();
                    most_inside.fetch_max(inside, Ordering::SeqCst);
                    // Stay a moment, so that holders overlap.
                    thread::sleep(Duration::from_millis(1));
                    let _: i64 = con.decr("inside", 1).unwrap();
                    assert!(
                        permit.release(&mut con).unwrap(),
                        "client {client} lost its slot while holding it"
                    );
                }
                acquired
            })
        })
        .collect();
    let acquired: Vec<usize> = clients
        .into_iter()
        .map(|client| client.join().unwrap())
        .collect();

    let most_inside = most_inside.load(Ordering::SeqCst);
    assert!(
        (1..=LIMIT as i64).contains(&most_inside),
        "{most_inside} holders at once, limit {LIMIT}"
    );
    assert!(
        acquired.iter().all(|&count| count >= 1),
        "a client never acquired: {acquired:?}"
    );
    let mut con = server.connection();
    let inside: i64 = con.get("inside").unwrap();
    assert_eq!(inside, 0);
    let holders: u64 = con.zcard("semaphore:jobs").unwrap();
    assert_eq!(holders, 0, "every release removed its holder");
}

#[test]
fn exactly_limit_holders_get_in_and_a_release_frees_one_slot() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:slots", LIMIT, LONG_TIMEOUT);
    let mut permits: Vec<_> = (0..LIMIT)
        .map(|_| {
            semaphore
                .try_acquire(&mut con)
                .unwrap()
                .expect("a free slot")
        })
        .collect();
    assert!(semaphore.try_acquire(&mut con).unwrap().is_none());

    let released = permits.pop().expect("limit is positive");
    assert!(released.release(&mut con).unwrap());
    let again = semaphore
        .try_acquire(&mut con)
        .unwrap()
        .expect("the freed slot");
    assert!(semaphore.try_acquire(&mut con).unwrap().is_none());
    permits.push(again);

    let holders: u64 = con.zcard("semaphore:slots").unwrap();
    assert_eq!(holders, LIMIT);
    for permit in &permits {
        assert!(score(&mut con, "semaphore:slots", permit.token()).is_some());
    }
}

#[test]
fn a_released_permit_can_neither_refresh_nor_release_again() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:once", LIMIT, LONG_TIMEOUT);
    let permit = semaphore
        .try_acquire(&mut con)
        .unwrap()
        .expect("a free slot");
    let copy = permit.clone();
    assert!(permit.release(&mut con).unwrap());
    assert!(!copy.refresh(&mut con).unwrap());
    assert!(score(&mut con, "semaphore:once", copy.token()).is_none());
    assert!(!copy.release(&mut con).unwrap());
}

#[test]
fn a_wrong_token_neither_refreshes_nor_releases_a_holder() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:held", 1, LONG_TIMEOUT);
    let permit = semaphore
        .try_acquire(&mut con)
        .unwrap()
        .expect("a free slot");
    // Half its timeout gone, and the set's expiry shortened: a refresh by
    // anyone would show in the score and in PTTL.
    let acquired = score(&mut con, "semaphore:held", permit.token()).unwrap();
    let half_gone = acquired - 30_000_000;
    let _: u64 = con
        .zadd("semaphore:held", permit.token(), half_gone)
        .unwrap();
    let () = con.pexpire("semaphore:held", 5_000).unwrap();

    let near_misses = [
        redis_script::recipes::random_token(),
        String::new(),
        permit.token()[1..].to_owned(),
        permit.token().to_uppercase(),
        format!("{} ", permit.token()),
    ];
    for token in near_misses {
        let impostor = semaphore.with_token(token.clone());
        assert!(!impostor.refresh(&mut con).unwrap(), "{token:?}");
        assert!(!impostor.release(&mut con).unwrap(), "{token:?}");
        let members: Vec<String> = con.zrange("semaphore:held", 0, -1).unwrap();
        assert_eq!(members, [permit.token()], "after {token:?}");
        assert_eq!(
            score(&mut con, "semaphore:held", permit.token()),
            Some(half_gone),
            "after {token:?}"
        );
        let left: i64 = con.pttl("semaphore:held").unwrap();
        assert!(left > 0 && left <= 5_000, "PTTL {left} after {token:?}");
    }
    // The slot stays taken, and its holder still holds it.
    assert!(semaphore.try_acquire(&mut con).unwrap().is_none());
    assert!(permit.refresh(&mut con).unwrap());
    assert!(permit.release(&mut con).unwrap());
}

#[test]
fn the_calls_carry_durations_and_tokens_never_the_client_clock() {
    // Scores come from the server's TIME: a client with a skewed clock can
    // neither evict live holders nor stay in forever.
    let semaphore = Semaphore::new("semaphore:clock", LIMIT, LONG_TIMEOUT);
    let permit = semaphore.with_token(redis_script::recipes::random_token());
    let calls = [
        semaphore
            .acquire_call(permit.token())
            .evalsha_cmd()
            .unwrap(),
        permit.refresh_call().evalsha_cmd().unwrap(),
        permit.release_call().evalsha_cmd().unwrap(),
    ];
    for call in &calls {
        super::lock::assert_no_client_time(call);
    }
}

#[test]
fn a_timed_out_holder_is_evicted_by_the_next_acquire() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // A holder that crashed an hour ago, by the server's clock.
    let crashed_at = server_micros(&mut con) - 3_600_000_000;
    let _: u64 = con.zadd("semaphore:one", "crashed", crashed_at).unwrap();
    let semaphore = Semaphore::new("semaphore:one", 1, LONG_TIMEOUT);

    let permit = semaphore.try_acquire(&mut con).unwrap();
    assert!(permit.is_some(), "the crashed holder's slot is free");
    assert!(score(&mut con, "semaphore:one", "crashed").is_none());
    assert!(!semaphore.with_token("crashed").refresh(&mut con).unwrap());
}

#[test]
fn a_timed_out_holder_cannot_refresh_or_release_even_before_eviction() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:late", LIMIT, LONG_TIMEOUT);
    let timed_out_at = server_micros(&mut con) - 61_000_000;
    for token in ["late", "later"] {
        let _: u64 = con.zadd("semaphore:late", token, timed_out_at).unwrap();
    }

    assert!(!semaphore.with_token("late").refresh(&mut con).unwrap());
    assert!(
        score(&mut con, "semaphore:late", "late").is_none(),
        "removed"
    );
    assert!(!semaphore.with_token("later").release(&mut con).unwrap());
    assert!(
        score(&mut con, "semaphore:late", "later").is_none(),
        "removed"
    );
}

#[test]
fn an_expired_permit_is_taken_over_once_its_timeout_passes() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:short", 1, Duration::from_millis(50));
    let first = semaphore
        .try_acquire(&mut con)
        .unwrap()
        .expect("a free slot");
    assert!(semaphore.try_acquire(&mut con).unwrap().is_none());

    let deadline = Instant::now() + Duration::from_secs(5);
    let second = loop {
        if let Some(permit) = semaphore.try_acquire(&mut con).unwrap() {
            break permit;
        }
        assert!(
            Instant::now() < deadline,
            "the first permit never timed out"
        );
        thread::sleep(Duration::from_millis(2));
    };
    assert_ne!(first.token(), second.token());
    assert!(!first.refresh(&mut con).unwrap());
    assert!(!first.release(&mut con).unwrap());
}

#[test]
fn scores_and_refreshes_use_the_server_clock() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let semaphore = Semaphore::new("semaphore:clock", LIMIT, LONG_TIMEOUT);

    let before = server_micros(&mut con);
    let permit = semaphore
        .try_acquire(&mut con)
        .unwrap()
        .expect("a free slot");
    let after = server_micros(&mut con);
    let acquired = score(&mut con, "semaphore:clock", permit.token()).unwrap();
    assert!(
        (before..=after).contains(&acquired),
        "{before} {acquired} {after}"
    );
    let left: i64 = con.pttl("semaphore:clock").unwrap();
    assert!(
        left > 0 && left <= 60_000,
        "the set expires with its holder: {left}"
    );

    // As if 30 of its 60 seconds had passed: a refresh starts them again.
    let _: u64 = con
        .zadd("semaphore:clock", permit.token(), before - 30_000_000)
        .unwrap();
    let before = server_micros(&mut con);
    assert!(permit.refresh(&mut con).unwrap());
    let after = server_micros(&mut con);
    let refreshed = score(&mut con, "semaphore:clock", permit.token()).unwrap();
    assert!(
        (before..=after).contains(&refreshed),
        "{before} {refreshed} {after}"
    );
}

#[test]
fn a_limit_or_timeout_out_of_range_is_an_error_and_changes_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let long_ago = server_micros(&mut con) - 3_600_000_000;
    let _: u64 = con.zadd("semaphore:bad", "crashed", long_ago).unwrap();
    let broken = [
        Semaphore::new("semaphore:bad", 0, LONG_TIMEOUT),
        Semaphore::new("semaphore:bad", LIMIT, Duration::ZERO),
        Semaphore::new("semaphore:bad", LIMIT, Duration::MAX),
    ];
    for semaphore in &broken {
        let error = semaphore.try_acquire(&mut con).unwrap_err();
        assert_eq!(error.script(), "acquire_semaphore_script", "{semaphore:?}");
        assert_eq!(error.code(), Some("ERR"), "{error}");
        if semaphore.limit() > 0 {
            let crashed = semaphore.with_token("crashed");
            assert!(crashed.refresh(&mut con).is_err(), "{semaphore:?}");
            assert!(crashed.release(&mut con).is_err(), "{semaphore:?}");
        }
        // Checked before any write: the crashed holder was not even evicted.
        let members: Vec<String> = con.zrange("semaphore:bad", 0, -1).unwrap();
        assert_eq!(members, ["crashed"], "{semaphore:?}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_calls_run_on_async_connections() {
    let server = RedisServer::start();
    let mut con = multiplexed(&server).await;
    let semaphore = Semaphore::new("semaphore:async", 1, LONG_TIMEOUT);
    let token = redis_script::recipes::random_token();
    assert!(
        semaphore
            .acquire_call(&token)
            .invoke_async(&mut con)
            .await
            .unwrap()
    );
    let other = redis_script::recipes::random_token();
    assert!(
        !semaphore
            .acquire_call(&other)
            .invoke_async(&mut con)
            .await
            .unwrap()
    );

    let permit = semaphore.with_token(token);
    assert!(permit.refresh_call().invoke_async(&mut con).await.unwrap());
    assert!(permit.release_call().invoke_async(&mut con).await.unwrap());
    assert!(!permit.refresh_call().invoke_async(&mut con).await.unwrap());
}
