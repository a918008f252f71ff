// An included file with a shebang, which only the script itself may have.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/shebang_inside.lua", keys = 0)]
fn run() -> i64;

fn main() {}
