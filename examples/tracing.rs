//! Spans of script calls, printed by tracing-subscriber's formatter, with
//! OpenTelemetry's database attributes: a warm call, a recovery after
//! `SCRIPT FLUSH`, a Redis Function whose library is missing, a failing
//! call, a pipeline of three calls and one of a single call; then the
//! counts every script keeps without any feature.
//!
//! Run: `cargo run --example tracing` (starts a throwaway redis-server unless
//! REDIS_URL names one). An application turns the spans on with the feature
//! `tracing` of redis-script (`features = ["tracing"]`); this repository's
//! examples have it on.

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use redis_script::{ScriptPipeline, redis_function, redis_script};
use tracing_subscriber::fmt::format::FmtSpan;

/// Counts a hit against `limit` per `window_secs`; replies the hits left, or -1.
#[redis_script(file = "examples/lua/rate_limit.lua", keys = 1)]
fn count_hit(window: &str, limit: u32, window_secs: u32) -> i64;

/// Adds free seats to an event (the library of `examples/functions.rs`).
#[redis_function(
    library = "examples/lua/inventory.lua",
    name = "inventory_add",
    keys = 1
)]
fn add_seats(events: &str, event: &str, seats: i64) -> i64;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Each span is printed when it closes, with its fields and timings.
    tracing_subscriber::fmt()
        .with_span_events(FmtSpan::CLOSE)
        .with_target(false)
        .init();

    let (_server, client) = server::client_from_env_or_start()?;
    // For `server.address` and `server.port`: connections do not tell them.
    redis_script::observe::set_server_from(client.get_connection_info());
    let mut con = client.get_connection()?;
    redis::cmd("FUNCTION").arg("FLUSH").exec(&mut con)?;
    count_hit::SCRIPT.load(&mut con)?;

    println!("-- a warm call: one EVALSHA");
    let left = count_hit("hits:ada", 3, 60).invoke(&mut con)?;
    println!("hits left: {left}");

    println!("-- after SCRIPT FLUSH: NOSCRIPT, recovered with EVAL inside the span");
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut con)?;
    let left = count_hit("hits:ada", 3, 60).invoke(&mut con)?;
    println!("hits left: {left}");

    println!("-- a function whose library is not loaded yet: FUNCTION LOAD, then FCALL");
    let seats = add_seats("seats", "concert", 100).invoke(&mut con)?;
    println!("seats: {seats}");

    println!("-- a failing call: the function refuses 0 seats");
    let error = add_seats("seats", "concert", 0)
        .invoke(&mut con)
        .unwrap_err();
    println!("error: {error} (applied: {:?})", error.applied());

    println!("-- a pipeline of three calls, run observed: one batch operation");
    let mut pipe = redis::pipe();
    for _ in 0..3 {
        pipe.evalsha_script(&count_hit("hits:bob", 3, 60))?;
    }
    let left: Vec<i64> = pipe.observed().query(&mut con)?;
    println!("hits left: {left:?}");

    println!("-- a pipeline of one call: modelled as that call, no batch size");
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&count_hit("hits:eve", 3, 60))?;
    let (left,): (i64,) = pipe.observed().query(&mut con)?;
    println!("hits left: {left}");

    println!("-- the counts each script keeps, feature or not");
    for script in [&count_hit::SCRIPT, &add_seats::SCRIPT] {
        let stats = script.stats();
        println!(
            "{}: {} calls, {} recoveries, {} errors",
            script.name(),
            stats.calls(),
            stats.recoveries(),
            stats.errors()
        );
    }
    Ok(())
}
