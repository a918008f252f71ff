// The seeds' create_status reads `keys[1]`: a global that does not exist.
use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/seeds/create_status.lua", keys = 2)]
fn create_status(user: &str, status_ids: &str, #[variadic] fields: &[&str]) -> Option<i64>;

fn main() {}
