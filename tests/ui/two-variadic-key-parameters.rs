// A call has one list of keys.
use redis_script::redis_script;

#[redis_script(file = "tests/lua/delete_keys.lua", keys = 2)]
fn delete_keys(#[variadic] some: &[&str], #[variadic] others: &[&str]) -> i64;

fn main() {}
