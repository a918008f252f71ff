// A library whose `#!lua` line names no library: FUNCTION LOAD refuses it.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/no_name.lua", keys = 0)]
fn f() -> i64;

fn main() {}
