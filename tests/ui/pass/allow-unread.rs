// `allow(unread)` silences the warning for a value the script never reads,
// here turned into an error by `deny`, so this compiles only if it is silent.
#![deny(deprecated)]

use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/unread_argument.lua", keys = 1, allow(unread))]
fn set(key: &str, value: &str, ttl_ms: u64) -> Option<String>;

fn main() {
    assert_eq!(set::SCRIPT.arg_names(), ["value", "ttl_ms"]);
    let _call = set("k", "v", 10);
}
