use std::collections::HashSet;

use redis_script::redis_script;

// A set is one value per member: it would shift the ARGV after it.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn tag(item: &str, tags: HashSet<String>, ttl_secs: u64) -> Vec<String>;

fn main() {}
