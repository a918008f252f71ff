// A script that replies SMISMEMBER's array, declared as a bool.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/members_present.lua", keys = 1)]
fn present(set: &str, first: &str, second: &str) -> bool;

fn main() {}
