// The declaration names the header's arguments in another order.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/headers/take_lock.lua", keys = 1)]
fn take_lock(lock: &str, token: &str, ttl_ms: i64) -> Option<String>;

fn main() {}
