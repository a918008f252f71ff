// A script that always replies an integer, declared as a pair.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/counter.lua", keys = 1)]
fn count(counter: &str) -> (i64, i64);

fn main() {}
