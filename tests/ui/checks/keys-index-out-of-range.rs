// KEYS[2] with keys = 1: the error names the Lua use and points at `keys`.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/keys_out_of_range.lua", keys = 1)]
fn get_second(first: &str) -> Option<String>;

fn main() {}
