// A `bool` binding whose script can end without a value.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/bool_falls_through.lua", keys = 1)]
fn exists(key: &str) -> bool;

fn main() {}
