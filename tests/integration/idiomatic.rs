//! The "no false positives" corpus: correct, idiomatic Redis Lua scripts in
//! `tests/lua/idiomatic/` that must pass every compile-time check of the
//! bindings below without an error or a warning, and do exactly what their
//! headers say on a real server.
//!
//! Each binding matches its script: as many keys as it reads, one parameter
//! per ARGV value it reads by literal index, `#[variadic]` where it walks the
//! ARGV tail, and the most precise reply type.

use std::collections::{BTreeMap, HashMap};

use redis::{Commands, Connection};
use redis_script::{ErrorKind, redis_script};

use crate::server::RedisServer;

/// Sums counters over `ipairs(KEYS)` and `for i = 1, #KEYS`.
#[redis_script(file = "tests/lua/idiomatic/counters_sum.lua", keys = 3)]
fn sum_counters(first: &str, second: &str, third: &str) -> (i64, i64, String);

/// Stores a JSON document's leaves into a hash, by a recursive local function.
#[redis_script(file = "tests/lua/idiomatic/flatten_json.lua", keys = 1)]
fn flatten_json(hash: &str, json: &str) -> i64;

/// Appends an event to a JSON log, round-tripping it through cjson.
#[redis_script(file = "tests/lua/idiomatic/event_log_json.lua", keys = 1)]
fn log_event(log: &str, kind: &str, amount: f64, keep: usize) -> String;

/// Fixed-window rate limiter on the server's clock, with closures.
#[redis_script(file = "tests/lua/idiomatic/rate_limit_window.lua", keys = 1)]
fn hit_rate_limit(prefix: &str, window_secs: u64, limit: u64) -> (bool, i64, String);

/// Grants and revokes permission bits with the `bit` library.
#[redis_script(file = "tests/lua/idiomatic/permission_bits.lua", keys = 1)]
fn update_permissions(
    masks: &str,
    user: &str,
    grant_hex: &str,
    revoke_bits: &str,
) -> (i64, String, i64, i64);

/// Increments counters, skipping the ones that fail, with `redis.pcall` and `pcall`.
#[redis_script(file = "tests/lua/idiomatic/incr_many_pcall.lua", keys = 5)]
fn incr_counters(
    counter1: &str,
    counter2: &str,
    counter3: &str,
    counter4: &str,
    counter5: &str,
    amount: i64,
) -> (i64, i64, String);

/// Bounded queue replying with `redis.status_reply` or `redis.error_reply`.
#[redis_script(file = "tests/lua/idiomatic/enqueue_bounded.lua", keys = 1)]
fn enqueue(queue: &str, job: &str, capacity: usize) -> String;

/// Stores a document with its `redis.sha1hex`, logging changes.
#[redis_script(file = "tests/lua/idiomatic/store_checksum.lua", keys = 2)]
fn store_document(document: &str, checksums: &str, content: &str) -> (String, bool);

/// A binary record made with `struct.pack` / `struct.unpack`.
#[redis_script(file = "tests/lua/idiomatic/packed_record.lua", keys = 1)]
fn add_score(record: &str, player_id: u32, name: &str, delta: i32) -> (u32, i16, String, usize);

/// A set-like bag stored as a MessagePack array.
#[redis_script(file = "tests/lua/idiomatic/msgpack_bag.lua", keys = 1)]
fn add_to_bag(bag: &str, #[variadic] items: &[&str]) -> (i64, Vec<String>);

/// RPUSH of `unpack(ARGV, 2)` and LTRIM; `select('#', ...)` at top level.
#[redis_script(file = "tests/lua/idiomatic/push_capped.lua", keys = 1)]
fn push_capped(list: &str, max_len: usize, #[variadic] items: &[&str]) -> (i64, i64, i64, String);

/// Tags into slugs with string methods (`:gsub`, `:lower`, `:sub`, `:upper`).
#[redis_script(file = "tests/lua/idiomatic/tag_slugs.lua", keys = 2)]
fn file_tags(slugs: &str, prefixes: &str, tags: &str) -> Vec<String>;

/// Deletes keys matching a pattern with a SCAN `while true` loop.
#[redis_script(file = "tests/lua/idiomatic/scan_delete.lua", keys = 0)]
fn delete_matching(pattern: &str, count_hint: u32) -> Vec<String>;

/// Drains a queue up to a marker with `repeat ... until`.
#[redis_script(file = "tests/lua/idiomatic/drain_until.lua", keys = 2)]
fn drain_until(queue: &str, archive: &str, marker: &str) -> (bool, Vec<String>);

/// A `#!lua flags=no-writes` leaderboard summary.
#[redis_script(file = "tests/lua/idiomatic/score_summary.lua", keys = 2)]
fn score_summary(board: &str, names: &str, threshold: f64) -> (i64, i64, String, Vec<String>);

/// A `#!lua flags=allow-oom` cleanup that writes while the server is out of memory.
#[redis_script(file = "tests/lua/idiomatic/evict_and_mark.lua", keys = 3)]
fn evict_and_mark(cleanups: &str, first_entry: &str, second_entry: &str) -> (i64, i64);

/// Claims the oldest pending job, or replies nil.
#[redis_script(file = "tests/lua/idiomatic/claim_job.lua", keys = 3)]
fn claim_job(pending: &str, in_progress: &str, claims: &str, worker: &str) -> Option<String>;

/// Whether a set holds every member: `true` / `false`.
#[redis_script(file = "tests/lua/idiomatic/has_all_members.lua", keys = 1)]
fn has_all_members(set: &str, #[variadic] members: &[&str]) -> bool;

/// Reads a profile after `redis.setresp(3)`: maps, sets and doubles.
#[redis_script(file = "tests/lua/idiomatic/profile_resp3.lua", keys = 3)]
fn profile_summary(
    profile: &str,
    badges: &str,
    ranking: &str,
    member: &str,
) -> (String, String, String);

/// Ranks customers with nested tables, `table.sort` with a comparator, `table.getn`.
#[redis_script(file = "tests/lua/idiomatic/top_spenders.lua", keys = 2)]
fn rank_spenders(orders: &str, report: &str, limit: usize) -> (i64, Vec<String>);

/// A token bucket written as a local "class" with methods and a metatable.
#[redis_script(file = "tests/lua/idiomatic/token_bucket.lua", keys = 1)]
fn take_tokens(bucket: &str, capacity: u32, refill_per_sec: f64, tokens: u32) -> (bool, i64);

/// Stream, HyperLogLog, geo and OBJECT ENCODING; command names in any case.
#[redis_script(file = "tests/lua/idiomatic/ingest_reading.lua", keys = 3)]
#[allow(clippy::too_many_arguments)]
fn ingest_reading(
    readings: &str,
    sensors: &str,
    locations: &str,
    sensor: &str,
    longitude: f64,
    latitude: f64,
    value: f64,
    max_len: u32,
) -> (i64, i64, String, i64);

/// LMPOP over two priority lists, or nil when both are empty.
#[redis_script(file = "tests/lua/idiomatic/pop_batch.lua", keys = 2)]
fn pop_batch(high: &str, low: &str, batch: usize) -> Option<(String, Vec<String>, i64)>;

/// A counter over computed shard keys; `coroutine.wrap`, `xpcall`, `next`.
#[redis_script(file = "tests/lua/idiomatic/shard_counter.lua", keys = 1)]
fn add_to_shard(counter: &str, member: &str, shards: u32, amount: i64) -> (i64, i64, i64, i64);

/// Owned copies of string pairs, sorted by the first, to compare with [`hash`].
fn strings(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn hash(con: &mut Connection, key: &str) -> BTreeMap<String, String> {
    con.hgetall(key).unwrap()
}

fn list(con: &mut Connection, key: &str) -> Vec<String> {
    con.lrange(key, 0, -1).unwrap()
}

/// The server's clock, in whole seconds.
fn server_seconds(con: &mut Connection) -> u64 {
    let (seconds, _micros): (u64, u64) = redis::cmd("TIME").query(con).unwrap();
    seconds
}

/// Calls of `command` the server counted since it started.
fn command_calls(con: &mut Connection, command: &str) -> u64 {
    let info: String = redis::cmd("INFO").arg("commandstats").query(con).unwrap();
    let prefix = format!("cmdstat_{command}:calls=");
    info.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map_or(0, |rest| rest.split(',').next().unwrap().parse().unwrap())
}

#[test]
fn counters_sum_loops_over_keys() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.set("hits:mon", 5).unwrap();
    let () = con.set("hits:tue", 12).unwrap();
    let () = con.set("hits:thu", 12).unwrap();
    let reply = sum_counters("hits:mon", "hits:tue", "hits:wed")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (17, 12, "hits:tue".to_owned()));
    // A tie goes to the earlier key; a missing counter counts as 0.
    let reply = sum_counters("hits:wed", "hits:thu", "hits:tue")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (24, 12, "hits:thu".to_owned()));
    let reply = sum_counters("none:1", "none:2", "none:3")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (0, 0, "none:1".to_owned()));
}

#[test]
fn flatten_json_walks_nested_documents() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.hset("user:7:flat", "stale", "1").unwrap();
    let document = r#"{"user":{"name":"ada","tags":["math","engines"],"admin":false,
        "age":36,"nick":null},"score":1.5}"#;
    let fields = flatten_json("user:7:flat", document)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(fields, 6);
    let expected = strings(&[
        ("score", "1.5"),
        ("user.admin", "false"),
        ("user.age", "36"),
        ("user.name", "ada"),
        ("user.tags.1", "math"),
        ("user.tags.2", "engines"),
    ]);
    assert_eq!(hash(&mut con, "user:7:flat"), expected);

    // An unparsable document is an error reply with its own code, and the
    // hash is left as it was.
    let error = flatten_json("user:7:flat", "{\"user\":")
        .invoke(&mut con)
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Redis(_)), "{error}");
    assert_eq!(error.code(), Some("BADJSON"));
    assert_eq!(hash(&mut con, "user:7:flat"), expected);
    // So is a document nested too deeply, raised from inside the recursion.
    let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
    let error = flatten_json("user:7:flat", &deep)
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(error.code(), Some("BADJSON"));
    assert!(error.to_string().contains("deeper than 32"), "{error}");
    assert_eq!(hash(&mut con, "user:7:flat"), expected);
    // Arrays are numbered from 1; an empty document empties the hash.
    let fields = flatten_json("user:7:flat", r#"[10,[20,[30,null]],{"on":true}]"#)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(fields, 4);
    let expected = strings(&[
        ("1", "10"),
        ("2.1", "20"),
        ("2.2.1", "30"),
        ("3.on", "true"),
    ]);
    assert_eq!(hash(&mut con, "user:7:flat"), expected);
    assert_eq!(
        flatten_json("user:7:flat", "{}").invoke(&mut con).unwrap(),
        0
    );
    assert!(hash(&mut con, "user:7:flat").is_empty());
}

#[test]
fn event_log_round_trips_through_cjson() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let expected = [
        r#"[["deposit",100]]"#,
        r#"[["deposit",100],["withdraw",20.5]]"#,
        r#"[["deposit",100],["withdraw",20.5],["deposit",7]]"#,
        r#"[["withdraw",20.5],["deposit",7],["fee",0.25]]"#,
    ];
    let events = [
        ("deposit", 100.0),
        ("withdraw", 20.5),
        ("deposit", 7.0),
        ("fee", 0.25),
    ];
    for ((kind, amount), expected) in events.into_iter().zip(expected) {
        let stored = log_event("account:9:log", kind, amount, 3)
            .invoke(&mut con)
            .unwrap();
        assert_eq!(stored, expected);
        let on_server: String = con.get("account:9:log").unwrap();
        assert_eq!(on_server, expected);
    }
}

#[test]
fn rate_limit_window_counts_hits_per_bucket() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let window = 3600;
    let before = server_seconds(&mut con) / window;
    let replies: Vec<(bool, i64, String)> = (0..3)
        .map(|_| {
            hit_rate_limit("ratelimit:api:42", window, 2)
                .invoke(&mut con)
                .unwrap()
        })
        .collect();
    let after = server_seconds(&mut con) / window;
    // The hour can turn between two calls: then the count restarts.
    assert_eq!(before, after, "the window turned during the test; rerun it");
    let bucket = format!("ratelimit:api:42:{before}");
    assert_eq!(
        replies,
        [
            (true, 1, bucket.clone()),
            (true, 2, bucket.clone()),
            (false, 3, bucket.clone()),
        ]
    );
    let hits: i64 = con.get(&bucket).unwrap();
    assert_eq!(hits, 3);
    let ttl: i64 = con.ttl(&bucket).unwrap();
    assert!((7100..=7200).contains(&ttl), "{ttl}");
}

#[test]
fn permission_bits_use_the_bit_library() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.hset("perms", "ada", 0b0110).unwrap();
    // Grant bits 0 and 4 (0x11), revoke bits 1 and 2.
    let reply = update_permissions("perms", "ada", "0x11", "1,2")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (0x11, "00000011".to_owned(), 0x17, 4));
    // Nothing to do for a user without permissions.
    let reply = update_permissions("perms", "bob", "0", "")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (0, "00000000".to_owned(), 0, -1));
    // `bit` works on signed 32-bit integers: bit 31 makes the mask negative.
    let reply = update_permissions("perms", "root", "80000001", "")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        reply,
        (-0x7fff_ffff, "80000001".to_owned(), -0x7fff_ffff, 31)
    );
    let expected = strings(&[("ada", "17"), ("bob", "0"), ("root", "-2147483647")]);
    assert_eq!(hash(&mut con, "perms"), expected);
}

#[test]
fn incr_many_skips_failures_with_pcall() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.set("c:int", 10).unwrap();
    let () = con.set("c:float", "1.5").unwrap();
    let () = con.rpush("c:list", "x").unwrap();
    let () = con.set("c:text", "abc").unwrap();
    let reply = incr_counters("c:int", "c:float", "c:new", "c:list", "c:text", 5)
        .invoke(&mut con)
        .unwrap();
    // 15 + 6.5 + 5 = 26.5, truncated by the integer reply.
    assert_eq!(reply, (3, 26, "c:list: WRONGTYPE, c:text: ERR".to_owned()));
    let values: Vec<Option<String>> = con.mget(&["c:int", "c:float", "c:new", "c:text"]).unwrap();
    assert_eq!(
        values,
        [
            Some("15".to_owned()),
            Some("6.5".to_owned()),
            Some("5".to_owned()),
            Some("abc".to_owned()),
        ]
    );
    assert_eq!(list(&mut con, "c:list"), ["x"]);
}

#[test]
fn enqueue_replies_with_status_or_error_codes() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for job in ["resize:1", "resize:2"] {
        let status = enqueue("jobs", job, 2).invoke(&mut con).unwrap();
        assert_eq!(status, "QUEUED");
    }
    let full = enqueue("jobs", "resize:3", 2).invoke(&mut con).unwrap_err();
    assert!(matches!(full.kind(), ErrorKind::Redis(_)), "{full}");
    assert_eq!(full.code(), Some("FULL"));
    assert!(
        full.to_string().contains("jobs holds 2 of 2 jobs"),
        "{full}"
    );
    let empty = enqueue("jobs", "", 5).invoke(&mut con).unwrap_err();
    assert_eq!(empty.code(), Some("EMPTYJOB"));
    let big = "x".repeat(600);
    let too_big = enqueue("jobs", &big, 5).invoke(&mut con).unwrap_err();
    assert_eq!(too_big.code(), Some("TOOBIG"));
    assert!(too_big.to_string().contains("not 600"), "{too_big}");
    assert_eq!(list(&mut con, "jobs"), ["resize:1", "resize:2"]);
}

#[test]
fn store_checksum_writes_only_changes() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // SHA1("hello") and SHA1("hello!").
    let hello = "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d";
    let hello_bang = "8f7d88e901a5ad3a05d8cc0de93313fd76028f8c";
    let reply = store_document("doc:readme", "doc:sums", "hello")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (hello.to_owned(), true));
    let reply = store_document("doc:readme", "doc:sums", "hello")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (hello.to_owned(), false));
    let reply = store_document("doc:readme", "doc:sums", "hello!")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (hello_bang.to_owned(), true));
    let content: String = con.get("doc:readme").unwrap();
    assert_eq!(content, "hello!");
    let sums = hash(&mut con, "doc:sums");
    assert_eq!(sums.len(), 1);
    assert_eq!(sums["doc:readme"], hello_bang);
}

#[test]
fn packed_record_round_trips_through_struct() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // A new record; the score saturates at i16::MAX.
    let reply = add_score("player:258", 258, "ada", 40_000)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (258, i16::MAX, "ada".to_owned(), 10));
    // An existing record keeps its id and name.
    let reply = add_score("player:258", 9, "ignored", -40_001)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (258, -7234, "ada".to_owned(), 10));
    let bytes: Vec<u8> = con.get("player:258").unwrap();
    let mut expected = 258u32.to_be_bytes().to_vec();
    expected.extend((-7234i16).to_be_bytes());
    expected.push(3);
    expected.extend(b"ada");
    assert_eq!(bytes, expected);
}

#[test]
fn msgpack_bag_keeps_items_once() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let reply = add_to_bag("bag:colors", &["red", "green", "red"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (2, vec!["red".to_owned(), "green".to_owned()]));
    let reply = add_to_bag("bag:colors", &["blue", "green"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        reply,
        (
            1,
            vec!["red".to_owned(), "green".to_owned(), "blue".to_owned()]
        )
    );
    let reply = add_to_bag("bag:colors", &[]).invoke(&mut con).unwrap();
    assert_eq!(reply.0, 0);
    assert_eq!(reply.1, ["red", "green", "blue"]);
    // A MessagePack fixarray of three fixstr.
    let bytes: Vec<u8> = con.get("bag:colors").unwrap();
    assert_eq!(bytes, b"\x93\xa3red\xa5green\xa4blue");
}

#[test]
fn push_capped_unpacks_the_argv_tail() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let reply = push_capped("recent", 3, &["a", "b"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (2, 2, 0, "a+b".to_owned()));
    let reply = push_capped("recent", 3, &["c", "d", "e"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (3, 3, 2, "d+e".to_owned()));
    assert_eq!(list(&mut con, "recent"), ["c", "d", "e"]);
    let reply = push_capped("recent", 3, &["f"]).invoke(&mut con).unwrap();
    assert_eq!(reply, (1, 3, 1, "f".to_owned()));
    assert_eq!(list(&mut con, "recent"), ["d", "e", "f"]);
}

#[test]
fn tag_slugs_use_string_methods() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let added = file_tags(
        "tags",
        "tags:by-prefix",
        "  Rust Lang , redis!,  LUA ,rust lang,,Rust-Lang 2",
    )
    .invoke(&mut con)
    .unwrap();
    assert_eq!(
        added,
        [
            "rust-lang/RUS/1",
            "redis/RED/1",
            "lua/LUA/0",
            "rust-lang-2/RUS/2"
        ]
    );
    let mut slugs: Vec<String> = con.smembers("tags").unwrap();
    slugs.sort();
    assert_eq!(slugs, ["lua", "redis", "rust-lang", "rust-lang-2"]);
    let expected = strings(&[
        ("LUA", "lua"),
        ("RED", "redis"),
        ("RUS", "rust-lang rust-lang-2"),
    ]);
    assert_eq!(hash(&mut con, "tags:by-prefix"), expected);
    // Filed already: nothing new.
    let added = file_tags("tags", "tags:by-prefix", "REDIS").invoke(&mut con);
    assert_eq!(added.unwrap(), Vec::<String>::new());
}

#[test]
fn scan_delete_loops_until_the_cursor_returns() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut expected = Vec::new();
    for i in 0..120 {
        let key = format!("session:{i:03}");
        let () = con.set(&key, "x").unwrap();
        expected.push(key);
    }
    let () = con.set("sessions", "kept").unwrap();
    let () = con.set("user:1", "kept").unwrap();
    // A small COUNT makes SCAN take many pages.
    let deleted = delete_matching("session:*", 10).invoke(&mut con).unwrap();
    assert_eq!(deleted, expected);
    let mut left: Vec<String> = con.keys("*").unwrap();
    left.sort();
    assert_eq!(left, ["sessions", "user:1"]);
    let deleted = delete_matching("session:*", 10).invoke(&mut con).unwrap();
    assert!(deleted.is_empty());
}

#[test]
fn drain_until_repeats_until_the_marker() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.rpush("inbox", &["m1", "m2", "m3", "--", "m4"]).unwrap();
    let reply = drain_until("inbox", "archive", "--")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        reply,
        (
            true,
            vec!["m3".to_owned(), "m2".to_owned(), "m1".to_owned()]
        )
    );
    assert_eq!(list(&mut con, "inbox"), ["m4"]);
    assert_eq!(list(&mut con, "archive"), ["m1", "m2", "m3"]);
    // Without the marker the whole queue drains.
    let reply = drain_until("inbox", "archive", "--")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (false, vec!["m4".to_owned()]));
    let reply = drain_until("inbox", "archive", "--")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (false, Vec::new()));
    assert_eq!(list(&mut con, "archive"), ["m1", "m2", "m3", "m4"]);
}

#[test]
fn read_only_summary_runs_under_evalsha_ro() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con
        .zadd_multiple(
            "board",
            &[(10.0, "a"), (25.0, "b"), (7.0, "c"), (25.5, "d")],
        )
        .unwrap();
    let () = con
        .hset_multiple("board:names", &[("a", "Ada"), ("b", "Bob"), ("d", "Dee")])
        .unwrap();
    let reply = score_summary("board", "board:names", 10.0)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        reply,
        (
            4,
            16,
            "Dee".to_owned(),
            vec![
                "Dee=25.5".to_owned(),
                "Bob=25".to_owned(),
                "Ada=10".to_owned()
            ]
        )
    );
    let reply = score_summary("empty", "board:names", 10.0)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (0, 0, String::new(), Vec::new()));
    // The no-writes script went through the _RO commands.
    assert_eq!(command_calls(&mut con, "evalsha"), 0);
    assert_eq!(command_calls(&mut con, "eval"), 0);
    assert_eq!(
        command_calls(&mut con, "evalsha_ro") + command_calls(&mut con, "eval_ro"),
        3
    );
}

#[test]
fn allow_oom_script_writes_while_out_of_memory() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.mset(&[("cache:a", "1"), ("cache:b", "2")]).unwrap();
    redis::cmd("CONFIG")
        .arg("SET")
        .arg("maxmemory")
        .arg(1)
        .exec(&mut con)
        .unwrap();
    // Out of memory: a plain write is refused...
    let refused: redis::RedisResult<()> = con.set("other", "x");
    assert_eq!(refused.unwrap_err().code(), Some("OOM"));
    // ...and so is a script without a shebang, at its first write.
    let refused = claim_job("q:pending", "q:active", "q:claims", "w1")
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(refused.code(), Some("OOM"));
    // The allow-oom script runs and writes.
    let reply = evict_and_mark("cleanups", "cache:a", "cache:b")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (2, 1));
    let reply = evict_and_mark("cleanups", "cache:a", "cache:b")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (0, 2));
    redis::cmd("CONFIG")
        .arg("SET")
        .arg("maxmemory")
        .arg(0)
        .exec(&mut con)
        .unwrap();
    let cleanups: i64 = con.get("cleanups").unwrap();
    assert_eq!(cleanups, 2);
    let exists: i64 = con.exists(&["cache:a", "cache:b"]).unwrap();
    assert_eq!(exists, 0);
}

#[test]
fn claim_job_replies_none_when_nothing_is_pending() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.rpush("jobs:pending", &["thumb:1", "thumb:2"]).unwrap();
    let before = server_seconds(&mut con);
    let first = claim_job("jobs:pending", "jobs:active", "jobs:claims", "w1")
        .invoke(&mut con)
        .unwrap();
    let second = claim_job("jobs:pending", "jobs:active", "jobs:claims", "w2")
        .invoke(&mut con)
        .unwrap();
    let none = claim_job("jobs:pending", "jobs:active", "jobs:claims", "w3")
        .invoke(&mut con)
        .unwrap();
    let after = server_seconds(&mut con);
    assert_eq!(first.as_deref(), Some("thumb:1"));
    assert_eq!(second.as_deref(), Some("thumb:2"));
    assert_eq!(none, None);
    assert_eq!(list(&mut con, "jobs:active"), ["thumb:1", "thumb:2"]);
    let claims = hash(&mut con, "jobs:claims");
    assert_eq!(claims.len(), 2);
    for (job, worker) in [("thumb:1", "w1"), ("thumb:2", "w2")] {
        let (who, when) = claims[job].split_once('@').unwrap();
        assert_eq!(who, worker);
        let when: u64 = when.parse().unwrap();
        assert!((before..=after).contains(&when), "{when}");
    }
}

#[test]
fn has_all_members_replies_booleans() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.sadd("roles:ada", &["admin", "billing", "ops"]).unwrap();
    let call = |members: &[&str], con: &mut Connection| {
        has_all_members("roles:ada", members).invoke(con).unwrap()
    };
    assert!(call(&["admin", "ops"], &mut con));
    assert!(!call(&["admin", "root"], &mut con));
    assert!(call(&[], &mut con));
    assert!(
        !has_all_members("roles:nobody", &["admin"])
            .invoke(&mut con)
            .unwrap()
    );
}

#[test]
fn profile_resp3_reads_maps_sets_and_doubles() {
    let server = RedisServer::start();
    for client in [server.client(), server.client_resp3()] {
        let mut con = client.get_connection().unwrap();
        let () = con
            .hset_multiple(
                "profile:ada",
                &[("name", "Ada"), ("lang", "rust"), ("city", "")],
            )
            .unwrap();
        let () = con.sadd("badges:ada", &["gold", "early"]).unwrap();
        let () = con.zadd("ranking", "ada", 12.345).unwrap();
        let reply = profile_summary("profile:ada", "badges:ada", "ranking", "ada")
            .invoke(&mut con)
            .unwrap();
        assert_eq!(
            reply,
            (
                "city= lang=rust name=Ada".to_owned(),
                "early,gold".to_owned(),
                "12.35".to_owned()
            )
        );
        let reply = profile_summary("profile:bob", "badges:bob", "ranking", "bob")
            .invoke(&mut con)
            .unwrap();
        assert_eq!(reply, (String::new(), String::new(), "none".to_owned()));
    }
}

#[test]
fn top_spenders_sorts_nested_records() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con
        .hset_multiple(
            "orders",
            &[
                ("ada:1", 500),
                ("bob:2", 700),
                ("ada:3", 250),
                ("cy:4", 750),
                ("malformed", 1),
                ("dee:5", 100),
            ],
        )
        .unwrap();
    let reply = rank_spenders("orders", "report:top", 3)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(
        reply,
        (
            4,
            vec![
                "ada=750".to_owned(),
                "cy=750".to_owned(),
                "bob=700".to_owned()
            ]
        )
    );
    let report: String = con.get("report:top").unwrap();
    assert_eq!(report, "ada=750,cy=750,bob=700");
    // Fewer customers than the limit.
    let reply = rank_spenders("orders", "report:top", 10)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply.0, 4);
    assert_eq!(reply.1, ["ada=750", "cy=750", "bob=700", "dee=100"]);
}

#[test]
fn token_bucket_methods_take_and_refuse() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // One token per 1000 s: no refill worth a token during the test.
    let replies: Vec<(bool, i64)> = (0..3)
        .map(|_| {
            take_tokens("bucket:ada", 5, 0.001, 2)
                .invoke(&mut con)
                .unwrap()
        })
        .collect();
    assert_eq!(replies, [(true, 3), (true, 1), (false, 1)]);
    let state: HashMap<String, String> = con.hgetall("bucket:ada").unwrap();
    let tokens: f64 = state["tokens"].parse().unwrap();
    assert!((1.0..1.01).contains(&tokens), "{tokens}");
    let ttl: i64 = con.ttl("bucket:ada").unwrap();
    assert!((4990..=5001).contains(&ttl), "{ttl}");
}

#[test]
fn ingest_reading_uses_streams_hyperloglog_and_geo() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let ingest = |sensor: &str, lon: f64, lat: f64, value: f64, con: &mut Connection| {
        ingest_reading(
            "readings",
            "sensors",
            "sensors:geo",
            sensor,
            lon,
            lat,
            value,
            1000,
        )
        .invoke(con)
        .unwrap()
    };
    let palermo = (13.361389, 38.115556);
    let catania = (15.087269, 37.502669);
    let stream = "stream".to_owned();
    assert_eq!(
        ingest("palermo-1", palermo.0, palermo.1, 20.5, &mut con),
        (1, 1, stream.clone(), 0)
    );
    // The distance of Redis's GEODIST example, 166274.1516 m.
    assert_eq!(
        ingest("catania-1", catania.0, catania.1, 21.0, &mut con),
        (2, 2, stream.clone(), 166_274)
    );
    assert_eq!(
        ingest("palermo-1", palermo.0, palermo.1, 22.25, &mut con),
        (3, 2, stream.clone(), 0)
    );
    let entries: Vec<(String, Vec<(String, String)>)> = redis::cmd("XRANGE")
        .arg("readings")
        .arg("-")
        .arg("+")
        .query(&mut con)
        .unwrap();
    let readings: Vec<Vec<(String, String)>> =
        entries.into_iter().map(|(_id, fields)| fields).collect();
    let reading = |sensor: &str, value: &str| {
        vec![
            ("sensor".to_owned(), sensor.to_owned()),
            ("value".to_owned(), value.to_owned()),
        ]
    };
    assert_eq!(
        readings,
        [
            reading("palermo-1", "20.5"),
            // redis-rs writes an f64 with its fraction: 21.0 is "21.0".
            reading("catania-1", "21.0"),
            reading("palermo-1", "22.25"),
        ]
    );
}

#[test]
fn pop_batch_prefers_the_high_priority_list() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.rpush("jobs:high", "urgent:1").unwrap();
    let () = con
        .rpush("jobs:low", &["bulk:1", "bulk:2", "bulk:3"])
        .unwrap();
    let batch = |con: &mut Connection| pop_batch("jobs:high", "jobs:low", 2).invoke(con).unwrap();
    let owned = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        batch(&mut con),
        Some(("jobs:high".to_owned(), owned(&["urgent:1"]), 3))
    );
    assert_eq!(
        batch(&mut con),
        Some(("jobs:low".to_owned(), owned(&["bulk:1", "bulk:2"]), 1))
    );
    assert_eq!(
        batch(&mut con),
        Some(("jobs:low".to_owned(), owned(&["bulk:3"]), 0))
    );
    assert_eq!(batch(&mut con), None);
}

/// The script's djb2 hash of a member id, to pick its shard.
fn djb2(id: &str) -> u64 {
    id.bytes()
        .fold(5381u64, |h, byte| (h * 33 + u64::from(byte)) % (1 << 32))
}

#[test]
fn shard_counter_sums_shards_from_a_coroutine() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let shard = |id: &str| (djb2(id) % 8) as i64;
    // The shards these ids land on, as the Rust hash says.
    assert_eq!(
        [shard("user:42"), shard("user:7"), shard("user:9")],
        [4, 5, 7]
    );
    let reply = add_to_shard("views", "user:42", 8, 5)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (4, 5, 5, 7));
    let reply = add_to_shard("views", "user:7", 8, 3)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (5, 3, 8, 6));
    let reply = add_to_shard("views", "user:42", 8, 2)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (4, 7, 10, 6));
    for i in [0, 1, 2, 3, 6, 7] {
        let () = con.set(format!("views:{i}"), 0).unwrap();
    }
    let reply = add_to_shard("views", "user:9", 8, 1)
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, (7, 1, 11, 0));

    // A shard of the wrong type fails the sum inside xpcall: an error reply
    // with the script's own code. The INCRBY before it is not rolled back.
    let () = con.del("views:1").unwrap();
    let () = con.rpush("views:1", "oops").unwrap();
    let error = add_to_shard("views", "user:9", 8, 1)
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(error.code(), Some("SHARDS"), "{error}");
    assert!(error.to_string().contains("WRONGTYPE"), "{error}");
    let shard_7: i64 = con.get("views:7").unwrap();
    assert_eq!(shard_7, 2);
}
