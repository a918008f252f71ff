// `KEYS` in a function, where keys arrive as the callback's first parameter.
use redis_script::redis_function;

#[redis_function(library = "tests/ui/lua/functions/keys_global.lua", keys = 1)]
fn counter_global(counter: &str) -> Option<String>;

fn main() {}
