//! The findings, written for people ([`human()`]), as JSON ([`json()`]) or as
//! SARIF 2.1.0 for code-scanning tools ([`sarif()`]).

use std::io::{self, Write};
use std::path::{Component, Path};

use redis_script_analyzer::fix::{Applicability, FileEdit, FileFix, Position};
use redis_script_analyzer::lint::{FileKind, FileReport, Finding};
use redis_script_analyzer::report::Style;
use redis_script_analyzer::{Rule, Severity, compose};
use serde_json::{Value, json};

use crate::check::Run;

/// Where the rules are documented, for SARIF's `helpUri`.
const DOCS: &str = "https://github.com/redis-script/redis-script#the-command-line-tool-redis-lua";

/// Each finding of the run, with the report that holds its file's text,
/// and every script that includes its file with it (for a finding in the
/// file checked, none).
fn findings(run: &Run) -> impl Iterator<Item = (&FileReport, &Finding, Vec<(&str, usize)>)> {
    run.checked.iter().flat_map(|checked| {
        let report = &checked.report;
        report
            .findings
            .iter()
            .enumerate()
            .map(move |(index, finding)| (report, finding, checked.included_from(index)))
    })
}

/// The finding's certain fix, the one `--fix` applies.
pub(crate) fn certain_fix(finding: &Finding) -> Option<&FileFix> {
    finding
        .fixes
        .iter()
        .find(|fix| fix.applicability == Applicability::Certain)
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

/// "1 fix applied", "2 fixes applied" to `file`.
fn applied(file: &str, count: usize) -> String {
    let fixes = if count == 1 { "fix" } else { "fixes" };
    format!("{file}: {count} {fixes} applied")
}

/// Each finding as the macro shows it, headed `error[rule]:` (coloured
/// when `colored`), with the fix `--fix` would apply; then, after `--fix`,
/// what it applied to each file; then a summary.
pub fn human(run: &Run, out: &mut dyn Write, colored: bool) -> io::Result<()> {
    for (report, finding, includers) in findings(run) {
        let mut snippet = report.snippet(finding);
        // Every script that includes the finding's file with it (a
        // composition's error says how the file was reached itself).
        if report.kind != FileKind::Uncomposed {
            snippet = snippet.included_from(includers);
        }
        if let Some(fix) = certain_fix(finding) {
            snippet = snippet.aside(format!("fix: {} (`--fix` applies it)", fix.title));
        }
        writeln!(out, "{}\n", snippet.render(Style::Terminal { colored }))?;
    }
    for fixed in &run.fixed {
        writeln!(out, "redis-lua: {}", applied(&fixed.file, fixed.fixes))?;
    }
    let mut checked = plural(run.checked.len(), "file");
    let libraries = run.libraries();
    if libraries > 0 {
        checked.push_str(&format!(" ({} of them Functions libraries)", libraries));
    }
    let mut aside = Vec::new();
    if run.included > 0 {
        aside.push(format!(
            "{} checked where included",
            plural(run.included, "file")
        ));
    }
    if run.excluded > 0 {
        aside.push(format!(
            "{} excluded by the config",
            plural(run.excluded, "file")
        ));
    }
    let aside = if aside.is_empty() {
        String::new()
    } else {
        format!("; {}", aside.join(", "))
    };
    writeln!(
        out,
        "redis-lua: {checked} checked{aside}: {}, {}",
        plural(run.count(Severity::Error), "error"),
        plural(run.count(Severity::Warning), "warning")
    )
}

/// The version of the JSON document's format ([`json()`]): raised when a
/// field changes meaning or goes away (a new field does not raise it).
pub const JSON_SCHEMA: u32 = 1;

/// One JSON document (format [`JSON_SCHEMA`], described in the README): the
/// counts, every file with what it was checked as (or why it could not be
/// read), and every finding with its place.
pub fn json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let findings: Vec<Value> = findings(run)
        .map(|(report, finding, includers)| {
            let ((line, column), (end_line, end_column)) = report.line_column(finding);
            json!({
                "file": report.file(finding).display,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "rule": finding.rule.name(),
                "severity": finding.severity.name(),
                "message": finding.message,
                "note": finding.note,
                "fix": certain_fix(finding).map(|fix| json!({
                    "title": fix.title,
                    "edits": fix.edits.iter().map(json_edit).collect::<Vec<_>>(),
                })),
                "included_from": includers
                    .into_iter()
                    .map(|(file, line)| json!({ "file": file, "line": line }))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut files: Vec<Value> = run
        .checked
        .iter()
        .map(|checked| {
            let (kind, keys) = match checked.report.kind {
                FileKind::Headed(keys) => ("headed script", Some(keys)),
                FileKind::Keyed(keys) => ("script", Some(keys)),
                FileKind::Unkeyed => ("script", None),
                FileKind::Library => ("library", None),
                FileKind::Uncomposed => ("uncomposed", None),
                _ => ("script", None),
            };
            json!({ "path": checked.display, "kind": kind, "keys": keys })
        })
        .collect();
    files.extend(run.unreadable.iter().map(|trouble| {
        json!({
            "path": trouble.path,
            "kind": "unreadable",
            "keys": null,
            "error": trouble.why,
        })
    }));
    let document = json!({
        "schema": JSON_SCHEMA,
        "tool": "redis-lua",
        "version": env!("CARGO_PKG_VERSION"),
        "files": files,
        "errors": run.count(Severity::Error),
        "warnings": run.count(Severity::Warning),
        "unreadable": run.unreadable.len(),
        "findings": findings,
        "fixed": run
            .fixed
            .iter()
            .map(|fixed| json!({ "file": fixed.file, "fixes": fixed.fixes }))
            .collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// An edit of a fix in the JSON document: where it starts and ends (byte
/// offset in the file, line, column in characters, byte offset in the
/// line) and what replaces the bytes between.
fn json_edit(edit: &FileEdit) -> Value {
    let position = |at: &Position| {
        json!({
            "offset": at.offset,
            "line": at.line,
            "column": at.column,
            "line_offset": at.line_offset,
        })
    };
    json!({
        "start": position(&edit.start),
        "end": position(&edit.end),
        "replacement": edit.replacement,
    })
}

/// SARIF 2.1.0: one run, the rules, and a result per finding. Paths are
/// URIs relative to `%SRCROOT%`, the folder the tool runs in (given in
/// `originalUriBaseIds`), or absolute `file://` URIs for files outside it;
/// columns count Unicode code points. Paths that could not be read are the
/// invocation's notifications, and make it unsuccessful.
pub fn sarif(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let root = std::env::current_dir()?;
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            json!({
                "id": rule.name(),
                "shortDescription": { "text": rule.description() },
                "helpUri": DOCS,
            })
        })
        .collect();
    let results: Vec<Value> = findings(run)
        .map(|(report, finding, includers)| {
            let file = &report.file(finding).display;
            let (start, end) = report.line_column(finding);
            let text = match &finding.note {
                Some(note) => format!("{}\nnote: {note}", finding.message),
                None => finding.message.clone(),
            };
            let mut result = json!({
                "ruleId": finding.rule.name(),
                "ruleIndex": Rule::ALL.iter().position(|rule| *rule == finding.rule),
                "level": finding.severity.name(),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact_location(file, &root),
                        "region": region(start, end),
                    }
                }],
            });
            if let Some(fix) = certain_fix(finding) {
                result["fixes"] = json!([sarif_fix(fix, file, &root)]);
            }
            // A finding in an included file: where the script that runs it
            // includes it, nearest first, so that code scanning leads from
            // the fragment to its includers.
            if !includers.is_empty() {
                result["relatedLocations"] = includers
                    .iter()
                    .enumerate()
                    .map(|(id, (includer, line))| {
                        json!({
                            "id": id,
                            "message": { "text": format!("included from {includer}:{line}") },
                            "physicalLocation": {
                                "artifactLocation": artifact_location(includer, &root),
                                "region": { "startLine": line },
                            },
                        })
                    })
                    .collect();
            }
            result
        })
        .collect();
    let mut notifications: Vec<Value> = run
        .unreadable
        .iter()
        .map(|trouble| {
            json!({
                "level": "error",
                "message": { "text": trouble.to_string() },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact_location(&trouble.path, &root),
                    }
                }],
            })
        })
        .collect();
    notifications.extend(run.fixed.iter().map(|fixed| {
        json!({
            "level": "note",
            "message": { "text": applied(&fixed.file, fixed.fixes) },
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": artifact_location(&fixed.file, &root),
                }
            }],
        })
    }));
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "redis-lua",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": DOCS,
                    "rules": rules,
                }
            },
            "invocations": [{
                "executionSuccessful": run.unreadable.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "originalUriBaseIds": {
                SRCROOT: { "uri": format!("{}/", file_uri(&root).trim_end_matches('/')) },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// The base id of paths relative to the folder the tool runs in.
const SRCROOT: &str = "%SRCROOT%";

/// A finding's region from its `(line, column)` `start` to its `end`; the
/// end column is made to follow the start only on a one-line region (an
/// empty span still shows one character).
fn region(start: (usize, usize), end: (usize, usize)) -> Value {
    let ((line, column), (end_line, end_column)) = (start, end);
    let end_column = if end_line == line {
        end_column.max(column + 1)
    } else {
        end_column
    };
    json!({
        "startLine": line,
        "startColumn": column,
        "endLine": end_line,
        "endColumn": end_column,
    })
}

/// A fix as SARIF's `fix` object: its title, and its edits as the
/// replacements of one artifact change in `file` (where the finding is).
/// Each deleted region is exact (empty for an insertion), in lines and
/// columns as the run's `columnKind` counts them and in bytes, which say
/// the same.
fn sarif_fix(fix: &FileFix, file: &str, root: &Path) -> Value {
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|edit| {
            json!({
                "deletedRegion": {
                    "startLine": edit.start.line,
                    "startColumn": edit.start.column,
                    "endLine": edit.end.line,
                    "endColumn": edit.end.column,
                    "byteOffset": edit.start.offset,
                    "byteLength": edit.end.offset.saturating_sub(edit.start.offset),
                },
                "insertedContent": { "text": edit.replacement },
            })
        })
        .collect();
    json!({
        "description": { "text": fix.title },
        "artifactChanges": [{
            "artifactLocation": artifact_location(file, root),
            "replacements": replacements,
        }],
    })
}

/// `file` (as shown: relative to `root`, the working folder, or absolute)
/// as a SARIF artifact location: relative to `%SRCROOT%` when it is inside
/// `root`, else an absolute `file://` URI.
fn artifact_location(file: &str, root: &Path) -> Value {
    let path = Path::new(file);
    let absolute = compose::normalize(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    });
    match absolute.strip_prefix(root) {
        Ok(relative) if !relative.as_os_str().is_empty() => json!({
            "uri": encode(relative.components().map(|part| part.as_os_str().to_string_lossy())),
            "uriBaseId": SRCROOT,
        }),
        _ => json!({ "uri": file_uri(&absolute) }),
    }
}

/// An absolute path as a `file://` URI: `file:///home/a%20b/x.lua`.
pub(crate) fn file_uri(path: &Path) -> String {
    let parts = path.components().filter_map(|part| match part {
        Component::RootDir => None,
        // `C:` of a Windows path, kept as written.
        Component::Prefix(prefix) => Some(prefix.as_os_str().to_string_lossy()),
        other => Some(other.as_os_str().to_string_lossy()),
    });
    format!("file:///{}", encode(parts))
}

/// Path segments joined with `/`, each percent-encoded but for RFC 3986's
/// unreserved characters (and `:` of a drive).
fn encode<'a>(parts: impl Iterator<Item = std::borrow::Cow<'a, str>>) -> String {
    let mut uri = String::new();
    for (index, part) in parts.enumerate() {
        if index > 0 {
            uri.push('/');
        }
        for byte in part.bytes() {
            if byte.is_ascii_alphanumeric() || b"-._~:".contains(&byte) {
                uri.push(byte as char);
            } else {
                uri.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    uri
}

/// Every rule: its name, whether an allow can silence it, what it finds.
pub fn rules(out: &mut dyn Write) -> io::Result<()> {
    for rule in Rule::ALL {
        let allowable = if rule.allowable() {
            ""
        } else {
            " (cannot be allowed)"
        };
        writeln!(out, "{:<20} {}{allowable}", rule.name(), rule.description())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_column_follows_the_start_only_on_one_line() {
        let one_line = region((3, 5), (3, 5));
        assert_eq!(one_line["endColumn"], 6);
        let two_lines = region((3, 9), (4, 2));
        assert_eq!(
            (&two_lines["endLine"], &two_lines["endColumn"]),
            (&json!(4), &json!(2))
        );
    }

    #[test]
    fn paths_are_relative_uris_or_absolute_file_uris() {
        let root = Path::new("/work/project");
        let location = artifact_location("src/a b%\u{e9}.lua", root);
        assert_eq!(location["uri"], "src/a%20b%25%C3%A9.lua");
        assert_eq!(location["uriBaseId"], SRCROOT);
        let location = artifact_location("./x/../lua/#1.lua", root);
        assert_eq!(location["uri"], "lua/%231.lua");
        let location = artifact_location("/work/project/y.lua", root);
        assert_eq!(location["uri"], "y.lua");
        let location = artifact_location("../../other/z.lua", root);
        assert_eq!(location, json!({ "uri": "file:///other/z.lua" }));
        let location = artifact_location("/tmp/q r.lua", root);
        assert_eq!(location, json!({ "uri": "file:///tmp/q%20r.lua" }));
    }
}
