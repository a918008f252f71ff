// A `flags=no-writes` script that calls SET.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/write_in_read_only.lua", keys = 1)]
fn set_then_get(key: &str) -> Option<String>;

fn main() {}
