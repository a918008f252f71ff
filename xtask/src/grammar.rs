//! The analyzer's grammar table (`src/grammar/table.rs`): the argument tree
//! of every command a script may call, as each server's `COMMAND DOCS`
//! gives it, one row per distinct tree with the set of servers that have it.
//!
//! A server read from a binary has its own trees. A release with no binary
//! has the trees of the newer server its table is derived from, without
//! the arguments that came after it (an argument's own `since`, or the
//! history entry that names its token).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::commands::{Table, tables};
use crate::derive::{argument_since, release_end};
use crate::forms::Forms;
use crate::specs::{History, Specs, args, history};
use crate::version::Version;

/// Where it is written, from the repository's root.
pub const FILE: &str = "redis-script-analyzer/src/grammar/table.rs";

/// The arguments of `name` on `table`'s server, as the text of a Rust
/// slice; `None` when a script may not call it there, or its
/// documentation does not give them.
fn tree(specs: &Specs, table: &Table, name: &str) -> Option<String> {
    let row = table.rows.get(name)?;
    if row.flags.iter().any(|flag| flag == "noscript") {
        return None;
    }
    let (spec, until) = match table.derived_from {
        None => (specs.binary(table.server)?, None),
        Some(from) => (
            specs.binary(from)?,
            Some(release_end(&table.server.release())),
        ),
    };
    let command = spec.commands.get(name)?;
    // A module's command documents no arguments: its grammar is unknown,
    // not empty.
    let named = if name.contains('|') { 2 } else { 1 };
    if args(command).is_empty() && row.arity != named {
        return None;
    }
    let exclusive: BTreeMap<String, Vec<(String, String)>> = command
        .get("exclusive")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, pairs)| {
            let pairs = pairs
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|pair| {
                    let text = |index: usize| Some(pair.get(index)?.as_str()?.to_owned());
                    Some((text(0)?, text(1)?))
                })
                .collect();
            (name.clone(), pairs)
        })
        .collect();
    let fractional: Vec<String> = command
        .get("fractional")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|name| Some(name.as_str()?.to_owned()))
        .collect();
    let reading = Reading {
        until,
        history: &history(command),
        exclusive: &exclusive,
        fractional: &fractional,
    };
    Some(slice(args(command), &reading, true))
}

/// How a command's arguments are read into its tree.
struct Reading<'a> {
    /// The release the tree is for (all arguments, when `None`).
    until: Option<Version>,
    history: &'a History,
    /// For each top-level `oneof` (by name) of which the binary refused
    /// two choices together, those pairs of choices (by token, else name).
    exclusive: &'a BTreeMap<String, Vec<(String, String)>>,
    /// The top-level arguments documented as integers that the binary
    /// took with a fraction (`WEIGHTS 1.5`): numbers in the tree.
    fractional: &'a [String],
}

/// `&[...]`: the arguments that exist up to the release; `top` for a
/// command's own arguments (not nested ones).
fn slice(arguments: &[Value], reading: &Reading, top: bool) -> String {
    slice_of(&present(arguments, reading), reading, top, &[])
}

/// The arguments of `arguments` that exist up to the release.
fn present<'v>(arguments: &'v [Value], reading: &Reading) -> Vec<&'v Value> {
    arguments
        .iter()
        .filter(|arg| {
            reading
                .until
                .is_none_or(|until| argument_since(arg, reading.history).is_none_or(|s| s <= until))
        })
        .collect()
}

/// `&[...]` of `arguments`; a choice of a `oneof` that the binary refused
/// together with others (the pairs `pairs` names) is `x(mask, ...)`, the
/// mask's bits the indexes of the choices it excludes.
fn slice_of(
    arguments: &[&Value],
    reading: &Reading,
    top: bool,
    pairs: &[(String, String)],
) -> String {
    let names: Vec<&str> = arguments.iter().map(|arg| choice_name(arg)).collect();
    let items: Vec<String> = arguments
        .iter()
        .map(|arg| {
            let text = argument(arg, reading, top);
            let own = choice_name(arg);
            let mask = names.iter().enumerate().fold(0u32, |mask, (index, other)| {
                let excluded = pairs
                    .iter()
                    .any(|(a, b)| (a == own && b == other) || (a == other && b == own));
                if excluded { mask | 1 << index } else { mask }
            });
            if mask == 0 {
                text
            } else {
                format!("x({mask}, {text})")
            }
        })
        .collect();
    format!("&[{}]", items.join(", "))
}

/// A choice as the facts name it: its token, else its name.
fn choice_name(arg: &Value) -> &str {
    arg.get("token")
        .or_else(|| arg.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// One argument: `t(flags, token)` for a word alone, `v(kind, flags, token,
/// name)` for a value, `a(kind, flags, token, name, &[...])` for a `oneof`
/// or a `block`.
fn argument(arg: &Value, reading: &Reading, top: bool) -> String {
    let text = |field: &str| arg.get(field).and_then(Value::as_str).unwrap_or_default();
    let flags: Vec<&str> = arg
        .get("flags")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|flag| match flag.as_str()? {
            "optional" => Some("O"),
            "multiple" => Some("M"),
            "multiple_token" => Some("T"),
            _ => None,
        })
        .collect();
    let pairs = match reading.exclusive.get(text("name")) {
        Some(pairs) if top && text("type") == "oneof" => pairs.as_slice(),
        _ => &[],
    };
    let flags = if flags.is_empty() {
        "0".to_owned()
    } else {
        flags.join(" | ")
    };
    let (token, name) = (text("token"), text("name"));
    let kind = match text("type") {
        "pure-token" => return format!("t({flags}, {token:?})"),
        "key" => "Key",
        "pattern" => "Pattern",
        "integer" | "unix-time" if top && reading.fractional.iter().any(|n| n == name) => "Double",
        "integer" => "Integer",
        "double" => "Double",
        "unix-time" => "UnixTime",
        "oneof" => "OneOf",
        "block" => "Block",
        _ => "Text",
    };
    match kind {
        "OneOf" | "Block" => format!(
            "a({kind}, {flags}, {token:?}, {name:?}, {})",
            slice_of(&present(args(arg), reading), reading, false, pairs)
        ),
        _ => format!("v({kind}, {flags}, {token:?}, {name:?})"),
    }
}

/// The whole generated file.
pub fn render(specs: &Specs) -> String {
    let tables = tables(specs);
    let mut forms = Forms::default();
    for table in &tables {
        for name in table.rows.keys() {
            if let Some(tree) = tree(specs, table, name) {
                forms.add(name, tree, table.server);
            }
        }
    }
    let mut out = crate::files::HEADER.to_owned();
    out.push_str(
        "//! The argument tree of every command and subcommand a script may\n\
         //! call, as each server's `COMMAND DOCS` gives it (`specs/<server>.json`;\n\
         //! a release with no binary has its newer server's tree without the\n\
         //! arguments that came after it).\n\
         \n\
         use super::arg::Kind::*;\n\
         use super::arg::{Grammar, M, O, T, a, g, t, v, x};\n\
         use crate::servers::{Server, Servers};\n",
    );
    forms.write(
        &mut out,
        "/// Every command's trees, sorted by name, then by their first server:\n\
         /// `g(name, servers, arguments)`.\n",
        "pub(super) static GRAMMARS: &[Grammar] = &[",
        "g",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_argument_newer_than_the_release_is_left_out() {
        let set = json!({"args": [
            {"name": "key", "type": "key"},
            {"flags": ["optional"], "name": "get", "since": "6.2.0", "token": "GET", "type": "pure-token"},
            {"args": [
                {"name": "seconds", "token": "EX", "type": "integer"},
                {"name": "unix-time-seconds", "token": "EXAT", "type": "unix-time"}
            ], "flags": ["optional"], "name": "expiration", "type": "oneof"}
        ], "history": [["6.2.0", ["GET", "EXAT"]]]});
        let history = history(&set);
        let none = BTreeMap::new();
        let reading = |until| Reading {
            until,
            history: &history,
            exclusive: &none,
            fractional: &[],
        };
        assert_eq!(
            slice(args(&set), &reading(Some((6, 0, u32::MAX))), true),
            "&[v(Key, 0, \"\", \"key\"), a(OneOf, O, \"\", \"expiration\", \
             &[v(Integer, 0, \"EX\", \"seconds\")])]"
        );
        let exclusive = BTreeMap::from([(
            "expiration".to_owned(),
            vec![("EX".to_owned(), "EXAT".to_owned())],
        )]);
        let refused_together = Reading {
            exclusive: &exclusive,
            ..reading(None)
        };
        let tree = slice(args(&set), &refused_together, true);
        assert!(
            tree.contains("&[x(2, v(Integer, 0, \"EX\", \"seconds\")), x(1, v(UnixTime"),
            "{tree}"
        );
        assert_eq!(
            slice(args(&set), &reading(None), true),
            "&[v(Key, 0, \"\", \"key\"), t(O, \"GET\"), a(OneOf, O, \"\", \"expiration\", \
             &[v(Integer, 0, \"EX\", \"seconds\"), v(UnixTime, 0, \"EXAT\", \"unix-time-seconds\")])]"
        );
    }
}
