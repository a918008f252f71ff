// `os.clock` runs on Valkey only; by default scripts must run on Redis 7.0 too.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/valkey_os_clock.lua", keys = 1)]
fn count(key: &str) -> i64;

fn main() {}
