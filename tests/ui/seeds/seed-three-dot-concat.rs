// The seeds' sharded pop writes `KEYS[1]...shard`: a syntax error.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/sharded_pop.lua", keys = 3)]
fn sharded_pop(list: &str, first: &str, last: &str, command: &str) -> Option<String>;

fn main() {}
