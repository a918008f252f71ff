//! The analyzer's table of what each command does to the type of its
//! first key (`src/key_types/table.rs`), from the `types` facts each
//! binary gave (`specs/<server>.json`): the type its smallest call leaves
//! on a missing key, and the types on which it fails with WRONGTYPE. A
//! release with no binary has the facts of the newer server its table is
//! derived from, for the commands it has.

use serde_json::Value;

use crate::commands::tables;
use crate::forms::Forms;
use crate::specs::Specs;

/// Where it is written, from the repository's root.
pub const FILE: &str = "redis-script-analyzer/src/key_types/table.rs";

/// A type as `TYPE` names it, as the analyzer's constant.
fn constant(name: &str) -> Option<&'static str> {
    Some(match name {
        "string" => "STRING",
        "list" => "LIST",
        "hash" => "HASH",
        "set" => "SET",
        "zset" => "ZSET",
        "stream" => "STREAM",
        "hyperloglog" => "HYPERLOGLOG",
        _ => return None,
    })
}

/// The constants of `names`, or `0`.
fn set_of<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let constants: Vec<&str> = names.filter_map(constant).collect();
    if constants.is_empty() {
        "0".to_owned()
    } else {
        constants.join(" | ")
    }
}

/// The types a key may hold, as the facts name them.
const TYPE_NAMES: [&str; 7] = [
    "string",
    "list",
    "hash",
    "set",
    "zset",
    "stream",
    "hyperloglog",
];

/// One command's facts as the row's text after its name and servers:
/// the type it makes, only where it leaves that type whatever the key held
/// (it made it of a missing key, and of a key of each other type it made
/// it too or failed with WRONGTYPE: SET and SADD, not SETNX); the types it
/// fails on; and whether it makes nothing of empty values.
fn facts(types: &Value) -> String {
    let wrongtype: Vec<&str> = types
        .get("wrongtype_on")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let made = types
        .get("creates")
        .and_then(Value::as_str)
        .unwrap_or("none");
    let always = TYPE_NAMES.iter().all(|name| {
        *name == made
            || wrongtype.contains(name)
            || types["leaves"].get(*name).and_then(Value::as_str) == Some(made)
    });
    let creates = match constant(made) {
        Some(constant) if always => constant,
        _ => "0",
    };
    let needs_values = types.get("needs_values").and_then(Value::as_bool) == Some(true);
    format!(
        "{creates}, {}, {needs_values}",
        set_of(wrongtype.into_iter())
    )
}

/// The whole generated file.
pub fn render(specs: &Specs) -> String {
    let tables = tables(specs);
    let mut forms = Forms::default();
    for table in &tables {
        let spec = match table.derived_from {
            None => specs.binary(table.server),
            Some(from) => specs.binary(from),
        }
        .expect("checked when loaded");
        for name in table.rows.keys() {
            if let Some(types) = spec
                .commands
                .get(name)
                .and_then(|command| command.get("types"))
            {
                forms.add(name, facts(types), table.server);
            }
        }
    }
    let mut out = crate::files::HEADER.to_owned();
    out.push_str(
        "//! What each command does to the type of its first key, as each server\n\
         //! binary answered (`specs/<server>.json`, `types`): the type its\n\
         //! smallest call leaves on a missing key, and the types of an existing\n\
         //! key on which it fails with WRONGTYPE.\n\
         \n\
         use super::type_use::{HASH, HYPERLOGLOG, LIST, SET, STREAM, STRING, TypeUse, ZSET, u};\n\
         use crate::servers::{Server, Servers};\n",
    );
    forms.write(
        &mut out,
        "/// Every command asked, sorted by name, then by its first server:\n\
         /// `u(name, servers, creates, wrongtype_on, needs_values)`.\n",
        "pub(super) static USES: &[TypeUse] = &[",
        "u",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_row_names_the_type_made_and_the_types_refused() {
        let sadd = json!({
            "creates": "set",
            "wrongtype_on": ["hash", "hyperloglog", "list", "stream", "string", "zset"]
        });
        assert_eq!(
            facts(&sadd),
            "SET, HASH | HYPERLOGLOG | LIST | STREAM | STRING | ZSET, false"
        );
        assert_eq!(
            facts(&json!({"creates": "none", "wrongtype_on": []})),
            "0, 0, false"
        );
        // SETNX makes a string of a missing key, and leaves a list a list.
        let setnx = json!({"creates": "string", "wrongtype_on": [], "leaves": {"list": "list"}});
        assert!(facts(&setnx).starts_with("0, "), "{}", facts(&setnx));
    }
}
