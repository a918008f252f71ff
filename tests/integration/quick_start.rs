//! The quick start of README.md (its Lua file, its `main.rs`, the output it
//! shows) and that of the crate docs, each pasted into a new crate that
//! depends on this one as the install sections say, on the redis-rs of this
//! build, built, and run against a real server.

use redis_script::recipes::lock::{acquire_lock_script, release_lock_script};

use crate::probe::{ProbeCrate, REDIS_FEATURE, facade_dependency, repo};
use crate::server::RedisServer;

/// Where the examples connect; the test points them at its own server.
const EXAMPLE_URL: &str = "redis://127.0.0.1/";

/// The `[dependencies]` the install section gives for this build's redis-rs.
/// redis-rs's own default features are off only because a probe builds
/// offline from the workspace's lock file, which holds none of them; the
/// examples use none.
fn dependencies() -> String {
    if REDIS_FEATURE == "redis-2" {
        facade_dependency(Some("\"redis-2\", \"tokio-comp\", \"recipes\", \"json\""))
            + "redis = { version = \"=2.0.0-rc.2\", default-features = false }\n"
    } else {
        facade_dependency(None) + "redis = { version = \"1.8\", default-features = false }\n"
    }
}

#[test]
fn the_readme_quick_start_runs_in_a_new_crate_and_prints_what_it_shows() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let quick_start = readme
        .split("\n## ")
        .find(|section| section.starts_with("Quick start\n"))
        .expect("README.md has a Quick start section");
    let lua = first_block(quick_start.lines(), "```lua");
    let main_rs = first_block(quick_start.lines(), "```rust");
    let shown_output = first_block(quick_start.lines(), "```text");
    assert!(
        main_rs.contains(EXAMPLE_URL),
        "the example connects elsewhere:\n{main_rs}"
    );

    let server = RedisServer::start();
    let probe = ProbeCrate::new(
        "readme-quick-start",
        &main_rs.replace(EXAMPLE_URL, &server.url()),
    );
    // What `cargo add redis-script` and `cargo add tokio --features
    // macros,rt-multi-thread` write, on this build's redis-rs.
    let facade = if REDIS_FEATURE == "redis-2" {
        facade_dependency(Some("\"redis-2\", \"tokio-comp\", \"recipes\", \"json\""))
    } else {
        facade_dependency(None)
    };
    let tokio = "tokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }\n";
    probe.write("Cargo.toml", &probe.manifest_with(&(facade + tokio)));
    std::fs::create_dir_all(probe.path("scripts")).unwrap();
    probe.write("scripts/hit.lua", &lua);

    let output = probe.cargo("run");
    assert!(
        output.status.success(),
        "the quick start failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), shown_output);
    // Four hits counted, in a window that expires.
    let mut con = server.connection();
    let hits: i64 = redis::cmd("GET").arg("hits:ann").query(&mut con).unwrap();
    assert_eq!(hits, 4);
    let ttl: i64 = redis::cmd("TTL").arg("hits:ann").query(&mut con).unwrap();
    assert!((1..=60).contains(&ttl), "TTL {ttl}");
}

#[test]
fn the_crate_docs_quick_start_runs_in_a_new_crate() {
    let docs = std::fs::read_to_string(repo().join("src/lib.rs")).unwrap();
    // The crate docs' lines, as rustdoc reads them.
    let lines = docs
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line));
    let quick_start = first_block(lines, "```no_run");
    // What a reader sees and pastes: without the lines rustdoc hides.
    let shown: String = quick_start
        .lines()
        .filter(|line| !(line.trim_start() == "#" || line.trim_start().starts_with("# ")))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(shown.contains("fn main()"), "{shown}");
    assert!(
        shown.contains(EXAMPLE_URL),
        "the example connects elsewhere:\n{shown}"
    );
    run_in_a_new_crate("quick-start", &shown);
}

/// The text of the first code block opened by the line `fence`.
fn first_block<'a>(mut lines: impl Iterator<Item = &'a str>, fence: &str) -> String {
    lines
        .by_ref()
        .find(|line| line.trim_end() == fence)
        .unwrap_or_else(|| panic!("no block opened by {fence}"));
    let block: String = lines
        .take_while(|line| line.trim_end() != "```")
        .map(|line| format!("{line}\n"))
        .collect();
    block
}

/// Builds `main_rs` in a new crate with the recipes' lock scripts in its
/// `scripts/`, runs it against a fresh server, and checks that it called
/// both scripts and left the lock released.
fn run_in_a_new_crate(name: &str, main_rs: &str) {
    let server = RedisServer::start();
    let main_rs = main_rs.replace(EXAMPLE_URL, &server.url());
    let probe = ProbeCrate::new(name, &main_rs);
    probe.write("Cargo.toml", &probe.manifest_with(&dependencies()));
    std::fs::create_dir_all(probe.path("scripts")).unwrap();
    for file in ["lock_acquire.lua", "lock_release.lua"] {
        std::fs::copy(
            repo().join("scripts").join(file),
            probe.path("scripts").join(file),
        )
        .unwrap();
    }

    let mut con = server.connection();
    let scripts = [
        acquire_lock_script::SCRIPT.sha1(),
        release_lock_script::SCRIPT.sha1(),
    ];
    let cached = |con: &mut redis::Connection| -> Vec<bool> {
        redis::cmd("SCRIPT")
            .arg("EXISTS")
            .arg(&scripts[..])
            .query(con)
            .unwrap()
    };
    assert_eq!(cached(&mut con), [false, false]);

    let output = probe.cargo("run");
    assert!(
        output.status.success(),
        "the {name} crate failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Both calls reached this server (recovering from NOSCRIPT caches each),
    // and the lock was taken and released.
    assert_eq!(cached(&mut con), [true, true]);
    let held: bool = redis::cmd("EXISTS")
        .arg("lock:report")
        .query(&mut con)
        .unwrap();
    assert!(!held, "the example left the lock held");
}
