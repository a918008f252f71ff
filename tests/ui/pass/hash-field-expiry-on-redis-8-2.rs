// The same script compiles when the binding targets Redis 8.2, which has
// hash field expiry (HEXPIRE, HGETEX).
use redis_script::redis_script;

#[redis_script(
    file = "tests/ui/lua/checks/hash_field_expiry.lua",
    keys = 1,
    servers = ["redis-8.2"]
)]
fn set_expiring(key: &str, field: &str, value: &str, seconds: u64) -> Vec<Option<String>>;

fn main() {
    assert_eq!(set_expiring::SCRIPT.arg_names(), ["field", "value", "seconds"]);
    let _call = set_expiring("h", "f", "v", 60);
}
