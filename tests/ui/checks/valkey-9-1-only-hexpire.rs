// `HEXPIRE` is a command of Valkey 9.1 only; by default scripts must run on
// Redis 7.0 and Valkey 8.1 too.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/valkey_9_1_hexpire.lua", keys = 1)]
fn expire_field(key: &str, seconds: u64, field: &str) -> Vec<i64>;

fn main() {}
