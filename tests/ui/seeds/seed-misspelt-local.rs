// The seeds' red envelope assigns `lunkMoney` and reads `luckMoney`.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/red_envelope.lua", keys = 4)]
fn grab(envelopes: &str, consumed: &str, grants: &str, user: &str) -> Option<String>;

fn main() {}
