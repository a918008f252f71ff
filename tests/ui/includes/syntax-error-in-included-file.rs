// A syntax error inside an included file: shown in that file, at its own line.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/syntax_error_inside.lua", keys = 0)]
fn run() -> i64;

fn main() {}
