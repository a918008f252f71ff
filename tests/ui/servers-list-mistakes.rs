// `servers = [...]` on a binding: each mistake is reported at its token.
use redis_script::redis_script;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1, servers = ["redis-8", "valkey-9.1", "valkey-9.1", 7])]
fn incr(key: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1, servers = [])]
fn incr_none(key: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1, servers = "redis-8.2")]
fn incr_string(key: &str) -> i64;

fn main() {}
