//! What the probes of a server share (`type_probe`, `choice_probe`,
//! `kind_probe`): which commands may be asked, a command's smallest call
//! built from its `COMMAND DOCS` arguments, and a call run on an empty
//! database.

use std::collections::BTreeMap;

use serde_json::Value;

use super::tables::Row;

/// The commands that may be asked, with their `COMMAND DOCS`: those a
/// script may call, that do not block and are no administration commands.
pub(super) fn askable<'a>(
    rows: &'a BTreeMap<String, Row>,
    docs: &'a BTreeMap<String, Value>,
) -> impl Iterator<Item = (&'a Row, &'a Value)> {
    let refused = ["noscript", "blocking", "admin"];
    rows.values()
        .filter(move |row| {
            !row.flags
                .iter()
                .any(|flag| refused.contains(&flag.as_str()))
        })
        .filter_map(|row| Some((row, docs.get(&row.name)?)))
}

/// The words that name the command (`OBJECT ENCODING` for a subcommand).
pub(super) fn name_words(row: &Row) -> Vec<String> {
    row.name.split('|').map(str::to_uppercase).collect()
}

/// The smallest call of `row`'s command, its argument `args[index]` given
/// as `given` writes it (onto the words, counting the keys).
pub(super) fn call_with(
    row: &Row,
    args: &[Value],
    index: usize,
    given: impl FnOnce(&mut usize, &mut Vec<String>),
) -> Vec<String> {
    let mut words = name_words(row);
    let mut keys = 0;
    smallest(&args[..index], &mut keys, &mut words);
    given(&mut keys, &mut words);
    smallest(&args[index + 1..], &mut keys, &mut words);
    words
}

/// Empties the database.
pub(super) fn flush(connection: &mut redis::Connection) {
    redis::cmd("FLUSHALL")
        .query::<()>(connection)
        .expect("FLUSHALL");
}

/// Runs the command `words`.
pub(super) fn run(
    connection: &mut redis::Connection,
    words: &[String],
) -> redis::RedisResult<redis::Value> {
    let mut command = redis::cmd(&words[0]);
    for word in &words[1..] {
        command.arg(word);
    }
    command.query::<redis::Value>(connection)
}

/// Whether the command `words` succeeds on an empty database.
pub(super) fn runs_on_empty(connection: &mut redis::Connection, words: &[String]) -> bool {
    flush(connection);
    run(connection, words).is_ok()
}

/// The `arguments` of a `COMMAND DOCS` map (or of an argument).
pub(super) fn arguments(doc: &Value) -> &[Value] {
    doc.get("arguments")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// The words of the smallest call `args` take, onto `words`: each required
/// argument once, a `oneof`'s first choice, `1` for a value (a time to
/// live in milliseconds `100000`), `*` for a pattern, a fresh key of one
/// slot for a key.
pub(super) fn smallest(args: &[Value], keys: &mut usize, words: &mut Vec<String>) {
    for arg in args {
        let flags = arg.get("flags").and_then(Value::as_array);
        if flags.is_some_and(|flags| flags.iter().any(|flag| flag == "optional")) {
            continue;
        }
        if let Some(token) = arg.get("token").and_then(Value::as_str) {
            words.push(token.to_owned());
        }
        match arg.get("type").and_then(Value::as_str).unwrap_or_default() {
            "pure-token" => {}
            "key" => {
                words.push(format!("{{p}}k{keys}"));
                *keys += 1;
            }
            "pattern" => words.push("*".to_owned()),
            "oneof" => smallest(&arguments(arg)[..1.min(arguments(arg).len())], keys, words),
            "block" => smallest(arguments(arg), keys, words),
            // A time to live of 1 ms may run out before the next call
            // looks (PSETEX's key, HPEXPIRE's field) on a busy machine.
            _ if arg.get("name").and_then(Value::as_str) == Some("milliseconds") => {
                words.push("100000".to_owned());
            }
            _ => words.push("1".to_owned()),
        }
    }
}
