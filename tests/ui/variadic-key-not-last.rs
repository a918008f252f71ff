// The key list must be the last key parameter: keys after it could not be
// told apart from it.
use redis_script::redis_script;

#[redis_script(file = "tests/lua/delete_keys.lua", keys = 2)]
fn delete_keys(#[variadic] keys: &[&str], last: &str) -> i64;

fn main() {}
