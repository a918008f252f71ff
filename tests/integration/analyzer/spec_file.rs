//! A server's specifications file (`redis-script-analyzer/specs/<key>.json`)
//! as `capture` (in `tables.rs`) writes it from the running binary: its
//! `COMMAND` rows with the facts of its `COMMAND DOCS`, from which
//! `cargo xtask codegen` generates the analyzer's tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use redis_script_analyzer::servers::Server;
use serde_json::{Value, json};

use super::tables::{Row, list, text};
use crate::server::RedisServer;

/// Where `server`'s specifications are stored.
pub(super) fn path(server: Server) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("redis-script-analyzer/specs")
        .join(format!("{}.json", server.key()))
}

/// A map as RESP2 sends it: `[key, value, key, value, ...]`, or a RESP3 map.
fn pairs(value: &redis::Value) -> Vec<(String, &redis::Value)> {
    match value {
        redis::Value::Map(entries) => entries.iter().map(|(k, v)| (text(k), v)).collect(),
        _ => list(value)
            .chunks(2)
            .map(|pair| (text(&pair[0]), &pair[1]))
            .collect(),
    }
}

/// A scalar of a `COMMAND DOCS` reply (or a list of them) as JSON.
fn scalar(value: &redis::Value) -> Value {
    match value {
        redis::Value::Int(n) => Value::from(*n),
        redis::Value::Array(items) | redis::Value::Set(items) => items.iter().map(scalar).collect(),
        other => Value::from(text(other)),
    }
}

/// One command's (or argument's) `COMMAND DOCS` map as JSON: nested
/// `arguments` and `subcommands` as such, the rest as scalars.
fn doc(value: &redis::Value) -> Value {
    let mut out = serde_json::Map::new();
    for (key, value) in pairs(value) {
        let converted = match key.as_str() {
            "arguments" => list(value).iter().map(doc).collect(),
            "subcommands" => pairs(value)
                .into_iter()
                .map(|(name, sub)| (name, doc(sub)))
                .collect::<serde_json::Map<_, _>>()
                .into(),
            _ => scalar(value),
        };
        out.insert(key, converted);
    }
    out.into()
}

/// `COMMAND DOCS` of every command and subcommand, by lower-case name.
pub(super) fn read_docs(running: &RedisServer) -> BTreeMap<String, Value> {
    let reply: redis::Value = redis::cmd("COMMAND")
        .arg("DOCS")
        .query(&mut running.connection())
        .expect("COMMAND DOCS");
    let mut docs = BTreeMap::new();
    for (name, value) in pairs(&reply) {
        let value = doc(value);
        if let Some(subcommands) = value.get("subcommands").and_then(|s| s.as_object()) {
            for (sub, sub_doc) in subcommands {
                docs.insert(sub.to_ascii_lowercase(), sub_doc.clone());
            }
        }
        docs.insert(name.to_ascii_lowercase(), value);
    }
    docs
}

/// What the file keeps of `COMMAND DOCS` for one command: the facts the
/// generator reads (no summaries): `since`, `group`, the versions of its history
/// with the words each entry puts in backticks, and its arguments (name,
/// type, token, `optional`/`multiple` flags, `since`, nested arguments).
fn doc_facts(doc: &Value) -> Value {
    let mut facts = serde_json::Map::new();
    for field in ["since", "group"] {
        if let Some(value) = doc.get(field) {
            facts.insert(field.into(), value.clone());
        }
    }
    if let Some(history) = doc.get("history").and_then(Value::as_array) {
        let entries: Vec<Value> = history
            .iter()
            .filter_map(|entry| {
                let version = entry.get(0)?.as_str()?;
                let text = entry.get(1)?.as_str()?;
                let named: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
                Some(json!([version, named]))
            })
            .collect();
        facts.insert("history".into(), Value::Array(entries));
    }
    if let Some(args) = doc.get("arguments").and_then(Value::as_array) {
        facts.insert(
            "args".into(),
            Value::Array(args.iter().map(argument_facts).collect()),
        );
    }
    Value::Object(facts)
}

fn argument_facts(arg: &Value) -> Value {
    let mut facts = serde_json::Map::new();
    for field in ["name", "type", "token", "since"] {
        if let Some(value) = arg.get(field) {
            facts.insert(field.into(), value.clone());
        }
    }
    if let Some(flags) = arg.get("flags").and_then(Value::as_array) {
        facts.insert("flags".into(), Value::Array(flags.clone()));
    }
    if let Some(args) = arg.get("arguments").and_then(Value::as_array) {
        facts.insert(
            "args".into(),
            Value::Array(args.iter().map(argument_facts).collect()),
        );
    }
    Value::Object(facts)
}

/// What the server answered of each command beyond `COMMAND` and
/// `COMMAND DOCS`, by command name: what it does to its key's type
/// (`types`), which choices of its `oneof`s it refuses together
/// (`exclusive`), which of its integers may have a fraction
/// (`fractional`), and, for a command with no reply schema in Valkey's
/// specification files, what it was seen to reply (`replies`).
pub(super) struct Answers {
    pub(super) types: BTreeMap<String, Value>,
    pub(super) exclusive: BTreeMap<String, Value>,
    pub(super) fractional: BTreeMap<String, Value>,
    pub(super) replies: BTreeMap<String, Value>,
}

/// The file's text: the server, then one command per line (its `COMMAND`
/// row, its documentation facts and the server's `answers`), sorted by
/// name.
pub(super) fn render(
    server: Server,
    version: &str,
    rows: &BTreeMap<String, Row>,
    docs: &BTreeMap<String, Value>,
    answers: &Answers,
) -> String {
    let mut out = format!(
        "{{\"server\": {}, \"version\": {}, \"commands\": [\n",
        json!(server.key()),
        json!(version)
    );
    let lines: Vec<String> = rows
        .values()
        .map(|row| {
            let mut line = json!({
                "name": row.name,
                "arity": row.arity,
                "flags": row.flags,
                "keys": [row.first_key, row.last_key, row.key_step],
            });
            if let Some(Value::Object(facts)) = docs.get(&row.name).map(doc_facts) {
                line.as_object_mut().expect("an object").extend(facts);
            }
            if let Some(types) = answers.types.get(&row.name) {
                line["types"] = types.clone();
            }
            if let Some(exclusive) = answers.exclusive.get(&row.name) {
                line["exclusive"] = exclusive.clone();
            }
            if let Some(fractional) = answers.fractional.get(&row.name) {
                line["fractional"] = fractional.clone();
            }
            if let Some(replies) = answers.replies.get(&row.name) {
                line["replies"] = replies.clone();
            }
            line.to_string()
        })
        .collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n]}\n");
    out
}

/// The version a stored file was captured from; `None` for a release
/// derived from another server's (or no file).
pub(super) fn stored_version(stored: &str) -> Option<String> {
    let value: Value = serde_json::from_str(stored).ok()?;
    Some(value.get("version")?.as_str()?.to_owned())
}
