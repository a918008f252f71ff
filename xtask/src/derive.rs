//! Command tables for releases with no binary at hand (Redis 7.2, 7.4 and
//! 8.0, Valkey 8.0), derived from a newer server's own specifications: its
//! `COMMAND` (arity, flags, key positions) and `COMMAND DOCS` (each
//! command's and argument's `since`, and its history), stored as
//! `specs/<server>.json`.
//!
//! For a release `R`, a command is in the table if its `since` is no later
//! than `R`; an argument added after `R` (its own `since`, or a history entry
//! that names its token in backticks) takes back the change it made to the
//! arity; and [`UNDOCUMENTED`] lists the changes the documentation does
//! not record, each with the release that made it. The tests here check the
//! derivation where a binary exists: Redis 7.0 derived from Redis 8.2's data
//! must equal the table read from the 7.0 binary, Valkey 8.1 derived from
//! Valkey 9.1's the one read from 8.1; Valkey 8.0 derived from 9.1's must
//! agree with Valkey's own command specification files for 8.0
//! (`specs/valkey-8.0-files.json`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::servers::Product;
use crate::specs::{History, Spec, args, history, named_since};
use crate::version::{Version, version};

/// One command or subcommand as a server's `COMMAND` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    pub arity: i64,
    /// Names as `COMMAND` gives them, in its order.
    pub flags: Vec<String>,
    /// First key, last key, key step.
    pub keys: (i64, i64, i64),
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

/// Every patch release of `release` (`7.4`): what a derived table covers.
pub fn release_end(release: &str) -> Version {
    let (major, minor, _) = version(release);
    (major, minor, u32::MAX)
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
        keys: (int(&keys[0]), int(&keys[1]), int(&keys[2])),
    }
}

/// The table a binary's specifications were read with: its own.
pub fn spec_rows(spec: &Spec) -> BTreeMap<String, Row> {
    spec.commands
        .iter()
        .map(|(name, command)| (name.clone(), stored_row(name, command)))
        .collect()
}

/// When an argument came: its own `since`, else the first history entry
/// that names its token.
pub fn argument_since(arg: &Value, history: &History) -> Option<Version> {
    if let Some(since) = arg.get("since").and_then(Value::as_str) {
        return Some(version(since));
    }
    named_since(history, arg.get("token").and_then(Value::as_str)?)
}

/// The words a list of arguments takes on `release`: the fewest, and
/// whether there may be more.
fn words(args: &[Value], release: Version, history: &History) -> (i64, bool) {
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

fn argument_words(arg: &Value, release: Version, history: &History) -> (i64, bool) {
    let token = i64::from(arg.get("token").is_some());
    match arg["type"].as_str() {
        Some("pure-token") => (1, false),
        Some("block") => {
            let (n, more) = words(args(arg), release, history);
            (n + token, more)
        }
        Some("oneof") => {
            let choices: Vec<(i64, bool)> = args(arg)
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
    let (least, open) = words(args(doc), release, &history(doc));
    let named = if name.contains('|') { 2 } else { 1 };
    if open {
        -(least + named)
    } else {
        least + named
    }
}

/// The table of `release` (`7.4`) of `product`, derived from `spec`; each
/// row's flags in the order of `spec`'s, a flag put back last.
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::servers::Server;
    use crate::specs::Specs;

    fn specs() -> Specs {
        Specs::load(&crate::files::repository())
    }

    fn server(key: &str) -> Server {
        Server::from_key(key).expect("a server")
    }

    /// `key`'s table derived from `from`'s specifications.
    fn derived(specs: &Specs, key: &str, from: &str) -> BTreeMap<String, Row> {
        let (server, from) = (server(key), server(from));
        let spec = specs.binary(from).expect("a binary's specifications");
        derive(spec, server.product, &server.release())
    }

    /// A row's flags as the analyzer stores them: a set.
    fn flag_set(row: &Row) -> BTreeSet<&str> {
        row.flags.iter().map(String::as_str).collect()
    }

    /// The differences between two tables, compared as the analyzer stores
    /// them (flags as a set).
    fn differences(ours: &BTreeMap<String, Row>, theirs: &BTreeMap<String, Row>) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, row) in ours {
            let Some(other) = theirs.get(name) else {
                problems.push(format!("{name}: only in the derived table"));
                continue;
            };
            if flag_set(row) != flag_set(other) {
                problems.push(format!(
                    "{name}: flags {:?} derived, {:?} expected",
                    row.flags, other.flags
                ));
            }
            if row.arity != other.arity {
                problems.push(format!(
                    "{name}: arity {} derived, {} expected",
                    row.arity, other.arity
                ));
            }
            if row.keys != other.keys {
                problems.push(format!(
                    "{name}: keys {:?} derived, {:?} expected",
                    row.keys, other.keys
                ));
            }
        }
        for name in theirs.keys().filter(|name| !ours.contains_key(*name)) {
            problems.push(format!("{name}: missing from the derived table"));
        }
        problems
    }

    /// Derived from a newer binary's specifications, a release with a
    /// binary of its own gives that binary's table.
    fn derivation_gives_the_table_of_its_binary(key: &str, from: &str) {
        let specs = specs();
        let own = spec_rows(specs.binary(server(key)).expect("a binary"));
        let problems = differences(&derived(&specs, key, from), &own);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn redis_7_0_derived_from_8_2_equals_the_table_of_its_binary() {
        derivation_gives_the_table_of_its_binary("redis-7.0", "redis-8.2");
    }

    #[test]
    fn valkey_8_1_derived_from_9_1_equals_the_table_of_its_binary() {
        derivation_gives_the_table_of_its_binary("valkey-8.1", "valkey-9.1");
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
    /// both have).
    #[test]
    fn valkey_8_0_derived_agrees_with_the_specification_files() {
        let specs = specs();
        let ours = derived(&specs, "valkey-8.0", "valkey-9.1");
        let mut files = specs.valkey_files["8.0"].clone();
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

    #[test]
    fn an_argument_added_later_takes_back_its_arity() {
        let command: Value = serde_json::from_str(
            r#"{"since": "1.0.0", "history": [["6.0.0", ["KEEPTTL"]]],
                "args": [{"type": "key"}, {"token": "KEEPTTL", "type": "pure-token"},
                         {"token": "GET", "type": "pure-token", "since": "7.0.0"}]}"#,
        )
        .unwrap();
        assert_eq!(documented_arity("set", &command, (u32::MAX, 0, 0)), 4);
        assert_eq!(documented_arity("set", &command, release_end("6.2")), 3);
        assert_eq!(documented_arity("set", &command, release_end("5.0")), 2);
    }
}
