//! The analyzer's command table (`src/commands/table.rs`): every server's
//! commands in one table, a row per form a name takes (arity, flags, key
//! positions) with the set of servers that give it that form.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::derive::{Row, derive, spec_rows};
use crate::servers::Server;
use crate::specs::{Source, Specs};

/// Where it is written, from the repository's root.
pub const FILE: &str = "redis-script-analyzer/src/commands/table.rs";

/// One server's table, and the version it was read from (`7.0.15`) or the
/// release it was derived for (`7.4`).
pub struct Table {
    pub server: Server,
    version: String,
    /// The server a derived table comes from; `None` for a binary's own.
    pub derived_from: Option<Server>,
    pub rows: BTreeMap<String, Row>,
}

/// Every server's table, in server order.
pub fn tables(specs: &Specs) -> Vec<Table> {
    specs
        .servers
        .iter()
        .map(|(&server, source)| match source {
            Source::Binary(spec) => Table {
                server,
                version: spec.version.clone(),
                derived_from: None,
                rows: spec_rows(spec),
            },
            Source::Derived { from } => {
                let spec = specs.binary(*from).expect("checked when loaded");
                Table {
                    server,
                    version: server.release(),
                    derived_from: Some(*from),
                    rows: derive(spec, server.product, &server.release()),
                }
            }
        })
        .collect()
}

/// One row of the generated table: a form, and the servers (indices into
/// the tables, in order) that give its name that form.
struct Entry<'a> {
    row: &'a Row,
    servers: Vec<usize>,
}

/// What makes two servers' rows of a name one entry: the same arity, flag
/// set and key positions (the order in which each lists its flags aside).
fn form(row: &Row) -> (i64, BTreeSet<&str>, (i64, i64, i64)) {
    let flags = row.flags.iter().map(String::as_str).collect();
    (row.arity, flags, row.keys)
}

/// The entries, sorted by name, then by their first server.
fn entries(tables: &[Table]) -> Vec<Entry<'_>> {
    let names: BTreeSet<&str> = tables
        .iter()
        .flat_map(|table| table.rows.keys().map(String::as_str))
        .collect();
    let mut entries = Vec::new();
    for name in names {
        let first = entries.len();
        for (index, table) in tables.iter().enumerate() {
            let Some(row) = table.rows.get(name) else {
                continue;
            };
            // Tables come in server order, so a name's entries are in the
            // order of their first server.
            match entries[first..]
                .iter_mut()
                .find(|entry: &&mut Entry| form(entry.row) == form(row))
            {
                Some(entry) => entry.servers.push(index),
                None => entries.push(Entry {
                    row,
                    servers: vec![index],
                }),
            }
        }
    }
    entries
}

/// `Redis 7.0, Redis 7.2 and Valkey 9.1`.
pub fn names(servers: &[Server]) -> String {
    let names: Vec<String> = servers.iter().map(Server::to_string).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A set of servers as a const expression on one line (its const is
/// `#[rustfmt::skip]`: a set a line keeps the sets apart for a reader, and
/// for a tool that looks for repeated lines).
pub fn set_expression(servers: &[Server]) -> String {
    let mut calls = servers.iter().map(|server| server.variant());
    let mut out = format!(
        "Servers::only(Server::{})",
        calls.next().unwrap_or_default()
    );
    for variant in calls {
        let _ = write!(out, ".with(Server::{variant})");
    }
    out
}

/// The flags of a row, as the constants of the analyzer's `flag` module.
fn flags(row: &Row) -> String {
    if row.flags.is_empty() {
        return "0".to_owned();
    }
    let names: Vec<String> = row.flags.iter().map(|flag| flag.to_uppercase()).collect();
    names.join(" | ")
}

/// The whole generated file.
pub fn render(specs: &Specs) -> String {
    let tables = tables(specs);
    let mut out = crate::files::HEADER.to_owned();
    out.push_str(
        "//! The command table of every server: the arity, flags and key\n\
         //! positions of each command and subcommand, as the server binary's\n\
         //! `COMMAND` reports them (`specs/<server>.json`), or, for a release\n\
         //! with no binary, derived from a newer server's `COMMAND` and\n\
         //! `COMMAND DOCS` (`xtask/src/derive.rs`).\n\
         \n\
         use super::command::flag::*;\n\
         use super::command::{Entry, e};\n\
         use crate::servers::{Origin, Server, Servers};\n\
         \n\
         /// The version each server's table was read from (`7.0.15`), or the\n\
         /// release it was derived for (`7.4`), and where it comes from.\n\
         #[rustfmt::skip]\n\
         pub(super) const fn source(server: Server) -> (&'static str, Origin) {\n\
         \x20   match server {\n",
    );
    for table in &tables {
        let origin = match table.derived_from {
            None => "Origin::Binary".to_owned(),
            Some(from) => format!("Origin::Derived {{ from: Server::{} }}", from.variant()),
        };
        let _ = writeln!(
            out,
            "        Server::{} => ({:?}, {origin}),",
            table.server.variant(),
            table.version
        );
    }
    out.push_str("    }\n}\n");

    let entries = entries(&tables);
    // The sets, named in order of first use.
    let mut sets: Vec<&[usize]> = Vec::new();
    for entry in &entries {
        if !sets.contains(&entry.servers.as_slice()) {
            sets.push(&entry.servers);
        }
    }
    for (index, set) in sets.iter().enumerate() {
        let servers: Vec<Server> = set.iter().map(|&i| tables[i].server).collect();
        let _ = write!(
            out,
            "\n/// {}.\n#[rustfmt::skip]\nconst S{index}: Servers = {};\n",
            names(&servers),
            set_expression(&servers)
        );
    }

    out.push_str(
        "\n/// Every command and subcommand, sorted by name: one row per form (arity,\n\
         /// flags, key positions) and the servers that give the name that form:\n\
         /// `e(servers, name, arity, flags, first key, last key, key step)`.\n\
         #[rustfmt::skip]\n\
         pub(super) static COMMANDS: &[Entry] = &[\n",
    );
    for entry in &entries {
        let set = sets
            .iter()
            .position(|set| *set == entry.servers.as_slice())
            .expect("every set is named");
        let row = entry.row;
        let (first, last, step) = row.keys;
        let _ = writeln!(
            out,
            "    e(S{set}, {:?}, {}, {}, {first}, {last}, {step}),",
            row.name,
            row.arity,
            flags(row)
        );
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers(keys: &[&str]) -> Vec<Server> {
        keys.iter()
            .map(|key| Server::from_key(key).expect("a server"))
            .collect()
    }

    #[test]
    fn sets_are_named_and_written_on_one_line() {
        let two = servers(&["redis-7.0", "valkey-9.1"]);
        assert_eq!(names(&two), "Redis 7.0 and Valkey 9.1");
        assert_eq!(
            set_expression(&two),
            "Servers::only(Server::Redis7_0).with(Server::Valkey9_1)"
        );
        let three = servers(&["redis-7.0", "redis-7.2", "valkey-9.1"]);
        assert_eq!(names(&three), "Redis 7.0, Redis 7.2 and Valkey 9.1");
        assert_eq!(
            set_expression(&three),
            "Servers::only(Server::Redis7_0).with(Server::Redis7_2).with(Server::Valkey9_1)"
        );
    }

    #[test]
    fn servers_with_the_same_form_share_an_entry() {
        let row = |arity, flags: &[&str]| Row {
            name: "blpop".to_owned(),
            arity,
            flags: flags.iter().map(|flag| (*flag).to_owned()).collect(),
            keys: (1, -2, 1),
        };
        let table = |key, row: Row| Table {
            server: Server::from_key(key).expect("a server"),
            version: String::new(),
            derived_from: None,
            rows: BTreeMap::from([(row.name.clone(), row)]),
        };
        let tables = [
            table("redis-7.0", row(-3, &["write", "noscript", "blocking"])),
            table("redis-8.2", row(-3, &["write", "blocking"])),
            table("valkey-9.1", row(-3, &["blocking", "write"])),
        ];
        let entries = entries(&tables);
        let servers: Vec<&[usize]> = entries.iter().map(|e| e.servers.as_slice()).collect();
        assert_eq!(servers, [&[0][..], &[1, 2]]);
        assert_eq!(flags(entries[1].row), "WRITE | BLOCKING");
    }
}
