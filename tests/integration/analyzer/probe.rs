//! What the probes of a server share (`type_probe`, `choice_probe`,
//! `kind_probe`): which commands may be asked, a command's smallest call
//! built from its `COMMAND DOCS` arguments, and a call run on an empty
//! database.

use serde_json::Value;

use super::tables::Row;

/// Whether a command may be asked: one a script may call, that does not
/// block and is no administration command.
pub(super) fn askable(row: &Row) -> bool {
    let refused = ["noscript", "blocking", "admin"];
    !row.flags
        .iter()
        .any(|flag| refused.contains(&flag.as_str()))
}

/// The words that name the command (`OBJECT ENCODING` for a subcommand).
pub(super) fn name_words(row: &Row) -> Vec<String> {
    row.name.split('|').map(str::to_uppercase).collect()
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

/// The words of the smallest call `args` take, onto `words`.
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
            _ => words.push("1".to_owned()),
        }
    }
}
