//! The counting semaphore recipe: at most `limit` holders at once, each timed
//! out by the server's clock unless it refreshes.
//!
//! Run: `cargo run --example semaphore` (starts a throwaway redis-server
//! unless REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::thread;
use std::time::Duration;

use redis::Commands;
use redis_script::recipes::semaphore::Semaphore;

const WORKERS: usize = 6;
const JOBS: usize = 20;

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let exports = Semaphore::new("semaphore:exports", 2, Duration::from_secs(10));
    let first = exports.try_acquire(&mut con)?;
    let second = exports.try_acquire(&mut con)?;
    let third = exports.try_acquire(&mut con)?;
    println!(
        "limit {}: three exports try: {}, {}, {}",
        exports.limit(),
        got(&first),
        got(&second),
        got(&third)
    );
    if let Some(first) = first {
        println!("the first refreshes: {}", first.refresh(&mut con)?);
        println!("the first releases: {}", first.release(&mut con)?);
    }
    let third = exports.try_acquire(&mut con)?;
    println!("the third tries again: {}", got(&third));
    for permit in [second, third].into_iter().flatten() {
        permit.release(&mut con)?;
    }

    // A holder that crashes is timed out by the server's clock; the next
    // acquire evicts it, and the crashed holder cannot come back.
    let reports = Semaphore::new("semaphore:reports", 1, Duration::from_millis(100));
    let crashed = reports.try_acquire(&mut con)?.ok_or("no slot")?;
    thread::sleep(Duration::from_millis(150));
    let next = reports.try_acquire(&mut con)?;
    println!(
        "\nlimit 1, timeout 100 ms, its holder silent for 150 ms: the next client: {}",
        got(&next)
    );
    println!(
        "the silent holder refreshes: {} (timed out: stop)",
        crashed.refresh(&mut con)?
    );

    // Concurrent workers: count who is inside, and keep the maximum.
    let jobs = Semaphore::new("semaphore:jobs", 2, Duration::from_secs(10));
    let () = con.del("inside")?;
    let most_inside = Arc::new(AtomicI64::new(0));
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let jobs = jobs.clone();
            let most_inside = Arc::clone(&most_inside);
            let mut con = client.get_connection()?;
            Ok(thread::spawn(move || -> redis::RedisResult<()> {
                for _ in 0..JOBS {
                    let permit = jobs
                        .acquire(&mut con, Duration::from_secs(10))?
                        .ok_or((redis::ErrorKind::Client, "waited 10 s for a slot"))?;
                    let inside: i64 = con.incr("inside", 1)?;
                    most_inside.fetch_max(inside, Ordering::SeqCst);
                    thread::sleep(Duration::from_millis(1));
                    let _: i64 = con.decr("inside", 1)?;
                    permit.release(&mut con)?;
                }
                Ok(())
            }))
        })
        .collect::<redis::RedisResult<_>>()?;
    for worker in workers {
        worker.join().map_err(|_| "a worker panicked")??;
    }
    println!(
        "\n{WORKERS} workers x {JOBS} jobs, limit {}: at most {} inside at once",
        jobs.limit(),
        most_inside.load(Ordering::SeqCst)
    );
    Ok(())
}

fn got<T>(attempt: &Option<T>) -> &'static str {
    if attempt.is_some() { "in" } else { "full" }
}
