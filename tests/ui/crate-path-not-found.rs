// A `crate = "..."` path that does not lead to redis-script.
use redis_script::redis_script;

#[redis_script(file = "scripts/lock_release.lua", keys = 1, crate = "crate::nowhere")]
fn release(lock: &str, token: &str) -> bool;

fn main() {}
