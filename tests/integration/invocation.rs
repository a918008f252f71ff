use redis_script::redis_script;

use crate::server::RedisServer;

/// Takes the lock.
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_secs: u64, token: &str) -> Option<String>;

#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock(lock: &str, token: &str) -> bool;

#[test]
fn smoke() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert_eq!(acquire_lock("l", 10, "t").invoke(&mut con).unwrap().as_deref(), Some("OK"));
}
