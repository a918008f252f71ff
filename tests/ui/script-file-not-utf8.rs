use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/not-utf8.lua", keys = 0)]
pub fn greet() -> String;

fn main() {}
