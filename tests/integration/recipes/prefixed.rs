//! Recipes under a key prefix beside the same recipes without one, on one
//! server: neither sees the other's keys, and every key a prefixed recipe
//! writes, including the keys its scripts build, is in its namespace.

use std::time::Duration;

use redis::Connection;
use redis_script::KeyPrefix;
use redis_script::recipes::leaderboard::Leaderboard;
use redis_script::recipes::lock::Lock;
use redis_script::recipes::sharded_list::{End, ShardedList};
use redis_script::recipes::status;

use crate::server::RedisServer;

fn keys(con: &mut Connection, pattern: &str) -> Vec<String> {
    let mut keys: Vec<String> = redis::cmd("KEYS").arg(pattern).query(con).unwrap();
    keys.sort();
    keys
}

#[test]
fn a_prefixed_lock_and_a_plain_lock_of_one_name_are_two_locks() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = KeyPrefix::new("tenant-a:").unwrap();
    let plain = Lock::new("lock:report", Duration::from_secs(30));
    let prefixed = plain.clone().with_key_prefix(&tenant);
    assert_eq!(prefixed.key(), "tenant-a:lock:report");

    let held = plain.try_acquire(&mut con).unwrap().expect("free");
    let held_prefixed = prefixed.try_acquire(&mut con).unwrap().expect("free too");
    assert!(plain.try_acquire(&mut con).unwrap().is_none());
    assert!(prefixed.try_acquire(&mut con).unwrap().is_none());
    assert!(held_prefixed.release(&mut con).unwrap());
    // Releasing one leaves the other held.
    assert!(plain.try_acquire(&mut con).unwrap().is_none());
    assert!(held.release(&mut con).unwrap());
}

#[test]
fn a_prefixed_sharded_list_keeps_its_shards_in_its_namespace() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = KeyPrefix::new("tenant-b:").unwrap();
    let plain = ShardedList::new("jobs", 2);
    let prefixed = plain.clone().with_key_prefix(&tenant);

    prefixed
        .push(&mut con, End::Right, &["a", "b", "c"])
        .unwrap();
    // The shard keys that the script builds from ARGV have the prefix too.
    let written = keys(&mut con, "*");
    assert!(written.len() >= 3, "{written:?}");
    assert!(
        written
            .iter()
            .all(|key| key.starts_with("tenant-b:{jobs}:")),
        "{written:?}"
    );

    // The plain list sees nothing; the prefixed one pops its items, the
    // blocking pop (plain GET and BLPOP) included.
    assert_eq!(plain.pop::<String>(&mut con, End::Left).unwrap(), None);
    assert_eq!(
        prefixed
            .pop::<String>(&mut con, End::Left)
            .unwrap()
            .as_deref(),
        Some("a")
    );
    let item: Option<String> = prefixed
        .blocking_pop(&mut con, End::Left, Duration::from_secs(1))
        .unwrap();
    assert_eq!(item.as_deref(), Some("b"));
}

#[test]
fn a_prefixed_leaderboard_reads_its_own_sorted_set() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = KeyPrefix::new("tenant-c:").unwrap();
    let plain = Leaderboard::new("board", 2, 100.0);
    let prefixed = plain.clone().with_key_prefix(&tenant);
    plain.submit(&mut con, "ann", 10.0).unwrap();
    prefixed.submit(&mut con, "bob", 20.0).unwrap();
    assert_eq!(plain.top(&mut con).unwrap(), [("ann".to_owned(), 10.0)]);
    assert_eq!(prefixed.top(&mut con).unwrap(), [("bob".to_owned(), 20.0)]);
    assert_eq!(keys(&mut con, "*"), ["board", "tenant-c:board"]);
}

#[test]
fn a_status_posted_under_a_prefix_derives_its_hash_in_the_namespace() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = KeyPrefix::new("tenant-d:").unwrap();
    redis::cmd("HSET")
        .arg(tenant.apply(&status::user_key("7")))
        .arg("login")
        .arg("ann")
        .exec(&mut con)
        .unwrap();
    // The user exists only in the namespace.
    assert_eq!(
        status::create_status(&mut con, "7", "hi", &[]).unwrap(),
        None
    );
    let id = status::create_status_call("7", "hi", &[])
        .key_prefix(&tenant)
        .invoke(&mut con)
        .unwrap()
        .expect("posted");
    assert_eq!(status::get_status(&mut con, id).unwrap(), None);
    let posted = status::get_prefixed_status(&mut con, &tenant, id)
        .unwrap()
        .expect("found");
    assert_eq!(
        (posted.login.as_str(), posted.message.as_str()),
        ("ann", "hi")
    );
    let written = keys(&mut con, "*");
    assert!(
        written
            .iter()
            .all(|key| key.starts_with("tenant-d:{status}:")),
        "{written:?}"
    );
}
