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
        "`servers = [\"valkey-8.0\", \"valkey-8.1\", \"valkey-9.1\"]` under \
         [package.metadata.redis-script]",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}

const HASH_FIELD_EXPIRY: &str = "\
redis.call('HSET', KEYS[1], 'f', 'v')
redis.call('HEXPIRE', KEYS[1], 60, 'FIELDS', 1, 'f')
return redis.call('HGETEX', KEYS[1], 'FIELDS', 1, 'f')
";

const FIELD_MAIN_RS: &str = r#"
#[redis_script::redis_script(file = "lua/field.lua", keys = 1)]
fn field(key: &str) -> Vec<Option<String>>;

fn main() {
    println!("{}", field::SCRIPT.sha1());
}
"#;

/// The crate's own setting decides: hash field expiry compiles for a crate
/// that targets Redis 8.2 and is refused, with every server that has each
/// command, for one that targets Redis 7.0.
#[test]
fn a_crate_targeting_redis_8_2_uses_hash_field_expiry_and_one_targeting_7_0_cannot() {
    let probe = ProbeCrate::new("target-redis-8-probe", FIELD_MAIN_RS);
    probe.write("lua/field.lua", HASH_FIELD_EXPIRY);
    let targets = |keys: &str| {
        format!(
            "{}\n[package.metadata.redis-script]\nservers = [{keys}]\n",
            probe.manifest()
        )
    };

    probe.write("Cargo.toml", &targets("\"redis-8.2\""));
    let redis_8_2 = probe.cargo("build");
    assert!(
        redis_8_2.status.success(),
        "targeting Redis 8.2, HEXPIRE and HGETEX must build:\n{}",
        String::from_utf8_lossy(&redis_8_2.stderr)
    );

    probe.write("Cargo.toml", &targets("\"redis-7.0\""));
    let redis_7_0 = probe.cargo("build");
    let stderr = String::from_utf8_lossy(&redis_7_0.stderr);
    assert!(!redis_7_0.status.success(), "Redis 7.0 has no HEXPIRE");
    for expected in [
        "`hexpire` is not a command of Redis 7.0",
        "it exists on Redis 7.4, Redis 8.0, Redis 8.2 and Valkey 9.1 only",
        "`hgetex` is not a command of Redis 7.0",
        "it exists on Redis 8.0, Redis 8.2 and Valkey 9.1 only",
        "`servers = [\"redis-8.0\", \"redis-8.2\", \"valkey-9.1\"]` under \
         [package.metadata.redis-script]",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}
