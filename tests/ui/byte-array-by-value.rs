use redis_script::redis_script;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn store_digest(key: &str, digest: [u8; 20]) -> Vec<String>;

fn main() {}
