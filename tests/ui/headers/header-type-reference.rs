// A `&str` where the header declares an integer: the error spans the whole type.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/headers/take_lock.lua", keys = 1)]
fn take_lock(lock: &str, ttl_ms: &str, token: &str) -> Option<String>;

fn main() {}
