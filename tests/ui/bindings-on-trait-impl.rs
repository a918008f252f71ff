// `#[redis_script::bindings]` groups bindings in a type's own `impl`; a
// trait's `impl` cannot hold functions the trait does not declare.
// (The attribute is written by its full path, below.)

struct Lock;

#[redis_script::bindings]
impl Clone for Lock {
    #[redis_script::redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
    fn acquire(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
}

fn main() {}
