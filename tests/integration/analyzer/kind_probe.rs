//! Which arguments the documentation calls integers the running server
//! reads as numbers that may have a fraction, for the specifications file
//! (`"fractional"` of a command: their names). ZUNIONSTORE's `WEIGHTS` are
//! documented as integers and taken as `1.5`; EXPIRE's seconds are not.
//!
//! For each top-level argument of type `integer` or `unix-time`: the
//! command's smallest call with it given as `1` (its token before it, if
//! it has one), then as `1.5`, each on an empty database. It is fractional
//! when both succeed.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::probe::{arguments, askable, call_with, flush, runs_on_empty};
use super::tables::Row;
use crate::server::RedisServer;

/// The `fractional` facts of every command that has some, by name.
pub(super) fn probe_fractions(
    running: &RedisServer,
    rows: &BTreeMap<String, Row>,
    docs: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut connection = running.connection();
    let mut facts = BTreeMap::new();
    for (row, doc) in askable(rows, docs) {
        let args = arguments(doc);
        let mut fractional = Vec::new();
        for (index, arg) in args.iter().enumerate() {
            let kind = arg.get("type").and_then(Value::as_str);
            if !matches!(kind, Some("integer" | "unix-time")) {
                continue;
            }
            let call = |value: &str| {
                call_with(row, args, index, |_, words| {
                    if let Some(token) = arg.get("token").and_then(Value::as_str) {
                        words.push(token.to_owned());
                    }
                    words.push(value.to_owned());
                })
            };
            if runs_on_empty(&mut connection, &call("1"))
                && runs_on_empty(&mut connection, &call("1.5"))
                && let Some(name) = arg.get("name").and_then(Value::as_str)
            {
                fractional.push(name.to_owned());
            }
        }
        if !fractional.is_empty() {
            facts.insert(row.name.clone(), json!(fractional));
        }
    }
    flush(&mut connection);
    facts
}
