//! `unknown_subcommand`: a subcommand a container command does not have (`CONFIG GETT`).
//!
//! A container command (CONFIG, SCRIPT, CLIENT...) runs the subcommand
//! its first argument names; a literal one that a targeted server lacks
//! fails there at run time. A computed subcommand is not judged.

use super::command_table::{self, Lookup};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::servers::only_on_note;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    for call in context.model.commands() {
        let Lookup::UnknownSubcommand {
            command,
            sub,
            span,
            having,
            lacking,
        } = command_table::lookup(&call, context.declared.servers)
        else {
            continue;
        };
        let name = &call.name;
        let message = if having.is_empty() {
            format!("`{name}` has no subcommand `{sub}`, so the call fails at run time")
        } else {
            format!(
                "`{name}` has no subcommand `{sub}` on {lacking}, so the call fails there at run time"
            )
        };
        let note = if having.is_empty() {
            format!(
                "`{name}` has: {}",
                command
                    .subcommands(lacking)
                    .filter_map(|c| c.name().split_once('|').map(|(_, sub)| sub))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            only_on_note(having, context.declared.checker)
        };
        diagnostics.push(
            Diagnostic::error(Rule::UnknownSubcommand, Target::File, span, message)
                .with_note(note),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn literal_subcommands_are_checked() {
        let found = errors("redis.call('config', 'nosuch') return 1", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("`config` has no subcommand `nosuch`"),
            "{found:?}"
        );
        // Computed, it is not judged.
        assert_eq!(
            errors("redis.call('CONFIG', ARGV[1]) return 1", ONE_KEY_TWO_ARGS),
            Vec::<String>::new()
        );
    }
}
