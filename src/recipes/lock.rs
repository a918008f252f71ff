//! TODO: the lock recipe (acquire with timeout and retry, release, extend).

use crate::{Script, redis_script};

/// Takes the lock if nobody holds it; replies "OK", or None when it is held.
///
/// ```
/// # mod server { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/server.rs")); }
/// # let server = server::RedisServer::start();
/// # let mut con = server.connection();
/// use redis_script::recipes::lock::acquire_lock;
/// assert_eq!(acquire_lock("l", 10, "t").invoke(&mut con)?.as_deref(), Some("OK"));
/// # Ok::<(), redis_script::Error>(())
/// ```
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_secs: u64, token: &str) -> Option<String>;

/// Releases the lock if `token` holds it; replies whether it did.
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock(lock: &str, token: &str) -> bool;

/// The scripts of this recipe.
pub(crate) const SCRIPTS: &[&Script] = &[&acquire_lock::SCRIPT, &release_lock::SCRIPT];
