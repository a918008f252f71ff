// A script that replies a status or an integer, declared as a map.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/status.lua", keys = 1)]
fn finish(job: &str) -> std::collections::HashMap<String, String>;

fn main() {}
