//! The analyzer's reply facts (`redis-script-analyzer/src/replies/generated.rs`),
//! written from the servers' command specifications (the `reply_schema` of
//! each `src/commands/*.json` of Valkey 8.0, kept beside the repository in
//! `../shared/command-specs/valkey-8.0/`) by `regenerate`, and checked to
//! be current on every test run.
//!
//! Regenerate with:
//!
//! ```text
//! REDIS_SCRIPT_REGENERATE=1 cargo test --test integration analyzer::reply_specs::regenerate -- --ignored
//! ```
//!
//! `REDIS_SCRIPT_COMMAND_SPECS` names another directory of specifications.

use std::collections::BTreeMap;
use std::path::PathBuf;

use redis_script_analyzer::replies::{STREAM_ID, kind};
use serde_json::Value;

const REGENERATE_CMD: &str = "REDIS_SCRIPT_REGENERATE=1 cargo test --test integration \
     analyzer::reply_specs::regenerate -- --ignored";

/// Where the specifications are: `REDIS_SCRIPT_COMMAND_SPECS`, else
/// `../shared/command-specs/valkey-8.0` from the repository's root.
fn specs_dir() -> PathBuf {
    match std::env::var_os("REDIS_SCRIPT_COMMAND_SPECS") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/command-specs/valkey-8.0")
        }
    }
}

/// The generated file.
fn generated_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("redis-script-analyzer/src/replies/generated.rs")
}

/// What one schema (or one part of it) says, RESP2 as Lua sees it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Facts {
    kinds: u8,
    statuses: Vec<String>,
    /// `None` until a string alternative is seen; then `Some(None)` once
    /// one has no pattern worth keeping.
    pattern: Option<Option<String>>,
    /// `None` until an array alternative is seen; `Some(None)` once one
    /// has no fixed length, or lengths differ.
    length: Option<Option<u64>>,
    /// The kinds of the elements of every array alternative, as `length`
    /// unsettled once one does not say them.
    elements: Option<Option<u8>>,
}

/// The top-level alternatives of a schema (`oneOf`/`anyOf` flattened).
fn alternatives(schema: &Value) -> Vec<&Value> {
    match schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        Some(list) => list.iter().flat_map(alternatives).collect(),
        None => vec![schema],
    }
}

/// The kinds a value of `schema` can be, inside an array: a `const` text
/// there is a bulk string. `None` when the schema does not say.
fn element_kinds(schema: &Value) -> Option<u8> {
    let mut kinds = 0;
    for alternative in alternatives(schema) {
        kinds |= match alternative.get("const") {
            Some(Value::String(_)) => kind::STRING,
            Some(Value::Number(_)) => kind::INTEGER,
            Some(_) => return None,
            None => type_kinds(alternative)?,
        };
    }
    Some(kinds)
}

/// The kinds a schema's `type` (a name or a list of names) gives.
fn type_kinds(schema: &Value) -> Option<u8> {
    let names: Vec<&str> = match schema.get("type")? {
        Value::String(name) => vec![name],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let mut kinds = 0;
    for name in names {
        kinds |= match name {
            // RESP2 sends a boolean as `:1` / `:0`.
            "integer" | "boolean" => kind::INTEGER,
            // A double travels as the bulk string of its text on RESP2.
            "string" | "number" => kind::STRING,
            // A map is an array on RESP2.
            "array" | "object" => kind::ARRAY,
            "null" => kind::NIL,
            _ => return None,
        };
    }
    Some(kinds)
}

/// The kinds of every element of an array schema, when it says them.
fn array_elements(schema: &Value) -> Option<u8> {
    match schema.get("items")? {
        Value::Array(tuple) => {
            let mut kinds = 0;
            for item in tuple {
                kinds |= element_kinds(item)?;
            }
            let fixed = schema.get("maxItems").and_then(Value::as_u64) == Some(tuple.len() as u64);
            match schema.get("additionalItems") {
                Some(extra @ Value::Object(_)) => kinds |= element_kinds(extra)?,
                Some(Value::Bool(false)) => {}
                _ if fixed => {}
                _ => return None,
            }
            Some(kinds)
        }
        items => element_kinds(items),
    }
}

/// A fact more of an alternative: the first sets it, a different one
/// unsettles it.
fn merge<T: PartialEq>(seen: &mut Option<Option<T>>, value: Option<T>) {
    match seen {
        None => *seen = Some(value),
        Some(current) if *current != value => *current = None,
        Some(_) => {}
    }
}

/// What a command's `reply_schema` says; `None` where some alternative
/// has no type (EVAL: whatever the script returns).
fn facts_of(schema: &Value) -> Option<Facts> {
    let mut facts = Facts::default();
    for alternative in alternatives(schema) {
        match alternative.get("const") {
            Some(Value::String(text)) => {
                facts.kinds |= kind::STATUS;
                if !facts.statuses.contains(text) {
                    facts.statuses.push(text.clone());
                }
                continue;
            }
            Some(Value::Number(_)) => {
                facts.kinds |= kind::INTEGER;
                continue;
            }
            Some(_) => return None,
            None => {}
        }
        let kinds = type_kinds(alternative)?;
        facts.kinds |= kinds;
        if kinds & kind::STRING != 0 {
            let pattern = alternative.get("pattern").and_then(Value::as_str);
            merge(
                &mut facts.pattern,
                pattern.filter(|p| *p == STREAM_ID).map(str::to_owned),
            );
        }
        if kinds & kind::ARRAY != 0 {
            let is_array = alternative.get("type").and_then(Value::as_str) == Some("array");
            let min = alternative.get("minItems").and_then(Value::as_u64);
            let max = alternative.get("maxItems").and_then(Value::as_u64);
            let fixed = min.filter(|_| is_array && min == max);
            merge(&mut facts.length, fixed);
            // An object's elements on RESP2 are keys and values, or pairs
            // (XREAD): not said.
            let elements = if is_array {
                array_elements(alternative)
            } else {
                None
            };
            facts.elements = match (facts.elements, elements) {
                (None, elements) => Some(elements),
                (Some(Some(seen)), Some(more)) => Some(Some(seen | more)),
                (Some(_), _) => Some(None),
            };
        }
    }
    Some(facts)
}

/// Every command of the specifications by its table name (`get`,
/// `object|encoding`), with its facts (`None`: no schema, or one that says
/// nothing).
fn read_specs(dir: &std::path::Path) -> BTreeMap<String, Option<Facts>> {
    read_spec_files(dir)
        .into_iter()
        .map(|(name, spec)| (name, spec.get("reply_schema").and_then(facts_of)))
        .collect()
}

/// The specifications directory, where the checkout has it beside; `None`
/// (said on stdout) where it has not, which CI (`CI` set) refuses.
pub(super) fn present_specs_dir() -> Option<PathBuf> {
    let dir = specs_dir();
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "no command specifications at {} (CI is set)",
        dir.display()
    );
    println!("skipped: no command specifications at {}", dir.display());
    None
}

/// Every command's specification in `dir`, by the name the command tables
/// use (lower case, `config|get` for a subcommand).
pub(super) fn read_spec_files(dir: &std::path::Path) -> BTreeMap<String, Value> {
    let mut commands = BTreeMap::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: BTreeMap<String, Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (name, spec) in file {
            let name = match spec.get("container").and_then(Value::as_str) {
                Some(container) => format!("{container}|{name}"),
                None => name,
            }
            .to_ascii_lowercase();
            commands.insert(name, spec);
        }
    }
    commands
}

/// The names of the bits of `kinds`, as the generated file writes them.
fn kind_names(kinds: u8) -> String {
    let names: Vec<&str> = [
        (kind::INTEGER, "INTEGER"),
        (kind::STRING, "STRING"),
        (kind::STATUS, "STATUS"),
        (kind::ARRAY, "ARRAY"),
        (kind::NIL, "NIL"),
    ]
    .into_iter()
    .filter(|(bit, _)| kinds & bit != 0)
    .map(|(_, name)| name)
    .collect();
    names.join(" | ")
}

/// The whole generated file.
fn render(commands: &BTreeMap<String, Option<Facts>>) -> String {
    let mut out = format!(
        "// Generated from the command specifications of Valkey 8.0 (`src/commands/*.json`\n\
         // of valkey-io/valkey at 55bbbe09a3b3, BSD 3-Clause), their\n\
         // `reply_schema` only, by:\n\
         //   {REGENERATE_CMD}\n\
         \n\
         //! What each command with a reply schema replies to a script on RESP2\n\
         //! (see the parent module); written by the test `regenerate` in the\n\
         //! repository's `tests/integration/analyzer/reply_specs.rs`, which also\n\
         //! checks that it is current. Do not edit by hand.\n\
         \n\
         use super::kind::*;\n\
         use super::{{CommandReplies, r}};\n\
         \n\
         /// Every command the specifications give a reply schema, sorted by name:\n\
         /// `r(name, kinds, statuses, string pattern, fixed array length, element kinds)`.\n\
         #[rustfmt::skip]\n\
         pub static REPLIES: &[CommandReplies] = &[\n"
    );
    for (name, facts) in commands {
        let Some(facts) = facts else { continue };
        let option =
            |value: Option<String>| value.map_or("None".to_owned(), |v| format!("Some({v})"));
        out.push_str(&format!(
            "    r({name:?}, {}, &{:?}, {}, {}, {}),\n",
            kind_names(facts.kinds),
            facts.statuses,
            option(facts.pattern.clone().flatten().map(|p| format!("{p:?}"))),
            option(facts.length.flatten().map(|n| n.to_string())),
            option(facts.elements.flatten().map(kind_names)),
        ));
    }
    out.push_str("];\n");
    out
}

/// `cargo test --test integration analyzer::reply_specs::regenerate -- --ignored`
/// with `REDIS_SCRIPT_REGENERATE=1`: rewrites the generated file from the
/// specifications. Without the variable it only says whether it is current.
#[test]
#[ignore = "rewrites the analyzer's src/replies/generated.rs; run with REDIS_SCRIPT_REGENERATE=1"]
fn regenerate() {
    let dir = specs_dir();
    let commands = read_specs(&dir);
    let known = commands.values().filter(|facts| facts.is_some()).count();
    let what = format!(
        "{known} of {} commands from {}",
        commands.len(),
        dir.display()
    );
    super::write_generated(&generated_file(), &render(&commands), &what);
}

/// The checked-in file equals what the specifications generate now. Without
/// them (a checkout without `../shared`) it says so and passes, unless `CI`
/// is set.
#[test]
fn generated_replies_are_current() {
    let Some(dir) = present_specs_dir() else {
        return;
    };
    let new = render(&read_specs(&dir));
    let path = generated_file();
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        new == current,
        "{} is not what {} generate; regenerate with: {REGENERATE_CMD}",
        path.display(),
        dir.display()
    );
}

#[test]
fn schemas_map_to_resp2_kinds() {
    let schema = |text: &str| facts_of(&serde_json::from_str(text).unwrap());
    let get = schema(r#"{"oneOf": [{"type": "string"}, {"type": "null"}]}"#).unwrap();
    assert_eq!(get.kinds, kind::STRING | kind::NIL);
    let ok = schema(r#"{"const": "OK"}"#).unwrap();
    assert_eq!(
        (ok.kinds, ok.statuses),
        (kind::STATUS, vec!["OK".to_owned()])
    );
    let expire = schema(r#"{"oneOf": [{"const": 0}, {"const": 1}]}"#).unwrap();
    assert_eq!(expire.kinds, kind::INTEGER);
    assert_eq!(schema(r#"{"type": "number"}"#).unwrap().kinds, kind::STRING);
    assert_eq!(
        schema(r#"{"type": "boolean"}"#).unwrap().kinds,
        kind::INTEGER
    );
    assert_eq!(schema(r#"{"type": "object"}"#).unwrap().kinds, kind::ARRAY);
    let id =
        schema(r#"{"oneOf": [{"type": "string", "pattern": "[0-9]+-[0-9]+"}, {"type": "null"}]}"#);
    assert_eq!(id.unwrap().pattern, Some(Some(STREAM_ID.to_owned())));
    let pair = schema(
        r#"{"type": "array", "minItems": 2, "maxItems": 2,
            "items": [{"type": "string"}, {"type": "array"}]}"#,
    )
    .unwrap();
    assert_eq!(pair.length, Some(Some(2)));
    assert_eq!(pair.elements, Some(Some(kind::STRING | kind::ARRAY)));
    // Lengths that differ are no fixed length.
    let role = schema(
        r#"{"oneOf": [{"type": "array", "minItems": 3, "maxItems": 3},
                      {"type": "array", "minItems": 2, "maxItems": 2}]}"#,
    )
    .unwrap();
    assert_eq!(role.length, Some(None));
    // The elements of each alternative add up.
    let either = schema(
        r#"{"oneOf": [{"type": "array", "items": {"type": "integer"}},
                      {"type": "array", "items": {"type": "null"}}]}"#,
    )
    .unwrap();
    assert_eq!(either.elements, Some(Some(kind::INTEGER | kind::NIL)));
    assert_eq!(schema(r#"{"description": "anything"}"#), None);
}
