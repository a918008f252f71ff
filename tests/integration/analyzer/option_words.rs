//! The analyzer's table of the words of each command's arguments
//! (`redis-script-analyzer/src/commands/options/generated.rs`), written from
//! the stored specifications (`specs/redis-8.2.json` for Redis,
//! `specs/valkey-9.1.json` for Valkey, which `tables.rs`'s `regenerate`
//! writes) by `regenerate` here, with no server, and checked to be current
//! on every test run.
//!
//! Regenerate with:
//!
//! ```text
//! REDIS_SCRIPT_REGENERATE=1 cargo test --test integration analyzer::option_words::regenerate -- --ignored
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use redis_script_analyzer::servers::Server;
use serde_json::Value;

use super::derive::{self, Version};

const REGENERATE_CMD: &str = "REDIS_SCRIPT_REGENERATE=1 cargo test --test integration \
     analyzer::option_words::regenerate -- --ignored";

/// The generated file.
fn generated_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("redis-script-analyzer/src/commands/options/generated.rs")
}

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
    let nested = || {
        arg.get("args")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(shape)
    };
    match arg.get("type").and_then(Value::as_str).unwrap_or("string") {
        "pure-token" => String::new(),
        "oneof" => nested().collect::<Vec<_>>().join("|"),
        "block" => nested().collect::<Vec<_>>().join(" "),
        other => other.to_owned(),
    }
}

/// The text of a version.
fn text(version: Version) -> String {
    format!("{}.{}.{}", version.0, version.1, version.2)
}

/// When the argument `arg` came: its own `since`, else `inherited` (the
/// argument around it), else the first entry of the command's history
/// that names its token, else `command`'s.
fn since_of(
    arg: &Value,
    inherited: Option<Version>,
    history: &[(Version, Vec<String>)],
    command: Version,
) -> Version {
    if let Some(since) = arg.get("since").and_then(Value::as_str) {
        return derive::version(since);
    }
    if let Some(since) = inherited {
        return since;
    }
    let token = arg.get("token").and_then(Value::as_str);
    token
        .and_then(|token| {
            history
                .iter()
                .find(|(_, named)| named.iter().any(|word| word.eq_ignore_ascii_case(token)))
                .map(|(when, _)| *when)
        })
        .unwrap_or(command)
}

/// The words of `args` and of the arguments inside them, in order, into
/// `words`; a word met twice keeps its earliest `since` and first value.
fn collect(
    args: &[Value],
    inherited: Option<Version>,
    history: &[(Version, Vec<String>)],
    command: Version,
    words: &mut Vec<(String, Word)>,
) {
    for arg in args {
        let since = since_of(arg, inherited, history, command);
        if let Some(token) = arg.get("token").and_then(Value::as_str) {
            let token = token.to_ascii_uppercase();
            let word = Word {
                value: value_of(arg),
                since: text(since),
            };
            match words.iter_mut().find(|(seen, _)| *seen == token) {
                Some((_, seen)) => {
                    if derive::version(&word.since) < derive::version(&seen.since) {
                        seen.since = word.since;
                    }
                }
                None => words.push((token, word)),
            }
        }
        let nested = arg
            .get("args")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let inner = arg
            .get("since")
            .and_then(Value::as_str)
            .map(derive::version)
            .or(inherited);
        collect(nested, inner, history, command, words);
    }
}

/// The history of a stored command: each entry's version and the words it
/// puts in backticks.
fn history(command: &Value) -> Vec<(Version, Vec<String>)> {
    command
        .get("history")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|entry| {
            let named = entry[1]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|word| word.as_str().map(str::to_owned))
                .collect();
            (
                derive::version(entry[0].as_str().unwrap_or_default()),
                named,
            )
        })
        .collect()
}

/// Every command's words in one product's stored specifications, by
/// command name, each command's in the order of its documentation.
fn words_of(server: Server) -> BTreeMap<String, Vec<(String, Word)>> {
    let spec = derive::load_spec(server);
    let mut commands = BTreeMap::new();
    for (name, command) in &spec.commands {
        let args = command
            .get("args")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let since = derive::version(command.get("since").and_then(Value::as_str).unwrap_or("0"));
        let mut words = Vec::new();
        collect(args, None, &history(command), since, &mut words);
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
fn table() -> BTreeMap<String, Vec<(String, Row)>> {
    let redis = words_of(Server::Redis8_2);
    let valkey = words_of(Server::Valkey9_1);
    let mut table: BTreeMap<String, Vec<(String, Row)>> = BTreeMap::new();
    for (name, words) in &redis {
        let rows = table.entry(name.clone()).or_default();
        for (token, word) in words {
            rows.push((
                token.clone(),
                Row {
                    value: word.value.clone(),
                    redis_since: word.since.clone(),
                    valkey_since: String::new(),
                },
            ));
        }
    }
    for (name, words) in &valkey {
        let rows = table.entry(name.clone()).or_default();
        for (token, word) in words {
            match rows.iter_mut().find(|(seen, _)| seen == token) {
                Some((_, row)) => {
                    row.value = merged_value(&row.value, &word.value);
                    row.valkey_since = word.since.clone();
                }
                None => rows.push((
                    token.clone(),
                    Row {
                        value: word.value.clone(),
                        redis_since: String::new(),
                        valkey_since: word.since.clone(),
                    },
                )),
            }
        }
    }
    table
}

/// The whole generated file.
fn render(table: &BTreeMap<String, Vec<(String, Row)>>) -> String {
    let mut out = format!(
        "// Generated from the stored `COMMAND DOCS` of Redis 8.2 and Valkey 9.1\n\
         // (`tests/integration/analyzer/specs/`) by:\n\
         //   {REGENERATE_CMD}\n\
         \n\
         //! The words of each command's arguments (see the parent module);\n\
         //! written by the test `regenerate` in the repository's\n\
         //! `tests/integration/analyzer/option_words.rs`, which also checks\n\
         //! that it is current. Do not edit by hand.\n\
         \n\
         use super::{{OptionWord, o}};\n\
         \n\
         /// Every command's words, sorted by command, each command's in the\n\
         /// order of its documentation:\n\
         /// `o(command, word, value (empty: a flag), since Redis, since Valkey)`,\n\
         /// a `since` empty where that product does not take the word.\n\
         #[rustfmt::skip]\n\
         pub(super) static OPTIONS: &[OptionWord] = &[\n"
    );
    for (name, rows) in table {
        for (token, row) in rows {
            out.push_str(&format!(
                "    o({name:?}, {token:?}, {:?}, {:?}, {:?}),\n",
                row.value, row.redis_since, row.valkey_since
            ));
        }
    }
    out.push_str("];\n");
    out
}

/// `cargo test --test integration analyzer::option_words::regenerate -- --ignored`
/// with `REDIS_SCRIPT_REGENERATE=1`: rewrites the generated file from the
/// stored specifications. Without the variable it only says whether it is
/// current.
#[test]
#[ignore = "rewrites the analyzer's src/commands/options/generated.rs; run with REDIS_SCRIPT_REGENERATE=1"]
fn regenerate() {
    let table = table();
    let what = format!(
        "{} words of {} commands",
        table.values().map(Vec::len).sum::<usize>(),
        table.len()
    );
    super::write_generated(&generated_file(), &render(&table), &what);
}

/// The checked-in file equals what the stored specifications generate now.
#[test]
fn option_words_are_current() {
    let new = render(&table());
    let path = generated_file();
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        new == current,
        "{} is not what the stored specifications generate; regenerate with: {REGENERATE_CMD}",
        path.display()
    );
}

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
