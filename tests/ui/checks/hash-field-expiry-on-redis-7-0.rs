// A binding that targets Redis 7.0 alone: HEXPIRE and HGETEX are refused,
// each with the servers that have it and the setting that targets them.
use redis_script::redis_script;

#[redis_script(
    file = "tests/ui/lua/checks/hash_field_expiry.lua",
    keys = 1,
    servers = ["redis-7.0"]
)]
fn set_expiring(key: &str, field: &str, value: &str, seconds: u64) -> Vec<Option<String>>;

fn main() {}
