// `os.clock` runs on Redis 7.4 and later and on Valkey; by default scripts
// must run on every server, Redis 7.0 and 7.2 included.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/os_clock.lua", keys = 1)]
fn count(key: &str) -> i64;

fn main() {}
