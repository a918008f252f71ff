//! Autocomplete: exact prefix matches under concurrent searches, and the set
//! left with only real names.

use std::thread;

use redis::Connection;
use redis_script::recipes::autocomplete::scripts::prefix_search;
use redis_script::recipes::autocomplete::{
    MAX_MATCHES, add_members, autocomplete_on_prefix, find_prefix_range, members_key,
};

use crate::server::RedisServer;

const GUILD: &str = "g";

/// A fixed set with more than [`MAX_MATCHES`] names under several prefixes:
/// every `xyz` with x in a-d, y in a-e, z in a-f, plus a few short names.
fn names() -> Vec<String> {
    let mut names = vec![
        "a".to_owned(),
        "ab".to_owned(),
        "abc".to_owned(),
        "d".to_owned(),
    ];
    for x in 'a'..='d' {
        for y in 'a'..='e' {
            for z in 'a'..='f' {
                names.push(format!("{x}{y}{z}"));
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// What a search for `prefix` must reply.
fn expected(names: &[String], prefix: &str) -> Vec<String> {
    names
        .iter()
        .filter(|name| name.starts_with(prefix))
        .take(MAX_MATCHES)
        .cloned()
        .collect()
}

/// Prefixes with many, few, one and no matches, most of them overlapping.
fn prefixes() -> Vec<String> {
    let mut prefixes: Vec<String> = ["", "a", "ab", "abc", "abf", "b", "bb", "d", "dd", "de", "e"]
        .map(String::from)
        .to_vec();
    for x in 'a'..='d' {
        for y in 'a'..='f' {
            prefixes.push(format!("{x}{y}"));
        }
    }
    prefixes
}

fn setup(server: &RedisServer) -> (Connection, Vec<String>) {
    let mut con = server.connection();
    let names = names();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(
        add_members(&mut con, GUILD, &refs).unwrap(),
        names.len() as i64
    );
    (con, names)
}

fn members(con: &mut Connection) -> Vec<String> {
    redis::cmd("ZRANGE")
        .arg(members_key(GUILD))
        .arg(0)
        .arg(-1)
        .query(con)
        .unwrap()
}

#[test]
fn sentinel_prefixes_follow_the_book() {
    let range = |prefix: &str| find_prefix_range(prefix);
    assert_eq!(range("abc"), Some(("abb{".into(), "abc{".into())));
    assert_eq!(range("a"), Some(("`{".into(), "a{".into())));
    assert_eq!(range("ba"), Some(("b`{".into(), "ba{".into())));
    assert_eq!(range(""), Some(("`{".into(), "{".into())));
    assert_eq!(range("aB"), None);
    assert_eq!(range("a{"), None);
}

#[test]
fn every_prefix_gets_exactly_its_first_matches() {
    let server = RedisServer::start();
    let (mut con, names) = setup(&server);
    for prefix in prefixes() {
        assert_eq!(
            autocomplete_on_prefix(&mut con, GUILD, &prefix).unwrap(),
            expected(&names, &prefix),
            "prefix {prefix:?}"
        );
    }
    // Outside the alphabet nothing matches, and nothing is sent.
    assert!(
        autocomplete_on_prefix(&mut con, GUILD, "A")
            .unwrap()
            .is_empty()
    );
    assert_eq!(members(&mut con), names);
}

#[test]
fn concurrent_searches_reply_exact_matches_and_leave_only_names() {
    const SEARCHERS: usize = 6;
    const ROUNDS: usize = 20;
    const CHURN_ROUNDS: usize = 300;
    let server = RedisServer::start();
    let (mut con, names) = setup(&server);
    let prefixes = prefixes();

    thread::scope(|scope| {
        for searcher in 0..SEARCHERS {
            let mut con = server.connection();
            let (names, prefixes) = (&names, &prefixes);
            scope.spawn(move || {
                for round in 0..ROUNDS {
                    // Each searcher walks the prefixes from its own offset, so
                    // the same prefix runs on several connections at once.
                    for i in 0..prefixes.len() {
                        let prefix = &prefixes[(i + searcher * 7 + round) % prefixes.len()];
                        let got = autocomplete_on_prefix(&mut con, GUILD, prefix).unwrap();
                        assert_eq!(got, expected(names, prefix), "prefix {prefix:?}");
                    }
                }
            });
        }
        // Meanwhile names come and go under `zz`: no search above can see
        // them (for "" they sort after the first ten names).
        let mut churn = server.connection();
        scope.spawn(move || {
            for round in 0..CHURN_ROUNDS {
                let name = format!("zz{}", char::from(b'a' + (round % 26) as u8));
                add_members(&mut churn, GUILD, &[&name]).unwrap();
                let found = autocomplete_on_prefix(&mut churn, GUILD, &name).unwrap();
                assert_eq!(found, [name.as_str()]);
                redis::cmd("ZREM")
                    .arg(members_key(GUILD))
                    .arg(&name)
                    .exec(&mut churn)
                    .unwrap();
            }
        });
    });
    assert_eq!(members(&mut con), names, "no sentinel left behind");
}

#[test]
fn leftover_sentinels_are_skipped_and_the_limit_still_filled() {
    let server = RedisServer::start();
    let (mut con, names) = setup(&server);
    // A sentinel a crashed WATCH-based client could have left in the range.
    let junk = ["aa{dead", "ab{dead", "aab{dead"];
    for member in junk {
        redis::cmd("ZADD")
            .arg(members_key(GUILD))
            .arg(0)
            .arg(member)
            .exec(&mut con)
            .unwrap();
    }
    let (start, end) = find_prefix_range("a").unwrap();
    let raw = prefix_search(
        &members_key(GUILD),
        &format!("{start}x"),
        &format!("{end}x"),
        10,
    )
    .invoke(&mut con)
    .unwrap();
    assert_eq!(raw, expected(&names, "a"), "the script itself skips them");
    assert_eq!(
        autocomplete_on_prefix(&mut con, GUILD, "a").unwrap(),
        expected(&names, "a")
    );
}

#[test]
fn the_script_refuses_sentinels_it_must_not_remove() {
    let server = RedisServer::start();
    let (mut con, names) = setup(&server);
    let key = members_key(GUILD);
    // Without `{`, a "sentinel" could be a real name, which the script would remove.
    let error = prefix_search(&key, "aa", "ab{x", 10)
        .invoke(&mut con)
        .unwrap_err();
    assert!(error.to_string().contains("must contain {"), "{error}");
    // One already in the set belongs to somebody else.
    redis::cmd("ZADD")
        .arg(&key)
        .arg(0)
        .arg("ab{other")
        .exec(&mut con)
        .unwrap();
    let error = prefix_search(&key, "aa{mine", "ab{other", 10)
        .invoke(&mut con)
        .unwrap_err();
    assert!(error.to_string().contains("already present"), "{error}");
    let mut expected_members = names;
    expected_members.push("ab{other".to_owned());
    expected_members.sort();
    assert_eq!(members(&mut con), expected_members);
}

#[test]
fn adding_an_invalid_name_adds_nothing() {
    let server = RedisServer::start();
    let (mut con, names) = setup(&server);
    for batch in [&["ok", "Bad"][..], &["fine", ""], &["zz", "x{y"], &["a1"]] {
        let error = add_members(&mut con, GUILD, batch).unwrap_err();
        assert!(error.to_string().contains("a-z"), "{batch:?}: {error}");
    }
    assert_eq!(members(&mut con), names);
    assert_eq!(add_members(&mut con, GUILD, &[]).unwrap(), 0);
    assert_eq!(add_members(&mut con, GUILD, &["a", "zz"]).unwrap(), 1);
}
