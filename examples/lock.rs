//! The lock recipe: take a lock with an expiry, extend it, release it only
//! with the holder's token, and see a lost lock detected.
//!
//! Run: `cargo run --example lock` (starts a throwaway redis-server unless
//! REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use std::thread;
use std::time::Duration;

use redis::Commands;
use redis_script::recipes::lock::Lock;
use redis_script::recipes::random_token;

const WORKERS: usize = 4;
const INCREMENTS: usize = 250;

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let report = Lock::new("lock:monthly-report", Duration::from_secs(30));
    let alice = report.try_acquire(&mut con)?.ok_or("the lock is taken")?;
    println!("alice takes {}: held for {:?}", report.key(), report.ttl());

    let bob = report.acquire(&mut con, Duration::from_millis(100))?;
    println!("bob waits 100 ms for it: {}", taken(&bob));
    let forged = report.with_token(random_token()).release(&mut con)?;
    println!("a release with a wrong token: {forged} (alice's lock stays)");

    println!("alice extends it: {}", alice.extend(&mut con)?);
    println!("alice releases it: {}", alice.release(&mut con)?);
    let bob = report.try_acquire(&mut con)?;
    println!("now bob tries: {}", taken(&bob));
    if let Some(bob) = bob {
        bob.release(&mut con)?;
    }

    // A holder that stalls past the time to live loses the lock, and learns
    // it: extend answers false.
    let short = Lock::new("lock:short", Duration::from_millis(50));
    let slow = short.try_acquire(&mut con)?.ok_or("the lock is taken")?;
    thread::sleep(Duration::from_millis(100));
    let carol = short.try_acquire(&mut con)?;
    println!(
        "\na 50 ms lock, its holder stalls 100 ms: carol takes it: {}",
        taken(&carol)
    );
    println!(
        "the stalled holder extends: {} (lost it: stop)",
        slow.extend(&mut con)?
    );

    // Mutual exclusion: GET-then-SET increments from several clients, each
    // under the lock, lose nothing.
    let counter = Lock::new("lock:counter", Duration::from_secs(10));
    let () = con.del("counter")?;
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let counter = counter.clone();
            let mut con = client.get_connection()?;
            Ok(thread::spawn(move || -> redis::RedisResult<()> {
                for _ in 0..INCREMENTS {
                    let held = counter
                        .acquire(&mut con, Duration::from_secs(10))?
                        .ok_or((redis::ErrorKind::Client, "waited 10 s for the lock"))?;
                    let count: Option<u64> = con.get("counter")?;
                    let () = con.set("counter", count.unwrap_or(0) + 1)?;
                    held.release(&mut con)?;
                }
                Ok(())
            }))
        })
        .collect::<redis::RedisResult<_>>()?;
    for worker in workers {
        worker.join().map_err(|_| "a worker panicked")??;
    }
    let count: u64 = con.get("counter")?;
    println!(
        "\n{WORKERS} clients x {INCREMENTS} GET-then-SET increments under the lock: counter = {count}"
    );
    Ok(())
}

fn taken<T>(attempt: &Option<T>) -> &'static str {
    if attempt.is_some() {
        "taken"
    } else {
        "still held by another"
    }
}
