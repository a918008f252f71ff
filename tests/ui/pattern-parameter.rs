use redis_script::redis_script;

#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, (ttl_secs, token): (u64, &str)) -> Option<String>;

fn main() {}
