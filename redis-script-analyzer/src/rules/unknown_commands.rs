//! `unknown_commands`: a command a target's command table does not know.
//!
//! `redis.call('GETT', ...)` (directly, through an alias of `redis.call`,
//! or under `pcall(redis.call, ...)`) fails at run time on a server that
//! has no such command ("Unknown Redis command called from script"). A
//! command only some targets have names the servers to target instead.

use super::command_table::{self, Lookup};
use super::{Allow, Context, Judges, Meta};
use crate::commands;
use crate::diagnostic::{Diagnostic, Rule, Severity, Target};
use crate::servers::only_on_note;
use crate::suggest::did_you_mean;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Anywhere,
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    for call in context.model.commands() {
        let Lookup::UnknownCommand { having, lacking } =
            command_table::lookup(&call, context.declared.servers)
        else {
            continue;
        };
        let name = &call.name;
        let diagnostic = if having.is_empty() {
            let note = commands::suggest(lacking, name).map_or_else(
                || {
                    format!(
                        "{} {} has no such command; if your server is newer and has it, {}",
                        lacking.product(),
                        lacking.version(),
                        Rule::UnknownCommands.hint(context.declared.checker)
                    )
                },
                did_you_mean,
            );
            Diagnostic::error(
                Rule::UnknownCommands,
                Target::File,
                call.span,
                format!("`{name}` is not a Redis command, so calling it fails at run time"),
            )
            .with_note(note)
        } else {
            Diagnostic::error(
                Rule::UnknownCommands,
                Target::File,
                call.span,
                format!(
                    "`{name}` is not a command of {lacking}, so calling it fails there at run time"
                ),
            )
            .with_note(only_on_note(having, context.declared.checker))
        };
        diagnostics.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use crate::check::test_support::{ONE_KEY_TWO_ARGS, errors};
    use crate::declared::Declared;
    use crate::diagnostic::{Allowed, Rule};

    #[test]
    fn unknown_commands_can_be_allowed() {
        assert_eq!(
            errors("return redis.call('HEXPIRE', KEYS[1], 1)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        let newer = Declared {
            allowed: Allowed::NONE.with(Rule::UnknownCommands),
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return redis.call('HEXPIRE', KEYS[1], 1)", newer).len(),
            0
        );
    }

    #[test]
    fn calls_through_an_alias_of_redis_call_are_checked() {
        let found = errors(
            "local rcall = redis.call\nlocal function f() return rcall('GETT', KEYS[1]) end\n\
             return rcall('SET', KEYS[1])",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("`gett` is not a Redis command"),
            "{found:?}"
        );
        assert!(found[1].starts_with("`set` takes at least 2"), "{found:?}");
        // An alias assigned anywhere, or a shadowed `redis`, is not judged.
        for script in [
            "local rcall = redis.call\nlocal function f() return rcall('GETT') end\n\
             rcall = function() end return f()",
            "local redis = {call = tostring} local rcall = redis.call return rcall('GETT')",
            "local rcall = redis.call return rcall(ARGV[1])",
        ] {
            assert_eq!(
                errors(script, ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
        // Under pcall too.
        let found = errors("return pcall(redis.call, 'GETT', KEYS[1])", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
