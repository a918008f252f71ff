use redis_script::redis_script;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn place(grid: &str, point: [i64; 3]) -> Vec<String>;

fn main() {}
