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
