// `server.call` runs on Valkey only; by default scripts must run on Redis 7.0 too.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/valkey_server_call.lua", keys = 1)]
fn get(key: &str) -> Option<String>;

fn main() {}
