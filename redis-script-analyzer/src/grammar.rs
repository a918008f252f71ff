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

/// A command's grammar as one line, and where a call stands in it: what
/// an editor shows as the call's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// `SET key value [NX | XX] [GET] [EX seconds | ... | KEEPTTL]`.
    pub label: String,
    /// Each top-level argument's bytes in the label.
    pub parameters: Vec<std::ops::Range<usize>>,
    /// The argument the next word is for, when the grammar can tell.
    pub active: Option<usize>,
}

/// The signature of `name` (as [`next_words`] names commands) on the
/// first server of `targets` that has a grammar for it, with the argument
/// that comes after the arguments `before`.
pub fn signature(name: &str, before: &[Option<&[u8]>], targets: Servers) -> Option<Signature> {
    let grammar = targets.iter().find_map(|server| grammar(server, name))?;
    let mut label = name.replace('|', " ").to_ascii_uppercase();
    let mut parameters = Vec::new();
    for arg in grammar.args {
        label.push(' ');
        let start = label.len();
        label.push_str(&synopsis(arg));
        parameters.push(start..label.len());
    }
    let active = expected_next(grammar.args, &words_of(before)).and_then(|expected| {
        expected.iter().find_map(|expected| match expected {
            Expected::Value(wanted) => grammar.args.iter().position(|arg| holds(arg, wanted)),
            Expected::Token(token) => grammar.args.iter().position(|arg| has_token(arg, token)),
            Expected::End => None,
        })
    });
    Some(Signature {
        label,
        parameters,
        active,
    })
}

/// `arg` as the documentation writes it: `[EX seconds | PX milliseconds]`,
/// `key [key ...]`.
fn synopsis(arg: &Arg) -> String {
    let body = match arg.kind {
        Kind::Token => arg.token.to_owned(),
        Kind::OneOf => {
            let choices: Vec<String> = arg.args.iter().map(synopsis).collect();
            let choices = choices.join(" | ");
            match arg.token {
                "" if arg.optional() => choices,
                "" => format!("<{choices}>"),
                token => format!("{token} <{choices}>"),
            }
        }
        Kind::Block => {
            let parts: Vec<String> = arg.args.iter().map(synopsis).collect();
            match arg.token {
                "" => parts.join(" "),
                token => format!("{token} {}", parts.join(" ")),
            }
        }
        _ => match arg.token {
            "" => arg.name.to_owned(),
            token => format!("{token} {}", arg.name),
        },
    };
    let body = if arg.multiple() {
        let again = if arg.multiple_token() || arg.token.is_empty() {
            body.clone()
        } else {
            body.trim_start_matches(arg.token).trim_start().to_owned()
        };
        format!("{body} [{again} ...]")
    } else {
        body
    };
    if arg.optional() {
        format!("[{body}]")
    } else {
        body
    }
}

/// Whether `arg` is `wanted` or holds it.
fn holds(arg: &Arg, wanted: &Arg) -> bool {
    std::ptr::eq(arg, wanted) || arg.args.iter().any(|inner| holds(inner, wanted))
}

/// Whether `arg` or an argument in it starts with `token`.
fn has_token(arg: &Arg, token: &str) -> bool {
    arg.token == token || arg.args.iter().any(|inner| has_token(inner, token))
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
    fn a_signature_shows_where_the_call_stands() {
        let set = signature("set", &[None, None, Some(b"EX")], Servers::ALL).expect("SET");
        assert!(
            set.label
                .starts_with("SET key value [NX | XX] [GET] [EX seconds | PX milliseconds"),
            "{}",
            set.label
        );
        let active = set.active.expect("an argument");
        assert!(
            set.label[set.parameters[active].clone()].starts_with("[EX seconds"),
            "{set:?}"
        );
        let at_key = signature("set", &[], Servers::ALL).expect("SET");
        assert_eq!(
            &at_key.label[at_key.parameters[at_key.active.unwrap()].clone()],
            "key"
        );
        let del = signature("del", &[None], Servers::ALL).expect("DEL");
        assert_eq!(del.label, "DEL key [key ...]");
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
