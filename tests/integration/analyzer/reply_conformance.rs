//! The analyzer's reply facts (`redis_script_analyzer::replies`) against the
//! server the harness starts (`REDIS_SCRIPT_SERVER`, else `redis-server`):
//! a sample of commands, one or more for every kind of reply the schemas
//! give (integer, string, fixed status, array, object, null, number, fixed
//! lengths, stream IDs), each called through `EVAL` as
//! `return redis.call(...)`, so the reply is what a script receives and
//! returns on RESP2. Each reply must be the kind the sample names, and fit
//! what the analyzer says the call replies (the generated union refined by
//! its arguments) and, but where the analyzer corrects a schema, what the
//! generated facts alone say.

use redis_script_analyzer::replies::{self, Arg, Length, Replies, STREAM_ID, kind};

use crate::server::RedisServer;

/// One call: the command and its arguments (all literals), the kind of
/// reply the server gives (a [`kind`] bit), and whether only newer servers
/// take it (Redis 7.0 has no `ZRANK ... WITHSCORE`).
struct Sample {
    words: &'static [&'static str],
    kind: u16,
    newer: bool,
}

const fn s(words: &'static [&'static str], kind: u16) -> Sample {
    Sample {
        words,
        kind,
        newer: false,
    }
}

/// A call only newer servers take: skipped where the server refuses it.
const fn newer(words: &'static [&'static str], kind: u16) -> Sample {
    Sample {
        words,
        kind,
        newer: true,
    }
}

use kind::{ARRAY, INTEGER, NIL, STATUS, STRING};

/// The data the samples read.
const SETUP: &[&[&str]] = &[
    &["SET", "rc:s", "v"],
    &["MSET", "rc:s1", "ohmytext", "rc:s2", "mynewtext"],
    &["RPUSH", "rc:l", "a", "b", "c"],
    &["HSET", "rc:h", "f1", "v1", "f2", "v2"],
    &["SADD", "rc:set", "a", "b"],
    &["ZADD", "rc:z", "1.5", "a", "2", "b"],
    &[
        "GEOADD",
        "rc:g",
        "13.361389",
        "38.115556",
        "Palermo",
        "15.087269",
        "37.502669",
        "Catania",
    ],
    &["XADD", "rc:x", "1-1", "f", "v"],
];

const SAMPLES: &[Sample] = &[
    // Integers, and integer constants.
    s(&["INCR", "rc:n"], INTEGER),
    s(&["EXPIRE", "rc:s", "100"], INTEGER),
    s(&["HSETNX", "rc:h", "f1", "x"], INTEGER),
    s(&["HEXISTS", "rc:h", "f1"], INTEGER),
    s(&["SETNX", "rc:s", "x"], INTEGER),
    // Strings and null.
    s(&["GET", "rc:s"], STRING),
    s(&["GET", "rc:missing"], NIL),
    s(&["RANDOMKEY"], STRING),
    s(&["OBJECT", "ENCODING", "rc:l"], STRING),
    s(&["OBJECT", "ENCODING", "rc:missing"], NIL),
    // Fixed statuses.
    s(&["SET", "rc:s2", "v"], STATUS),
    s(&["SET", "rc:s", "v", "NX"], NIL),
    s(&["SET", "rc:s", "v", "GET"], STRING),
    s(&["LSET", "rc:l", "0", "a"], STATUS),
    s(&["PING"], STATUS),
    s(&["PING", "hi"], STRING),
    // A string in the schema, a status on the server.
    s(&["TYPE", "rc:l"], STATUS),
    s(&["TYPE", "rc:missing"], STATUS),
    // Arrays, and objects (RESP3 maps).
    s(&["LRANGE", "rc:l", "0", "-1"], ARRAY),
    s(&["HGETALL", "rc:h"], ARRAY),
    s(&["XINFO", "STREAM", "rc:x"], ARRAY),
    // Numbers (RESP3 doubles): bulk strings.
    s(&["ZSCORE", "rc:z", "a"], STRING),
    s(&["ZINCRBY", "rc:z", "1", "b"], STRING),
    s(&["ZADD", "rc:z", "INCR", "1", "a"], STRING),
    s(&["ZADD", "rc:z", "XX", "INCR", "1", "nosuch"], NIL),
    s(&["ZADD", "rc:z", "3", "c"], INTEGER),
    s(&["GEODIST", "rc:g", "Palermo", "Catania"], STRING),
    s(&["GEODIST", "rc:g", "Palermo", "nosuch"], NIL),
    // Fixed lengths.
    s(&["TIME"], ARRAY),
    s(&["SCAN", "0"], ARRAY),
    s(&["ZRANK", "rc:z", "a"], INTEGER),
    s(&["ZRANK", "rc:z", "nosuch"], NIL),
    newer(&["ZRANK", "rc:z", "a", "WITHSCORE"], ARRAY),
    // Stream IDs.
    s(&["XADD", "rc:x", "*", "f", "v"], STRING),
    s(&["XADD", "rc:nostream", "NOMKSTREAM", "*", "f", "v"], NIL),
    // One element per name.
    s(&["MGET", "rc:s", "rc:missing"], ARRAY),
    s(&["HMGET", "rc:h", "f1", "nosuch"], ARRAY),
    s(&["ZMSCORE", "rc:z", "a", "nosuch"], ARRAY),
    s(&["SMISMEMBER", "rc:set", "a", "nosuch"], ARRAY),
    s(&["GEOPOS", "rc:g", "Palermo", "nosuch"], ARRAY),
    // A count picks an array.
    s(&["HRANDFIELD", "rc:h"], STRING),
    s(&["HRANDFIELD", "rc:missing"], NIL),
    s(&["HRANDFIELD", "rc:h", "2", "WITHVALUES"], ARRAY),
    s(&["LPOP", "rc:missing"], NIL),
    s(&["LPOP", "rc:missing", "2"], NIL),
    s(&["SPOP", "rc:missing", "2"], ARRAY),
    s(&["SRANDMEMBER", "rc:set", "5"], ARRAY),
    s(&["LPOS", "rc:l", "b"], INTEGER),
    s(&["LPOS", "rc:l", "nosuch"], NIL),
    s(&["LPOS", "rc:l", "a", "COUNT", "0"], ARRAY),
    s(&["LCS", "rc:s1", "rc:s2"], STRING),
    s(&["LCS", "rc:s1", "rc:s2", "LEN"], INTEGER),
    s(
        &[
            "LCS",
            "rc:s1",
            "rc:s2",
            "IDX",
            "MINMATCHLEN",
            "2",
            "WITHMATCHLEN",
        ],
        ARRAY,
    ),
    // Valkey 8.0's schema forgot this nil; 9.1's has it.
    s(&["LMOVE", "rc:empty", "rc:l", "LEFT", "RIGHT"], NIL),
    // Hash fields with their own expiry (Redis 7.4 and 8, Valkey 9), one
    // element per field.
    newer(
        &["HSETEX", "rc:hx", "FIELDS", "2", "a", "1", "b", "2"],
        INTEGER,
    ),
    newer(
        &["HSETEX", "rc:hx", "FNX", "FIELDS", "1", "a", "1"],
        INTEGER,
    ),
    newer(
        &["HGETEX", "rc:hx", "PX", "100000", "FIELDS", "2", "a", "no"],
        ARRAY,
    ),
    newer(&["HGETEX", "rc:missing", "FIELDS", "1", "a"], ARRAY),
    newer(
        &["HEXPIRE", "rc:hx", "100", "FIELDS", "2", "a", "no"],
        ARRAY,
    ),
    newer(&["HEXPIRE", "rc:missing", "100", "FIELDS", "1", "a"], ARRAY),
    newer(
        &["HPEXPIREAT", "rc:hx", "4102444800000", "FIELDS", "1", "b"],
        ARRAY,
    ),
    newer(&["HTTL", "rc:hx", "FIELDS", "2", "a", "no"], ARRAY),
    newer(&["HPEXPIRETIME", "rc:hx", "FIELDS", "1", "b"], ARRAY),
    newer(&["HPERSIST", "rc:hx", "FIELDS", "2", "a", "no"], ARRAY),
    newer(&["HGETDEL", "rc:hx", "FIELDS", "2", "a", "no"], ARRAY),
    // Valkey 9's conditional delete and multi-key set with expiry.
    newer(&["DELIFEQ", "rc:s2", "nosuch"], INTEGER),
    newer(
        &["MSETEX", "2", "rc:m1", "a", "rc:m2", "b", "EX", "100"],
        INTEGER,
    ),
];

/// The commands whose schema the analyzer corrects: their replies need not
/// fit the generated facts alone.
const CORRECTED: &[&str] = &["type"];

/// The kind of a reply, and the text of a string or status.
fn kind_of(value: &redis::Value) -> (u16, Option<String>) {
    match value {
        redis::Value::Int(_) => (INTEGER, None),
        redis::Value::BulkString(bytes) => (STRING, Some(String::from_utf8_lossy(bytes).into())),
        redis::Value::Okay => (STATUS, Some("OK".to_owned())),
        redis::Value::SimpleString(text) => (STATUS, Some(text.clone())),
        redis::Value::Array(_) => (ARRAY, None),
        redis::Value::Nil => (NIL, None),
        other => panic!("not a RESP2 reply: {other:?}"),
    }
}

/// Whether `text` is a stream ID (`[0-9]+-[0-9]+`, whole).
fn is_stream_id(text: &str) -> bool {
    text.split_once('-').is_some_and(|(ms, seq)| {
        [ms, seq]
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Why `value` does not fit `facts`; `None` if it does.
fn misfit(value: &redis::Value, facts: &Replies) -> Option<String> {
    let (found, text) = kind_of(value);
    let fits = match found {
        // A schema's "string" stands for a bulk string or a status.
        STATUS => {
            let text = text.as_deref().unwrap_or_default();
            facts.kinds.contains(STRING)
                || (facts.kinds.contains(STATUS) && facts.statuses.contains(&text))
        }
        STRING if facts.pattern == Some(STREAM_ID) => {
            facts.kinds.contains(STRING) && is_stream_id(text.as_deref().unwrap_or_default())
        }
        other => facts.kinds.contains(other),
    };
    if !fits {
        return Some(format!("{value:?} is none of {facts:?}"));
    }
    let redis::Value::Array(items) = value else {
        return None;
    };
    let length_fits = match facts.length {
        Length::Unknown => true,
        Length::Exactly(n) => items.len() == n,
        Length::AtLeast(n) => items.len() >= n,
    };
    if !length_fits {
        return Some(format!("{} elements, not {:?}", items.len(), facts.length));
    }
    let elements = facts.elements?;
    items.iter().find_map(|item| {
        let (kind, _) = kind_of(item);
        // An element's constant text may come as a status or a bulk string.
        let kind = if kind == STATUS { STRING } else { kind };
        (!elements.contains(kind)).then(|| format!("element {item:?} is none of {elements:?}"))
    })
}

fn query(con: &mut redis::Connection, words: &[&str]) -> redis::RedisResult<redis::Value> {
    let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
    let script = format!("return redis.call({})", quoted.join(", "));
    redis::cmd("EVAL").arg(script).arg(0).query(con)
}

#[test]
fn replies_fit_the_generated_facts() {
    let running = RedisServer::start();
    let mut con = running.connection();
    let server = format!("{:?} {}", running.flavor(), running.version());
    for words in SETUP {
        query(&mut con, words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
    }
    let mut problems = Vec::new();
    let mut seen = 0;
    for sample in SAMPLES {
        let (name, args) = sample.words.split_first().expect("a command");
        let value = match query(&mut con, sample.words) {
            Ok(value) => value,
            Err(error) if sample.newer => {
                println!("{server} refuses {:?} ({error}): skipped", sample.words);
                continue;
            }
            Err(error) => panic!("{server}: {:?}: {error}", sample.words),
        };
        seen |= sample.kind;
        let (found, text) = kind_of(&value);
        if found != sample.kind {
            problems.push(format!(
                "{:?}: {value:?}, not the kind {} the sample expects",
                sample.words, sample.kind
            ));
        }
        let literal: Vec<Arg> = args.iter().map(|arg| Arg::Word(arg.as_bytes())).collect();
        let Some(facts) = replies::call_replies(name, &literal) else {
            problems.push(format!("{:?}: the analyzer knows nothing", sample.words));
            continue;
        };
        if let Some(why) = misfit(&value, &facts) {
            problems.push(format!("{:?}: {why}", sample.words));
        }
        // The generated facts alone, under the table name.
        let table_name = match args.first() {
            Some(sub) if replies::command_replies(&format!("{name}|{sub}")).is_some() => {
                format!("{name}|{sub}").to_ascii_lowercase()
            }
            _ => name.to_ascii_lowercase(),
        };
        let generated = replies::command_replies(&table_name).expect("a generated row");
        // Where the analyzer corrects a schema, the server says more than
        // it or something narrower (TYPE's statuses).
        if let Some(why) = misfit(&value, generated)
            && !CORRECTED.contains(&table_name.as_str())
        {
            problems.push(format!("{:?}: generated: {why}", sample.words));
        }
        if let (STATUS, Some(text)) = (found, &text)
            && !facts.statuses.contains(&text.as_str())
        {
            problems.push(format!(
                "{:?}: status {text:?} not among {:?}",
                sample.words, facts.statuses
            ));
        }
    }
    assert_eq!(
        seen,
        INTEGER | STRING | STATUS | ARRAY | NIL,
        "every kind sampled"
    );
    assert!(problems.is_empty(), "{server}:\n{}", problems.join("\n"));
}

/// Specific facts, so that a wrong table fails here and not only a wrong
/// server: what the server replies is what the facts name.
#[test]
fn facts_name_what_the_server_replies() {
    let running = RedisServer::start();
    let mut con = running.connection();
    let mut call =
        |words: &[&str]| query(&mut con, words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
    // A stream ID.
    let id = call(&["XADD", "rc:x", "*", "f", "v"]);
    let (_, text) = kind_of(&id);
    assert!(is_stream_id(text.as_deref().unwrap_or_default()), "{id:?}");
    assert_eq!(
        replies::command_replies("xadd").and_then(|facts| facts.pattern),
        Some(STREAM_ID)
    );
    // TIME: exactly two bulk strings of digits.
    let time = call(&["TIME"]);
    assert!(
        matches!(&time, redis::Value::Array(items) if items.len() == 2),
        "{time:?}"
    );
    assert_eq!(
        replies::command_replies("time").unwrap().length,
        Length::Exactly(2)
    );
    // An object (HGETALL) is a flat array on RESP2: keys and values.
    call(&["HSET", "rc:h", "f1", "v1", "f2", "v2"]);
    let all = call(&["HGETALL", "rc:h"]);
    assert!(
        matches!(&all, redis::Value::Array(items) if items.len() == 4),
        "{all:?}"
    );
    // A number (a RESP3 double) is the bulk string of its text.
    call(&["ZADD", "rc:z", "1.5", "a"]);
    assert_eq!(
        call(&["ZSCORE", "rc:z", "a"]),
        redis::Value::BulkString(b"1.5".to_vec())
    );
    assert_eq!(
        replies::command_replies("zscore").unwrap().kinds.0,
        STRING | NIL
    );
    // A constant integer (0 or 1) is an integer; a constant text a status.
    assert_eq!(call(&["EXPIRE", "rc:missing", "10"]), redis::Value::Int(0));
    assert_eq!(call(&["SET", "rc:s", "v"]), redis::Value::Okay);
    assert_eq!(
        call(&["PING"]),
        redis::Value::SimpleString("PONG".to_owned())
    );
    assert_eq!(replies::command_replies("ping").unwrap().statuses, ["PONG"]);
    // Null is a nil reply: `false` in Lua, nil to the client.
    assert_eq!(call(&["GET", "rc:missing"]), redis::Value::Nil);
    // No schema of the data has a boolean; the generator makes one an
    // integer, as the server sends a RESP3 boolean on RESP2: `:1` / `:0`.
    let mut boolean = |value: &str| -> redis::Value {
        let script = format!("redis.setresp(3) return {value}");
        redis::cmd("EVAL")
            .arg(script)
            .arg(0)
            .query(&mut con)
            .expect("a boolean")
    };
    assert_eq!(boolean("true"), redis::Value::Int(1));
    assert_eq!(boolean("false"), redis::Value::Int(0));
}
