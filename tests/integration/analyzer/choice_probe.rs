//! Which choices of a command's `oneof` arguments the running server
//! refuses together, for the specifications file (`"exclusive"` of a
//! command: for each such `oneof`, by its name, the pairs of its choices
//! refused together). The documentation groups `NX`
//! and `XX` of SET in one `oneof`, and SET refuses both; it groups `ASC`
//! and `DESC` of SORT too, and SORT takes both (the last wins). The
//! analyzer reports two choices of a `oneof` only where the binary
//! refused them.
//!
//! For each `oneof` of a command's top-level arguments with two choices or
//! more, and each pair of its choices: its smallest call with the one,
//! with the other, and with both (the `oneof`'s token before each, if it
//! has one), each on an empty database. The pair excludes itself when both
//! calls with one choice succeed and the call with both fails (EXPIRE
//! refuses `NX` with `XX` and `GT` with `LT`, and takes `XX` with `GT`).
//! A choice is named by its token, else its name.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::probe::{arguments, askable, call_with, flush, runs_on_empty, smallest};
use super::tables::Row;
use crate::server::RedisServer;

/// The `exclusive` facts of every command that has some, by name.
pub(super) fn probe_choices(
    running: &RedisServer,
    rows: &BTreeMap<String, Row>,
    docs: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut connection = running.connection();
    let mut facts = BTreeMap::new();
    for (row, doc) in askable(rows, docs) {
        let args = arguments(doc);
        let mut exclusive = serde_json::Map::new();
        for (index, arg) in args.iter().enumerate() {
            let choices = arguments(arg);
            if arg.get("type").and_then(Value::as_str) != Some("oneof") || choices.len() < 2 {
                continue;
            }
            let call = |picked: &[&Value]| {
                call_with(row, args, index, |keys, words| {
                    for choice in picked {
                        if let Some(token) = arg.get("token").and_then(Value::as_str) {
                            words.push(token.to_owned());
                        }
                        smallest_of_choice(choice, keys, words);
                    }
                })
            };
            let alone: Vec<bool> = choices
                .iter()
                .map(|choice| runs_on_empty(&mut connection, &call(&[choice])))
                .collect();
            let mut pairs = Vec::new();
            for first in 0..choices.len() {
                for second in first + 1..choices.len() {
                    if alone[first]
                        && alone[second]
                        && !runs_on_empty(
                            &mut connection,
                            &call(&[&choices[first], &choices[second]]),
                        )
                    {
                        pairs.push(json!([
                            choice_name(&choices[first]),
                            choice_name(&choices[second])
                        ]));
                    }
                }
            }
            if let (false, Some(name)) = (pairs.is_empty(), arg.get("name").and_then(Value::as_str))
            {
                exclusive.insert(name.to_owned(), Value::Array(pairs));
            }
        }
        if !exclusive.is_empty() {
            facts.insert(row.name.clone(), Value::Object(exclusive));
        }
    }
    flush(&mut connection);
    facts
}

/// A choice as the facts name it: its token, else its name.
pub(super) fn choice_name(choice: &Value) -> &str {
    choice
        .get("token")
        .or_else(|| choice.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// The words of one choice given, optional or not.
fn smallest_of_choice(choice: &Value, keys: &mut usize, words: &mut Vec<String>) {
    let mut given = choice.clone();
    if let Some(flags) = given.get_mut("flags").and_then(Value::as_array_mut) {
        flags.retain(|flag| flag != "optional");
    }
    smallest(std::slice::from_ref(&given), keys, words);
}
