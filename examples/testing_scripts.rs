//! Testing a recipe as an application tests its own scripts: the lock,
//! through a script-cache flush between taking and releasing it, on every
//! server of the matrix.
//!
//! As tests (each on a server of its own, started and killed for it):
//!
//! ```sh
//! cargo test --example testing_scripts
//! REDIS_SCRIPT_SERVERS=/usr/bin/redis-server:/usr/bin/valkey-server cargo test --example testing_scripts
//! ```
//!
//! As a program, the same check on each server of `REDIS_SCRIPT_SERVERS`
//! (or the one `REDIS_SCRIPT_SERVER` or `PATH` gives), printed:
//! `cargo run --example testing_scripts`.

use std::time::Duration;

use redis_script::recipes::lock::{Lock, release_lock_script};
use redis_script::redis;
use redis_script_test::{RedisServer, ServerBinary};

/// Takes the lock, flushes the server's scripts, and checks that the
/// holder still releases it, and only the holder: the release's EVALSHA
/// meets NOSCRIPT and recovers.
fn the_lock_survives_a_script_flush(
    server: &RedisServer,
    con: &mut redis::Connection,
) -> Result<(), Box<dyn std::error::Error>> {
    let lock = Lock::new("lock:nightly-export", Duration::from_secs(30));
    let held = lock.try_acquire(con)?.ok_or("a fresh server has no lock")?;
    assert!(lock.try_acquire(con)?.is_none(), "one holder at a time");
    // A release with a token that does not hold the lock: it changes
    // nothing, and leaves the release script cached.
    assert!(
        !lock.with_token("not-the-holder").release(con)?,
        "only the holder releases"
    );
    let release = release_lock_script::SCRIPT.sha1();
    let cached = |con: &mut redis::Connection| -> redis::RedisResult<Vec<bool>> {
        redis::cmd("SCRIPT").arg("EXISTS").arg(release).query(con)
    };
    assert_eq!(cached(con)?, [true]);

    server.flush_scripts();
    assert_eq!(
        cached(con)?,
        [false],
        "the release script is no longer cached"
    );
    assert!(held.release(con)?, "the holder releases after the flush");
    assert_eq!(
        cached(con)?,
        [true],
        "recovered by sending the script again"
    );
    assert!(lock.try_acquire(con)?.is_some(), "released means free");
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for binary in ServerBinary::matrix() {
        let server = RedisServer::start_on(&binary);
        the_lock_survives_a_script_flush(&server, &mut server.connection())?;
        println!(
            "the lock survives a script flush on {} {}, {binary}",
            server.flavor(),
            server.version()
        );
    }
    Ok(())
}

#[redis_script::test]
fn a_flush_between_acquire_and_release(
    server: &RedisServer,
    con: &mut redis::Connection,
) -> Result<(), Box<dyn std::error::Error>> {
    the_lock_survives_a_script_flush(server, con)
}

#[redis_script::test]
async fn the_async_calls_recover_too(
    server: &RedisServer,
    mut con: redis::aio::MultiplexedConnection,
) -> Result<(), redis_script::Error> {
    let lock = Lock::new("lock:report", Duration::from_secs(30));
    let token = redis_script::recipes::random_token();
    let taken = lock.acquire_call(&token).invoke_async(&mut con).await?;
    assert!(taken.is_some());
    server.flush_scripts();
    let released = lock
        .with_token(token)
        .release_call()
        .invoke_async(&mut con)
        .await?;
    assert!(released);
    Ok(())
}
