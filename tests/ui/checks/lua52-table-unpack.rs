// `table.unpack` is Lua 5.2; Redis runs 5.1.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/table_unpack.lua", keys = 0)]
fn mget(#[variadic] keys: &[&str]) -> Vec<Option<String>>;

fn main() {}
