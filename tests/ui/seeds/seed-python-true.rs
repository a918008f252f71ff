// The seeds' release_lock returns `... or True`: Python's spelling.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/release_lock.lua", keys = 1)]
fn release_lock(lock: &str, token: &str) -> Option<i64>;

fn main() {}
