#[path = "../support/server.rs"]
mod server;

use redis_script::redis_script;
use server::RedisServer;

/// Takes the lock.
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_secs: u64, token: &str) -> Option<String>;

#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock(lock: &str, token: &str) -> bool;

#[test]
fn smoke() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert_eq!(
        acquire_lock("l", 10, "t")
            .invoke(&mut con)
            .unwrap()
            .as_deref(),
        Some("OK")
    );
    assert_eq!(acquire_lock("l", 10, "u").invoke(&mut con).unwrap(), None);
    assert!(!release_lock("l", "u").invoke(&mut con).unwrap());
    assert!(release_lock("l", "t").invoke(&mut con).unwrap());
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut con).unwrap();
    assert_eq!(
        acquire_lock("l", 10, "t")
            .invoke(&mut con)
            .unwrap()
            .as_deref(),
        Some("OK")
    );
    println!("{}", acquire_lock::SCRIPT.sha1());
}
