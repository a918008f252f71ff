// A declaration that differs from the script's header: a renamed argument,
// a type the header's `integer` does not hold, and a reply without nil.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/headers/take_lock.lua", keys = 1)]
fn take_lock(lock: &str, ttl: bool, token: &str) -> String;

fn main() {}
