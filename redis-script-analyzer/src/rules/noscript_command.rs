//! `noscript_command`: a command flagged `noscript`, which scripts cannot call.
//!
//! The server refuses a command its table flags `noscript` when a script
//! calls it ("This Redis command is not allowed from script").

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
        let Lookup::Known(known) = command_table::lookup(&call, context.declared.servers) else {
            continue;
        };
        let Some((refusing, found)) = known.effective.iter().find(|(_, found)| found.is_noscript())
        else {
            continue;
        };
        let allowed = known.accepting(|c| !c.is_noscript());
        let note = if allowed.is_empty() {
            "run it from the client, and pass what the script needs in ARGV".to_owned()
        } else {
            only_on_note(allowed, context.declared.checker)
        };
        diagnostics.push(
            Diagnostic::error(
                Rule::NoscriptCommand,
                Target::File,
                call.span,
                format!(
                    "`{}` cannot run inside a script: {} flags it `noscript` (\"{}\")",
                    found.name(),
                    refusing.product(),
                    refusing.profile().refusals.noscript
                ),
            )
            .with_note(note),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn noscript_commands_are_refused() {
        let found = errors("return redis.call('MULTI')", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("flags it `noscript`"), "{found:?}");
    }
}
