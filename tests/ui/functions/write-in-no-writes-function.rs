// A write in a function registered with `no-writes`.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/counters.lua", keys = 1)]
fn counter_peek(counter: &str) -> Option<String>;

fn main() {}
