use std::collections::BTreeMap;

use redis_script::redis_script;

// A map is two values per entry, whatever it holds.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn store(fields: &BTreeMap<String, i64>, ttl_secs: u64) -> Vec<String>;

fn main() {}
