use redis_script::redis_script;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn tag(item: &str, tags: Vec<String>, ttl_secs: u64) -> Vec<String>;

fn main() {}
