//! The target servers come from the crate's own `Cargo.toml`, and changing
//! them rebuilds the crate.
//!
//! A probe crate that targets Valkey alone
//! (`[package.metadata.redis-script] servers = ["valkey-8.1", "valkey-9.1"]`) builds with
//! a script that calls `server.call`. Its `Cargo.toml` then loses the table
//! (the default: every server), and the next build must run the macro again
//! and fail on `server`: the expansion `include_bytes!`s the manifest, which
//! is what makes Cargo rebuild (no server needed: only compile-time checks).

use crate::probe::ProbeCrate;

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
                           servers = [\n    \"valkey-8.1\",\n    \"valkey-9.1\",\n]\n";

#[test]
fn the_cargo_toml_setting_reaches_the_macro_and_a_change_rebuilds() {
    let probe = ProbeCrate::new("target-servers-probe", MAIN_RS);
    probe.write("lua/probe.lua", SCRIPT);

    probe.write("Cargo.toml", &format!("{}{VALKEY_ONLY}", probe.manifest()));
    let valkey = probe.cargo("build");
    assert!(
        valkey.status.success(),
        "targeting Valkey alone, `server.call` must build:\n{}",
        String::from_utf8_lossy(&valkey.stderr)
    );

    probe.write("Cargo.toml", probe.manifest());
    let default = probe.cargo("build");
    let stderr = String::from_utf8_lossy(&default.stderr);
    assert!(
        !default.status.success(),
        "with the default targets the crate must be rebuilt and fail"
    );
    for expected in [
        "`server` is not a global of the script sandbox of Redis 7.0.15",
        "it exists on Valkey 8.0, Valkey 8.1 and Valkey 9.1 only",
        "[package.metadata.redis-script] servers = [\"valkey-8.0\", \"valkey-8.1\", \"valkey-9.1\"]",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}
