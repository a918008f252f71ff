use redis_script::redis_script;

// A key is one KEYS position; a slice of keys would shift the ARGV after it.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn touch_all(keys: &[&str], ttl_secs: u64) -> Vec<String>;

fn main() {}
