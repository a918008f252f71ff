// A script that replies a status or a set's members, declared as an integer.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/shapes/members_or_status.lua", keys = 1)]
fn members(set: &str) -> i64;

fn main() {}
