//! The findings, written for people ([`human()`]), as JSON ([`json()`]) or as
//! SARIF 2.1.0 for code-scanning tools ([`sarif()`]).

use std::io::{self, Write};

use redis_script_analyzer::lint::Finding;
use redis_script_analyzer::{Rule, Severity};
use serde_json::{Value, json};

use crate::Run;

/// Where the rules are documented, for SARIF's `helpUri`.
const DOCS: &str = "https://github.com/redis-script/redis-script#the-command-line-tool-redis-lua";

fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn findings(run: &Run) -> impl Iterator<Item = &Finding> {
    run.checked
        .iter()
        .flat_map(|checked| &checked.report.findings)
}

fn plural(count: usize, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

/// Each finding as the macro shows it, headed `error[rule]:`, then a summary.
pub fn human(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    for finding in findings(run) {
        writeln!(
            out,
            "{}[{}]: {}\n",
            severity(finding.severity),
            finding.rule,
            finding.rendered
        )?;
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

/// One JSON document: the counts, and every finding with its place.
pub fn json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let findings: Vec<Value> = findings(run)
        .map(|finding| {
            json!({
                "file": finding.file,
                "line": finding.line,
                "column": finding.column,
                "end_line": finding.end_line,
                "end_column": finding.end_column,
                "rule": finding.rule.name(),
                "severity": severity(finding.severity),
                "message": finding.message,
                "note": finding.note,
            })
        })
        .collect();
    let files: Vec<Value> = run
        .checked
        .iter()
        .map(|checked| {
            let (kind, keys) = match checked.report.kind {
                redis_script_analyzer::lint::FileKind::Headed => ("headed script", None),
                redis_script_analyzer::lint::FileKind::Keyed(keys) => ("script", Some(keys)),
                redis_script_analyzer::lint::FileKind::Unkeyed => ("script", None),
                redis_script_analyzer::lint::FileKind::Library => ("library", None),
                redis_script_analyzer::lint::FileKind::Uncomposed => ("script", None),
            };
            json!({ "path": checked.display, "kind": kind, "keys": keys })
        })
        .collect();
    let document = json!({
        "tool": "redis-lua",
        "version": env!("CARGO_PKG_VERSION"),
        "files": files,
        "errors": run.count(Severity::Error),
        "warnings": run.count(Severity::Warning),
        "findings": findings,
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// SARIF 2.1.0: one run, the rules, and a result per finding.
pub fn sarif(run: &Run, out: &mut dyn Write) -> io::Result<()> {
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
        .map(|finding| {
            let text = match &finding.note {
                Some(note) => format!("{}\nnote: {note}", finding.message),
                None => finding.message.clone(),
            };
            json!({
                "ruleId": finding.rule.name(),
                "ruleIndex": Rule::ALL.iter().position(|rule| *rule == finding.rule),
                "level": severity(finding.severity),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": finding.file },
                        "region": {
                            "startLine": finding.line,
                            "startColumn": finding.column,
                            "endLine": finding.end_line,
                            "endColumn": finding.end_column.max(finding.column + 1),
                        }
                    }
                }],
            })
        })
        .collect();
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
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
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
