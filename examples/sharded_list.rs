//! A list spread over small shards: pushes and pops at both ends, and a
//! blocking pop that waits for another client's push or times out.
//!
//! Run: `cargo run --example sharded_list` (starts a throwaway redis-server
//! unless REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use std::thread;
use std::time::{Duration, Instant};

use redis::Commands;
use redis_script::recipes::sharded_list::{DUMMY, End, ShardedList};

/// Prints each shard of `list` (ids from `first` to `last`) with its items.
fn show(con: &mut redis::Connection, list: &ShardedList) -> redis::RedisResult<()> {
    let first: Option<i64> = con.get(list.first_key())?;
    let last: Option<i64> = con.get(list.last_key())?;
    let (first, last) = (first.unwrap_or(0), last.unwrap_or(0));
    for id in first..=last {
        let items: Vec<String> = con.lrange(list.shard_key(id), 0, -1)?;
        println!("  {:<10} {items:?}", list.shard_key(id));
    }
    Ok(())
}

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let jobs = ShardedList::new("example:jobs", 4);
    // A server named by REDIS_URL may hold items of an earlier run.
    while jobs.pop::<Vec<u8>>(&mut con, End::Left)?.is_some() {}

    let tasks: Vec<String> = (1..=10).map(|n| format!("task-{n}")).collect();
    println!(
        "rpush {} items, at most 4 per shard:",
        jobs.push(&mut con, End::Right, &tasks)?
    );
    show(&mut con, &jobs)?;
    println!("lpush 2 urgent items (LPUSH order: the last one ends up first):");
    jobs.push(&mut con, End::Left, &["urgent-1", "urgent-2"])?;
    show(&mut con, &jobs)?;

    let head: Option<String> = jobs.pop(&mut con, End::Left)?;
    let tail: Option<String> = jobs.pop(&mut con, End::Right)?;
    println!("lpop -> {head:?}, rpop -> {tail:?}");

    let mut drained = Vec::new();
    while let Some(item) = jobs.pop::<String>(&mut con, End::Left)? {
        drained.push(item);
    }
    println!("lpop until empty -> {drained:?}");

    let started = Instant::now();
    let nothing: Option<String> =
        jobs.blocking_pop(&mut con, End::Left, Duration::from_millis(300))?;
    println!(
        "blpop on the empty list, 300 ms timeout -> {nothing:?} after {:?}",
        started.elapsed()
    );

    // Another client pushes while this one waits.
    let producer = {
        let (mut con, jobs) = (client.get_connection()?, jobs.clone());
        thread::spawn(move || -> Result<usize, redis_script::Error> {
            thread::sleep(Duration::from_millis(200));
            jobs.push(&mut con, End::Right, &["late-job"])
        })
    };
    let started = Instant::now();
    let late: Option<String> = jobs.blocking_pop(&mut con, End::Right, Duration::from_secs(5))?;
    producer.join().expect("the producer thread panicked")?;
    println!(
        "brpop, 5 s timeout, another client pushes after 200 ms -> {late:?} after {:?}",
        started.elapsed()
    );

    match jobs.push(&mut con, End::Right, &[DUMMY]) {
        Ok(_) => println!("pushing the reserved dummy was accepted (unexpected)"),
        Err(error) => println!("pushing the reserved dummy is refused: {error}"),
    }
    Ok(())
}
