use redis_script::redis_script;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn set_field(hash: &str, field_and_value: (&str, i64)) -> Vec<String>;

fn main() {}
