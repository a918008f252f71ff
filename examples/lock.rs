//! A distributed lock from two Lua scripts: take it with an expiry, release
//! it only with the holder's token.
//!
//! Run: `cargo run --example lock` (starts a throwaway redis-server unless
//! REDIS_URL names one).

#[path = "../tests/support/server.rs"]
mod server;

use std::hash::{BuildHasher, RandomState};

use redis_script::redis_script;

/// Takes the lock if nobody holds it; replies "OK", or None when it is held.
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
fn acquire_lock(lock: &str, ttl_secs: u64, token: &str) -> Option<String>;

/// Releases the lock if `token` holds it; replies whether it did.
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
fn release_lock(lock: &str, token: &str) -> bool;

/// A random 128-bit token, from the standard library's randomly keyed hasher.
fn random_token() -> String {
    let high = RandomState::new().hash_one(0u8);
    let low = RandomState::new().hash_one(1u8);
    format!("{high:016x}{low:016x}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, url) = server::from_env_or_start();
    let mut con = redis::Client::open(url)?.get_connection()?;

    let (alice, bob) = (random_token(), random_token());
    let lock = "lock:monthly-report";

    let taken = acquire_lock(lock, 30, &alice).invoke(&mut con)?;
    println!("alice takes {lock}: {taken:?}");
    let taken = acquire_lock(lock, 30, &bob).invoke(&mut con)?;
    println!("bob tries while alice holds it: {taken:?}");

    let released = release_lock(lock, &bob).invoke(&mut con)?;
    println!("bob releases with his own token: {released} (alice's lock stays)");
    let released = release_lock(lock, &alice).invoke(&mut con)?;
    println!("alice releases: {released}");

    let taken = acquire_lock(lock, 30, &bob).invoke(&mut con)?;
    println!("now bob takes it: {taken:?}");

    let script = &acquire_lock::SCRIPT;
    println!(
        "{} runs {} (SHA1 {})",
        script.name(),
        script.file(),
        script.sha1()
    );
    Ok(())
}
