//! The analyzer's reply facts (`src/replies/table.rs`): what each command
//! replies to a script on RESP2, from the `reply_schema` of Valkey's
//! command specification files (`specs/valkey-*-files.json`): a command's
//! schemas of every release stored, as alternatives of one. A command none
//! of them gives a schema (Redis's vector sets) takes what its binary was
//! seen to reply (`replies` of a server's specifications, see
//! [`observed`]).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use crate::specs::{Source, Specs};

/// Where it is written, from the repository's root.
pub const FILE: &str = "redis-script-analyzer/src/replies/table.rs";

/// The kinds of a reply, one bit each: the analyzer's `kind` constants,
/// which the generated file names ([`KIND_NAMES`]).
mod kind {
    pub const INTEGER: u16 = 1 << 0;
    pub const STRING: u16 = 1 << 1;
    pub const STATUS: u16 = 1 << 2;
    pub const ARRAY: u16 = 1 << 3;
    pub const NIL: u16 = 1 << 4;
    pub const MAP: u16 = 1 << 5;
    pub const SET: u16 = 1 << 6;
    pub const DOUBLE: u16 = 1 << 7;
    pub const BOOLEAN: u16 = 1 << 8;
}

/// Each kind with its constant's name, in the order the generated file
/// joins them.
const KIND_NAMES: &[(u16, &str)] = &[
    (kind::INTEGER, "INTEGER"),
    (kind::STRING, "STRING"),
    (kind::STATUS, "STATUS"),
    (kind::ARRAY, "ARRAY"),
    (kind::NIL, "NIL"),
    (kind::MAP, "MAP"),
    (kind::SET, "SET"),
    (kind::DOUBLE, "DOUBLE"),
    (kind::BOOLEAN, "BOOLEAN"),
];

/// The one string pattern worth keeping: a stream ID (the analyzer's
/// `replies::STREAM_ID`).
const STREAM_ID: &str = "[0-9]+-[0-9]+";

/// What one schema (or one part of it) says, RESP2 as Lua sees it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Facts {
    kinds: u16,
    /// The kinds after `redis.setresp(3)`; `None` where nothing says
    /// (a reply seen on RESP2 only).
    resp3: Option<u16>,
    statuses: Vec<String>,
    /// `None` until a string alternative is seen; then `Some(None)` once
    /// one has no pattern worth keeping.
    pattern: Option<Option<String>>,
    /// `None` until an array alternative is seen; `Some(None)` once one
    /// has no fixed length, or lengths differ.
    length: Option<Option<u64>>,
    /// The kinds of the elements of every array alternative, as `length`
    /// unsettled once one does not say them.
    elements: Option<Option<u16>>,
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
fn element_kinds(schema: &Value) -> Option<u16> {
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

/// The names of a schema's `type`: one, or a list.
fn type_names(schema: &Value) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(name) => Some(vec![name]),
        Value::Array(names) => Some(names.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// The kinds a schema's `type` (a name or a list of names) gives on
/// RESP2.
fn type_kinds(schema: &Value) -> Option<u16> {
    let mut kinds = 0;
    for name in type_names(schema)? {
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

/// The kinds a schema's `type` gives after `redis.setresp(3)`: a boolean,
/// a double (`number`) and a map (`object`) as such; an array of unique
/// items may be a set (SMEMBERS) or an array (ZRANGE), which the schemas
/// do not tell apart.
fn resp3_type_kinds(schema: &Value) -> Option<u16> {
    let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
    let mut kinds = 0;
    for name in type_names(schema)? {
        kinds |= match name {
            "integer" => kind::INTEGER,
            "boolean" => kind::BOOLEAN,
            "string" => kind::STRING,
            "number" => kind::DOUBLE,
            "array" if unique => kind::ARRAY | kind::SET,
            "array" => kind::ARRAY,
            "object" => kind::MAP,
            "null" => kind::NIL,
            _ => return None,
        };
    }
    Some(kinds)
}

/// The kinds of every element of an array schema, when it says them.
fn array_elements(schema: &Value) -> Option<u16> {
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
    let mut facts = Facts {
        resp3: Some(0),
        ..Facts::default()
    };
    for alternative in alternatives(schema) {
        match alternative.get("const") {
            Some(Value::String(text)) => {
                facts.kinds |= kind::STATUS;
                facts.resp3 = facts.resp3.map(|kinds| kinds | kind::STATUS);
                if !facts.statuses.contains(text) {
                    facts.statuses.push(text.clone());
                }
                continue;
            }
            Some(Value::Number(_)) => {
                facts.kinds |= kind::INTEGER;
                facts.resp3 = facts.resp3.map(|kinds| kinds | kind::INTEGER);
                continue;
            }
            Some(_) => return None,
            None => {}
        }
        let kinds = type_kinds(alternative)?;
        facts.kinds |= kinds;
        facts.resp3 = facts
            .resp3
            .map(|known| known | resp3_type_kinds(alternative).unwrap_or(kinds));
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

/// What a binary was seen to reply (`{"kinds": ["array", "nil"],
/// "elements": ["string"], "statuses": [...]}`): those kinds, an array's
/// elements where one was seen, and no length (a length seen is no length
/// promised).
fn observed(seen: &Value) -> Facts {
    let bits = |field: &str| -> u16 {
        let names = seen.get(field).and_then(Value::as_array);
        names.into_iter().flatten().fold(0, |bits, name| {
            let bit = KIND_NAMES
                .iter()
                .find(|(_, known)| name.as_str() == Some(&known.to_ascii_lowercase()))
                .unwrap_or_else(|| panic!("`{name}`: no kind of reply"));
            bits | bit.0
        })
    };
    let kinds = bits("kinds");
    let statuses = seen.get("statuses").and_then(Value::as_array);
    let is_array = kinds & kind::ARRAY != 0;
    Facts {
        kinds,
        resp3: None,
        statuses: statuses
            .into_iter()
            .flatten()
            .filter_map(|text| Some(text.as_str()?.to_owned()))
            .collect(),
        pattern: (kinds & kind::STRING != 0).then_some(None),
        length: is_array.then_some(None),
        elements: is_array.then(|| Some(bits("elements")).filter(|bits| *bits != 0)),
    }
}

impl Facts {
    /// What another binary saw too: the kinds of either.
    fn add(&mut self, more: &Facts) {
        self.kinds |= more.kinds;
        self.resp3 = self.resp3.zip(more.resp3).map(|(known, more)| known | more);
        for status in &more.statuses {
            if !self.statuses.contains(status) {
                self.statuses.push(status.clone());
            }
        }
        if more.kinds & kind::STRING != 0 {
            merge(&mut self.pattern, None);
        }
        if let Some(length) = more.length {
            merge(&mut self.length, length);
        }
        if let Some(elements) = more.elements {
            self.elements = match (self.elements, elements) {
                (None, elements) => Some(elements),
                (Some(Some(seen)), Some(more)) => Some(Some(seen | more)),
                (Some(_), _) => Some(None),
            };
        }
    }
}

/// The names of the bits of `kinds`, as the generated file writes them.
fn kind_names(kinds: u16) -> String {
    let names: Vec<&str> = KIND_NAMES
        .iter()
        .filter(|(bit, _)| kinds & bit != 0)
        .map(|(_, name)| *name)
        .collect();
    names.join(" | ")
}

/// The whole generated file: a row per command whose schema says
/// something, sorted by name.
pub fn render(specs: &Specs) -> String {
    let mut out = crate::files::HEADER.to_owned();
    out.push_str(
        "//! What each command with a reply schema replies to a script on RESP2,\n\
         //! from the `reply_schema` of Valkey's command specification files of\n\
         //! each release stored (`specs/valkey-*-files.json`, Valkey's, under the\n\
         //! BSD 3-Clause licence in `specs/LICENSE-valkey`); for a command none of\n\
         //! them gives a schema, what its binary was seen to reply (`replies` of\n\
         //! `specs/<server>.json`).\n\
         \n\
         use super::kinds::kind::*;\n\
         use super::kinds::{CommandReplies, r};\n\
         \n\
         /// Every command the specifications give a reply schema, sorted by name:\n\
         /// `r(name, kinds, statuses, string pattern, fixed array length, element kinds,\n\
         /// kinds after `redis.setresp(3)`)`.\n\
         #[rustfmt::skip]\n\
         pub static REPLIES: &[CommandReplies] = &[\n",
    );
    let mut schemas: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (name, spec) in specs.valkey_files.values().flatten() {
        if let Some(schema) = spec.get("reply_schema") {
            let known = schemas.entry(name).or_default();
            if !known.contains(schema) {
                known.push(schema.clone());
            }
        }
    }
    // A reply that changed between releases may be either.
    let mut commands: BTreeMap<&str, Facts> = schemas
        .into_iter()
        .filter_map(|(name, mut releases)| {
            let schema = match releases.len() {
                1 => releases.pop()?,
                _ => serde_json::json!({ "anyOf": releases }),
            };
            Some((name, facts_of(&schema)?))
        })
        .collect();
    for source in specs.servers.values() {
        let Source::Binary(spec) = source else {
            continue;
        };
        for (name, command) in &spec.commands {
            if let Some(seen) = command.get("replies")
                && !specs
                    .valkey_files
                    .values()
                    .any(|files| files.contains_key(name))
            {
                let facts = observed(seen);
                commands
                    .entry(name)
                    .and_modify(|known| known.add(&facts))
                    .or_insert(facts);
            }
        }
    }
    for (name, facts) in commands {
        let option =
            |value: Option<String>| value.map_or("None".to_owned(), |v| format!("Some({v})"));
        let _ = writeln!(
            out,
            "    r({name:?}, {}, &{:?}, {}, {}, {}, {}),",
            kind_names(facts.kinds),
            facts.statuses,
            option(facts.pattern.flatten().map(|p| format!("{p:?}"))),
            option(facts.length.flatten().map(|n| n.to_string())),
            option(facts.elements.flatten().map(kind_names)),
            option(facts.resp3.map(kind_names)),
        );
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let id = schema(
            r#"{"oneOf": [{"type": "string", "pattern": "[0-9]+-[0-9]+"}, {"type": "null"}]}"#,
        );
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
        // What a binary was seen to reply: no length promised.
        let seen = observed(&serde_json::json!({
            "kinds": ["array", "nil"], "elements": ["nil", "string"]
        }));
        assert_eq!(seen.kinds, kind::ARRAY | kind::NIL);
        assert_eq!(seen.length, Some(None));
        assert_eq!(seen.elements, Some(Some(kind::NIL | kind::STRING)));
        let counted = observed(&serde_json::json!({ "kinds": ["integer"] }));
        assert_eq!((counted.kinds, counted.elements), (kind::INTEGER, None));
        assert_eq!(kind_names(kind::STRING | kind::NIL), "STRING | NIL");
    }
}
