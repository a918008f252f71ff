use redis_script::redis_script;

#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

fn main() {
    // The binding builds the call; `.invoke(&mut con)` runs it.
    let _taken: Option<String> = acquire_lock("lock:a", 10_000, "token");
}
