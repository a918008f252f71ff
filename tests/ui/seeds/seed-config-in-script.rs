// The seeds' sharded push reads CONFIG, which Redis 7 refuses inside scripts.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/sharded_push_config.lua", keys = 3)]
fn sharded_push(list: &str, first: &str, last: &str, command: &str, #[variadic] items: &[&str]) -> i64;

fn main() {}
