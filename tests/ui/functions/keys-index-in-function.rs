// `keys[2]` in the callback, with `keys = 1`: the callback's first parameter is KEYS.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/counters.lua", keys = 1)]
fn counter_pair(first: &str) -> Vec<Option<String>>;

fn main() {}
