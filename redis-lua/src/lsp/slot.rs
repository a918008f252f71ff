//! What a string of a call after the command's name stands for: a
//! container's subcommand, or a word of the command's arguments. Hover
//! describes what the string names there, completion offers what may fill
//! it.

use redis_script_analyzer::commands;
use redis_script_analyzer::servers::Server;

/// What a string after a command's name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The subcommand of a container.
    Subcommand {
        /// The container's name, as written.
        container: String,
    },
    /// A word of a command's arguments.
    Option {
        /// The command, `container|sub` for a subcommand (`set`,
        /// `client|kill`), as written.
        command: String,
    },
}

/// What the string after the name `command` and the literal arguments
/// `before` (`None` for one that is not a literal) stands for: the first
/// after a container's name is its subcommand, the later ones are its
/// subcommand's words; after another command's name, each is its words.
/// `None` after a container's subcommand that is not a literal.
pub(crate) fn slot(command: &str, before: &[Option<&str>]) -> Option<Slot> {
    let container = Server::ALL
        .into_iter()
        .any(|server| commands::subcommands_of(server, command).next().is_some());
    if !container {
        return Some(Slot::Option {
            command: command.to_owned(),
        });
    }
    match before.first() {
        None => Some(Slot::Subcommand {
            container: command.to_owned(),
        }),
        Some(subcommand) => Some(Slot::Option {
            command: format!("{command}|{}", (*subcommand)?),
        }),
    }
}

/// The arguments before a string as the grammar of `command` (a
/// `Slot::Option`'s) reads them: its name in lower case, and the
/// literal texts after the name (after a subcommand's name).
pub(crate) fn grammar_words<'t>(
    command: &str,
    before: &[Option<&'t str>],
) -> (String, Vec<Option<&'t [u8]>>) {
    let container = command.contains('|');
    let words = before
        .iter()
        .skip(usize::from(container))
        .map(|word| word.map(str::as_bytes))
        .collect();
    (command.to_ascii_lowercase(), words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subcommand_then_its_words_or_a_command_words() {
        let option = |command: &str| {
            Some(Slot::Option {
                command: command.to_owned(),
            })
        };
        assert_eq!(slot("set", &[Some("k")]), option("set"));
        assert_eq!(
            slot("CLIENT", &[]),
            Some(Slot::Subcommand {
                container: "CLIENT".to_owned()
            })
        );
        assert_eq!(slot("CLIENT", &[Some("KILL")]), option("CLIENT|KILL"));
        assert_eq!(slot("CLIENT", &[None]), None);
    }
}
