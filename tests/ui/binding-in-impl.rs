// A binding inside an `impl` without `#[redis_script::bindings]` on it: rustc rejects its module.
use redis_script::redis_script;

struct Lock;

impl Lock {
    #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
    fn acquire(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
}

fn main() {}
