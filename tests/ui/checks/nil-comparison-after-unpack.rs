use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/nil_compared_after_unpack.lua", keys = 1)]
fn owner(job: &str) -> Option<String>;

fn main() {}
