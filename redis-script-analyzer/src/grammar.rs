//! The grammar of each command's arguments, as each server's `COMMAND DOCS`
//! gives it (the generated `table`), and a call's words matched against
//! it (`matching`).
//!
//! Facts, like the command table: the rules and the language server read
//! them; they read nothing above the servers.

mod arg;
pub(crate) mod matching;
mod table;

pub(crate) use self::arg::{Arg, Grammar, Kind};

use self::matching::{Expected, Literal, Word, expected_next};
use crate::servers::{Server, Servers};

/// Every tree of `name` (lower case; `object|encoding` for a subcommand),
/// one per set of servers.
pub(crate) fn grammars(name: &str) -> &'static [Grammar] {
    let start = table::GRAMMARS.partition_point(|grammar| grammar.name < name);
    let end = start + table::GRAMMARS[start..].partition_point(|grammar| grammar.name == name);
    &table::GRAMMARS[start..end]
}

/// The tree of `name` on `server`; `None` when a script may not call it
/// there, or its documentation gives no arguments.
pub(crate) fn grammar(server: Server, name: &str) -> Option<&'static Grammar> {
    grammars(name)
        .iter()
        .find(|grammar| grammar.servers.contains(server))
}

/// The words the grammar of `name` (lower case; `client|kill` for a
/// subcommand) takes next on every server of `targets`, after the
/// arguments `before` (each the bytes of a literal, or `None` for any
/// other value), in the documentation's order: what an editor offers
/// where the next argument is typed. Empty where only a value fits (after
/// `EX`); `None` where some target has no grammar for it, or the words
/// before already go wrong.
pub fn next_words(
    name: &str,
    before: &[Option<&[u8]>],
    targets: Servers,
) -> Option<Vec<&'static str>> {
    let words = words_of(before);
    let mut common: Option<Vec<&'static str>> = None;
    for server in targets.iter() {
        let expected = expected_next(grammar(server, name)?.args, &words)?;
        let tokens: Vec<&'static str> = expected
            .into_iter()
            .filter_map(|expected| match expected {
                Expected::Token(token) => Some(token),
                _ => None,
            })
            .collect();
        common = Some(match common {
            None => tokens,
            Some(common) => common
                .into_iter()
                .filter(|token| tokens.contains(token))
                .collect(),
        });
    }
    common
}

/// The words of arguments given as literal texts (`None` for any other
/// value).
fn words_of<'w>(before: &[Option<&'w [u8]>]) -> Vec<Word<'w>> {
    before
        .iter()
        .map(|word| match word {
            Some(text) => Word::Literals(vec![Literal::Text(text)]),
            None => Word::Any,
        })
        .collect()
}

/// A value's argument as the documentation names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueArgument {
    /// Its name (`seconds`).
    pub name: &'static str,
    /// The word that comes before it (`EX`); empty for none.
    pub token: &'static str,
    /// What it is, in words: `an integer`, `a key`.
    pub kind: &'static str,
}

/// The argument of `name`'s grammar (as [`next_words`] names commands) that
/// a value after the arguments `before` stands for, on the first server
/// of `targets` whose grammar has one there: what an editor shows on
/// hovering it. `None` where no value fits there (only a word does), or
/// the grammar does not know.
pub fn value_at(name: &str, before: &[Option<&[u8]>], targets: Servers) -> Option<ValueArgument> {
    let words = words_of(before);
    targets.iter().find_map(|server| {
        let expected = expected_next(grammar(server, name)?.args, &words)?;
        expected.into_iter().find_map(|expected| match expected {
            Expected::Value(arg) => Some(ValueArgument {
                name: arg.name,
                token: arg.token,
                kind: kind_words(arg.kind),
            }),
            _ => None,
        })
    })
}

/// A kind of value in words: `an integer`.
pub(crate) fn kind_words(kind: Kind) -> &'static str {
    match kind {
        Kind::Key => "a key",
        Kind::Pattern => "a glob-style pattern",
        Kind::Integer => "an integer",
        Kind::Double => "a number",
        Kind::UnixTime => "a Unix time, an integer",
        Kind::Token | Kind::OneOf | Kind::Block | Kind::Text => "a string",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_words_follow_the_grammar() {
        let next = |before: &[Option<&[u8]>]| next_words("set", before, Servers::ALL);
        let after_nx = next(&[None, None, Some(b"nx")]).expect("a grammar for SET");
        assert!(
            after_nx.contains(&"GET") && !after_nx.contains(&"XX"),
            "{after_nx:?}"
        );
        assert_eq!(next(&[None, None, Some(b"EX")]), Some(Vec::new()));
        assert_eq!(next(&[]), Some(Vec::new()));
        assert_eq!(
            next_words("scan", &[Some(b"0"), Some(b"MATCHING")], Servers::ALL),
            None
        );
    }

    #[test]
    fn a_value_is_the_argument_the_grammar_expects_there() {
        let seconds = value_at("set", &[None, None, Some(b"EX")], Servers::ALL);
        assert_eq!(
            seconds,
            Some(ValueArgument {
                name: "seconds",
                token: "EX",
                kind: "an integer"
            })
        );
        assert_eq!(
            value_at("set", &[], Servers::ALL).map(|v| v.name),
            Some("key")
        );
        // Only words fit after the value.
        assert_eq!(value_at("getex", &[None], Servers::ALL), None);
    }
}
