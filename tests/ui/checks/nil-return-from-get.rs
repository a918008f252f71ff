// `return redis.call("GET", ...)` can be nil.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/get_can_be_nil.lua", keys = 1)]
fn get(key: &str) -> String;

fn main() {}
