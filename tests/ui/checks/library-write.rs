// Adding a member to `string` modifies a read-only library.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/library_write.lua", keys = 0)]
fn trim(text: &str) -> String;

fn main() {}
