//! A small crate, built by a test, that depends on this one: for what only a
//! real build shows (what Cargo rebuilds, what the macro reads from disk).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

/// The feature that picks the redis-rs these tests are built with, for a
/// probe to build on the same one.
pub const REDIS_FEATURE: &str = if cfg!(feature = "redis-2") {
    "redis-2"
} else {
    "redis-1"
};

/// A crate in a fresh temporary directory, removed on drop.
pub struct ProbeCrate {
    dir: PathBuf,
    name: String,
    /// The manifest without additions: the package and its dependency.
    manifest: String,
}

/// The `[dependencies]` line on this crate: with its default features
/// (`None`), or without them and with `features` (a TOML list's items).
pub fn facade_dependency(features: Option<&str>) -> String {
    let path = repo().display().to_string();
    match features {
        None => format!("redis-script = {{ path = {path:?} }}\n"),
        Some(features) => format!(
            "redis-script = {{ path = {path:?}, default-features = false, features = [{features}] }}\n"
        ),
    }
}

impl ProbeCrate {
    /// Creates the crate `name` with `main_rs` and the workspace's lock
    /// file (the same versions, resolved without a network).
    pub fn new(name: &str, main_rs: &str) -> ProbeCrate {
        let repo = repo();
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "redis-script-{name}-{}-{nanos}",
            std::process::id()
        ));
        let mut probe = ProbeCrate {
            dir,
            name: name.to_owned(),
            manifest: String::new(),
        };
        probe.manifest =
            probe.manifest_with(&facade_dependency(Some(&format!("{REDIS_FEATURE:?}"))));
        std::fs::create_dir_all(probe.dir.join("src")).unwrap();
        std::fs::create_dir_all(probe.dir.join("lua")).unwrap();
        std::fs::write(probe.dir.join("src/main.rs"), main_rs).unwrap();
        std::fs::copy(repo.join("Cargo.lock"), probe.dir.join("Cargo.lock")).unwrap();
        probe.write("Cargo.toml", &probe.manifest);
        probe
    }

    /// `relative` inside the crate's directory.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// The manifest as [`new`](Self::new) wrote it.
    pub fn manifest(&self) -> &str {
        &self.manifest
    }

    /// This crate's manifest with `dependencies` (whole lines) as its
    /// `[dependencies]`.
    pub fn manifest_with(&self, dependencies: &str) -> String {
        format!(
            "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\n{dependencies}\n[workspace]\n",
            self.name
        )
    }

    /// Writes `path` (relative to the crate, its folders made as needed)
    /// with a modification time later than any build so far, however
    /// coarse the file system's clock, so that Cargo sees the change.
    pub fn write(&self, path: &str, text: &str) {
        let path = self.dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let later = SystemTime::now() + Duration::from_secs(2);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(later)
            .unwrap();
    }

    /// Runs `cargo <command> --quiet --offline` on the crate. Every probe
    /// shares one target dir of its own: the dependencies are built once,
    /// and it never waits on the lock of the outer build.
    pub fn cargo(&self, command: &str) -> Output {
        self.cargo_with_args(command, &[])
    }

    /// [`cargo`](Self::cargo) with `args` after the command's own (for
    /// `run`: `--` and the program's arguments).
    pub fn cargo_with_args(&self, command: &str, args: &[&str]) -> Output {
        self.command(command, true).args(args).output().unwrap()
    }

    /// [`cargo`](Self::cargo) without `--offline`: for a probe that uses
    /// crates the outer build did not need, which Cargo then downloads
    /// once, at the versions of the lock file.
    pub fn cargo_downloading(&self, command: &str) -> Output {
        self.command(command, false).output().unwrap()
    }

    /// The `cargo <command> --quiet [--offline]` of [`cargo`](Self::cargo),
    /// to add arguments and environment to.
    pub fn command(&self, command: &str, offline: bool) -> Command {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cargo = Command::new(cargo);
        cargo.args([command, "--quiet"]);
        if offline {
            cargo.arg("--offline");
        }
        cargo
            .arg("--manifest-path")
            .arg(self.dir.join("Cargo.toml"))
            .env(
                "CARGO_TARGET_DIR",
                repo().join("target").join("rebuild-probe"),
            );
        cargo
    }
}

impl Drop for ProbeCrate {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The compiler's errors in a build's `stderr` (not Cargo's summary lines).
pub fn compiler_errors(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|line| line.starts_with("error") && !line.starts_with("error: could not compile"))
        .count()
}

/// The repository: this crate's manifest directory.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
