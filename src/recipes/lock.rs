//! TODO: the lock recipe (acquire with timeout and retry, release, extend).

use crate::{Script, redis_script};

/// Takes the lock if nobody holds it; replies "OK", or None when it is held.
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_secs: u64, token: &str) -> Option<String>;

/// Releases the lock if `token` holds it; replies whether it did.
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock(lock: &str, token: &str) -> bool;

/// The scripts of this recipe.
pub(crate) const SCRIPTS: &[&Script] = &[&acquire_lock::SCRIPT, &release_lock::SCRIPT];
