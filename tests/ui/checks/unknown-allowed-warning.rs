// `allow(...)` takes rule names; `unused` is none.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/unread_argument.lua", keys = 1, allow(unused))]
fn set(key: &str, value: &str, ttl_ms: u64) -> Option<String>;

fn main() {}
