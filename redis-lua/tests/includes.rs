//! How `check_files` treats files that include each other: a script is
//! checked with what it includes, and an included file only there, in
//! whatever order the files are found.

use std::path::{Path, PathBuf};

use redis_lua::{Settings, check_files, find_files};

/// A fresh folder `name` under the test's temporary folder.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

fn found(dir: &Path) -> Vec<(String, PathBuf)> {
    let (files, missing) = find_files(&[dir.display().to_string()]);
    assert!(missing.is_empty(), "{missing:?}");
    files
}

fn names(run: &redis_lua::Run) -> Vec<String> {
    run.checked
        .iter()
        .map(|checked| {
            let name = checked.path.file_name().expect("a file name");
            name.to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn a_long_chain_is_one_script_whichever_file_is_found_first() {
    // The script sorts last: every file it reaches is found before it.
    let dir = folder("chain");
    let count = 1_000;
    let name = |i: usize| format!("c{:04}", count - 1 - i);
    for i in 0..count {
        let mut text = String::new();
        if i == 0 {
            text.push_str("local n = 0\n");
        }
        if i + 1 < count {
            text.push_str(&format!("--- @include \"{}\"\n", name(i + 1)));
        }
        text.push_str(if i == 0 { "return n\n" } else { "n = n + 1\n" });
        write(&dir, &format!("{}.lua", name(i)), &text);
    }
    let run = check_files(&found(&dir), &Settings::default());
    assert_eq!(names(&run), ["c0999.lua"]);
    assert_eq!(run.included, count - 1);
    let report = &run.checked[0].report;
    assert_eq!(report.included.len(), count - 1);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn scripts_are_reported_in_the_order_found() {
    let dir = folder("order");
    write(&dir, "a.lua", "return 1\n");
    write(&dir, "b.lua", "--- @include \"z\"\nreturn z\n");
    write(&dir, "m.lua", "return redis.call('GETT', KEYS[1])\n");
    write(&dir, "z.lua", "local z = 1\n");
    let run = check_files(&found(&dir), &Settings::default());
    assert_eq!(names(&run), ["a.lua", "b.lua", "m.lua"]);
    assert_eq!(run.included, 1);
    let rules: Vec<usize> = run
        .checked
        .iter()
        .map(|c| c.report.findings.len())
        .collect();
    assert_eq!(rules, [0, 0, 1]);
}

#[test]
fn files_that_include_each_other_are_fragments_of_each_other() {
    // Each one's composition fails, reaching the other: both are fragments,
    // as when they were checked one after the other.
    let dir = folder("cycle");
    write(&dir, "a.lua", "--- @include \"b\"\nreturn 1\n");
    write(&dir, "b.lua", "--- @include \"a\"\nreturn 2\n");
    let run = check_files(&found(&dir), &Settings::default());
    assert!(run.checked.is_empty(), "{:?}", names(&run));
    assert_eq!(run.included, 2);
    // A script including the cycle is checked, with the cycle's error.
    write(&dir, "main.lua", "--- @include \"a\"\nreturn 0\n");
    let run = check_files(&found(&dir), &Settings::default());
    assert_eq!(names(&run), ["main.lua"]);
    let findings = &run.checked[0].report.findings;
    assert_eq!(findings.len(), 1);
    assert!(
        findings[0].message.contains("include cycle"),
        "{findings:?}"
    );
}
