// A Lua syntax error quotes Lua's message and the line.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/missing_end.lua", keys = 1)]
fn exists(key: &str) -> Option<i64>;

fn main() {}
