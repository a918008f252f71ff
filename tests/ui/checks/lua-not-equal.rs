// `!=` is not Lua: the error says Lua writes `~=`.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/not_equal.lua", keys = 1)]
fn differs(key: &str, value: &str) -> bool;

fn main() {}
