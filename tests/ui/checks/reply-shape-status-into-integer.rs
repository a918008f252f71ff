// A script that replies redis.status_reply('OK'), declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/ok_status.lua", keys = 1)]
fn store(key: &str, value: &str) -> i64;

fn main() {}
