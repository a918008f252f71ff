//! `cargo xtask valkey-files <valkey source>`: stores the facts the tables
//! read from Valkey's own command specification files (the source's
//! `src/commands/*.json`, BSD 3-Clause) as
//! `specs/valkey-<major.minor>-files.json`: per command its name as the
//! tables give it (`config|get`), `arity`, `command_flags` and
//! `reply_schema`, without the schemas' prose. One line per command, so
//! that a new release's file reads as a diff of the last.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::specs;

/// The fields kept of each command's specification.
const KEPT: &[&str] = &["arity", "command_flags", "reply_schema"];

/// Writes the file for the source tree at `source`; returns its path.
pub fn store(root: &Path, source: &Path) -> PathBuf {
    let version = release(source);
    let dir = source.join("src/commands");
    let mut commands = BTreeMap::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: Map<String, Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (name, spec) in file {
            let name = match spec.get("container").and_then(Value::as_str) {
                Some(container) => format!("{container}|{name}"),
                None => name,
            }
            .to_ascii_lowercase();
            let mut kept = Map::new();
            kept.insert("name".to_owned(), Value::String(name.clone()));
            for field in KEPT {
                if let Some(value) = spec.get(*field) {
                    kept.insert((*field).to_owned(), without_prose(value));
                }
            }
            commands.insert(name, Value::Object(kept));
        }
    }
    let minor: Vec<&str> = version.split('.').take(2).collect();
    let path = root
        .join(specs::DIR)
        .join(format!("valkey-{}-files.json", minor.join(".")));
    let mut out = format!(
        "{{\"source\": \"valkey-io/valkey src/commands/*.json, release {version}\", \"commands\": [\n"
    );
    let lines: Vec<String> = commands.values().map(Value::to_string).collect();
    let _ = write!(out, "{}\n]}}\n", lines.join(",\n"));
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    path
}

/// The release the source tree is (`9.1.2`), from `src/version.h`.
fn release(source: &Path) -> String {
    let path = source.join("src/version.h");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .find_map(|line| {
            let rest = line.strip_prefix("#define VALKEY_VERSION ")?;
            Some(rest.trim().trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("{}: no VALKEY_VERSION", path.display()))
}

/// `value` without its `description`s: the facts, not the documentation.
fn without_prose(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| *key != "description")
                .map(|(key, value)| (key.clone(), without_prose(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_prose).collect()),
        other => other.clone(),
    }
}
