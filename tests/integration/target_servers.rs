//! The target servers come from the crate's own `Cargo.toml`, and changing
//! them rebuilds the crate.
//!
//! A probe crate that targets Valkey alone
//! (`[package.metadata.redis-script] servers = ["valkey-8.1"]`) builds with
//! a script that calls `server.call`. Its `Cargo.toml` then loses the table
//! (the default: every server), and the next build must run the macro again
//! and fail on `server`: the expansion `include_bytes!`s the manifest, which
//! is what makes Cargo rebuild (no server needed: only compile-time checks).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

const MAIN_RS: &str = r#"
#[redis_script::redis_script(file = "lua/probe.lua", keys = 1)]
fn probe(key: &str) -> Option<String>;

fn main() {
    println!("{}", probe::SCRIPT.sha1());
}
"#;

const SCRIPT: &str = "return server.call('GET', KEYS[1])\n";

const VALKEY_ONLY: &str = "\n[package.metadata.redis-script]\n\
                           # Valkey's `server` table is used on purpose.\n\
                           servers = [\n    \"valkey-8.1\",\n]\n";

#[test]
fn the_cargo_toml_setting_reaches_the_macro_and_a_change_rebuilds() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = scratch_dir();
    let manifest = format!(
        "[package]\nname = \"target-servers-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nredis-script = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        repo.display().to_string()
    );
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::create_dir_all(project.join("lua")).unwrap();
    std::fs::write(project.join("src/main.rs"), MAIN_RS).unwrap();
    std::fs::write(project.join("lua/probe.lua"), SCRIPT).unwrap();
    // The workspace's lock file: the same versions, resolved without a network.
    std::fs::copy(repo.join("Cargo.lock"), project.join("Cargo.lock")).unwrap();
    // Shared with the rebuild test: the dependencies are built once.
    let target = repo.join("target").join("rebuild-probe");

    write_later(
        &project.join("Cargo.toml"),
        &format!("{manifest}{VALKEY_ONLY}"),
    );
    let valkey = build(&project, &target);
    assert!(
        valkey.status.success(),
        "targeting Valkey alone, `server.call` must build:\n{}",
        String::from_utf8_lossy(&valkey.stderr)
    );

    write_later(&project.join("Cargo.toml"), &manifest);
    let default = build(&project, &target);
    let stderr = String::from_utf8_lossy(&default.stderr);
    assert!(
        !default.status.success(),
        "with the default targets the crate must be rebuilt and fail"
    );
    for expected in [
        "`server` is not a global of the script sandbox of Redis 7.0.15",
        "it exists on Valkey 8.1 only",
        "[package.metadata.redis-script] servers = [\"valkey-8.1\"]",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
    std::fs::remove_dir_all(&project).unwrap();
}

/// Writes `path` with a modification time later than any build so far,
/// however coarse the file system's clock.
fn write_later(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let later = SystemTime::now() + Duration::from_secs(2);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

fn build(project: &Path, target: &Path) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    Command::new(cargo)
        .args(["build", "--quiet", "--offline", "--manifest-path"])
        .arg(project.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap()
}

fn scratch_dir() -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!(
        "redis-script-target-servers-{}-{nanos}",
        std::process::id()
    ))
}
