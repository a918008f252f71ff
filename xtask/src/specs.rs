//! The specifications in `redis-script-analyzer/specs/` (its README.md says
//! what each file holds), read as JSON, and the facts of `COMMAND DOCS`
//! that more than one table reads.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::servers::{Product, Server};
use crate::version::{Version, version};

/// The folder, from the repository's root.
pub const DIR: &str = "redis-script-analyzer/specs";

/// How the stores of Valkey's command specification files are named
/// (`valkey-8.0-files.json`, one command per line); every other `.json`
/// file of the folder is a server's (`<key>.json`).
const VALKEY_FILES: (&str, &str) = ("valkey-", "-files");

/// Everything the folder holds.
pub struct Specs {
    /// Every server, in the analyzer's order, with where its table comes
    /// from.
    pub servers: BTreeMap<Server, Source>,
    /// Valkey's specification files by release (`"8.0"`, `"9.1"`): each
    /// command (its `arity`, `command_flags` and `reply_schema`) by the
    /// name the tables give it (`config|get`).
    pub valkey_files: BTreeMap<String, BTreeMap<String, Value>>,
}

/// Where a server's table comes from.
pub enum Source {
    /// What its binary reports of itself.
    Binary(Spec),
    /// A release with no binary here: derived from that newer server's
    /// specifications.
    Derived { from: Server },
}

/// A server binary's stored specifications: its version and its commands
/// by name, each its `COMMAND` row and its `COMMAND DOCS` facts.
pub struct Spec {
    pub version: String,
    pub commands: BTreeMap<String, Value>,
}

impl Specs {
    /// Reads the folder of the repository at `root`.
    pub fn load(root: &Path) -> Specs {
        let dir = root.join(DIR);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut servers = BTreeMap::new();
        let mut valkey_files = BTreeMap::new();
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let Some(stem) = path
                .file_name()
                .and_then(|name| name.to_str()?.strip_suffix(".json"))
            else {
                continue;
            };
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let value: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if let Some(release) = stem
                .strip_prefix(VALKEY_FILES.0)
                .and_then(|rest| rest.strip_suffix(VALKEY_FILES.1))
            {
                valkey_files.insert(release.to_owned(), by_name(&value));
                continue;
            }
            let server = Server::from_key(stem)
                .unwrap_or_else(|| panic!("{}: not named after a server", path.display()));
            assert_eq!(
                value["server"].as_str(),
                Some(stem),
                "{}: `server` is not its name",
                path.display()
            );
            servers.insert(server, source(&value, &path));
        }
        let specs = Specs {
            servers,
            valkey_files,
        };
        for (server, source) in &specs.servers {
            if let Source::Derived { from } = source {
                specs.binary(*from).unwrap_or_else(|| {
                    panic!("{server} is derived from {from}, which has no binary's specifications")
                });
            }
        }
        specs
    }

    /// The specifications of `server`'s binary; `None` for a derived release.
    pub fn binary(&self, server: Server) -> Option<&Spec> {
        match self.servers.get(&server)? {
            Source::Binary(spec) => Some(spec),
            Source::Derived { .. } => None,
        }
    }

    /// The newest server of `product` read from a binary.
    pub fn newest_binary(&self, product: Product) -> (Server, &Spec) {
        self.servers
            .iter()
            .rev()
            .filter(|(server, _)| server.product == product)
            .find_map(|(server, source)| match source {
                Source::Binary(spec) => Some((*server, spec)),
                Source::Derived { .. } => None,
            })
            .unwrap_or_else(|| panic!("no {} binary's specifications", product.name()))
    }
}

/// A server's file: a binary's specifications, or the server it is
/// derived from.
fn source(value: &Value, path: &Path) -> Source {
    if let Some(from) = value.get("derived_from").and_then(Value::as_str) {
        let from = Server::from_key(from)
            .unwrap_or_else(|| panic!("{}: derived from `{from}`, no server", path.display()));
        return Source::Derived { from };
    }
    Source::Binary(Spec {
        version: value["version"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: no version", path.display()))
            .to_owned(),
        commands: by_name(value),
    })
}

/// The `commands` of a file, by their `name`.
fn by_name(value: &Value) -> BTreeMap<String, Value> {
    value["commands"]
        .as_array()
        .expect("a list of commands")
        .iter()
        .map(|command| {
            let name = command["name"].as_str().expect("a name").to_owned();
            (name, command.clone())
        })
        .collect()
}

/// The arguments of a command (or the nested ones of an argument).
pub fn args(value: &Value) -> &[Value] {
    value
        .get("args")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// A command's history: each entry's version and the words it puts in
/// backticks.
pub type History = Vec<(Version, Vec<String>)>;

/// The history stored for a command.
pub fn history(command: &Value) -> History {
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
            (version(entry[0].as_str().unwrap_or_default()), named)
        })
        .collect()
}

/// When the history says an argument's `token` came: its first entry that
/// names it (any case).
pub fn named_since(history: &History, token: &str) -> Option<Version> {
    history
        .iter()
        .find(|(_, named)| named.iter().any(|word| word.eq_ignore_ascii_case(token)))
        .map(|(when, _)| *when)
}
