// A script that returns SET's reply (always a status without NX, XX or GET), declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/set_value.lua", keys = 1)]
fn store(key: &str, value: &str, ttl_ms: u64) -> i64;

fn main() {}
