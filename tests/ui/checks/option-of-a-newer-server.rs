// `SET ... IFEQ` is an option of Valkey 8.1 and later; by default scripts
// must run on every server, where the others refuse it ("syntax error").
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/set_ifeq.lua", keys = 1)]
fn set_if_equal(key: &str, value: &str, expected: &str) -> Option<String>;

fn main() {}
