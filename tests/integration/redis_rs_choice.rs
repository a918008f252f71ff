//! Who picks the redis-rs: the application. A library depends on
//! redis-script with `default-features = false` and names no redis-rs
//! feature; an application on redis 1.x and one on redis 2.0 both build on
//! it; an application that picks none gets one error that says what to
//! write; and a library that does name `redis-1` does not keep an
//! application from picking `redis-2` (both on: 2.0 is used).
//!
//! Each case is a probe crate built with Cargo, offline, on the workspace's
//! lock file (see `probe.rs`).

use crate::probe::{ProbeCrate, compiler_errors, facade_dependency};
use crate::server::RedisServer;

/// The library's manifest: redis-script as the guide tells libraries to
/// depend on it, with `features` (a TOML list's items) beside no redis-rs.
fn library_manifest(features: &str) -> String {
    format!(
        "[package]\nname = \"hit-counter\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\n{}",
        facade_dependency(Some(features))
    )
}

const LIBRARY_RS: &str = r#"
//! A library on redis-script that leaves the choice of redis-rs to its users.

use redis_script::redis;

/// Counts a visit of `key`; replies the visits so far.
#[redis_script::redis_script(file = "lua/hit.lua", keys = 1)]
pub fn hit(key: &str) -> i64;

/// The library's own API, on the connection type of whichever redis-rs the
/// application picked.
pub fn visits(con: &mut redis::Connection, key: &str) -> Result<i64, redis_script::Error> {
    hit(key).invoke(con)
}
"#;

const HIT_LUA: &str = "return redis.call('INCR', KEYS[1])\n";

/// The application: calls the library's binding, and says which redis-rs
/// `redis_script::redis` is by a conversion that differs between them.
const APPLICATION_RS: &str = r#"
use redis_script::redis::{self, FromRedisValue};

fn main() {
    let url = std::env::args().nth(1).expect("the server's URL");
    let mut con = redis::Client::open(url).unwrap().get_connection().unwrap();
    // redis-rs 2.0 refuses -1 as a u32, 1.x wraps it.
    let major = if u32::from_redis_value(redis::Value::Int(-1)).is_err() { "2.0" } else { "1.x" };
    let visits = hit_counter::visits(&mut con, "visits").unwrap();
    println!("{major} {visits}");
}
"#;

/// The application's `[dependencies]`: the library, and redis-script with
/// the redis-rs it picks.
fn application_dependencies(redis_feature: &str) -> String {
    format!(
        "hit-counter = {{ path = \"hit-counter\" }}\n{}",
        facade_dependency(Some(&format!("{redis_feature:?}")))
    )
}

#[test]
fn a_library_that_names_no_redis_rs_serves_applications_on_1_x_and_2_0() {
    let server = RedisServer::start();
    let url = server.url();
    let probe = ProbeCrate::new("redis-choice-application", APPLICATION_RS);
    probe.write("hit-counter/Cargo.toml", &library_manifest(""));
    probe.write("hit-counter/src/lib.rs", LIBRARY_RS);
    probe.write("hit-counter/lua/hit.lua", HIT_LUA);

    let run = |redis_feature: &str| {
        let manifest = probe.manifest_with(&application_dependencies(redis_feature));
        probe.write("Cargo.toml", &manifest);
        let output = probe.cargo_with_args("run", &["--", &url]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{redis_feature}:\n{stderr}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(run("redis-1"), "1.x 1\n");
    assert_eq!(run("redis-2"), "2.0 2\n");

    // A library that names `redis-1` anyway: with the application's
    // `redis-2`, both are on, and 2.0 is the one used.
    probe.write("hit-counter/Cargo.toml", &library_manifest("\"redis-1\""));
    assert_eq!(run("redis-2"), "2.0 3\n");
}

#[test]
fn an_application_that_picks_no_redis_rs_gets_one_error_saying_what_to_write() {
    let probe = ProbeCrate::new("redis-choice-none", "fn main() {}\n");
    let manifest = probe.manifest_with(&facade_dependency(Some("\"tokio-comp\"")));
    probe.write("Cargo.toml", &manifest);
    let output = probe.cargo("check");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success(), "built without a redis-rs");
    assert_eq!(compiler_errors(&stderr), 1, "{stderr}");
    for expected in [
        "error: redis-script: no redis-rs is chosen.",
        "`features = [\"redis-1\", ...]` for redis 1.x",
        "`[\"redis-2\", ...]` for redis 2.0",
        "A library leaves both off (`default-features = false`)",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}
