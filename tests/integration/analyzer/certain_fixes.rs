//! The fixes `redis-lua check --fix` applies unasked (certain ones) over
//! real scripts: every `*.lua` of the repository's corpus and of the real
//! projects `.ci/corpora` fetches into `target/corpora/` (BullMQ,
//! bee-queue), and mutants of them that inject the defects the certain
//! fixes repair.
//!
//! - A script as it is: its certain fixes, all applied, leave none of
//!   their findings and add no finding the script did not have (but for
//!   one that did not parse, whose other findings its syntax error hid).
//! - A mutant of a script that has no certain fix: one name of the
//!   sandbox (a global, a library's member) or one command name changed
//!   by a slip (a letter dropped, doubled or swapped with its neighbour,
//!   the case changed) or by one letter put for another; a `~=` written
//!   `!=`; a `not v` of a reply written `v == nil`. Its certain fixes, all
//!   applied, must give back the script as its author wrote it, byte for
//!   byte: what they evidently meant, which the server ran. A letter put
//!   for another may be another word (`rcall` is no `pcall`): such a
//!   mutant gets a suggestion, never a certain fix.
//!
//! The counts per kind of defect are printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use redis_script_analyzer::fix::FileFix;
use redis_script_analyzer::lint::{FileOptions, FileReport, check_file};
use redis_script_analyzer::{Applicability, Rule};
use redis_script_test_support::lua;

/// Mutants of each kind made of one script, at most.
const PER_KIND: usize = 3;

/// Names of the sandbox a script reads (globals, and members after a dot),
/// whose misspelling the checks report.
const SANDBOX_NAMES: &[&str] = &[
    "KEYS",
    "ARGV",
    "redis",
    "tonumber",
    "tostring",
    "unpack",
    "string",
    "table",
    "math",
    "cjson",
    "pairs",
    "ipairs",
    "type",
    "call",
    "pcall",
    "sha1hex",
    "status_reply",
    "error_reply",
    "format",
    "sub",
    "len",
    "upper",
    "lower",
    "insert",
    "concat",
    "floor",
    "ceil",
    "encode",
    "decode",
];

/// What a mutant's certain fixes made of it.
#[derive(Debug, Default)]
struct Tally {
    mutants: usize,
    /// Its defect reported, with a certain fix that gave the script back.
    restored: usize,
    /// Reported with a suggestion only, or no fix.
    offered: usize,
    /// Not reported (the changed word is another valid one, or in dead
    /// text such as a comment).
    unreported: usize,
}

fn check(path: &Path, source: &[u8]) -> FileReport {
    let display = path.to_string_lossy();
    check_file(
        &display,
        path,
        source.to_vec(),
        &mut |p| std::fs::read(p),
        &FileOptions::default(),
    )
}

/// The certain fixes of `report` in the file checked itself.
fn certain_fixes<'a>(report: &'a FileReport, path: &Path) -> Vec<&'a FileFix> {
    report
        .findings
        .iter()
        .filter(|finding| finding.file == 0)
        .flat_map(|finding| &finding.fixes)
        .filter(|fix| fix.applicability == Applicability::Certain && fix.path == path)
        .collect()
}

/// `source` with every edit of `fixes` made (overlapping ones skipped, as
/// `--fix` does).
fn apply(source: &[u8], fixes: &[&FileFix]) -> Vec<u8> {
    let mut edits: Vec<(usize, usize, &str)> = fixes
        .iter()
        .flat_map(|fix| &fix.edits)
        .map(|edit| {
            (
                edit.start.offset,
                edit.end.offset,
                edit.replacement.as_str(),
            )
        })
        .collect();
    edits.sort();
    edits.dedup();
    let mut out = Vec::new();
    let mut at = 0;
    for (start, end, replacement) in edits {
        if start < at {
            continue;
        }
        out.extend_from_slice(&source[at..start]);
        out.extend_from_slice(replacement.as_bytes());
        at = end;
    }
    out.extend_from_slice(&source[at..]);
    out
}

/// The findings of `report` by rule and message, counted.
fn tally(report: &FileReport) -> BTreeMap<(Rule, String), usize> {
    let mut counts = BTreeMap::new();
    for finding in &report.findings {
        *counts
            .entry((finding.rule, finding.message.clone()))
            .or_default() += 1;
    }
    counts
}

/// The slips of `word`: a letter dropped, doubled, swapped with the next,
/// the case changed; and one letter put for another (`rcall` for `pcall`).
fn respellings(word: &str) -> Vec<(&'static str, String)> {
    let chars: Vec<char> = word.chars().collect();
    let middle = chars.len() / 2;
    let mut out = Vec::new();
    if chars.len() >= 3 {
        let mut dropped = chars.clone();
        dropped.remove(middle);
        out.push(("a letter dropped", dropped.iter().collect()));
        let mut doubled = chars.clone();
        doubled.insert(middle, chars[middle]);
        out.push(("a letter doubled", doubled.iter().collect()));
        let mut swapped = chars.clone();
        swapped.swap(middle - 1, middle);
        if swapped != chars {
            out.push(("two letters swapped", swapped.iter().collect()));
        }
        let mut replaced = chars.clone();
        replaced[0] = if replaced[0].eq_ignore_ascii_case(&'q') {
            'z'
        } else {
            'q'
        };
        out.push(("a letter for another", replaced.iter().collect()));
    }
    let cased = if word.chars().any(|c| c.is_ascii_lowercase()) {
        word.to_ascii_uppercase()
    } else {
        word.to_ascii_lowercase()
    };
    out.push(("the case changed", cased));
    out
}

/// The mutants of `source`: each `(kind, text)`.
fn mutants(source: &str) -> Vec<(&'static str, String)> {
    let tokens = lua::token_spans(source);
    let mut by_kind: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut push = |kind: &'static str, text: String| {
        let made = by_kind.entry(kind).or_default();
        if made.len() < PER_KIND && text != source {
            made.push(text);
        }
    };
    for (index, &(start, end)) in tokens.iter().enumerate() {
        let word = &source[start..end];
        let previous = index
            .checked_sub(1)
            .map(|i| &source[tokens[i].0..tokens[i].1]);
        let after_call = index >= 2
            && matches!(previous, Some("("))
            && source[tokens[index - 2].0..tokens[index - 2].1].ends_with("call");
        let text = if SANDBOX_NAMES.contains(&word) && previous != Some("local") {
            word.to_owned()
        } else if after_call && word.len() > 4 && (word.starts_with('\'') || word.starts_with('"'))
        {
            // A command name: the text between its quotes.
            word[1..word.len() - 1].to_owned()
        } else if word == "~=" {
            push("`~=` written `!=`", splice(source, start, end, "!="));
            continue;
        } else {
            continue;
        };
        let offset = if text.len() == word.len() {
            start
        } else {
            start + 1
        };
        for (kind, respelt) in respellings(&text) {
            push(kind, splice(source, offset, offset + text.len(), &respelt));
        }
    }
    // `if not v then` written `if v == nil then`.
    let mut from = 0;
    while let Some(found) = source[from..].find("if not ") {
        let at = from + found + "if not ".len();
        let name: String = source[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && source[at + name.len()..].starts_with(" then") {
            let written = format!("if {name} == nil");
            push(
                "`not v` written `v == nil`",
                splice(source, at - "if not ".len(), at + name.len(), &written),
            );
        }
        from = at;
    }
    by_kind
        .into_iter()
        .flat_map(|(kind, texts)| texts.into_iter().map(move |text| (kind, text)))
        .collect()
}

fn splice(source: &str, start: usize, end: usize, with: &str) -> String {
    format!("{}{with}{}", &source[..start], &source[end..])
}

#[test]
fn certain_fixes_give_back_what_the_author_wrote() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = lua::corpus_files(repo);
    let before = files.len();
    lua::lua_files(&repo.join("target/corpora"), &mut files);
    let from_projects = files.len() - before;
    let mut problems = Vec::new();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut fixed_as_written = 0;
    for path in &files {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        let original = check(path, source.as_bytes());
        let fixes = certain_fixes(&original, path);
        if !fixes.is_empty() {
            // A script as it is: its findings fixed, none added.
            fixed_as_written += fixes.len();
            let fixed = apply(source.as_bytes(), &fixes);
            let after = check(path, &fixed);
            let (was, now) = (tally(&original), tally(&after));
            // A syntax error hides the rest: fixed, the rest is checked.
            let parsed = !original.findings.iter().any(|f| f.rule == Rule::Syntax);
            for (finding, count) in now.iter().filter(|_| parsed) {
                if count > was.get(finding).unwrap_or(&0) {
                    problems.push(format!("{}: fixing added {finding:?}", path.display()));
                }
            }
            if !certain_fixes(&after, path).is_empty() {
                problems.push(format!(
                    "{}: certain fixes left after fixing",
                    path.display()
                ));
            }
            continue;
        }
        for (kind, mutant) in mutants(&source) {
            let tally = tallies.entry(kind).or_default();
            tally.mutants += 1;
            let report = check(path, mutant.as_bytes());
            if report.findings.len() == original.findings.len() {
                tally.unreported += 1;
                continue;
            }
            let fixes = certain_fixes(&report, path);
            if fixes.is_empty() {
                tally.offered += 1;
                continue;
            }
            let fixed = apply(mutant.as_bytes(), &fixes);
            if fixed == source.as_bytes() {
                tally.restored += 1;
            } else {
                problems.push(format!(
                    "{}: {kind}: the certain fixes {:?} made\n{}\nof what was written\n{}",
                    path.display(),
                    fixes.iter().map(|fix| &fix.title).collect::<Vec<_>>(),
                    String::from_utf8_lossy(&fixed),
                    source
                ));
            }
        }
    }
    println!(
        "{} files ({from_projects} of real projects); {fixed_as_written} certain fixes of the \
         scripts as written",
        files.len()
    );
    for (kind, tally) in &tallies {
        println!(
            "{kind}: {} mutants, {} restored by a certain fix, {} offered a suggestion or no fix, \
             {} not reported",
            tally.mutants, tally.restored, tally.offered, tally.unreported
        );
    }
    let changed = &tallies["a letter for another"];
    assert_eq!(
        changed.restored, 0,
        "a letter for another is never fixed unasked"
    );
    assert!(
        tallies.values().map(|tally| tally.restored).sum::<usize>() > 100,
        "the mutants exercise the certain fixes: {tallies:?}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
