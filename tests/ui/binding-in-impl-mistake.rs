// A mistake in a binding of a `#[redis_script::bindings]` impl is reported
// at the binding, as at module level, and calls of it add no errors.
use redis_script::redis_script;

struct Lock;

#[redis_script::bindings]
impl Lock {
    #[redis_script(file = "scripts/lock_acquire.lua", keys = 4)]
    fn acquire(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

    #[redis_script(file = "scripts/lock_release.lua", keys = 1)]
    fn release(&self, lock: &str, token: &str) -> bool;
}

fn main() {
    let _call = Lock::acquire("lock", 1_000, "token");
    let _script = Lock::acquire_script();
}
