//! Editing a Lua file rebuilds the crate that binds it.
//!
//! Cargo does not see files a proc macro reads; the expansion `include_str!`s
//! the script, which Cargo does track. This test builds a small crate, edits
//! its script, builds again, and checks that the binary now embeds the new
//! SHA1, the same one the server computes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use crate::server::RedisServer;

const MAIN_RS: &str = r#"
#[redis_script::redis_script(file = "lua/probe.lua", keys = 0)]
fn probe() -> i64;

fn main() {
    println!("{}", probe::SCRIPT.sha1());
}
"#;

#[test]
fn editing_the_script_rebuilds_and_changes_the_embedded_sha1() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = scratch_dir();
    let manifest = format!(
        "[package]\nname = \"rebuild-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nredis-script = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        repo.display().to_string()
    );
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::create_dir_all(project.join("lua")).unwrap();
    std::fs::write(project.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(project.join("src/main.rs"), MAIN_RS).unwrap();
    // The workspace's lock file: the same versions, resolved without a network.
    std::fs::copy(repo.join("Cargo.lock"), project.join("Cargo.lock")).unwrap();
    // Its own target dir, so it never waits on the lock of the outer build.
    let target = repo.join("target").join("rebuild-probe");

    let server = RedisServer::start();
    let mut con = server.connection();
    let mut previous = None;
    for source in ["return 1\n", "return 2\n"] {
        let script = project.join("lua/probe.lua");
        std::fs::write(&script, source).unwrap();
        // Later than any build so far, however coarse the file system's clock.
        let later = SystemTime::now() + Duration::from_secs(2);
        std::fs::File::options()
            .write(true)
            .open(&script)
            .unwrap()
            .set_modified(later)
            .unwrap();

        let embedded = build_and_run(&project, &target);
        let expected: String = redis::cmd("SCRIPT")
            .arg("LOAD")
            .arg(source)
            .query(&mut con)
            .unwrap();
        assert_eq!(embedded, expected, "binary built from {source:?}");
        assert_ne!(
            Some(&embedded),
            previous.as_ref(),
            "the edit must change the binary"
        );
        previous = Some(embedded);
    }
    std::fs::remove_dir_all(&project).unwrap();
}

fn build_and_run(project: &Path, target: &Path) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--offline", "--manifest-path"])
        .arg(project.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "building the probe crate failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

fn scratch_dir() -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!(
        "redis-script-rebuild-{}-{nanos}",
        std::process::id()
    ))
}
