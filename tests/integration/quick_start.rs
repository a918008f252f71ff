//! The first example of README.md and the quick start of the crate docs,
//! each pasted into a new crate that depends on this one and on the
//! redis-rs of this build (1.8, or 2.0.0-rc.2 with `redis-2`) as the
//! install section says, built, and run against a real server.

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
fn the_readme_example_runs_in_a_new_crate() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let example = first_block(readme.lines(), "```rust");
    run_in_a_new_crate("readme-example", &example);
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
    assert!(
        block.contains(EXAMPLE_URL),
        "the example connects elsewhere:\n{block}"
    );
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
