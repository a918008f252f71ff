// An include cycle: the error names the chain.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/includes/cycle.lua", keys = 0)]
fn run() -> i64;

fn main() {}
