use redis_script::redis_script;

#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, #[allow(unused)] ttl_secs: u64, token: &str) -> Option<String>;

fn main() {}
