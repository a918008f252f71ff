//! Completion inside a call's strings: the command names every targeted
//! server knows in the first (`redis.call('`), a container's subcommands
//! in the second (`redis.call('CLIENT', '`), and in any later one the
//! words of the command's arguments (`SET`'s `NX`, `EX`, `KEEPTTL`; after
//! the subcommand for a container: `CLIENT KILL`'s `MAXAGE`) that every
//! targeted server takes where the string stands: those the command's
//! grammar takes after the arguments before it (none after `EX`, whose
//! value comes next). Only names that start with what the string holds
//! before the cursor, in any case, are offered, each in the case typed
//! (`keepttl` after `'ke`), with that text to filter by.

use std::ops::Range;

use redis_script_analyzer::commands::{self, Command, OptionWord};
use redis_script_analyzer::grammar;
use redis_script_analyzer::servers::{Server, Servers};

use super::call_site::{self, Argument, Callers};
use super::hover;
use super::protocol::{self, CompletionItem, Markdown, TextEdit};
use super::slot::{Slot, grammar_words, slot};

/// What a name offered is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A command's name (`GET`).
    Command,
    /// A container's subcommand (`CLIENT`'s `LIST`).
    Subcommand,
    /// A word of a command's arguments (`SET`'s `NX`).
    Option,
}

/// A name to offer, with the bytes of the document it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The name, in the case the user types: upper case as the
    /// documentation writes it (`GET`, `NX`), or lower case when what is
    /// typed so far is (`get`, `nx`).
    pub(crate) name: String,
    /// What it is.
    pub(crate) kind: Kind,
    /// Its facts, for the completion's detail.
    pub(crate) summary: String,
    /// Its description, as hover shows it.
    pub(crate) documentation: String,
    /// What it replaces: the string's text before the cursor.
    pub(crate) replaces: Range<usize>,
}

/// What to offer at byte `offset` of `text`, for a file checked for
/// `targets`: nothing outside a call's strings.
pub(crate) fn candidates(
    text: &str,
    offset: usize,
    targets: Servers,
    callers: &Callers,
) -> Vec<Candidate> {
    let Some(site) = call_site::at(text, offset, callers) else {
        return Vec::new();
    };
    let typed = &text[site.content.start..offset];
    let lower = typed.bytes().any(|b| b.is_ascii_lowercase());
    let targets = if targets.is_empty() {
        Servers::ALL
    } else {
        targets
    };
    let Some(first) = targets.iter().next() else {
        return Vec::new();
    };
    let replaces = site.content.start..offset;
    let (table, kind): (Vec<&Command>, Kind) = match site.argument {
        Argument::Command => (
            first
                .commands()
                .filter(|command| command.container().is_none())
                .collect(),
            Kind::Command,
        ),
        Argument::AfterCommand { command, before } => match slot(command, &before) {
            Some(Slot::Subcommand { container }) => (
                commands::subcommands_of(first, &container).collect(),
                Kind::Subcommand,
            ),
            Some(Slot::Option { command }) => {
                // The words the grammar takes here, when it can tell.
                let (name, after) = grammar_words(&command, &before);
                let next = grammar::next_words(&name, &after, targets);
                return commands::options(&command, targets)
                    .filter(|word| next.as_ref().is_none_or(|next| next.contains(&word.token)))
                    .filter(|word| starts_with(word.token, typed))
                    .map(|word| option_candidate(word, targets, lower, replaces.clone()))
                    .collect();
            }
            None => return Vec::new(),
        },
    };
    table
        .into_iter()
        .filter(|command| on_every(targets, command.name))
        .map(|command| {
            (
                command,
                command.name.rsplit('|').next().unwrap_or(command.name),
            )
        })
        .filter(|(_, word)| starts_with(word, typed))
        .map(|(command, word)| Candidate {
            name: if lower {
                word.to_owned()
            } else {
                word.to_ascii_uppercase()
            },
            kind,
            summary: hover::summary(command),
            documentation: hover::describe(command.name, targets).unwrap_or_default(),
            replaces: replaces.clone(),
        })
        .collect()
}

/// Whether `name` starts with `typed`, in any case.
fn starts_with(name: &str, typed: &str) -> bool {
    name.len() >= typed.len()
        && name.as_bytes()[..typed.len()].eq_ignore_ascii_case(typed.as_bytes())
}

/// A word of a command's arguments as a candidate.
fn option_candidate(
    word: OptionWord,
    targets: Servers,
    lower: bool,
    replaces: Range<usize>,
) -> Candidate {
    Candidate {
        name: if lower {
            word.token.to_ascii_lowercase()
        } else {
            word.token.to_owned()
        },
        kind: Kind::Option,
        summary: hover::option_summary(&word),
        documentation: hover::describe_option(&word, targets),
        replaces,
    }
}

/// Whether every server of `targets` has the command `name`.
fn on_every(targets: Servers, name: &str) -> bool {
    targets
        .iter()
        .all(|server: Server| commands::command(server, name).is_some())
}

/// A candidate as a completion item, its edit placed by `range`.
pub(crate) fn item(candidate: Candidate, range: protocol::Range) -> CompletionItem {
    CompletionItem {
        label: candidate.name.clone(),
        kind: match candidate.kind {
            Kind::Command => protocol::FUNCTION,
            Kind::Subcommand => protocol::ENUM_MEMBER,
            Kind::Option => protocol::KEYWORD,
        },
        filter_text: candidate.name.clone(),
        detail: candidate.summary,
        documentation: Markdown::new(candidate.documentation),
        text_edit: TextEdit {
            range,
            new_text: candidate.name,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidates with the callers the text gives.
    fn candidates(text: &str, offset: usize, targets: Servers) -> Vec<Candidate> {
        super::candidates(text, offset, targets, &Callers::of([text]))
    }

    fn names(text: &str, targets: Servers) -> Vec<String> {
        let offset = text.len();
        candidates(text, offset, targets)
            .into_iter()
            .map(|candidate| candidate.name)
            .collect()
    }

    #[test]
    fn commands_of_every_target() {
        let all = names("redis.call('", Servers::ALL);
        assert!(all.contains(&"GET".to_owned()) && all.contains(&"CLIENT".to_owned()));
        assert!(
            !all.iter()
                .any(|name| name.contains('|') || name.contains(' '))
        );
        // Hash field expiry is in Redis 7.4 and Valkey 9.1, not in Redis 7.0.
        assert!(!all.contains(&"HEXPIRE".to_owned()));
        let newer = names("redis.call('", Servers::only(Server::Redis8_2));
        assert!(newer.contains(&"HEXPIRE".to_owned()));
        assert!(names("redis.call('g", Servers::ALL).contains(&"get".to_owned()));
        assert_eq!(names("redis.call(", Servers::ALL), Vec::<String>::new());
    }

    #[test]
    fn subcommands_after_a_container() {
        let subs = names("redis.call('CLIENT', '", Servers::ALL);
        assert!(subs.contains(&"LIST".to_owned()), "{subs:?}");
        assert!(subs.contains(&"NO-EVICT".to_owned()), "{subs:?}");
        assert_eq!(
            names("redis.call('GET', '", Servers::ALL),
            Vec::<String>::new()
        );
        let candidate = &candidates("redis.call('config', 'g", 23, Servers::ALL)[0];
        assert_eq!(candidate.replaces, 22..23);
        assert_eq!(candidate.kind, Kind::Subcommand);
    }

    #[test]
    fn words_of_a_command_in_a_later_argument() {
        let set = names("redis.call('SET', KEYS[1], ARGV[1], '", Servers::ALL);
        for word in ["NX", "XX", "GET", "EX", "PX", "EXAT", "PXAT", "KEEPTTL"] {
            assert!(set.contains(&word.to_owned()), "{word} in {set:?}");
        }
        // Valkey's `IFEQ` (8.1) is offered only where every target has it.
        assert!(!set.contains(&"IFEQ".to_owned()));
        let valkey = names(
            "redis.call('SET', KEYS[1], ARGV[1], '",
            Servers::only(Server::Valkey9_1),
        );
        assert!(valkey.contains(&"IFEQ".to_owned()), "{valkey:?}");
        // What is typed picks, in any case, and the words come in its case.
        assert_eq!(
            names("redis.call('set', KEYS[1], 'v', 'ex", Servers::ALL),
            ["ex", "exat"]
        );
        assert_eq!(
            names("redis.call('set', KEYS[1], 'v', 'EX", Servers::ALL),
            ["EX", "EXAT"]
        );
        // Through an alias, as in `redis.call`.
        assert_eq!(
            names(
                "local rcall = redis.call\nrcall('set', KEYS[1], 'v', 'ke",
                Servers::ALL
            ),
            ["keepttl"]
        );
        let candidate = &candidates("redis.call('SET', k, v, 'K", 26, Servers::ALL)[0];
        assert_eq!(candidate.name, "KEEPTTL");
        assert_eq!(candidate.kind, Kind::Option);
        assert_eq!(candidate.replaces, 25..26);
        assert_eq!(candidate.summary, "flag; since Redis 6.0.0, Valkey 6.0.0");
        let ex = &candidates("redis.call('SET', k, v, 'EX", 27, Servers::ALL)[0];
        assert!(
            ex.summary
                .starts_with("takes a value: integer; since Redis"),
            "{}",
            ex.summary
        );
    }

    #[test]
    fn words_of_a_subcommand_after_it() {
        let kill = names("redis.call('CLIENT', 'KILL', '", Servers::ALL);
        assert!(kill.contains(&"SKIPME".to_owned()), "{kill:?}");
        // `MAXAGE` came in Redis 7.4.
        assert!(!kill.contains(&"MAXAGE".to_owned()), "{kill:?}");
        let newer = Servers::only(Server::Redis7_4).with(Server::Valkey8_0);
        assert!(
            names("redis.call('CLIENT', 'KILL', 'ID', '1', '", newer)
                .contains(&"MAXAGE".to_owned())
        );
        // A subcommand that is not a literal says nothing of its words.
        assert_eq!(
            names("redis.call('CLIENT', sub, '", Servers::ALL),
            Vec::<String>::new()
        );
        assert_eq!(
            names("redis.call('CLIENT', 'NOSUCH', '", Servers::ALL),
            Vec::<String>::new()
        );
    }
}
