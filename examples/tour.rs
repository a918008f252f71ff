//! All nine recipe examples in sequence, each against its own throwaway
//! redis-server (or the server in REDIS_URL).
//!
//! Run: `cargo run --example tour`

#[path = "autocomplete.rs"]
mod autocomplete;
#[path = "dedup.rs"]
mod dedup;
#[path = "leaderboard.rs"]
mod leaderboard;
#[path = "lock.rs"]
mod lock;
#[path = "marketplace.rs"]
mod marketplace;
#[path = "red_envelope.rs"]
mod red_envelope;
#[path = "semaphore.rs"]
mod semaphore;
#[path = "sharded_list.rs"]
mod sharded_list;
#[path = "status.rs"]
mod status;

type Example = fn() -> Result<(), Box<dyn std::error::Error>>;

/// In the order of the recipes' table in the guide (docs/guide/recipes.md).
const EXAMPLES: [(&str, &str, Example); 9] = [
    (
        "lock",
        "one holder at a time, released only by its token",
        lock::main,
    ),
    (
        "semaphore",
        "at most N holders, timed out by the server's clock",
        semaphore::main,
    ),
    (
        "status",
        "a post and its counters in one round trip",
        status::main,
    ),
    (
        "autocomplete",
        "prefix matches without WATCH retries",
        autocomplete::main,
    ),
    (
        "marketplace",
        "funds and item move together, or not at all",
        marketplace::main,
    ),
    (
        "sharded_list",
        "a list over small shards, with blocking pops",
        sharded_list::main,
    ),
    (
        "leaderboard",
        "the top N under a score ceiling",
        leaderboard::main,
    ),
    (
        "red_envelope",
        "each envelope once, each user once",
        red_envelope::main,
    ),
    ("dedup", "exactly one caller is first", dedup::main),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (index, (name, summary, run)) in EXAMPLES.into_iter().enumerate() {
        println!("\n=== {}/9 {name}: {summary} ===", index + 1);
        run()?;
    }
    println!("\nAll nine systems ran.");
    Ok(())
}
