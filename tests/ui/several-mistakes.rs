use redis_script::redis_script;

#[redis_script(file = "scripts/lock_aquire.lua", keys = 5, keys = 1, ttl = 30)]
pub async fn acquire_lock(&self, #[variadic] lock: &[&str], _: u64, token: Vec<String>) -> Option<String> {
    None
}

fn main() {}
