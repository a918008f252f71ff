// An include path without quotes: the error says how to write it.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/unquoted.lua", keys = 0)]
fn run() -> i64;

fn main() {}
