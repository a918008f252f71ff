//! Command tables for releases with no binary at hand (Redis 7.2, 7.4 and
//! 8.0, Valkey 8.0), derived from a newer server's own specifications: its
//! `COMMAND` (arity, flags, key positions) and `COMMAND DOCS` (each
//! command's and argument's `since`, and its history), which `regenerate`
//! (in `tables.rs`) stores as `specs/<server>.json` beside this file.
//!
//! For a release `R`, a command is in the table if its `since` is no later
//! than `R`; an argument added after `R` (its own `since`, or a history entry
//! that names its token in backticks) takes back the change it made to the
//! arity; and [`UNDOCUMENTED`] lists the changes the documentation does
//! not record, each with the release that made it. The tests here check the
//! derivation where a binary exists: Redis 7.0 derived from Redis 8.2's data
//! must equal the table read from the 7.0 binary, Valkey 8.1 derived from
//! Valkey 9.1's the one read from 8.1; Valkey 8.0 derived from 9.1's must
//! agree with Valkey's own command specification files for 8.0 (in
//! `../shared/command-specs/valkey-8.0/` beside the repository); and the
//! checked-in derived tables must be what the derivation gives today.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use redis_script_analyzer::commands::Flags;
use redis_script_analyzer::servers::{Origin, Product, Server};
use serde_json::{Value, json};

use super::tables::{Row, rows_of};

/// `major.minor.patch`; a missing part reads as 0.
pub type Version = (u32, u32, u32);

/// Reads `7.2.0` (and `7.4`).
pub fn version(text: &str) -> Version {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

/// Every patch release of `release` (`7.4`): what a derived table covers.
fn release_end(release: &str) -> Version {
    let (major, minor, _) = version(release);
    (major, minor, u32::MAX)
}

/// One change between releases that `COMMAND DOCS` does not record, found
/// by comparing the tables of two binaries (and the server families'
/// release notes for when).
struct Change {
    product: Product,
    /// The first release with the change.
    since: &'static str,
    commands: &'static [&'static str],
    what: What,
}

enum What {
    /// The flag was added.
    AddedFlag(&'static str),
    /// The flag was taken away.
    RemovedFlag(&'static str),
    /// The arity was this before.
    ArityWas(i64),
}

/// Redis 7.2 runs blocking commands in scripts (they do not block there),
/// lets `WAIT` block, serves `CLUSTER SHARDS`/`SLOTS` while loading and
/// takes `COMMAND GETKEYS` with no argument for the command; Valkey 9
/// (after 8.1) lets more client commands run during a busy script and
/// `SCRIPT EXISTS`/`FLUSH`/`SHOW` on a stale replica; Valkey 8.1 renamed
/// the slow log the command log (`EXEC`'s `skip_slowlog` became
/// `skip_commandlog`) and serves `MEMORY MALLOC-STATS`/`PURGE` while
/// loading. Valkey 8.1 (forked from Redis 7.2) has every Redis 7.2 change
/// above, which dates them.
const UNDOCUMENTED: &[Change] = &[
    Change {
        product: Product::Redis,
        since: "7.2.0",
        commands: &[
            "blmove",
            "blpop",
            "brpop",
            "brpoplpush",
            "bzpopmax",
            "bzpopmin",
            "wait",
        ],
        what: What::RemovedFlag("noscript"),
    },
    Change {
        product: Product::Redis,
        since: "7.2.0",
        commands: &["wait"],
        what: What::AddedFlag("blocking"),
    },
    Change {
        product: Product::Redis,
        since: "7.2.0",
        commands: &["cluster|shards", "cluster|slots"],
        what: What::AddedFlag("loading"),
    },
    Change {
        product: Product::Redis,
        since: "7.2.0",
        commands: &["command|getkeys", "command|getkeysandflags"],
        what: What::ArityWas(-4),
    },
    Change {
        product: Product::Valkey,
        since: "8.1.0",
        commands: &["exec"],
        what: What::AddedFlag("skip_commandlog"),
    },
    Change {
        product: Product::Valkey,
        since: "8.1.0",
        commands: &["exec"],
        what: What::RemovedFlag("skip_slowlog"),
    },
    Change {
        product: Product::Valkey,
        since: "8.1.0",
        commands: &["memory|malloc-stats", "memory|purge"],
        what: What::AddedFlag("loading"),
    },
    Change {
        product: Product::Valkey,
        since: "9.0.0",
        commands: &[
            "client|caching",
            "client|capa",
            "client|getname",
            "client|getredir",
            "client|id",
            "client|no-evict",
            "client|no-touch",
            "client|reply",
            "client|setinfo",
            "client|setname",
            "select",
        ],
        what: What::AddedFlag("allow_busy"),
    },
    Change {
        product: Product::Valkey,
        since: "9.0.0",
        commands: &["client|reply"],
        what: What::AddedFlag("no_multi"),
    },
    Change {
        product: Product::Valkey,
        since: "9.0.0",
        commands: &["script|exists", "script|flush", "script|show"],
        what: What::AddedFlag("stale"),
    },
];

/// When the commands of a module built into the binary (flagged `module`,
/// with no `COMMAND DOCS`) came: Redis 8.0 ships vector sets.
fn module_since(product: Product) -> Option<&'static str> {
    (product == Product::Redis).then_some("8.0.0")
}

/// The file `regenerate` writes `server`'s specifications to.
pub fn spec_file(server: Server) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("redis-script-analyzer/specs")
        .join(format!("{}.json", server.key()))
}

/// What `regenerate` keeps of `COMMAND DOCS` for one command: the facts
/// the derivation reads (no summaries): `since`, the versions of its
/// history with the words each entry puts in backticks, and its arguments
/// (type, token, `optional`/`multiple` flags, `since`, nested arguments).
pub fn doc_facts(doc: &Value) -> Value {
    let mut facts = serde_json::Map::new();
    if let Some(since) = doc.get("since") {
        facts.insert("since".into(), since.clone());
    }
    if let Some(history) = doc.get("history").and_then(Value::as_array) {
        let entries: Vec<Value> = history
            .iter()
            .filter_map(|entry| {
                let version = entry.get(0)?.as_str()?;
                let text = entry.get(1)?.as_str()?;
                let named: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
                Some(json!([version, named]))
            })
            .collect();
        facts.insert("history".into(), Value::Array(entries));
    }
    if let Some(args) = doc.get("arguments").and_then(Value::as_array) {
        facts.insert(
            "args".into(),
            Value::Array(args.iter().map(argument_facts).collect()),
        );
    }
    Value::Object(facts)
}

fn argument_facts(arg: &Value) -> Value {
    let mut facts = serde_json::Map::new();
    for field in ["type", "token", "since"] {
        if let Some(value) = arg.get(field) {
            facts.insert(field.into(), value.clone());
        }
    }
    if let Some(flags) = arg.get("flags").and_then(Value::as_array) {
        facts.insert("flags".into(), Value::Array(flags.clone()));
    }
    if let Some(args) = arg.get("arguments").and_then(Value::as_array) {
        facts.insert(
            "args".into(),
            Value::Array(args.iter().map(argument_facts).collect()),
        );
    }
    Value::Object(facts)
}

/// The specifications file's text: the server, then one command per line
/// (its `COMMAND` row and its documentation facts), sorted by name.
pub fn render_spec(
    server: Server,
    version: &str,
    rows: &BTreeMap<String, Row>,
    docs: &BTreeMap<String, Value>,
) -> String {
    let mut out = format!(
        "{{\"server\": {}, \"version\": {}, \"commands\": [\n",
        json!(server.key()),
        json!(version)
    );
    let lines: Vec<String> = rows
        .values()
        .map(|row| {
            let mut line = json!({
                "name": row.name,
                "arity": row.arity,
                "flags": row.flags,
                "keys": [row.first_key, row.last_key, row.key_step],
            });
            if let Some(Value::Object(facts)) = docs.get(&row.name).map(doc_facts) {
                line.as_object_mut().expect("an object").extend(facts);
            }
            line.to_string()
        })
        .collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n]}\n");
    out
}

/// A server's stored specifications: its version and its commands by name.
pub struct Spec {
    pub version: String,
    pub commands: BTreeMap<String, Value>,
}

/// Reads `spec_file(server)`.
pub fn load_spec(server: Server) -> Spec {
    let path = spec_file(server);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("read {}: {error}", path.display()));
    load_spec_text(&text)
}

/// Reads a specifications file's text.
pub fn load_spec_text(text: &str) -> Spec {
    let value: Value =
        serde_json::from_str(text).unwrap_or_else(|error| panic!("a specifications file: {error}"));
    let commands = value["commands"]
        .as_array()
        .expect("a list of commands")
        .iter()
        .map(|command| {
            let name = command["name"].as_str().expect("a name").to_owned();
            (name, command.clone())
        })
        .collect();
    Spec {
        version: value["version"].as_str().expect("a version").to_owned(),
        commands,
    }
}

/// The `COMMAND` row stored for a command.
fn stored_row(name: &str, command: &Value) -> Row {
    let int = |value: &Value| value.as_i64().expect("an integer");
    let keys = command["keys"].as_array().expect("key positions");
    Row {
        name: name.to_owned(),
        arity: int(&command["arity"]),
        flags: command["flags"]
            .as_array()
            .expect("flags")
            .iter()
            .map(|flag| flag.as_str().expect("a flag").to_owned())
            .collect(),
        first_key: int(&keys[0]),
        last_key: int(&keys[1]),
        key_step: int(&keys[2]),
    }
}

/// The rows the specifications were read with: the newer server's table.
pub fn spec_rows(spec: &Spec) -> BTreeMap<String, Row> {
    spec.commands
        .iter()
        .map(|(name, command)| (name.clone(), stored_row(name, command)))
        .collect()
}

/// When an argument came: its own `since`, else the first history entry
/// that names its token.
fn argument_since(arg: &Value, history: &[(Version, Vec<String>)]) -> Option<Version> {
    if let Some(since) = arg.get("since").and_then(Value::as_str) {
        return Some(version(since));
    }
    let token = arg.get("token").and_then(Value::as_str)?;
    history
        .iter()
        .find(|(_, named)| named.iter().any(|word| word.eq_ignore_ascii_case(token)))
        .map(|(when, _)| *when)
}

/// The words a list of arguments takes on `release`: the fewest, and
/// whether there may be more.
fn words(args: &[Value], release: Version, history: &[(Version, Vec<String>)]) -> (i64, bool) {
    let (mut least, mut open) = (0, false);
    for arg in args {
        if argument_since(arg, history).is_some_and(|since| since > release) {
            continue;
        }
        let flags = arg.get("flags").and_then(Value::as_array);
        let has = |flag: &str| flags.is_some_and(|flags| flags.iter().any(|f| f == flag));
        let (mut n, mut more) = argument_words(arg, release, history);
        if has("multiple") {
            more = true;
        }
        if has("optional") {
            n = 0;
            more = true;
        }
        least += n;
        open |= more;
    }
    (least, open)
}

fn argument_words(
    arg: &Value,
    release: Version,
    history: &[(Version, Vec<String>)],
) -> (i64, bool) {
    let token = i64::from(arg.get("token").is_some());
    let nested = || {
        arg.get("args")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    };
    match arg["type"].as_str() {
        Some("pure-token") => (1, false),
        Some("block") => {
            let (n, more) = words(nested(), release, history);
            (n + token, more)
        }
        Some("oneof") => {
            let choices: Vec<(i64, bool)> = nested()
                .iter()
                .filter(|choice| argument_since(choice, history).is_none_or(|s| s <= release))
                .map(|choice| words(std::slice::from_ref(choice), release, history))
                .collect();
            let least = choices.iter().map(|c| c.0).min().unwrap_or(0);
            let more = choices.iter().any(|c| c.1 || c.0 != least);
            (least + token, more)
        }
        _ => (1 + token, false),
    }
}

/// The arity the documented arguments give on `release`.
fn documented_arity(name: &str, doc: &Value, release: Version) -> i64 {
    let history = history(doc);
    let args = doc
        .get("args")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let (least, open) = words(args, release, &history);
    let named = if name.contains('|') { 2 } else { 1 };
    if open {
        -(least + named)
    } else {
        least + named
    }
}

fn history(doc: &Value) -> Vec<(Version, Vec<String>)> {
    doc.get("history")
        .and_then(Value::as_array)
        .map(|entries| {
            entries
                .iter()
                .map(|entry| {
                    let named = entry[1]
                        .as_array()
                        .map(|words| {
                            words
                                .iter()
                                .filter_map(|w| w.as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default();
                    (version(entry[0].as_str().unwrap_or_default()), named)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The table of `release` (`7.4`) of `product`, derived from `spec`.
pub fn derive(spec: &Spec, product: Product, release: &str) -> BTreeMap<String, Row> {
    let end = release_end(release);
    let latest = (u32::MAX, 0, 0);
    let mut rows = BTreeMap::new();
    for (name, command) in &spec.commands {
        let mut row = stored_row(name, command);
        let since = match command.get("since").and_then(Value::as_str) {
            Some(since) => since,
            None if row.flags.iter().any(|flag| flag == "module") => module_since(product)
                .unwrap_or_else(|| panic!("{name}: a module command of unknown release")),
            None => panic!("{name}: no `since` in COMMAND DOCS"),
        };
        if version(since) > end {
            continue;
        }
        let (now, then) = (
            documented_arity(name, command, latest),
            documented_arity(name, command, end),
        );
        if now != then {
            assert_eq!(
                now, row.arity,
                "{name}: its arguments give arity {now}, COMMAND {}: the derivation cannot \
                 tell what {release} had",
                row.arity
            );
            row.arity = then;
        }
        for change in UNDOCUMENTED {
            if change.product != product
                || version(change.since) <= end
                || !change.commands.contains(&name.as_str())
            {
                continue;
            }
            match change.what {
                What::AddedFlag(flag) => row.flags.retain(|f| f != flag),
                What::RemovedFlag(flag) => row.flags.push(flag.to_owned()),
                What::ArityWas(arity) => row.arity = arity,
            }
        }
        rows.insert(name.clone(), row);
    }
    rows
}

/// The differences between two tables, compared as the analyzer stores
/// them (flags as the bits it knows).
pub fn differences(ours: &BTreeMap<String, Row>, theirs: &BTreeMap<String, Row>) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, row) in ours {
        let Some(other) = theirs.get(name) else {
            problems.push(format!("{name}: only in the derived table"));
            continue;
        };
        if row.known_flags().0 != other.known_flags().0 {
            problems.push(format!(
                "{name}: flags {:?} derived, {:?} expected",
                Flags(row.known_flags().0),
                Flags(other.known_flags().0)
            ));
        }
        if row.arity != other.arity {
            problems.push(format!(
                "{name}: arity {} derived, {} expected",
                row.arity, other.arity
            ));
        }
        let keys = |r: &Row| (r.first_key, r.last_key, r.key_step);
        if keys(row) != keys(other) {
            problems.push(format!(
                "{name}: keys {:?} derived, {:?} expected",
                keys(row),
                keys(other)
            ));
        }
    }
    for name in theirs.keys().filter(|name| !ours.contains_key(*name)) {
        problems.push(format!("{name}: missing from the derived table"));
    }
    problems
}

/// `server`'s table derived from the specifications of the server its
/// profile names (for a server read from a binary: from `from`).
fn derived(server: Server, from: Server) -> BTreeMap<String, Row> {
    derive(&load_spec(from), server.product(), server.release())
}

#[test]
fn redis_7_0_derived_from_8_2_equals_the_table_of_its_binary() {
    let problems = differences(
        &derived(Server::Redis7_0, Server::Redis8_2),
        &rows_of(Server::Redis7_0),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn valkey_8_1_derived_from_9_1_equals_the_table_of_its_binary() {
    let problems = differences(
        &derived(Server::Valkey8_1, Server::Valkey9_1),
        &rows_of(Server::Valkey8_1),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The stored specifications come from the same binary as its table.
#[test]
fn specifications_match_the_tables_of_their_binaries() {
    for server in [Server::Redis8_2, Server::Valkey9_1] {
        let spec = load_spec(server);
        assert_eq!(spec.version, server.version(), "{server}");
        let problems = differences(&spec_rows(&spec), &rows_of(server));
        assert!(problems.is_empty(), "{server}: {}", problems.join("\n"));
    }
}

/// The derived tables are what the derivation gives: regenerate (see
/// `tables.rs`) after changing the derivation or the specifications.
#[test]
fn derived_tables_are_current() {
    for server in Server::ALL {
        let Origin::Derived { from } = server.origin() else {
            continue;
        };
        let problems = differences(&derived(server, from), &rows_of(server));
        assert!(
            problems.is_empty(),
            "{server}'s table is not what the derivation from {from} gives; regenerate with \
             REDIS_SCRIPT_SERVER=<{from} binary> {}:\n{}",
            super::tables::REGENERATE_CMD,
            problems.join("\n")
        );
    }
}

/// Flags of the specification files that `COMMAND` does not report.
const HIDDEN_FLAGS: &[&str] = &[
    "may_replicate",
    "protected",
    "sentinel",
    "touches_arbitrary_keys",
];

/// Valkey 8.0, derived from Valkey 9.1's data, against Valkey's own
/// command specification files of 8.0 (arity and flags of every command
/// both have), where the repository has them beside it.
#[test]
fn valkey_8_0_derived_agrees_with_the_specification_files() {
    let Some(dir) = super::reply_specs::present_specs_dir() else {
        return;
    };
    let ours = derived(Server::Valkey8_0, Server::Valkey9_1);
    let mut files = super::reply_specs::read_spec_files(&dir);
    // Sentinel's commands run in sentinel mode only.
    files.retain(|_, spec| {
        !spec
            .get("command_flags")
            .and_then(Value::as_array)
            .is_some_and(|flags| flags.iter().any(|flag| flag == "ONLY_SENTINEL"))
    });
    let mut problems = Vec::new();
    for (name, spec) in &files {
        let Some(row) = ours.get(name) else {
            problems.push(format!("{name}: in the files, not derived"));
            continue;
        };
        let arity = spec["arity"].as_i64().expect("an arity");
        if arity != row.arity {
            problems.push(format!(
                "{name}: arity {} derived, {arity} in the files",
                row.arity
            ));
        }
        let mut flags: Vec<String> = spec
            .get("command_flags")
            .and_then(Value::as_array)
            .map(|flags| {
                flags
                    .iter()
                    .filter_map(|flag| flag.as_str().map(str::to_ascii_lowercase))
                    .filter(|flag| !HIDDEN_FLAGS.contains(&flag.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        flags.sort();
        let mut derived_flags: Vec<String> = row
            .flags
            .iter()
            .filter(|flag| *flag != "movablekeys")
            .cloned()
            .collect();
        derived_flags.sort();
        if flags != derived_flags {
            problems.push(format!(
                "{name}: flags {derived_flags:?} derived, {flags:?} in the files"
            ));
        }
    }
    for name in ours.keys().filter(|name| !files.contains_key(*name)) {
        problems.push(format!("{name}: derived, not in the files"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
