// `redis.call` at the library's top level, which runs while it loads.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/loads_with_call.lua", keys = 1)]
fn next_id(counter: &str) -> i64;

fn main() {}
