use redis_script::redis_script;

#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_locks(#[variadic] locks: &[&str]) -> bool;

fn main() {}
