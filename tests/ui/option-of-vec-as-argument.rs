use redis_script::redis_script;

// `Some(vec)` is one value per element, `None` none at all.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
pub fn tag(item: &str, tags: Option<Vec<String>>) -> Vec<String>;

fn main() {}
