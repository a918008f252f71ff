// A script that returns HMSET's reply (always a status), declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/hmset_fields.lua", keys = 1)]
fn store(key: &str, name: &str, age: u32) -> u32;

fn main() {}
