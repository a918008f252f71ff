//! The de-duplication recipe: of all the workers that receive one message,
//! exactly one processes it.
//!
//! Run: `cargo run --example dedup` (starts a throwaway redis-server unless
//! REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use redis_script::recipes::dedup::Dedup;

const WORKERS: usize = 8;

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let pushed = Dedup::new("msg_pushed:", Duration::from_secs(20));
    for id in ["msg-1", "msg-2", "msg-1"] {
        let verdict = if pushed.claim(&mut con, id)? {
            "new: push it"
        } else {
            "a duplicate: skip it"
        };
        println!("{id} ({}): {verdict}", pushed.key(id));
    }

    // The same message reaches several workers at the same moment.
    let start = Arc::new(Barrier::new(WORKERS));
    let workers: Vec<_> = (0..WORKERS)
        .map(|worker| {
            let (pushed, start) = (pushed.clone(), Arc::clone(&start));
            let mut con = client.get_connection()?;
            Ok(thread::spawn(move || {
                start.wait();
                pushed.claim(&mut con, "msg-3").map(|first| (worker, first))
            }))
        })
        .collect::<redis::RedisResult<_>>()?;
    println!();
    for worker in workers {
        let (worker, first) = worker.join().map_err(|_| "a worker panicked")??;
        if first {
            println!("msg-3 reached {WORKERS} workers at once: worker {worker} pushes it");
        }
    }

    // Marks expire: after the time to live an id is new again.
    let short = Dedup::new("msg_seen:", Duration::from_millis(50));
    let before = short.claim(&mut con, "msg-4")?;
    thread::sleep(Duration::from_millis(100));
    let after = short.claim(&mut con, "msg-4")?;
    println!("\nmsg-4 with a 50 ms mark: first {before}, again 100 ms later {after}");
    Ok(())
}
