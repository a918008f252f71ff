//! The tool as a user runs it: its output on a corpus of bad scripts
//! (`corpus/bad/`, one mistake per rule) compared with the committed
//! `expected/` files, its exit codes, the config file, inline allows and
//! include errors. `REDIS_LUA_BLESS=1 cargo test -p redis-lua-lint` rewrites
//! the expected files from the current output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// `redis-lua ARGS` run in `dir` (relative to the corpus).
fn redis_lua(dir: &str, args: &[&str]) -> Output {
    tool()
        .args(args)
        .current_dir(corpus().join(dir))
        .output()
        .expect("the binary runs")
}

/// The binary, in an environment that says nothing of colours.
fn tool() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_redis-lua"));
    for variable in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        command.env_remove(variable);
    }
    command
}

/// A fresh folder `name` under the tests' temporary folder, with `files`
/// (path, text) written in it.
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// Compares `actual` with `expected/NAME`, or writes it there when blessing.
fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expected")
        .join(name);
    if std::env::var_os("REDIS_LUA_BLESS").is_some() {
        std::fs::write(&path, actual).expect("write the expected file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no {}: run with REDIS_LUA_BLESS=1 to write it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} differs from the expected output at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
             (REDIS_LUA_BLESS=1 rewrites it)\n--- actual output:\n{actual}",
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

#[test]
fn human_output_on_bad_scripts() {
    let output = redis_lua(".", &["check", "--no-config", "bad"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    snapshot("bad.txt", &stdout(&output));
}

#[test]
fn json_output_on_bad_scripts() {
    let output = redis_lua(".", &["check", "--no-config", "--format", "json", "bad"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    snapshot("bad.json", &text);
    let document: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(document["schema"], 1);
    assert_eq!(document["unreadable"], 0);
    let findings = document["findings"].as_array().expect("findings");
    let count = |severity: &str| {
        findings
            .iter()
            .filter(|finding| finding["severity"] == severity)
            .count()
    };
    assert_eq!(document["errors"], count("error"));
    assert_eq!(document["warnings"], count("warning"));
    let file = |path: &str| {
        document["files"]
            .as_array()
            .expect("files")
            .iter()
            .find(|file| file["path"] == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .clone()
    };
    // Its includes failed: neither a script checked nor a library.
    assert_eq!(file("bad/include_cycle.lua")["kind"], "uncomposed");
    // A header declares its keys.
    let headed = file("bad/nil_reply.lua");
    assert_eq!(
        (&headed["kind"], &headed["keys"]),
        (&"headed script".into(), &1.into())
    );
    // Every rule that is a mistake in a script appears in the corpus.
    for &rule in redis_script_analyzer::Rule::ALL {
        if rule != redis_script_analyzer::Rule::Unread {
            assert!(
                findings.iter().any(|f| f["rule"] == rule.name()),
                "no finding of `{rule}` in the corpus"
            );
        }
    }
}

#[test]
fn sarif_output_on_bad_scripts() {
    let output = redis_lua(".", &["check", "--no-config", "--format=sarif", "bad"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let mut document: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    // The working folder, which differs from machine to machine.
    let root = &mut document["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"];
    let uri = root.as_str().expect("a URI");
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/tests/corpus/"),
        "{uri}"
    );
    *root = "file:///CORPUS/".into();
    snapshot(
        "bad.sarif",
        &format!(
            "{}\n",
            serde_json::to_string_pretty(&document).expect("JSON")
        ),
    );
    assert_eq!(document["version"], "2.1.0");
    let run = &document["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    for result in run["results"].as_array().expect("results") {
        let index = result["ruleIndex"].as_u64().expect("an index") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let location = &result["locations"][0]["physicalLocation"];
        assert!(location["region"]["startLine"].as_u64() >= Some(1));
        let artifact = &location["artifactLocation"];
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
        assert!(
            artifact["uri"]
                .as_str()
                .is_some_and(|uri| uri.starts_with("bad/")),
            "{artifact}"
        );
    }
}

#[test]
fn json_lists_paths_that_cannot_be_read() {
    let output = redis_lua(
        "clean",
        &[
            "check",
            "--no-config",
            "--format",
            "json",
            "counter.lua",
            "gone.lua",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(document["unreadable"], 1);
    assert_eq!(
        document["files"][1],
        serde_json::json!({
            "path": "gone.lua",
            "kind": "unreadable",
            "keys": null,
            "error": "no such file or folder",
        })
    );
}

#[test]
fn sarif_names_files_outside_the_folder_by_absolute_uri_and_reports_unread_paths() {
    let output = redis_lua(
        "bad",
        &[
            "check",
            "--no-config",
            "--format",
            "sarif",
            "../clean/counter.lua",
            "nowhere.lua",
            "syntax.lua",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let run = &document["runs"][0];
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notifications = invocation["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    assert_eq!(notifications.len(), 1);
    assert_eq!(
        notifications[0]["message"]["text"],
        "nowhere.lua: no such file or folder"
    );
    assert_eq!(
        notifications[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "nowhere.lua"
    );
    let artifact = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "syntax.lua");
    // A clean file outside the folder has no result; an error in one does.
    let output = redis_lua(
        "clean",
        &[
            "check",
            "--no-config",
            "--format",
            "sarif",
            "../bad/syntax.lua",
        ],
    );
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let artifact =
        &document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    let uri = artifact["uri"].as_str().expect("a URI");
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/tests/corpus/bad/syntax.lua"),
        "{uri}"
    );
    assert_eq!(artifact.get("uriBaseId"), None);
}

#[test]
fn inline_allows_silence_their_rule_and_a_typo_is_an_error() {
    let output = redis_lua(".", &["check", "--no-config", "--format", "json", "bad"]);
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let in_file = |file: &str| -> Vec<String> {
        document["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["file"] == file)
            .map(|f| f["rule"].as_str().expect("a rule").to_owned())
            .collect()
    };
    assert_eq!(in_file("bad/allowed_inline.lua"), Vec::<String>::new());
    assert_eq!(in_file("bad/directive.lua"), ["directive"]);
    // A fragment reached by a script whose includes fail is not a script.
    assert_eq!(in_file("bad/lib/cycle_a.lua"), Vec::<String>::new());
    // Without its comment, the same script has a finding (`CF.ADD`, a
    // module's command, is never judged).
    let output = redis_lua(
        ".",
        &[
            "check",
            "--no-config",
            "../../tests/corpus/bad/allowed_inline.lua",
        ],
    );
    assert_eq!(output.status.code(), Some(0));
    let text = std::fs::read_to_string(corpus().join("bad/allowed_inline.lua")).expect("read");
    let bare = text.replace("-- redis-lua: allow(unknown-commands)\n", "");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("inline");
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("bare.lua"), bare).expect("write");
    let output = tool()
        .args(["check", "--no-config", "bare.lua"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output).matches("error[unknown_commands]").count(),
        1
    );
    // And `--allow` does what the comment does.
    let output = tool()
        .args([
            "check",
            "--no-config",
            "--allow",
            "unknown_commands",
            "bare.lua",
        ])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn include_errors_are_shown_at_the_directive() {
    let output = redis_lua(
        "bad",
        &[
            "check",
            "--no-config",
            "include_missing.lua",
            "include_cycle.lua",
            "include_chain.lua",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("error[include]: cannot include `lib/nowhere.lua`: no such file\n --> include_missing.lua:1:1"), "{text}");
    assert!(
        text.contains(
            "error[include]: include cycle: lib/cycle_a.lua -> lib/cycle_b.lua -> lib/cycle_a.lua"
        ),
        "{text}"
    );
    assert!(text.contains(" --> lib/helpers.lua:2:21"), "{text}");
    assert!(
        text.contains("  = included from include_chain.lua:1"),
        "{text}"
    );
}

#[test]
fn exit_codes() {
    let clean = redis_lua(".", &["check", "--no-config", "clean"]);
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    assert_eq!(
        stdout(&clean),
        "redis-lua: 4 files checked: 0 errors, 0 warnings\n"
    );
    let warned = redis_lua(".", &["check", "--no-config", "warnings"]);
    assert_eq!(warned.status.code(), Some(0));
    assert!(
        stdout(&warned)
            .contains("warning[unread]: the script never reads KEYS[2], which `shadow` fills")
    );
    let denied = redis_lua(
        ".",
        &["check", "--no-config", "--deny-warnings", "warnings"],
    );
    assert_eq!(denied.status.code(), Some(1));
    for (args, message) in [
        (&["check", "--format", "xml"][..], "unknown format `xml`"),
        (
            &["check", "--no-config", "nowhere"][..],
            "nowhere: no such file or folder",
        ),
        (
            &["check", "--config", "bad-config.toml", "clean"][..],
            "bad-config.toml:2: unknown key `alow`",
        ),
        (&["lint"][..], "unknown command `lint`"),
        (
            &["check", "--keys", "99999999999", "clean"][..],
            "`--keys 99999999999`: a script takes at most 10000 keys",
        ),
    ] {
        let output = redis_lua(".", args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn the_config_file_sets_keys_servers_allows_and_exclusions() {
    // Found in the current folder: keys = 1 makes KEYS[2] an error, the
    // unknown command is allowed, vendor/ is not checked; lib/bump.lua,
    // which only the excluded vendor/job.lua includes, is still a fragment.
    let configured = redis_lua("configured", &["check"]);
    assert_eq!(configured.status.code(), Some(1));
    assert!(!stdout(&configured).contains("lib/bump.lua"));
    snapshot("configured.txt", &stdout(&configured));
    // Named by a bare file name: its folder is the current one, and the
    // globs with `/` (`vendor/**`) match as when it is found.
    let named = redis_lua("configured", &["check", "--config", "redis-lua.toml"]);
    assert_eq!(stdout(&named), stdout(&configured));
    let named = redis_lua("configured", &["check", "--config", "./redis-lua.toml"]);
    assert_eq!(stdout(&named), stdout(&configured));
    // Without it: the key count is unknown, and everything is read.
    let bare = redis_lua("configured", &["check", "--no-config"]);
    assert_eq!(bare.status.code(), Some(1));
    snapshot("configured-no-config.txt", &stdout(&bare));
}

#[test]
fn server_tables_are_chosen_on_the_command_line() {
    // `--server` overrides the config's servers: the message names it.
    let output = redis_lua(
        "configured",
        &[
            "check",
            "--server",
            "redis-7.0",
            "--format",
            "json",
            "move.lua",
        ],
    );
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(document["errors"], 1);
    let default = redis_lua(".", &["check", "--no-config", "bad/undefined_global.lua"]);
    assert!(stdout(&default).contains("script sandbox of Redis 7.0"));
    let valkey = redis_lua(
        ".",
        &[
            "check",
            "--no-config",
            "--server",
            "valkey-9.1",
            "bad/undefined_global.lua",
        ],
    );
    assert!(
        stdout(&valkey).contains("script sandbox of Valkey 9.1"),
        "{}",
        stdout(&valkey)
    );
}

#[test]
fn help_goes_to_stdout_and_unknown_options_are_usage_errors() {
    for args in [
        &["--help"][..],
        &["check", "--help"][..],
        &["check", "-h"][..],
    ] {
        let output = redis_lua(".", args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(stdout(&output).starts_with("redis-lua"), "{args:?}");
        assert!(stdout(&output).contains("Options of check:"), "{args:?}");
        assert_eq!(stderr(&output), "", "{args:?}");
    }
    let output = redis_lua(".", &["check", "--no-config", "-x", "clean"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown option `-x`"),
        "{}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "");
}

/// The README's claim about BullMQ's style, on a corpus of our own in it
/// (`corpus/aliased/`): scripts that call through `local rcall =
/// redis.call` and share an include, with one misspelt command in the
/// include, one `KEYS[99]` and a statement after a `return`, get exactly
/// those three findings, the include's once though two scripts include it.
#[test]
fn aliased_calls_and_a_shared_include_get_exactly_their_mistakes() {
    let output = redis_lua(
        ".",
        &["check", "--no-config", "--format", "json", "aliased"],
    );
    assert_eq!(output.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let found: Vec<(&str, &str, u64)> = document["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().expect("a rule"),
                f["file"].as_str().expect("a file"),
                f["line"].as_u64().expect("a line"),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("unknown_commands", "aliased/includes/addBaseMarker.lua", 6),
            ("out_of_range", "aliased/moveToDelayed-2.lua", 12),
            ("syntax", "aliased/pause-1.lua", 9),
        ]
    );
    // The include is a fragment: four scripts, not five.
    assert_eq!(document["files"].as_array().expect("files").len(), 4);
}

#[test]
fn rules_are_listed() {
    let output = redis_lua(".", &["rules"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    for &rule in redis_script_analyzer::Rule::ALL {
        assert!(text.contains(rule.name()), "{rule}");
    }
}

/// A folder with a link back up, a link to a file and a named pipe: each
/// regular file is checked once, nothing blocks, and a link given on the
/// command line is followed.
#[cfg(unix)]
#[test]
fn folders_are_walked_without_following_links() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("walk");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("s/sub")).expect("a folder");
    std::fs::write(dir.join("s/a.lua"), "return 1\n").expect("write");
    std::fs::write(dir.join("s/sub/b.lua"), "return 2\n").expect("write");
    std::os::unix::fs::symlink("..", dir.join("s/sub/up")).expect("a link");
    std::os::unix::fs::symlink("a.lua", dir.join("s/link.lua")).expect("a link");
    let made = Command::new("mkfifo")
        .arg(dir.join("s/pipe.lua"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let run = |args: &[&str]| -> Output {
        let mut child = tool()
            .args(args)
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let started = std::time::Instant::now();
        while child.try_wait().expect("waits").is_none() {
            if started.elapsed() > std::time::Duration::from_secs(20) {
                child.kill().expect("kill");
                panic!("redis-lua {args:?} did not finish");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        child.wait_with_output().expect("output")
    };
    let output = run(&["check", "--no-config", "--format", "json", "s"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let paths: Vec<&str> = document["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("a path"))
        .collect();
    assert_eq!(paths, ["s/a.lua", "s/sub/b.lua"]);
    let output = run(&["check", "--no-config", "s/link.lua"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "redis-lua: 1 file checked: 0 errors, 0 warnings\n"
    );
    let output = run(&["check", "--no-config", "s/pipe.lua"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("s/pipe.lua: not a regular file or folder"),
        "{}",
        stderr(&output)
    );
}

/// A file is read as the server reads a script: bytes that are not UTF-8
/// in its strings and comments are no trouble, and its lines are numbered
/// as Lua numbers them, whatever their line endings.
#[test]
fn files_that_are_not_utf8_or_end_lines_in_cr_are_checked_as_the_server_reads_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bytes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(
        dir.join("latin1.lua"),
        b"-- caf\xe9\nlocal s = '\xff\xfe'\nreturn redis.call('NOPE', s)\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("cr.lua"),
        "-- one\rlocal s = 'two'\rreturn redis.call('NOPE', s)\r",
    )
    .expect("write");
    std::fs::write(dir.join("clean.lua"), b"-- \xff\nreturn '\xfe'\n").expect("write");
    let run = |args: &[&str]| -> Output {
        tool()
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("the binary runs")
    };
    let clean = run(&["check", "--no-config", "clean.lua"]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let output = run(&["check", "--no-config", "latin1.lua", "cr.lua"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    for file in ["latin1.lua", "cr.lua"] {
        assert!(text.contains(&format!(" --> {file}:3:19\n")), "{text}");
    }
    assert!(
        text.contains("3 | return redis.call('NOPE', s)\n"),
        "{text}"
    );
    let output = run(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "latin1.lua",
        "cr.lua",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(document["unreadable"], 0);
    let lines: Vec<(&str, u64)> = document["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| {
            (
                finding["file"].as_str().expect("a file"),
                finding["line"].as_u64().expect("a line"),
            )
        })
        .collect();
    assert_eq!(lines, [("latin1.lua", 3), ("cr.lua", 3)]);
}

#[test]
fn keys_not_from_keys_are_errors_on_a_cluster() {
    let rule = |text: &str, severity: &str| {
        text.lines()
            .filter(|line| line.starts_with(&format!("{severity}[undeclared_key]")))
            .count()
    };
    // Said in the config file.
    let output = redis_lua("cluster", &["check", "keys.lua"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let text = stdout(&output);
    assert_eq!(
        (rule(&text, "error"), rule(&text, "warning")),
        (1, 1),
        "{text}"
    );
    assert!(text.contains("comes from ARGV"), "{text}");
    assert!(text.contains("built from the KEYS element") || text.contains("built from KEYS[1]"));
    // On the command line, without the config.
    let output = redis_lua(
        "cluster",
        &["check", "--no-config", "--cluster", "keys.lua"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), text);
    // For one server: the key from ARGV is a warning, the key built on KEYS fine.
    let output = redis_lua("cluster", &["check", "--no-config", "keys.lua"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(
        (rule(&text, "error"), rule(&text, "warning")),
        (0, 1),
        "{text}"
    );
    let output = redis_lua(
        "cluster",
        &["check", "--no-config", "--deny-warnings", "keys.lua"],
    );
    assert_eq!(output.status.code(), Some(1));
}

/// Arguments are OsStrings: a file name that is not UTF-8 is a path like
/// any other, and an option's value that is not is a usage error (exit 2),
/// never a panic.
#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_paths_or_usage_errors() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = project("not-utf8", &[]);
    let name = OsStr::from_bytes(b"caf\xe9.lua");
    std::fs::write(dir.join(name), "return redis.call('GETT', KEYS[1])\n").expect("write");
    let run = |args: &[&OsStr]| tool().args(args).current_dir(&dir).output().expect("runs");
    let check = OsStr::new("check");
    let output = run(&[check, OsStr::new("--no-config"), name]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains(" --> caf\u{fffd}.lua:1:19\n"), "{text}");
    assert!(
        text.contains("1 | return redis.call('GETT', KEYS[1])\n"),
        "{text}"
    );
    for flag in ["--server", "--format", "--allow", "--keys", "--color"] {
        let output = run(&[check, OsStr::new(flag), OsStr::from_bytes(b"\xff")]);
        assert_eq!(output.status.code(), Some(2), "{flag}");
        assert_eq!(
            stderr(&output),
            format!("redis-lua: `{flag}` takes UTF-8 text, and `\u{fffd}` is not\n")
        );
    }
    let output = run(&[OsStr::from_bytes(b"ch\xffck")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown command `ch\u{fffd}ck`"));
}

/// `s` without its ANSI escape sequences.
fn without_colors(s: &str) -> String {
    let mut plain = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("\x1b[") {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').expect("an SGR sequence ends in m");
        rest = &after[end + 1..];
    }
    plain.push_str(rest);
    plain
}

#[test]
fn colors_follow_the_flag_and_the_environment() {
    let run = |args: &[&str], env: &[(&str, &str)]| -> String {
        let output = tool()
            .args(["check", "--no-config"])
            .args(args)
            .arg("bad/command_arity.lua")
            .envs(env.iter().copied())
            .current_dir(corpus())
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1), "{args:?} {env:?}");
        stdout(&output)
    };
    let plain = run(&[], &[]);
    assert!(!plain.contains('\x1b'), "not a terminal: {plain}");
    let colored = run(&["--color", "always"], &[]);
    // Severity and rule, carets: in colour; the text is the same.
    assert!(
        colored.contains("\x1b[1m\x1b[91merror[command_arity]\x1b[0m"),
        "{colored:?}"
    );
    assert!(
        colored.contains("\x1b[1m\x1b[91m^^^^^\x1b[0m"),
        "{colored:?}"
    );
    assert_eq!(without_colors(&colored), plain);
    for (args, env, expected) in [
        (&[][..], &[("CLICOLOR_FORCE", "1")][..], true),
        (
            &[][..],
            &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")][..],
            false,
        ),
        (&["--color=always"][..], &[("NO_COLOR", "1")][..], true),
        (
            &["--color=never"][..],
            &[("CLICOLOR_FORCE", "1")][..],
            false,
        ),
        (&["--color=auto"][..], &[("NO_COLOR", "1")][..], false),
    ] {
        let text = run(args, env);
        assert_eq!(
            text.contains('\x1b'),
            expected,
            "{args:?} {env:?}: {text:?}"
        );
        assert_eq!(without_colors(&text), plain, "{args:?} {env:?}");
    }
    // Machine formats never are.
    let json = run(&["--color", "always", "--format", "json"], &[]);
    assert!(!json.contains('\x1b'));
    let output = redis_lua(".", &["check", "--color", "sometimes"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown color choice `sometimes`"));
}

/// A tab is shown as four spaces and a wide character takes two columns,
/// and the caret counts them so: it stands under the finding. The column
/// of `-->` (and of the JSON) stays a count of characters.
#[test]
fn carets_stand_under_the_finding_on_lines_with_tabs_and_wide_characters() {
    let dir = project(
        "tabs",
        &[(
            "tabs.lua",
            "local function f()\n\tif true then\n\t\treturn redis.call('GETT', KEYS[1])\n\tend\n\
             end\nlocal s = '日本語' return redis.call('SETT', s)\n",
        )],
    );
    let output = tool()
        .args(["check", "--no-config", "tabs.lua"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let expected = "\
error[unknown_commands]: `gett` is not a Redis command, so calling it fails at run time
 --> tabs.lua:3:21
  |
3 |         return redis.call('GETT', KEYS[1])
  |                           ^^^^^^
  = note: did you mean `get`?
  = fix: replace `GETT` with `GET` (`--fix` applies it)

error[unknown_commands]: `sett` is not a Redis command, so calling it fails at run time
 --> tabs.lua:6:35
  |
6 | local s = '日本語' return redis.call('SETT', s)
  |                                      ^^^^^^
  = note: did you mean `set`?
  = fix: replace `SETT` with `SET` (`--fix` applies it)

redis-lua: 1 file checked: 2 errors, 0 warnings
";
    assert_eq!(stdout(&output), expected);
}

/// For every finding of the corpus (and on lines with tabs and wide
/// characters), the human output is the text `#[redis_script]` shows: the
/// analyzer's rendering, headed by its severity and rule.
#[test]
fn the_human_output_shows_each_finding_as_the_macro_does() {
    let tabs = project(
        "agree",
        &[
            (
                "tab.lua",
                "\tlocal x = 1\n\t\treturn redis.call('GETT', KEYS[1])\n",
            ),
            (
                "wide.lua",
                "-- 设置\nlocal s = '😀 日本' .. keys\nreturn s\n",
            ),
        ],
    );
    let mut paths: Vec<PathBuf> = ["bad", "aliased", "warnings", "cluster"]
        .iter()
        .map(|dir| corpus().join(dir))
        .collect();
    paths.push(tabs);
    let (files, missing) = redis_lua::find_files(&paths);
    assert!(missing.is_empty(), "{missing:?}");
    let run = redis_lua::check_files(&files, &redis_lua::Settings::default());
    let mut out = Vec::new();
    redis_lua::output::human(&run, &mut out, false).expect("written");
    // The macro shows no fix line (the command line adds what `--fix` does).
    let text: String = String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .filter(|line| {
            !(line.trim_start().starts_with("= fix: ") && line.ends_with("(`--fix` applies it)"))
        })
        .flat_map(|line| [line, "\n"])
        .collect();
    let mut shown = 0;
    for checked in &run.checked {
        for finding in &checked.report.findings {
            // The command line may name more scripts that include the
            // file, after the macro's lines.
            let block = format!(
                "{}[{}]: {}\n",
                finding.severity.name(),
                finding.rule,
                checked.report.rendered(finding)
            );
            assert!(
                text.contains(&block),
                "not shown as the macro shows it:\n{block}"
            );
            shown += 1;
        }
    }
    assert!(shown > 30, "{shown} findings");
    // Two tabs (8 columns) and `return redis.call(` (18); `local s = '` (11),
    // 😀 (2), a space, 日本 (4) and `' .. ` (5).
    for (line, columns, carets) in [
        ("2 |         return redis.call('GETT', KEYS[1])", 8 + 18, 6),
        ("2 | local s = '😀 日本' .. keys", 11 + 2 + 1 + 4 + 5, 4),
    ] {
        let under = format!(
            "{line}\n  | {}{}\n",
            " ".repeat(columns),
            "^".repeat(carets)
        );
        assert!(text.contains(&under), "{under}\nnot in:\n{text}");
    }
}

/// `redis-lua.toml` is TOML: literal strings, escapes, inline tables,
/// arrays over several lines, globs with `{a,b}` and `[...]`; a mistake
/// names its line.
#[test]
fn the_config_file_is_read_as_toml() {
    let dir = project(
        "toml",
        &[
            (
                "redis-lua.toml",
                "servers = [\n  'redis-7.0',   # literal\n  \"\\u0076alkey-9.1\",\n]\n\
                 exclude = ['{vendor,third_party}/**', \"gen/[ab].lua\"]\n\
                 files = { 'cmd/*.lua' = { keys = 1 }, \"cmd/take.lua\" = { allow = ['out_of_range'] } }\n",
            ),
            (
                "cmd/move.lua",
                "return redis.call('RENAME', KEYS[1], KEYS[2])\n",
            ),
            ("cmd/take.lua", "return redis.call('GET', KEYS[2])\n"),
            ("vendor/x.lua", "return redis.call('GETT', KEYS[1])\n"),
            ("third_party/y.lua", "return redis.call('GETT', KEYS[1])\n"),
            ("gen/a.lua", "return redis.call('GETT', KEYS[1])\n"),
            ("gen/c.lua", "return redis.call('GET', KEYS[1])\n"),
        ],
    );
    let output = tool()
        .args(["check", "--format", "json"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let checked: Vec<&str> = document["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("a path"))
        .collect();
    assert_eq!(checked, ["cmd/move.lua", "cmd/take.lua", "gen/c.lua"]);
    let findings: Vec<(&str, &str)> = document["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["file"].as_str().expect("a file"),
                f["rule"].as_str().expect("a rule"),
            )
        })
        .collect();
    assert_eq!(findings, [("cmd/move.lua", "out_of_range")]);
    // A mistake names the file and the line.
    std::fs::write(
        dir.join("redis-lua.toml"),
        "cluster = true\n[files.'cmd/*.lua']\nkeys = \"two\"\n",
    )
    .expect("write");
    let output = tool()
        .arg("check")
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!(
            "redis-lua: {}:3: `keys = \"two\"`: the number of keys is a whole number\n",
            dir.join("redis-lua.toml").display()
        )
    );
}
