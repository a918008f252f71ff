//! Editing a Lua file, or a file it includes, rebuilds the crate that binds
//! it; adding a script to a folder bound by `scripts!` does too, with the
//! build script its docs ask for.
//!
//! Cargo does not see files a proc macro reads; the expansion `include_str!`s
//! the script (and `include_bytes!`s what it includes), which Cargo does
//! track. These tests build a small crate, edit its Lua, build again, and
//! check that the binary now embeds the new SHA1, the same one the server
//! computes.

use crate::probe::ProbeCrate;
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
    let probe = ProbeCrate::new("rebuild-probe", MAIN_RS);
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut previous = None;
    for source in ["return 1\n", "return 2\n"] {
        probe.write("lua/probe.lua", source);
        let embedded = run_probe(&probe);
        assert_eq!(
            embedded,
            server_sha1(&mut con, source),
            "binary built from {source:?}"
        );
        assert_ne!(
            Some(&embedded),
            previous.as_ref(),
            "the edit must change the binary"
        );
        previous = Some(embedded);
    }
}

const FOLDER_MAIN_RS: &str = r#"
redis_script::scripts!(mod lua = "lua");

fn main() {
    for script in redis_script::registry::scripts() {
        println!("{}", script.name());
    }
}
"#;

/// What `scripts!`'s documentation asks of a crate: a build script that
/// makes Cargo watch the folder, since a macro cannot.
const FOLDER_BUILD_RS: &str = r#"
fn main() {
    println!("cargo:rerun-if-changed=lua");
}
"#;

#[test]
fn adding_a_script_to_a_bound_folder_rebuilds_and_binds_it() {
    let probe = ProbeCrate::new("folder-probe", FOLDER_MAIN_RS);
    probe.write("build.rs", FOLDER_BUILD_RS);
    probe.write("lua/first.lua", "---@return integer\nreturn 1\n");
    let names = |probe: &ProbeCrate| {
        run_probe(probe)
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&probe), ["first"]);
    probe.write(
        "lua/second.lua",
        "---@key k string\n---@return string?\nreturn redis.call('GET', KEYS[1])\n",
    );
    assert_eq!(names(&probe), ["first", "second"]);
}

#[test]
fn editing_an_included_file_rebuilds_and_changes_the_embedded_sha1() {
    let probe = ProbeCrate::new("include-probe", MAIN_RS);
    probe.write(
        "lua/probe.lua",
        "--- @include \"lib/value\"\nreturn value()\n",
    );
    std::fs::create_dir_all(probe.path("lua/lib")).unwrap();
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut previous = None;
    for value in ["1", "2"] {
        let helper = format!("local function value() return {value} end\n");
        probe.write("lua/lib/value.lua", &helper);
        let embedded = run_probe(&probe);
        // The composed text: the include's line replaced by the helper.
        let composed = format!("{}\nreturn value()\n", helper.trim_end());
        let expected = server_sha1(&mut con, &composed);
        assert_eq!(
            embedded, expected,
            "binary built with the helper {helper:?}"
        );
        assert_ne!(
            Some(&embedded),
            previous.as_ref(),
            "the edit must change the binary"
        );
        previous = Some(embedded);
    }
}

/// Builds and runs the probe crate; what it printed, trimmed.
fn run_probe(probe: &ProbeCrate) -> String {
    let output = probe.cargo("run");
    assert!(
        output.status.success(),
        "building the probe crate failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// The SHA1 the server computes for `source`.
fn server_sha1(con: &mut redis::Connection, source: &str) -> String {
    redis::cmd("SCRIPT")
        .arg("LOAD")
        .arg(source)
        .query(con)
        .unwrap()
}
