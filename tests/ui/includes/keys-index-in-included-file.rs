// KEYS[2] read inside an included file with keys = 1: shown in that file.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/check_error_inside.lua", keys = 1)]
fn run(first: &str) -> Vec<Option<String>>;

fn main() {}
