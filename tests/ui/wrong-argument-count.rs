use redis_script::redis_script;

#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

fn main() {
    let _call = acquire_lock("lock", 30);
}
