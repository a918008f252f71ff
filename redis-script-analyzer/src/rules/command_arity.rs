//! `command_arity`: a command called with a number of arguments it refuses.
//!
//! The server checks a command's arity before running it ("Wrong number of
//! args calling Redis command from script"): a call whose arguments can
//! be counted (the last one does not spread values) and that some
//! targeted server refuses is reported, with the servers that accept it.

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
        if !command_table::counted(&call) {
            continue;
        }
        let Lookup::Known(known) = command_table::lookup(&call, context.declared.servers) else {
            continue;
        };
        let words = command_table::words(&call);
        let Some((refusing, found)) = known
            .effective
            .iter()
            .find(|(_, found)| !found.accepts_word_count(words))
        else {
            continue;
        };
        let arity = found.arity;
        let expected = if arity >= 0 {
            format!("exactly {}", arity - 1)
        } else {
            format!("at least {}", -arity - 1)
        };
        let mut diagnostic = Diagnostic::error(
            Rule::CommandArity,
            Target::File,
            call.span,
            format!(
                "`{}` takes {expected} argument(s) after its name, but this call passes {} \
                 (\"{}\")",
                known.command.name(),
                call.args.len(),
                refusing.profile().refusals.arity
            ),
        );
        let fits = known.accepting(|c| c.accepts_word_count(words));
        if !fits.is_empty() {
            diagnostic = diagnostic.with_note(only_on_note(fits, context.declared.checker));
        }
        diagnostics.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn counted_arguments_are_checked() {
        let found = errors("redis.call('get') return 1", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`get` takes exactly 1"), "{found:?}");
        // Spread, they cannot be counted.
        for script in [
            "return redis.call('GET', unpack(KEYS))",
            "local function f(...) return redis.call('SET', ...) end return f(KEYS[1], ARGV[1])",
        ] {
            assert_eq!(errors(script, ONE_KEY_TWO_ARGS), Vec::<String>::new(), "{script}");
        }
    }
}
