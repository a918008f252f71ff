//! The grammar of each command's arguments, as each server's `COMMAND DOCS`
//! gives it (the generated [`table`]), and a call's words matched against
//! it ([`matching`]).
//!
//! Facts, like the command table: the rules and the language server read
//! them; they read nothing above the servers.

mod arg;
pub(crate) mod matching;
mod table;

pub(crate) use self::arg::{Arg, Grammar, Kind};

/// Every tree of `name` (lower case; `object|encoding` for a subcommand),
/// one per set of servers.
pub(crate) fn grammars(name: &str) -> &'static [Grammar] {
    let start = table::GRAMMARS.partition_point(|grammar| grammar.name < name);
    let end = start + table::GRAMMARS[start..].partition_point(|grammar| grammar.name == name);
    &table::GRAMMARS[start..end]
}
