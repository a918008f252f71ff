// A script that returns SET ... XX's reply (the status OK or nil), declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/set_if_exists.lua", keys = 1)]
fn replace(key: &str, value: &str) -> i64;

fn main() {}
