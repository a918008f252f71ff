// An assignment to an undeclared name creates a global.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/global_assignment.lua", keys = 0)]
fn count_existing(#[variadic] keys: &[&str]) -> i64;

fn main() {}
