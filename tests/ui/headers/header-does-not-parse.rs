// A header with a misspelt tag and an unknown type: both reported, each at its line.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/headers/misspelt_tag.lua", keys = 1)]
fn take_lock(lock: &str, token: &str) -> Option<String>;

fn main() {}
