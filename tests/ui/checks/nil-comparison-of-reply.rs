// GET's nil reply arrives in Lua as false: `v == nil` never holds.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/compares_reply_with_nil.lua", keys = 1)]
fn get_or_default(key: &str, default: &str) -> String;

fn main() {}
