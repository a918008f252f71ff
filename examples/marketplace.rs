//! A marketplace purchase without locks: one script checks the price against
//! the buyer's funds and moves the funds and the item together.
//!
//! Run: `cargo run --example marketplace` (starts a throwaway redis-server
//! unless REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use redis::{Commands, Connection};
use redis_script::recipes::marketplace::{inventory_key, list_item, purchase_item, user_key};

fn funds(con: &mut Connection, user: &str) -> redis::RedisResult<u64> {
    let funds: Option<u64> = con.hget(user_key(user), "funds")?;
    Ok(funds.unwrap_or(0))
}

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let () = con.sadd(inventory_key("smith"), "sword")?;
    for (user, funds) in [("smith", 0), ("alice", 120), ("bob", 40)] {
        let () = con.hset(user_key(user), "funds", funds)?;
    }

    println!(
        "smith lists the sword at 100: {}",
        list_item(&mut con, "sword", "smith", 100)?
    );
    println!(
        "bob (40) buys it: {}",
        purchase_item(&mut con, "bob", "sword", "smith")?
    );
    println!(
        "alice (120) buys it: {}",
        purchase_item(&mut con, "alice", "sword", "smith")?
    );
    println!(
        "bob tries again: {}",
        purchase_item(&mut con, "bob", "sword", "smith")?
    );

    for user in ["smith", "alice", "bob"] {
        let items: Vec<String> = con.smembers(inventory_key(user))?;
        println!(
            "{user:>6}: funds {:>3}, items {items:?}",
            funds(&mut con, user)?
        );
    }
    Ok(())
}
