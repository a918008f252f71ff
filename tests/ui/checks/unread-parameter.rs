// ARGV[2] is never read: a warning at the parameter, an error here by deny.
#![deny(deprecated)]

use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/unread_argument.lua", keys = 1)]
fn set(key: &str, value: &str, ttl_ms: u64) -> Option<String>;

fn main() {}
