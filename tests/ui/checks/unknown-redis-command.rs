// A misspelt command name.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/unknown_command.lua", keys = 1)]
fn get(key: &str) -> Option<String>;

fn main() {}
