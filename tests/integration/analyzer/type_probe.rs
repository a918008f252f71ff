//! What each command does to the type of its first key, asked of the
//! running server, for the specifications file (`"types"` of a command):
//! the type its smallest call leaves on a missing key (`creates`), the
//! types of an existing key on which that call fails with WRONGTYPE
//! (`wrongtype_on`), the type it leaves on an existing key of each other
//! type (`leaves`: SET makes any a string, SETNX leaves it as it was), and
//! whether it makes nothing of a missing key when its values are empty
//! (`needs_values`: `SETRANGE k 0 ''`). A HyperLogLog counts as a type of its own: `TYPE`
//! calls it a string, but the HyperLogLog commands refuse other strings. The analyzer's key-type rule reads these facts, so
//! each is what a binary does, not what a command's group suggests.
//!
//! The smallest call is built from the command's `COMMAND DOCS` arguments:
//! every required argument once, its first choice for a `oneof`, `1` for a
//! value (`100000` for milliseconds, which must not run out before `TYPE`
//! looks), `*` for a pattern, a fresh key of one slot for a key. Only the
//! commands of a type's group that a script may call and that do not block
//! are asked; a call that fails on a missing key for another reason than
//! its type creates nothing known.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::probe::{arguments, askable, flush, name_words, run, smallest};
use super::tables::Row;
use crate::server::RedisServer;

/// The types a key may hold, by the name `TYPE` gives them, and how a
/// probe gives its first key each one.
const TYPES: &[(&str, &[&str])] = &[
    ("hash", &["HSET", "{p}k0", "1", "1"]),
    // A string whose bytes are a HyperLogLog: what the HyperLogLog
    // commands make, and refuse a string for when it is not one.
    ("hyperloglog", &["PFADD", "{p}k0", "1"]),
    ("list", &["RPUSH", "{p}k0", "1"]),
    ("set", &["SADD", "{p}k0", "1"]),
    ("stream", &["XADD", "{p}k0", "1-1", "1", "1"]),
    ("string", &["SET", "{p}k0", "1"]),
    ("zset", &["ZADD", "{p}k0", "1", "1"]),
];

/// The `COMMAND DOCS` groups of commands on one type of value.
const TYPE_GROUPS: &[&str] = &[
    "bitmap",
    "geo",
    "hash",
    "hyperloglog",
    "list",
    "set",
    "sorted-set",
    "stream",
    "string",
];

/// The `types` facts of every command the server can be asked about, by
/// name.
pub(super) fn probe_types(
    running: &RedisServer,
    rows: &BTreeMap<String, Row>,
    docs: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut connection = running.connection();
    let mut facts = BTreeMap::new();
    for (row, doc) in askable(rows, docs) {
        let group = doc.get("group").and_then(Value::as_str).unwrap_or_default();
        if !TYPE_GROUPS.contains(&group) || row.first_key <= 0 {
            continue;
        }
        let mut words = name_words(row);
        let mut keys = 0;
        smallest(arguments(doc), &mut keys, &mut words);
        flush(&mut connection);
        let creates = match run(&mut connection, &words) {
            Ok(_) => {
                let created: String = redis::cmd("TYPE")
                    .arg("{p}k0")
                    .query(&mut connection)
                    .expect("TYPE");
                Some(kind_of(&created, group))
            }
            Err(_) => None,
        };
        let mut wrongtype_on = Vec::new();
        let mut leaves = serde_json::Map::new();
        for (name, fill) in TYPES {
            flush(&mut connection);
            let fill: Vec<String> = fill.iter().map(|word| (*word).to_owned()).collect();
            run(&mut connection, &fill).expect("give the key a value");
            match run(&mut connection, &words) {
                Err(error) if error.code() == Some("WRONGTYPE") => wrongtype_on.push(*name),
                Err(_) => {}
                Ok(_) => {
                    let left: String = redis::cmd("TYPE")
                        .arg("{p}k0")
                        .query(&mut connection)
                        .expect("TYPE");
                    leaves.insert((*name).to_owned(), json!(kind_of(&left, group)));
                }
            }
        }
        // With empty values (`SETRANGE k 0 ''`), is the key still made?
        flush(&mut connection);
        let empty: Vec<String> = words
            .iter()
            .map(|word| {
                if word == "1" || word == "*" {
                    String::new()
                } else {
                    word.clone()
                }
            })
            .collect();
        let made_empty = run(&mut connection, &empty).is_ok()
            && redis::cmd("TYPE")
                .arg("{p}k0")
                .query::<String>(&mut connection)
                .expect("TYPE")
                != "none";
        let mut fact = json!({ "wrongtype_on": wrongtype_on, "leaves": leaves });
        if let Some(creates) = creates {
            fact["creates"] = json!(creates);
            if creates != "none" && !made_empty {
                fact["needs_values"] = json!(true);
            }
        }
        facts.insert(row.name.clone(), fact);
    }
    redis::cmd("FLUSHALL")
        .query::<()>(&mut connection)
        .expect("FLUSHALL");
    facts
}

/// What `TYPE` says a command of `group` left: its word, but a
/// HyperLogLog for a string the HyperLogLog commands made.
fn kind_of(type_name: &str, group: &str) -> String {
    if type_name == "string" && group == "hyperloglog" {
        "hyperloglog".to_owned()
    } else {
        type_name.to_owned()
    }
}
