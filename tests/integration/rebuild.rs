//! Editing a Lua file rebuilds the crate that binds it.
//!
//! Cargo does not see files a proc macro reads; the expansion `include_str!`s
//! the script, which Cargo does track. This test builds a small crate, edits
//! its script, builds again, and checks that the binary now embeds the new
//! SHA1, the same one the server computes.

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
        let output = probe.cargo("run");
        assert!(
            output.status.success(),
            "building the probe crate failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let embedded = String::from_utf8(output.stdout).unwrap().trim().to_owned();
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
        let output = probe.cargo("run");
        assert!(
            output.status.success(),
            "building the probe crate failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(names(&probe).lines().collect::<Vec<_>>(), ["first"]);
    probe.write(
        "lua/second.lua",
        "---@key k string\n---@return string?\nreturn redis.call('GET', KEYS[1])\n",
    );
    assert_eq!(
        names(&probe).lines().collect::<Vec<_>>(),
        ["first", "second"]
    );
}

const INCLUDING_MAIN_RS: &str = r#"
#[redis_script::redis_script(file = "lua/probe.lua", keys = 0)]
fn probe() -> i64;

fn main() {
    println!("{}", probe::SCRIPT.sha1());
}
"#;

#[test]
fn editing_an_included_file_rebuilds_and_changes_the_embedded_sha1() {
    let probe = ProbeCrate::new("include-probe", INCLUDING_MAIN_RS);
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
        let output = probe.cargo("run");
        assert!(
            output.status.success(),
            "building the probe crate failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let embedded = String::from_utf8(output.stdout).unwrap().trim().to_owned();
        // The composed text: the include's line replaced by the helper.
        let composed = format!("{}\nreturn value()\n", helper.trim_end());
        let expected: String = redis::cmd("SCRIPT")
            .arg("LOAD")
            .arg(&composed)
            .query(&mut con)
            .unwrap();
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
