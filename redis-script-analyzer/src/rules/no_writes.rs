//! `no_writes`: a write in a script or function flagged `no-writes`.
//!
//! A script flagged `no-writes` (`#!lua flags=no-writes`), or a library's
//! function registered so, cannot write, nor call a command that may
//! replicate ("Write commands are not allowed from read-only scripts").
//! In a library only the checked callback's registration counts, so only
//! calls inside it are judged ([`command_table::read_only_at`]). A
//! `noscript` command is that rule's finding, not this one's.

use super::command_table::{self, Lookup};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    if !context.declared.read_only {
        return;
    }
    for call in context.calls().filter_map(|call| context.model.command(call)) {
        if !command_table::read_only_at(context, &call) {
            continue;
        }
        let Lookup::Known(known) = command_table::lookup(&call, context.declared.servers) else {
            continue;
        };
        if known.effective.iter().any(|(_, found)| found.is_noscript()) {
            continue;
        }
        let Some((refusing, found)) = known
            .effective
            .iter()
            .find(|(server, found)| found.is_write() || found.may_replicate(*server))
        else {
            continue;
        };
        diagnostics.push(
            Diagnostic::error(
                Rule::NoWrites,
                Target::File,
                call.span,
                format!(
                    "`{}` {}, but the script is declared `no-writes` (\"{}\")",
                    found.name(),
                    if found.is_write() {
                        "writes"
                    } else {
                        "may replicate"
                    },
                    refusing.profile().refusals.write_in_read_only
                ),
            )
            .with_note(
                "remove the `no-writes` flag (from the shebang, or from the function's \
                 registration), or the write from the script",
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};
    use crate::declared::Declared;

    const READ_ONLY: Declared = Declared {
        read_only: true,
        ..ONE_KEY_TWO_ARGS
    };

    #[test]
    fn writes_and_may_replicate_are_refused() {
        let found = errors(
            "redis.call('GET', KEYS[1]) return redis.call('set', KEYS[1], ARGV[1])",
            READ_ONLY,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("declared `no-writes`"), "{found:?}");
        assert_eq!(errors("return redis.call('PFCOUNT', KEYS[1])", READ_ONLY).len(), 1);
    }
}
