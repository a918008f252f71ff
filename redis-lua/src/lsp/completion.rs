//! Completion inside a call's strings: the command names every targeted
//! server knows in the first (`redis.call('`), a container's subcommands
//! in the second (`redis.call('CLIENT', '`). The analyzer's tables hold
//! commands and subcommands, not the words of each command's arguments
//! (`SET`'s `NX`, `EX`), so those are not offered.

use std::ops::Range;

use redis_script_analyzer::commands::{self, Command};
use redis_script_analyzer::servers::{Server, Servers};

use super::call_site::{self, Argument};
use super::hover;
use super::protocol::{self, CompletionItem, Markdown, TextEdit};

/// A name to offer, with the bytes of the document it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The name, in the case the user types (`GET`, or `get` when what is
    /// typed so far is in lower case).
    pub(crate) name: String,
    /// A subcommand rather than a command.
    pub(crate) subcommand: bool,
    /// The command's facts, for the completion's detail.
    pub(crate) summary: String,
    /// Its description, as hover shows it.
    pub(crate) documentation: String,
    /// What it replaces: the string's text before the cursor.
    pub(crate) replaces: Range<usize>,
}

/// What to offer at byte `offset` of `text`, for a file checked for
/// `targets`: nothing outside a call's strings.
pub(crate) fn candidates(text: &str, offset: usize, targets: Servers) -> Vec<Candidate> {
    let Some(site) = call_site::at(text, offset) else {
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
    let (table, subcommand): (Vec<&Command>, bool) = match site.argument {
        Argument::Command => (
            first
                .commands()
                .iter()
                .filter(|command| command.container().is_none())
                .collect(),
            false,
        ),
        Argument::AfterCommand { command } => (
            commands::subcommands_of(first, command).iter().collect(),
            true,
        ),
    };
    table
        .into_iter()
        .filter(|command| on_every(targets, command.name))
        .map(|command| {
            let word = command.name.rsplit('|').next().unwrap_or(command.name);
            Candidate {
                name: if lower {
                    word.to_owned()
                } else {
                    word.to_ascii_uppercase()
                },
                subcommand,
                summary: hover::summary(command),
                documentation: hover::describe(command.name, targets).unwrap_or_default(),
                replaces: site.content.start..offset,
            }
        })
        .collect()
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
        kind: if candidate.subcommand {
            protocol::ENUM_MEMBER
        } else {
            protocol::FUNCTION
        },
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
        assert!(candidate.subcommand);
    }
}
