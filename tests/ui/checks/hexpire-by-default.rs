// `HEXPIRE` (hash field expiry) is a command of Redis 7.4 and later and of
// Valkey 9.1; by default scripts must run on every server, older ones too.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/hexpire.lua", keys = 1)]
fn expire_field(key: &str, seconds: u64, field: &str) -> Vec<i64>;

fn main() {}
