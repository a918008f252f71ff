//! Status messages: a post, its id and the poster's counter in one round trip.
//!
//! Run: `cargo run --example status` (starts a throwaway redis-server unless
//! REDIS_URL names one).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::server;

use std::time::UNIX_EPOCH;

use redis::Commands;
use redis_script::recipes::status::{create_status, get_status, user_key};

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let () = con.hset(user_key("1"), "login", "ada")?;

    for message in ["hello, world", "second post"] {
        let id = create_status(&mut con, "1", message, &[("client", "example")])?;
        println!("ada posts {message:?}: status id {id:?}");
    }
    let id = create_status(&mut con, "2", "who am I?", &[])?;
    println!("user 2 has no login, so nothing is posted: {id:?}");

    if let Some(status) = get_status(&mut con, 2)? {
        println!(
            "status 2: {:?} by {} (uid {}), posted at Unix time {:.6} (server clock), extra {:?}",
            status.message,
            status.login,
            status.uid,
            status.posted.duration_since(UNIX_EPOCH)?.as_secs_f64(),
            status.extra
        );
    }
    let posts: u64 = con.hget(user_key("1"), "posts")?;
    println!("ada has {posts} posts");
    Ok(())
}
