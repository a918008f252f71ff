// The script can fall off its end (nil) but the binding returns `String`.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/falls_through.lua", keys = 1)]
fn get(key: &str) -> String;

fn main() {}
