// A `#[variadic]` key list whose type is one value, and an ARGV tail too.
use redis_script::redis_script;

#[redis_script(file = "tests/lua/delete_keys.lua", keys = 1)]
fn delete_keys(#[variadic] key: &str) -> i64;

#[redis_script(file = "tests/ui/lua/push_all.lua", keys = 1)]
fn push_all(list: &str, ttl_secs: u64, #[variadic] value: String) -> i64;

fn main() {}
