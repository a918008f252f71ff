// A parameter type that redis-rs cannot send as an argument.
use redis_script::redis_script;

struct Token;

#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
fn acquire(lock: &str, ttl_ms: u64, token: Token) -> Option<String>;

fn main() {}
