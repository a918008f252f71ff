//! Builds Valkey's server and CLI from the vendored release tarball into
//! `OUT_DIR/bin`, and names them to the crate (`env!`).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARBALL: &str = "valkey-9.1.2.tar.gz";
/// The release tarball's SHA-1, as vendored (see README.md).
const TARBALL_SHA1: &str = "f9faa46df0782fe6237dd977b3074c5316df3558";
/// What the build makes, in the source's `src/`.
const PROGRAMS: [&str; 2] = ["valkey-server", "valkey-cli"];
/// Valkey's build options: the C library's allocator (jemalloc would add
/// most of the build time, and a test server needs none of its speed), no
/// TLS (no OpenSSL headers needed), no systemd.
const MAKE_OPTIONS: [&str; 3] = ["MALLOC=libc", "BUILD_TLS=no", "USE_SYSTEMD=no"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={TARBALL}");
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by Cargo"));
    let tarball = manifest_dir.join(TARBALL);
    let bin = out.join("bin");
    println!(
        "cargo:rustc-env=REDIS_SCRIPT_BUNDLED_VALKEY_BIN={}",
        bin.display()
    );
    // docs.rs documents the crate; it needs no server.
    if env::var_os("DOCS_RS").is_some() {
        return;
    }

    check_sha1(&tarball);
    let source = out.join("valkey");
    let _ = fs::remove_dir_all(&source);
    fs::create_dir_all(&source)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", source.display())));
    run(
        Command::new("tar")
            .arg("-xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&source)
            .arg("--strip-components=1"),
        "unpacking the Valkey source (needs `tar`)",
        &out,
    );

    let mut make = Command::new(env::var_os("MAKE").unwrap_or_else(|| "make".into()));
    make.arg("-C")
        .arg(source.join("src"))
        .args(PROGRAMS)
        .args(MAKE_OPTIONS);
    // Cargo's job slots: the build runs as parallel as Cargo allows it.
    match env::var_os("CARGO_MAKEFLAGS") {
        Some(flags) => make.env("MAKEFLAGS", flags),
        None => make.arg(format!(
            "-j{}",
            env::var("NUM_JOBS").unwrap_or_else(|_| "1".into())
        )),
    };
    run(
        &mut make,
        "building Valkey (needs `make` and a C compiler)",
        &out,
    );

    fs::create_dir_all(&bin)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", bin.display())));
    for program in PROGRAMS {
        let built = source.join("src").join(program);
        let installed = bin.join(program);
        fs::copy(&built, &installed)
            .unwrap_or_else(|e| fail(&format!("cannot copy {}: {e}", built.display())));
    }
    // The source tree is 25 MB and the objects more: only the programs stay.
    let _ = fs::remove_dir_all(&source);
}

fn check_sha1(tarball: &Path) {
    let bytes = fs::read(tarball).unwrap_or_else(|e| {
        fail(&format!(
            "cannot read the vendored {}: {e}",
            tarball.display()
        ))
    });
    let sha1 = sha1_smol::Sha1::from(&bytes).digest().to_string();
    if sha1 != TARBALL_SHA1 {
        fail(&format!(
            "the vendored {} has SHA-1 {sha1}, not the release's {TARBALL_SHA1}",
            tarball.display()
        ));
    }
}

/// Runs `command`, its output kept in a log under `out`; fails the build
/// with the log's end if it fails.
fn run(command: &mut Command, what: &str, out: &Path) {
    let log = out.join("build.log");
    let output = command.output().unwrap_or_else(|e| {
        fail(&format!(
            "{what}: cannot run {:?}: {e}",
            command.get_program()
        ))
    });
    let mut text = output.stdout;
    text.extend_from_slice(&output.stderr);
    let _ = fs::write(&log, &text);
    if !output.status.success() {
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        fail(&format!(
            "{what} failed ({}); the end of {}:\n{tail}",
            output.status,
            log.display()
        ));
    }
}

fn fail(message: &str) -> ! {
    panic!(
        "redis-script-bundled-valkey: {message}\n\
         (the `bundled` feature of redis-script-test builds Valkey from source; without \
         `make` and a C compiler, install a server instead and turn the feature off)"
    )
}
