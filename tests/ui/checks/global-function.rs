// `function f()` at top level creates a global.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/global_function.lua", keys = 1)]
fn ttl_of(key: &str) -> i64;

fn main() {}
