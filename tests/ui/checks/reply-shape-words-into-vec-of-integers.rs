// A script whose every return is a word, declared as integers (a string is one element).
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/lock_state.lua", keys = 1)]
fn lock_states(lock: &str) -> Vec<i64>;

fn main() {}
