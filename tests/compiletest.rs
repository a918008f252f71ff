//! The compile-time diagnostics of `#[redis_script]`, as trybuild snapshots.
//!
//! `tests/ui/*.rs` (mistakes in the declaration), `tests/ui/checks/*.rs`
//! (mistakes in the Lua, one per check), `tests/ui/seeds/*.rs` (the real
//! bugs of the scripts this project grew from) and `tests/ui/test_attr/*.rs`
//! (mistakes in a `#[redis_script::test]`) must fail to compile with
//! exactly the neighbouring `.stderr`; `tests/ui/pass/*.rs` must compile and run. Regenerate the
//! snapshots with `TRYBUILD=overwrite cargo test --test compiletest`, then
//! read every changed `.stderr`.
//!
//! trybuild compiles each case in a generated crate under
//! `<target>/tests/trybuild/redis-script/`, which is that crate's
//! `CARGO_MANIFEST_DIR`. Links there to this crate's `scripts/` and `tests/`
//! let the cases name Lua files exactly as a user would
//! (`file = "scripts/lock_acquire.lua"`).

use std::path::{Path, PathBuf};
use std::{env, fs, io};

#[test]
#[cfg_attr(
    feature = "fred",
    ignore = "the snapshots are rustc's words in a build without fred: with fred in the \
              crate graph rustc names some types by their path (`redis_script::redis::Pipeline`); \
              the runs without the feature check them"
)]
fn ui() {
    link_fixtures();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.compile_fail("tests/ui/checks/*.rs");
    t.compile_fail("tests/ui/seeds/*.rs");
    t.compile_fail("tests/ui/headers/*.rs");
    t.compile_fail("tests/ui/functions/*.rs");
    t.compile_fail("tests/ui/includes/*.rs");
    t.compile_fail("tests/ui/test_attr/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

/// Directories of this crate that the generated crate sees as its own.
const LINKED: &[&str] = &["scripts", "tests"];

fn link_fixtures() {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let project_dir = target_dir(&manifest_dir)
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"));
    fs::create_dir_all(&project_dir)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", project_dir.display()));
    for name in LINKED {
        let link = project_dir.join(name);
        let original = manifest_dir.join(name);
        ensure_link(&original, &link).unwrap_or_else(|error| {
            panic!(
                "cannot link {} to {}: {error}",
                link.display(),
                original.display()
            )
        });
    }
}

/// The target directory trybuild uses: cargo's, as this test binary was
/// built into it.
fn target_dir(manifest_dir: &Path) -> PathBuf {
    let dir = env::var_os("CARGO_TARGET_DIR")
        .or_else(|| env::var_os("CARGO_BUILD_TARGET_DIR"))
        .map_or_else(|| manifest_dir.join("target"), PathBuf::from);
    // Cargo resolves a relative target dir against the directory it was
    // started in, which this process cannot know; insist on the one it can
    // check: the test binary itself lives under the target dir.
    let exe = env::current_exe().and_then(fs::canonicalize);
    let canonical = fs::canonicalize(&dir);
    match (exe, canonical) {
        (Ok(exe), Ok(canonical)) if exe.starts_with(&canonical) => canonical,
        _ => panic!(
            "compiletest: cannot tell cargo's target directory (tried {}); \
             set CARGO_TARGET_DIR to an absolute path",
            dir.display()
        ),
    }
}

/// Makes `link` a symlink to `original`, leaving a correct one alone and
/// replacing one that points elsewhere (another checkout sharing the target
/// directory, say).
fn ensure_link(original: &Path, link: &Path) -> io::Result<()> {
    match fs::read_link(link) {
        Ok(existing) if existing == original => return Ok(()),
        Ok(_) => remove_link(link)?,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    symlink_dir(original, link)
}

#[cfg(unix)]
fn symlink_dir(original: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(original, link)
}

#[cfg(windows)]
fn symlink_dir(original: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_dir(original, link)
}

#[cfg(unix)]
fn remove_link(link: &Path) -> io::Result<()> {
    fs::remove_file(link)
}

#[cfg(windows)]
fn remove_link(link: &Path) -> io::Result<()> {
    fs::remove_dir(link)
}
