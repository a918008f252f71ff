// An include of a file that does not exist: the error quotes the directive.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/missing.lua", keys = 0)]
fn run() -> i64;

fn main() {}
