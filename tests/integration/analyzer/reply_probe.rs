//! What the commands that Valkey's specification files give no reply schema
//! reply to a script, observed on the running server, for the
//! specifications file (`"replies"` of a command): Redis's vector sets
//! (a module's commands, with no `COMMAND DOCS` arguments), `XACKDEL` and
//! `XDELEX`.
//!
//! Each command is called through `EVAL` as `return redis.call(...)`, so a
//! reply is what a script receives and returns on RESP2, in every form its
//! options give it and on a missing key and a missing element, each call on
//! a database holding only its family's data. The facts are what was seen:
//! the kinds of reply (`integer`, `string`, `status`, `array`, `nil`), the
//! kinds of the arrays' elements, and a status's texts. They say nothing of
//! an array's length. The calls below are the plan; the facts are the
//! server's, and the capture test asks again in CI.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::probe::flush;
use super::tables::Row;
use crate::server::RedisServer;

/// Commands of one kind of value: the data they are called on, and the
/// calls.
struct Family {
    data: &'static [&'static [&'static str]],
    calls: &'static [&'static [&'static str]],
}

const FAMILIES: &[Family] = &[
    // Vector sets: `{p}v` of two elements of two dimensions, `b` with
    // attributes.
    Family {
        data: &[
            &["VADD", "{p}v", "VALUES", "2", "1", "0", "a"],
            &[
                "VADD",
                "{p}v",
                "VALUES",
                "2",
                "0",
                "1",
                "b",
                "SETATTR",
                r#"{"x":1}"#,
            ],
        ],
        calls: &[
            &["VADD", "{p}v", "VALUES", "2", "1", "1", "c"],
            &["VADD", "{p}v", "VALUES", "2", "0", "1", "b"],
            &["VADD", "{p}w", "REDUCE", "1", "VALUES", "2", "1", "1", "c"],
            &[
                "VADD", "{p}w", "VALUES", "2", "1", "1", "c", "CAS", "Q8", "EF", "10", "M", "8",
            ],
            &[
                "VADD", "{p}w", "VALUES", "2", "1", "1", "c", "NOQUANT", "SETATTR", "{}",
            ],
            &["VADD", "{p}w", "VALUES", "2", "1", "1", "c", "BIN"],
            &["VCARD", "{p}v"],
            &["VCARD", "{p}missing"],
            &["VDIM", "{p}v"],
            &["VEMB", "{p}v", "a"],
            &["VEMB", "{p}v", "a", "RAW"],
            &["VEMB", "{p}v", "missing"],
            &["VEMB", "{p}missing", "a"],
            &["VGETATTR", "{p}v", "a"],
            &["VGETATTR", "{p}v", "b"],
            &["VGETATTR", "{p}missing", "a"],
            &["VINFO", "{p}v"],
            &["VINFO", "{p}missing"],
            &["VISMEMBER", "{p}v", "a"],
            &["VISMEMBER", "{p}missing", "a"],
            &["VLINKS", "{p}v", "a"],
            &["VLINKS", "{p}v", "a", "WITHSCORES"],
            &["VLINKS", "{p}v", "missing"],
            &["VLINKS", "{p}missing", "a"],
            &["VRANDMEMBER", "{p}v"],
            &["VRANDMEMBER", "{p}missing"],
            &["VRANDMEMBER", "{p}v", "2"],
            &["VRANDMEMBER", "{p}v", "-3"],
            &["VRANDMEMBER", "{p}missing", "2"],
            &["VREM", "{p}v", "a"],
            &["VREM", "{p}v", "missing"],
            &["VSETATTR", "{p}v", "a", r#"{"y":2}"#],
            &["VSETATTR", "{p}v", "missing", "{}"],
            &["VSETATTR", "{p}missing", "a", "{}"],
            &["VSIM", "{p}v", "ELE", "a"],
            &["VSIM", "{p}v", "VALUES", "2", "1", "0", "COUNT", "1"],
            &["VSIM", "{p}v", "ELE", "a", "WITHSCORES"],
            &["VSIM", "{p}v", "ELE", "a", "WITHATTRIBS"],
            &["VSIM", "{p}v", "ELE", "a", "WITHSCORES", "WITHATTRIBS"],
            &[
                "VSIM", "{p}v", "ELE", "a", "FILTER", ".x == 1", "EPSILON", "0.5",
            ],
            &["VSIM", "{p}v", "ELE", "a", "TRUTH", "NOTHREAD", "EF", "5"],
            &["VSIM", "{p}missing", "ELE", "a"],
        ],
    },
    // Streams: `{p}s` of two entries, read by the group `g`.
    Family {
        data: &[
            &["XADD", "{p}s", "1-1", "f", "v"],
            &["XADD", "{p}s", "2-1", "f", "v"],
            &["XGROUP", "CREATE", "{p}s", "g", "0"],
            &[
                "XREADGROUP",
                "GROUP",
                "g",
                "c",
                "COUNT",
                "1",
                "STREAMS",
                "{p}s",
                ">",
            ],
        ],
        calls: &[
            &["XACKDEL", "{p}s", "g", "IDS", "2", "1-1", "9-9"],
            &["XACKDEL", "{p}s", "g", "KEEPREF", "IDS", "1", "2-1"],
            &["XACKDEL", "{p}s", "g", "DELREF", "IDS", "1", "1-1"],
            &["XACKDEL", "{p}s", "g", "ACKED", "IDS", "1", "1-1"],
            &["XACKDEL", "{p}missing", "g", "IDS", "1", "1-1"],
            &["XDELEX", "{p}s", "IDS", "2", "1-1", "9-9"],
            &["XDELEX", "{p}s", "KEEPREF", "IDS", "1", "1-1"],
            &["XDELEX", "{p}s", "DELREF", "IDS", "1", "2-1"],
            &["XDELEX", "{p}s", "ACKED", "IDS", "1", "1-1"],
            &["XDELEX", "{p}missing", "IDS", "1", "1-1"],
        ],
    },
];

/// What was seen of one command's replies.
#[derive(Default)]
struct Seen {
    kinds: BTreeSet<&'static str>,
    elements: BTreeSet<&'static str>,
    statuses: BTreeSet<String>,
}

impl Seen {
    fn fact(&self) -> Value {
        let mut fact = json!({ "kinds": self.kinds });
        if !self.elements.is_empty() {
            fact["elements"] = json!(self.elements);
        }
        if !self.statuses.is_empty() {
            fact["statuses"] = json!(self.statuses);
        }
        fact
    }
}

/// The kind of a RESP2 reply, by the name the file gives it.
fn kind_name(value: &redis::Value) -> &'static str {
    match value {
        redis::Value::Int(_) => "integer",
        redis::Value::BulkString(_) => "string",
        redis::Value::Okay | redis::Value::SimpleString(_) => "status",
        redis::Value::Array(_) => "array",
        redis::Value::Nil => "nil",
        other => panic!("not a RESP2 reply: {other:?}"),
    }
}

/// Runs `words` as a script's call and returns what the script returns.
fn script_call(
    connection: &mut redis::Connection,
    words: &[&str],
) -> redis::RedisResult<redis::Value> {
    let mut eval = redis::cmd("EVAL");
    eval.arg("return redis.call(unpack(ARGV))").arg(0);
    for word in words {
        eval.arg(*word);
    }
    eval.query(connection)
}

/// The `replies` facts of every planned command the server has, by name.
pub(super) fn probe_replies(
    running: &RedisServer,
    rows: &BTreeMap<String, Row>,
) -> BTreeMap<String, Value> {
    let mut connection = running.connection();
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    for family in FAMILIES {
        for call in family.calls {
            let name = call[0].to_ascii_lowercase();
            if !rows.contains_key(&name) {
                continue;
            }
            flush(&mut connection);
            for data in family.data {
                script_call(&mut connection, data).unwrap_or_else(|e| panic!("{data:?}: {e}"));
            }
            let reply = script_call(&mut connection, call)
                .unwrap_or_else(|e| panic!("{call:?}, a call of the plan: {e}"));
            let facts = seen.entry(name).or_default();
            facts.kinds.insert(kind_name(&reply));
            match &reply {
                redis::Value::SimpleString(text) => {
                    facts.statuses.insert(text.clone());
                }
                redis::Value::Okay => {
                    facts.statuses.insert("OK".to_owned());
                }
                redis::Value::Array(items) => {
                    // An element's constant text may come as a status: a
                    // string, as the schemas say it.
                    let kinds = items.iter().map(kind_name);
                    facts.elements.extend(kinds.map(|kind| match kind {
                        "status" => "string",
                        kind => kind,
                    }));
                }
                _ => {}
            }
        }
    }
    flush(&mut connection);
    seen.into_iter()
        .map(|(name, facts)| (name, facts.fact()))
        .collect()
}
