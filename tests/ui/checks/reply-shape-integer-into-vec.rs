// A script that always replies an integer, declared as a vector.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/counter.lua", keys = 1)]
fn count(counter: &str) -> Vec<String>;

fn main() {}
