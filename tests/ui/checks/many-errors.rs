// More errors than the macro shows: the first 20, then how many more.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/many_errors.lua", keys = 1)]
fn second_key(key: &str) -> Option<String>;

fn main() {}
