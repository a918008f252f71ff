// The seeds' sharded push calls `UNPACK`, which Lua spells `unpack`.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/sharded_push.lua", keys = 3)]
fn sharded_push(list: &str, first: &str, last: &str, command: &str, max: u64, #[variadic] items: &[&str]) -> i64;

fn main() {}
