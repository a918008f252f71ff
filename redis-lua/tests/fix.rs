//! `redis-lua check --fix` on before/after pairs: each `fixes/<case>.lua`
//! (with `lib/`, which a case includes) is copied to a fresh folder, the
//! tool fixes the folder, and each file must then be byte for byte its
//! `<case>.fixed.lua` (a case with nothing certain to fix has a twin equal
//! to it). A second `--fix` changes nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixes")
}

/// The cases: every `.lua` file under `fixes/` but the `.fixed.lua` twins,
/// relative to it.
fn cases() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![cases_dir()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the cases' folder") {
            let path = entry.expect("an entry").path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                folders.push(path);
            } else if name.ends_with(".lua") && !name.ends_with(".fixed.lua") {
                found.push(
                    path.strip_prefix(cases_dir())
                        .expect("inside")
                        .to_path_buf(),
                );
            }
        }
    }
    found.sort();
    found
}

fn twin(case: &Path) -> PathBuf {
    cases_dir().join(case.with_extension("fixed.lua"))
}

/// A fresh folder `name` holding a copy of every case.
fn copy_cases(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for case in cases() {
        let to = dir.join(&case);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("a folder");
        std::fs::copy(cases_dir().join(&case), to).expect("copy");
    }
    dir
}

fn redis_lua(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_redis-lua"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// When each case was last written.
fn modified(dir: &Path) -> Vec<std::time::SystemTime> {
    cases()
        .iter()
        .map(|case| {
            let metadata = std::fs::metadata(dir.join(case)).expect("a case");
            metadata.modified().expect("a modification time")
        })
        .collect()
}

#[test]
fn fix_turns_each_case_into_its_twin_and_then_has_nothing_left() {
    let all = cases();
    assert!(all.len() >= 10, "{all:?}");
    for case in &all {
        assert!(twin(case).is_file(), "no twin for {}", case.display());
    }
    let dir = copy_cases("fix-cases");
    let output = redis_lua(&dir, &["check", "--no-config", "--fix", "."]);
    let text = stdout(&output);
    // The file with a syntax error is left as it is, and still an error.
    assert_eq!(output.status.code(), Some(1), "{text}");
    for case in &all {
        let fixed = std::fs::read(dir.join(case)).expect("the case");
        let expected = std::fs::read(twin(case)).expect("its twin");
        assert!(
            fixed == expected,
            "{} after --fix:\n{}\n--- expected:\n{}\n--- output:\n{text}",
            case.display(),
            String::from_utf8_lossy(&fixed),
            String::from_utf8_lossy(&expected)
        );
    }
    // A line per file fixed; two fixes on one line, then the fix they let
    // the checks see (the comparison of a command known once respelt).
    for line in [
        "redis-lua: one_line.lua: 3 fixes applied\n",
        "redis-lua: lib/helper.lua: 1 fix applied\n",
        "redis-lua: not_equal.lua: 1 fix applied\n",
        "redis-lua: crlf.lua: 2 fixes applied\n",
    ] {
        assert!(text.contains(line), "{line}{text}");
    }
    assert!(!text.contains("syntax_error.lua: "), "{text}");
    assert!(text.contains("error[syntax]"), "{text}");
    assert!(!text.contains("= fix:"), "{text}");
    // Again: nothing to fix, nothing written.
    let written = modified(&dir);
    let again = redis_lua(&dir, &["check", "--no-config", "--fix", "."]);
    assert_eq!(again.status.code(), Some(1));
    assert!(!stdout(&again).contains("applied"), "{}", stdout(&again));
    assert_eq!(modified(&dir), written);
    for case in &all {
        let fixed = std::fs::read(dir.join(case)).expect("the case");
        assert!(fixed == std::fs::read(twin(case)).expect("its twin"));
    }
}

#[test]
fn without_fix_the_files_stay_and_the_fixes_are_shown() {
    let dir = copy_cases("fix-shown");
    let before = modified(&dir);
    let output = redis_lua(&dir, &["check", "--no-config", "command.lua"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("  = fix: replace `GTE` with `GET` (`--fix` applies it)\n"),
        "{}",
        stdout(&output)
    );
    assert_eq!(modified(&dir), before);
    let output = redis_lua(
        &dir,
        &[
            "check",
            "--no-config",
            "--format",
            "json",
            "--fix",
            "command.lua",
        ],
    );
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(
        document["fixed"],
        serde_json::json!([{ "file": "command.lua", "fixes": 2 }])
    );
    assert_eq!(document["findings"], serde_json::json!([]));
}
