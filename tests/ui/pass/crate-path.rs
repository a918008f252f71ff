// `crate = "..."` names where redis-script is, for a crate that re-exports it
// (or renames the dependency): the expansion goes through that path.
mod facade {
    pub use redis_script::*;
}

#[facade::redis_script(file = "scripts/lock_release.lua", keys = 1, crate = "crate::facade")]
fn release(lock: &str, token: &str) -> bool;

fn main() {
    assert_eq!(release::SCRIPT.key_count(), 1);
    let _call = release("lock", "token");
}
