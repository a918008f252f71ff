// A script that replies an array of three integers, declared as a pair.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/triple.lua", keys = 3)]
fn lengths(a: &str, b: &str, c: &str) -> (i64, i64);

fn main() {}
