// A script whose every return is a word, declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/lock_state.lua", keys = 1)]
fn lock_state(lock: &str) -> i64;

fn main() {}
