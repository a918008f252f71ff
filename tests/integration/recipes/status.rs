//! Status messages: what one post writes, and that a user without a login
//! writes nothing.

use std::collections::{BTreeSet, HashMap};
use std::thread;
use std::time::{Duration, UNIX_EPOCH};

use redis::{Connection, ConnectionLike};
use redis_script::recipes::status::{
    STATUS_ID_KEY, create_status, create_status_call, get_status, status_key, user_key,
};

use super::{dump_all, multiplexed};
use crate::server::RedisServer;

fn set_login(con: &mut dyn ConnectionLike, uid: &str, login: &str) {
    redis::cmd("HSET")
        .arg(user_key(uid))
        .arg("login")
        .arg(login)
        .exec(con)
        .unwrap();
}

/// The server's clock in microseconds since the Unix epoch.
fn server_micros(con: &mut Connection) -> u128 {
    let (secs, micros): (u128, u128) = redis::cmd("TIME").query(con).unwrap();
    secs * 1_000_000 + micros
}

fn hash(con: &mut Connection, key: &str) -> HashMap<String, String> {
    redis::cmd("HGETALL").arg(key).query(con).unwrap()
}

#[test]
fn a_post_writes_the_status_hash_with_increasing_ids_and_counts_it() {
    let server = RedisServer::start();
    let mut con = server.connection();
    set_login(&mut con, "42", "ada");

    let before = server_micros(&mut con);
    let mut ids = Vec::new();
    for n in 0..3 {
        let message = format!("message {n}");
        let id = create_status(&mut con, "42", &message, &[("mood", "calm"), ("n", "x")]).unwrap();
        ids.push(id.expect("a user with a login can post"));
    }
    let after = server_micros(&mut con);
    assert_eq!(ids, [1, 2, 3]);

    for (n, id) in ids.iter().enumerate() {
        let fields = hash(&mut con, &status_key(*id));
        let posted = &fields["posted"];
        let expected: HashMap<String, String> = [
            ("message", format!("message {n}")),
            ("login", "ada".into()),
            ("id", id.to_string()),
            ("uid", "42".into()),
            ("posted", posted.clone()),
            ("mood", "calm".into()),
            ("n", "x".into()),
        ]
        .into_iter()
        .map(|(field, value)| (field.to_owned(), value))
        .collect();
        assert_eq!(fields, expected);

        let status = get_status(&mut con, *id).unwrap().unwrap();
        let posted = status
            .posted
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_micros();
        assert!(
            (before..=after).contains(&posted),
            "posted {posted} is the server's time of the call, in [{before}, {after}]"
        );
        assert_eq!(status.extra.len(), 2);
    }
    assert_eq!(hash(&mut con, &user_key("42"))["posts"], "3");
    assert_eq!(get_status(&mut con, 4).unwrap(), None);
}

#[test]
fn extra_fields_cannot_overwrite_the_statuss_own_fields() {
    let server = RedisServer::start();
    let mut con = server.connection();
    set_login(&mut con, "1", "ada");
    let extra = [
        ("id", "999"),
        ("login", "mallory"),
        ("uid", "2"),
        ("message", "forged"),
        ("posted", "0.000000"),
    ];
    let id = create_status(&mut con, "1", "real", &extra)
        .unwrap()
        .unwrap();
    let status = get_status(&mut con, id).unwrap().unwrap();
    assert_eq!(
        (status.id, status.login.as_str(), status.uid.as_str()),
        (1, "ada", "1")
    );
    assert_eq!(status.message, "real");
    assert!(status.posted > UNIX_EPOCH + Duration::from_secs(1));
    assert!(status.extra.is_empty());
}

#[test]
fn a_user_without_login_writes_nothing_and_takes_no_id() {
    let server = RedisServer::start();
    let mut con = server.connection();
    set_login(&mut con, "1", "ada");
    assert_eq!(create_status(&mut con, "1", "first", &[]).unwrap(), Some(1));

    // A user hash without `login`, and a user with no hash at all.
    redis::cmd("HSET")
        .arg(user_key("2"))
        .arg("name")
        .arg("bob")
        .exec(&mut con)
        .unwrap();
    let snapshot = dump_all(&mut con);
    for uid in ["2", "3"] {
        assert_eq!(
            create_status(&mut con, uid, "hello", &[("k", "v")]).unwrap(),
            None
        );
    }
    assert_eq!(dump_all(&mut con), snapshot, "nothing was written");

    // The next post gets the next id: none was consumed.
    assert_eq!(
        create_status(&mut con, "1", "second", &[]).unwrap(),
        Some(2)
    );
}

#[test]
fn concurrent_posts_take_distinct_dense_ids_and_count_each_post() {
    const USERS: usize = 4;
    const POSTS: usize = 50;
    let server = RedisServer::start();
    for uid in 0..USERS {
        set_login(&mut server.connection(), &uid.to_string(), "someone");
    }
    let ids: Vec<u64> = thread::scope(|scope| {
        let workers: Vec<_> = (0..USERS)
            .map(|uid| {
                let mut con = server.connection();
                scope.spawn(move || {
                    let uid = uid.to_string();
                    (0..POSTS)
                        .map(|_| create_status(&mut con, &uid, "hi", &[]).unwrap().unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap())
            .collect()
    });
    let distinct: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(distinct, (1..=(USERS * POSTS) as u64).collect());

    let mut con = server.connection();
    let last: u64 = redis::cmd("GET")
        .arg(STATUS_ID_KEY)
        .query(&mut con)
        .unwrap();
    assert_eq!(last, (USERS * POSTS) as u64);
    for uid in 0..USERS {
        assert_eq!(
            hash(&mut con, &user_key(&uid.to_string()))["posts"],
            POSTS.to_string()
        );
    }
}

#[test]
fn the_call_runs_on_an_async_connection() {
    let server = RedisServer::start();
    set_login(&mut server.connection(), "5", "eve");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let id = runtime.block_on(async {
        let mut con = multiplexed(&server).await;
        create_status_call("5", "async hello", &[])
            .invoke_async(&mut con)
            .await
            .unwrap()
    });
    assert_eq!(id, Some(1));
}
