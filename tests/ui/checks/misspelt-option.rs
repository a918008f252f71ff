// A misspelt option word: the server answers "syntax error" on every run.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/misspelt_option.lua", keys = 1)]
fn take_lock(key: &str, token: &str, millis: u64) -> Option<String>;

fn main() {}
