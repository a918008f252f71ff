//! The analyzer's table of the words of each command's arguments
//! (`src/commands/option_table.rs`: `SET`'s `NX`, `EX`), from the
//! `COMMAND DOCS` facts stored for the newest Redis and Valkey binaries.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use crate::servers::Product;
use crate::specs::{History, Spec, Specs, args, history, named_since};
use crate::version::{Version, text, version};

/// Where it is written, from the repository's root.
pub const FILE: &str = "redis-script-analyzer/src/commands/option_table.rs";

/// One word of a command as one product's documentation gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Word {
    /// What follows it; empty for a flag.
    value: String,
    since: String,
}

/// One word of a command as the table has it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Row {
    value: String,
    redis_since: String,
    valkey_since: String,
}

/// How an argument reads inside a value: a token alone, a type, the
/// choices of a `oneof` (`M|KM`), the parts of a `block` in order.
fn shape(arg: &Value) -> String {
    let token = arg.get("token").and_then(Value::as_str);
    let kind = arg.get("type").and_then(Value::as_str).unwrap_or("string");
    if kind == "pure-token" {
        return token.unwrap_or_default().to_owned();
    }
    let value = value_of(arg);
    match token {
        Some(token) => format!("{token} {value}"),
        None => value,
    }
}

/// What follows an argument's token: nothing for a `pure-token`, else
/// the shape of its value.
fn value_of(arg: &Value) -> String {
    let nested = || args(arg).iter().map(shape);
    match arg.get("type").and_then(Value::as_str).unwrap_or("string") {
        "pure-token" => String::new(),
        "oneof" => nested().collect::<Vec<_>>().join("|"),
        "block" => nested().collect::<Vec<_>>().join(" "),
        other => other.to_owned(),
    }
}

/// When the argument `arg` came: its own `since`, else `inherited` (the
/// argument around it), else the first entry of the command's history
/// that names its token, else `command`'s.
fn since_of(
    arg: &Value,
    inherited: Option<Version>,
    history: &History,
    command: Version,
) -> Version {
    if let Some(since) = arg.get("since").and_then(Value::as_str) {
        return version(since);
    }
    if let Some(since) = inherited {
        return since;
    }
    arg.get("token")
        .and_then(Value::as_str)
        .and_then(|token| named_since(history, token))
        .unwrap_or(command)
}

/// The words of `arguments` and of the arguments inside them, in order,
/// into `words`; a word met twice keeps its earliest `since` and first
/// value.
fn collect(
    arguments: &[Value],
    inherited: Option<Version>,
    history: &History,
    command: Version,
    words: &mut Vec<(String, Word)>,
) {
    for arg in arguments {
        let since = since_of(arg, inherited, history, command);
        if let Some(token) = arg.get("token").and_then(Value::as_str) {
            let token = token.to_ascii_uppercase();
            let word = Word {
                value: value_of(arg),
                since: text(since),
            };
            match words.iter_mut().find(|(seen, _)| *seen == token) {
                Some((_, seen)) => {
                    if version(&word.since) < version(&seen.since) {
                        seen.since = word.since;
                    }
                }
                None => words.push((token, word)),
            }
        }
        let inner = arg
            .get("since")
            .and_then(Value::as_str)
            .map(version)
            .or(inherited);
        collect(args(arg), inner, history, command, words);
    }
}

/// Every command's words in one product's stored specifications, by
/// command name, each command's in the order of its documentation.
fn words_of(spec: &Spec) -> BTreeMap<String, Vec<(String, Word)>> {
    let mut commands = BTreeMap::new();
    for (name, command) in &spec.commands {
        let since = version(command.get("since").and_then(Value::as_str).unwrap_or("0"));
        let mut words = Vec::new();
        collect(args(command), None, &history(command), since, &mut words);
        if !words.is_empty() {
            commands.insert(name.clone(), words);
        }
    }
    commands
}

/// One value of two products' (`NORMAL|MASTER|...` with Valkey's
/// `PRIMARY`): Redis's, with the choices only Valkey's adds.
fn merged_value(redis: &str, valkey: &str) -> String {
    let choices = |value: &str| !value.contains(' ') && value.contains('|');
    if redis == valkey || !choices(redis) || !choices(valkey) {
        return redis.to_owned();
    }
    let mut all: Vec<&str> = redis.split('|').collect();
    for choice in valkey.split('|') {
        if !all.contains(&choice) {
            all.push(choice);
        }
    }
    all.join("|")
}

/// The table: Redis's words of each command in their order, then the
/// words only Valkey's documentation names.
fn table(redis: &Spec, valkey: &Spec) -> BTreeMap<String, Vec<(String, Row)>> {
    let mut table: BTreeMap<String, Vec<(String, Row)>> = BTreeMap::new();
    for (name, words) in words_of(redis) {
        let rows = table.entry(name).or_default();
        for (token, word) in words {
            rows.push((
                token,
                Row {
                    value: word.value,
                    redis_since: word.since,
                    valkey_since: String::new(),
                },
            ));
        }
    }
    for (name, words) in words_of(valkey) {
        let rows = table.entry(name).or_default();
        for (token, word) in words {
            match rows.iter_mut().find(|(seen, _)| *seen == token) {
                Some((_, row)) => {
                    row.value = merged_value(&row.value, &word.value);
                    row.valkey_since = word.since;
                }
                None => rows.push((
                    token,
                    Row {
                        value: word.value,
                        redis_since: String::new(),
                        valkey_since: word.since,
                    },
                )),
            }
        }
    }
    table
}

/// The whole generated file.
pub fn render(specs: &Specs) -> String {
    let (redis, redis_spec) = specs.newest_binary(Product::Redis);
    let (valkey, valkey_spec) = specs.newest_binary(Product::Valkey);
    let mut out = crate::files::HEADER.to_owned();
    let _ = write!(
        out,
        "//! The words of each command's arguments (`SET`'s `NX`, `EX`), as the\n\
         //! `COMMAND DOCS` of {redis} and {valkey} give them (`specs/{}.json`,\n\
         //! `specs/{}.json`).\n\
         \n\
         use super::option_word::{{OptionWord, o}};\n\
         \n\
         /// Every command's words, sorted by command, each command's in the\n\
         /// order of its documentation:\n\
         /// `o(command, word, value (empty: a flag), since Redis, since Valkey)`,\n\
         /// a `since` empty where that product does not take the word.\n\
         #[rustfmt::skip]\n\
         pub(super) static OPTIONS: &[OptionWord] = &[\n",
        redis.key(),
        valkey.key()
    );
    for (name, rows) in table(redis_spec, valkey_spec) {
        for (token, row) in rows {
            let _ = writeln!(
                out,
                "    o({name:?}, {token:?}, {:?}, {:?}, {:?}),",
                row.value, row.redis_since, row.valkey_since
            );
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_the_documentation_types_them() {
        let arg = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
        assert_eq!(
            value_of(&arg(r#"{"token": "NX", "type": "pure-token"}"#)),
            ""
        );
        assert_eq!(
            value_of(&arg(r#"{"token": "EX", "type": "integer"}"#)),
            "integer"
        );
        let limit = arg(r#"{"token": "LIMIT", "type": "block",
            "args": [{"type": "integer"}, {"type": "integer"}]}"#);
        assert_eq!(value_of(&limit), "integer integer");
        let by_radius = arg(
            r#"{"token": "BYRADIUS", "type": "block", "args": [{"type": "double"},
            {"type": "oneof", "args": [{"token": "M", "type": "pure-token"},
                                       {"token": "KM", "type": "pure-token"}]}]}"#,
        );
        assert_eq!(value_of(&by_radius), "double M|KM");
        assert_eq!(
            merged_value("NORMAL|MASTER", "NORMAL|PRIMARY|MASTER"),
            "NORMAL|MASTER|PRIMARY"
        );
        assert_eq!(merged_value("integer", "string"), "integer");
    }

    #[test]
    fn a_word_is_as_old_as_its_own_since_its_parents_or_its_history() {
        let args: Vec<Value> = serde_json::from_str(
            r#"[{"type": "oneof", "since": "2.6.12",
             "args": [{"token": "NX", "type": "pure-token"}]},
            {"token": "KEEPTTL", "type": "pure-token"},
            {"token": "OLD", "type": "pure-token"},
            {"token": "OWN", "type": "integer", "since": "7.4.0"}]"#,
        )
        .unwrap();
        let history = vec![((6, 0, 0), vec!["KEEPTTL".to_owned()])];
        let mut words = Vec::new();
        collect(&args, None, &history, (1, 0, 0), &mut words);
        let since: Vec<(&str, &str)> = words
            .iter()
            .map(|(token, word)| (token.as_str(), word.since.as_str()))
            .collect();
        assert_eq!(
            since,
            [
                ("NX", "2.6.12"),
                ("KEEPTTL", "6.0.0"),
                ("OLD", "1.0.0"),
                ("OWN", "7.4.0")
            ]
        );
    }
}
