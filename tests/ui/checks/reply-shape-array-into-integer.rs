// A script that always replies an array (through a local), declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/record.lua", keys = 1)]
fn record(key: &str) -> i64;

fn main() {}
