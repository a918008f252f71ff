// A function the library does not register: the error suggests the name it has.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/counters.lua", name = "counter_inc", keys = 1)]
fn incr(counter: &str, by: i64) -> i64;

fn main() {}
