// A script whose every return is a word, declared as a bool.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/lock_state.lua", keys = 1)]
fn is_locked(lock: &str) -> bool;

fn main() {}
