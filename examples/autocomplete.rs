//! Autocomplete on a prefix: sentinel members around the matches, added,
//! read and removed by one script, so concurrent searches never retry.
//!
//! Run: `cargo run --example autocomplete` (starts a throwaway redis-server
//! unless REDIS_URL names one).

use redis_script_test::server;

use redis_script::recipes::autocomplete::{
    add_members, autocomplete_on_prefix, find_prefix_range, members_key,
};

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let names = [
        "jack", "jacob", "jade", "jake", "james", "jane", "janet", "jasmine", "jason", "jasper",
        "jay", "jean", "jeff", "jill", "john", "bob",
    ];
    let added = add_members(&mut con, "rustaceans", &names)?;
    println!("added {added} names to {}", members_key("rustaceans"));

    for prefix in ["ja", "jas", "j", "x"] {
        let (start, end) = find_prefix_range(prefix).unwrap_or_default();
        let found = autocomplete_on_prefix(&mut con, "rustaceans", prefix)?;
        println!("{prefix:>4} (sentinels {start}<id> .. {end}<id>): {found:?}");
    }

    match add_members(&mut con, "rustaceans", &["Ferris"]) {
        Ok(_) => println!("added Ferris?!"),
        Err(error) => println!("names are a-z only: {error}"),
    }
    Ok(())
}
