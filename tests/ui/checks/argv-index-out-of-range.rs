// ARGV[3] with two fixed arguments.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/argv_out_of_range.lua", keys = 1)]
fn set_px(key: &str, value: &str, unit: &str) -> Option<String>;

fn main() {}
