//! `unknown_commands`: a command a target's command table does not know.
//!
//! `redis.call('GETT', ...)` (directly, through an alias of `redis.call`,
//! or under `pcall(redis.call, ...)`) fails at run time on a server that
//! has no such command ("Unknown Redis command called from script"). A
//! command only some targets have names the servers to target instead.

use std::collections::HashMap;

use super::command_table::{self, Lookup};
use super::{Context, Judges, Meta};
use crate::commands;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::fix::edit::{self, Edit, Fix};
use crate::semantic::command::CommandCall;
use crate::servers::only_on_note;
use crate::suggest::{Suggestion, did_you_mean};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    // A name misspelt once is often misspelt again (a helper copied into
    // every function): its suggestion is looked for once.
    let mut suggestions = HashMap::new();
    for call in context.model.commands() {
        let Lookup::UnknownCommand { having, lacking } =
            command_table::lookup(&call, context.declared.servers)
        else {
            continue;
        };
        let name = &call.name;
        let diagnostic = if having.is_empty() {
            let suggestion = *suggestions
                .entry((lacking, name.clone()))
                .or_insert_with(|| commands::suggestion(lacking, name));
            let note = suggestion.map_or_else(
                || {
                    format!(
                        "{} {} has no such command; if your server is newer and has it, {}",
                        lacking.product(),
                        lacking.version(),
                        Rule::UnknownCommands.hint(context.declared.checker)
                    )
                },
                |found| did_you_mean(found.name),
            );
            Diagnostic::error(
                Rule::UnknownCommands,
                Target::File,
                call.span,
                format!("`{name}` is not a Redis command, so calling it fails at run time"),
            )
            .with_note(note)
            .with_fix(suggestion.and_then(|found| respell(context, &call, found)))
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

/// The command name of `call` replaced by `found`, in the case it is
/// written in (`'GTE'` -> `'GET'`, `"hsett"` -> `"hset"`): the only
/// suggestion that close, a command of every target, and a name written
/// plainly in quotes, which stay as they are. Certain for a slip
/// ([`Fix::respelling`]: `HSETT`, `GTE`); one letter for another (`SPOP`
/// for `LPOP`) is another command, and a suggestion.
fn respell(context: &Context, call: &CommandCall, found: Suggestion) -> Option<Fix> {
    let known_everywhere = context
        .declared
        .servers
        .iter()
        .all(|server| commands::command(server, found.name).is_some());
    if !found.unique || !known_everywhere {
        return None;
    }
    let text = edit::quoted_text(context.source, call.span)?;
    let written = String::from_utf8_lossy(&context.source[text.start..text.end]);
    let replacement = if written.bytes().any(|byte| byte.is_ascii_uppercase()) {
        found.name.to_ascii_uppercase()
    } else {
        found.name.to_ascii_lowercase()
    };
    Some(Fix::respelling(
        format!("replace `{written}` with `{replacement}`"),
        &written,
        &replacement,
        vec![Edit::replace(text, replacement.clone())],
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};
    use crate::declared::Declared;
    use crate::diagnostic::Allowed;
    use crate::rule::Rule;

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

    /// The fix of each script: what the edited script reads, or `None`.
    fn fixed(source: &str) -> Vec<Option<String>> {
        crate::rules::test_support::fixed(source, ONE_KEY_TWO_ARGS, super::check)
    }

    #[test]
    fn a_misspelt_command_is_respelt_in_its_case_and_quotes() {
        assert_eq!(
            fixed("return redis.call('GTE', KEYS[1])"),
            [Some("return redis.call('GET', KEYS[1])".to_owned())]
        );
        assert_eq!(
            fixed("return redis.pcall(\"hsett\", KEYS[1], 'f', 1)"),
            [Some("return redis.pcall(\"hset\", KEYS[1], 'f', 1)".to_owned())]
        );
        assert_eq!(
            fixed("local rcall = redis.call return rcall('Lpsuh', KEYS[1], 1)"),
            [Some("local rcall = redis.call return rcall('LPUSH', KEYS[1], 1)".to_owned())]
        );
    }

    #[test]
    fn a_guess_is_no_fix() {
        for source in [
            // No command is close.
            "return redis.call('XYZZYQ', KEYS[1])",
            // Written with an escape, or in long brackets: the text is not the name.
            "return redis.call('G\\84E', KEYS[1])",
            "return redis.call([[GTE]], KEYS[1])",
            // A command of some servers only: not a misspelling.
            "return redis.call('HEXPIRE', KEYS[1], 1, 'FIELDS', 1, 'f')",
        ] {
            assert_eq!(fixed(source), [None], "{source}");
        }
        // `setx` is one edit from `set`, `setex` and `setnx`: the note
        // guesses the first, and no fix does.
        let tied = crate::commands::suggestion(crate::servers::Server::Redis7_0, "setx");
        assert!(tied.is_some_and(|found| !found.unique), "{tied:?}");
        assert_eq!(fixed("return redis.call('SETX', KEYS[1], 1)"), [None]);
    }
}
