//! De-duplication: exactly one first caller per id under concurrent claims,
//! and every mark expires.

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use redis::Commands;
use redis_script::recipes::dedup::Dedup;

use super::lock::wait_until_gone;
use super::multiplexed;
use crate::server::RedisServer;

const CALLERS: usize = 32;
/// Races per test run; each is over a new id.
const ROUNDS: usize = 20;
const LONG_TTL: Duration = Duration::from_secs(60);

#[test]
fn exactly_one_of_concurrent_callers_is_first() {
    let server = RedisServer::start();
    let dedup = Arc::new(Dedup::new("dedup:", LONG_TTL));
    // All callers claim each id at the same moment.
    let start = Arc::new(Barrier::new(CALLERS));
    let callers: Vec<_> = (0..CALLERS)
        .map(|_| {
            let mut con = server.connection();
            let dedup = Arc::clone(&dedup);
            let start = Arc::clone(&start);
            thread::spawn(move || {
                (0..ROUNDS)
                    .map(|round| {
                        start.wait();
                        dedup.claim(&mut con, &format!("msg-{round}")).unwrap()
                    })
                    .collect::<Vec<bool>>()
            })
        })
        .collect();
    let claims: Vec<Vec<bool>> = callers
        .into_iter()
        .map(|caller| caller.join().unwrap())
        .collect();
    for round in 0..ROUNDS {
        let firsts = claims.iter().filter(|caller| caller[round]).count();
        assert_eq!(firsts, 1, "round {round}: {firsts} callers were first");
    }
}

#[test]
fn an_id_is_new_again_after_its_mark_expires() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let dedup = Dedup::new("dedup:", Duration::from_millis(50));
    assert!(dedup.claim(&mut con, "msg-1").unwrap());
    assert!(!dedup.claim(&mut con, "msg-1").unwrap());
    assert!(
        dedup.claim(&mut con, "msg-2").unwrap(),
        "ids are independent"
    );

    wait_until_gone(&mut con, &dedup.key("msg-1"), Duration::from_secs(5));
    assert!(dedup.claim(&mut con, "msg-1").unwrap());
    assert!(!dedup.claim(&mut con, "msg-1").unwrap());
}

#[test]
fn every_mark_expires_and_a_ttl_the_server_rejects_marks_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let dedup = Dedup::new("dedup:", Duration::from_secs(20));
    assert!(dedup.claim(&mut con, "msg-1").unwrap());
    let left: i64 = con.pttl("dedup:msg-1").unwrap();
    assert!(left > 0 && left <= 20_000, "PTTL {left}");

    for ttl in [Duration::ZERO, Duration::MAX] {
        let broken = Dedup::new("dedup:", ttl);
        let error = broken.claim(&mut con, "msg-2").unwrap_err();
        assert_eq!(error.script(), "claim_id_script", "{ttl:?}");
        assert!(!con.exists::<_, bool>("dedup:msg-2").unwrap(), "{ttl:?}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_call_runs_on_async_connections() {
    let server = RedisServer::start();
    let mut con = multiplexed(&server).await;
    let dedup = Dedup::new("dedup:", LONG_TTL);
    let claim = dedup.claim_call("msg-1");
    assert!(claim.invoke_async(&mut con).await.unwrap());
    assert!(!claim.invoke_async(&mut con).await.unwrap());
}
