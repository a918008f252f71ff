// `#[redis_function]` without `library`, and with `file`, which is #[redis_script]'s.
use redis_script::redis_function;

#[redis_function(file = "tests/ui/lua/functions/counters.lua", keys = 1)]
fn counter_incr(counter: &str, by: i64) -> i64;

fn main() {}
