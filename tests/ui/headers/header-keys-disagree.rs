// `keys = 2` where the header declares one key.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/headers/take_lock.lua", keys = 2)]
fn take_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

fn main() {}
