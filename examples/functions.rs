//! Redis Functions as typed Rust functions: a library on disk
//! (`examples/lua/inventory.lua`), deployed with `load_all`, called with
//! FCALL / FCALL_RO, and loaded again on its own after `FUNCTION FLUSH`.
//!
//! Run: `cargo run --example functions` (starts a throwaway redis-server
//! unless REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script::{LibraryStatus, redis_function};
use redis_script_test::server;

/// Adds free seats to an event; replies how many it has.
#[redis_function(
    library = "examples/lua/inventory.lua",
    name = "inventory_add",
    keys = 1
)]
pub fn add_seats(seats: &str, event: &str, count: i64) -> i64;

/// Books a seat; replies the seats left, or `None` when sold out.
#[redis_function(
    library = "examples/lua/inventory.lua",
    name = "inventory_book",
    keys = 1
)]
pub fn book_seat(seats: &str, event: &str) -> Option<i64>;

/// The free seats of an event (`no-writes`: sent as FCALL_RO).
#[redis_function(
    library = "examples/lua/inventory.lua",
    name = "inventory_free",
    keys = 1
)]
pub fn free_seats(seats: &str, event: &str) -> i64;

const SEATS: &str = "seats:free";

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    // Deploy: every library and script compiled into this binary.
    let loaded = redis_script::load_all(&mut con)?;
    for library in &loaded.libraries {
        println!(
            "loaded library `{}` from {}",
            library.name(),
            library.file()
        );
    }
    println!(
        "loaded {} scripts (the recipes' among them)",
        loaded.scripts.len()
    );
    let library = &add_seats::LIBRARY;
    assert_eq!(library.status(&mut con)?, LibraryStatus::Current);

    println!(
        "concert: {} free",
        add_seats(SEATS, "concert", 2).invoke(&mut con)?
    );
    for fan in ["ann", "bob", "cid"] {
        match book_seat(SEATS, "concert").invoke(&mut con)? {
            Some(left) => println!("{fan} booked a seat, {left} left"),
            None => println!("{fan}: sold out"),
        }
    }
    assert_eq!(free_seats(SEATS, "concert").invoke(&mut con)?, 0);

    // Functions survive a SCRIPT FLUSH, but not a FUNCTION FLUSH: the next
    // call loads the library again (FUNCTION LOAD REPLACE) and runs.
    redis::cmd("FUNCTION").arg("FLUSH").exec(&mut con)?;
    assert_eq!(library.status(&mut con)?, LibraryStatus::Missing);
    println!(
        "after FUNCTION FLUSH: opera {} free",
        add_seats(SEATS, "opera", 1).invoke(&mut con)?
    );
    assert_eq!(library.status(&mut con)?, LibraryStatus::Current);

    // A mistake in the call is the function's own error, naming the binding.
    let error = add_seats(SEATS, "opera", 0).invoke(&mut con).unwrap_err();
    println!("refused: {error}");
    Ok(())
}
