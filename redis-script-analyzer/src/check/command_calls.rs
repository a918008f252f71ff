//! The command checks: a `redis.call` with a literal command name against
//! the command table of every targeted server (known, subcommand, arity,
//! `noscript`, writes in a `no-writes` script).

use super::Declared;
use crate::commands::{self, Command};
use crate::diagnostic::{Diagnostic, Rule, Target};
use crate::servers::{Server, Servers, only_on_note};
use crate::suggest::did_you_mean;
use crate::syntax::tree::{Expr, Span};

/// A literal-named command call: `redis.call('GET', ...)`.
pub(super) struct RedisCall<'a> {
    /// `redis`, or Valkey's `server`.
    pub(super) library: &'a str,
    /// The command name, lower case.
    pub(super) name: String,
    pub(super) span: Span,
}

/// `redis.call('NAME', ...)` or `redis.pcall(...)` with a literal name (or
/// `server.call`, Valkey's other name for the library).
pub(super) fn redis_call<'a>(func: &'a Expr, args: &[Expr]) -> Option<RedisCall<'a>> {
    let Expr::Index { obj, key, .. } = func else {
        return None;
    };
    let Expr::Name(library) = &**obj else {
        return None;
    };
    let is_redis = library.text == "redis" || library.text == "server";
    let is_call =
        matches!(&**key, Expr::String(member, _) if member == b"call" || member == b"pcall");
    match args.first() {
        Some(Expr::String(name, span)) if is_redis && is_call => Some(RedisCall {
            library: &library.text,
            name: String::from_utf8_lossy(name).to_ascii_lowercase(),
            span: *span,
        }),
        _ => None,
    }
}

/// A literal-named command call, checked against the command table of
/// every targeted server: known to each, then [`on_targets`]. A command some
/// target lacks is [`Rule::UnknownCommands`].
pub(super) fn check(
    call: &RedisCall,
    args: &[Expr],
    declared: &Declared,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (name, span) = (call.name.as_str(), call.span);
    // Module commands (`JSON.GET`, `BF.ADD`) live in their namespace,
    // which no table of the core server knows.
    if name.contains('.') {
        return;
    }
    let targets = declared.servers;
    let known = |server| !name.contains('|') && commands::command(server, name).is_some();
    let having = Servers::ALL.filter(known);
    let Some(lacking) = targets.iter().find(|server| !having.contains(*server)) else {
        return on_targets(name, span, args, declared, diagnostics);
    };
    let diagnostic = if having.is_empty() {
        let note = commands::suggest(lacking, name).map_or_else(
            || {
                format!(
                    "{} {} has no such command; if your server is newer and has it, {}",
                    lacking.product(),
                    lacking.version(),
                    Rule::UnknownCommands.hint(declared.checker)
                )
            },
            did_you_mean,
        );
        Diagnostic::error(
            Rule::UnknownCommands,
            Target::File,
            span,
            format!("`{name}` is not a Redis command, so calling it fails at run time"),
        )
        .with_note(note)
    } else {
        Diagnostic::error(
            Rule::UnknownCommands,
            Target::File,
            span,
            format!(
                "`{name}` is not a command of {lacking}, so calling it fails there at run time"
            ),
        )
        .with_note(only_on_note(having))
    };
    diagnostics.push(diagnostic);
}

/// A command every target knows: its subcommand, arity, `noscript` and
/// writes, on each target.
fn on_targets(
    name: &str,
    span: Span,
    args: &[Expr],
    declared: &Declared,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let targets = declared.servers;
    let first = declared.first_target();
    let Some(command) = commands::command(first, name) else {
        return;
    };
    // A container command (CONFIG, SCRIPT, ...) runs the subcommand its
    // first argument names; a computed one cannot be judged.
    let sub = match args.get(1) {
        Some(Expr::String(sub, sub_span)) if command.has_subcommands(first) => {
            Some((String::from_utf8_lossy(sub).into_owned(), *sub_span))
        }
        Some(_) if command.has_subcommands(first) => return,
        _ => None,
    };
    let resolve =
        |server| commands::resolve(server, name, sub.as_ref().map(|(sub, _)| sub.as_str()));
    let having = Servers::ALL.filter(|server| resolve(server).is_some());
    if let (Some(lacking), Some((sub, sub_span))) = (
        targets.iter().find(|server| !having.contains(*server)),
        &sub,
    ) {
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
                    .iter()
                    .filter_map(|c| c.name().split_once('|').map(|(_, sub)| sub))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            only_on_note(having)
        };
        diagnostics.push(
            Diagnostic::error(Rule::UnknownSubcommand, Target::File, *sub_span, message)
                .with_note(note),
        );
        return;
    }
    let effective: Vec<(Server, &'static Command)> = targets
        .iter()
        .filter_map(|server| resolve(server).map(|found| (server, found)))
        .collect();
    let accepting = |test: &dyn Fn(&Command) -> bool| {
        Servers::ALL.filter(|server| resolve(server).is_some_and(test))
    };
    let counted = !matches!(
        args.last(),
        Some(Expr::Call { .. } | Expr::Method { .. } | Expr::Vararg(_))
    );
    let refusing_arity = effective
        .iter()
        .find(|(_, found)| !found.accepts_word_count(args.len()));
    if let Some((refusing, found)) = refusing_arity.filter(|_| counted) {
        let arity = found.arity;
        let expected = if arity >= 0 {
            format!("exactly {}", arity - 1)
        } else {
            format!("at least {}", -arity - 1)
        };
        let mut diagnostic = Diagnostic::error(
            Rule::CommandArity,
            Target::File,
            span,
            format!(
                "`{}` takes {expected} argument(s) after its name, but this call passes {} \
                     (\"{}\")",
                command.name(),
                args.len() - 1,
                commands::call_refusals(*refusing).arity
            ),
        );
        let fits = accepting(&|c| c.accepts_word_count(args.len()));
        if !fits.is_empty() {
            diagnostic = diagnostic.with_note(only_on_note(fits));
        }
        diagnostics.push(diagnostic);
    }
    if let Some((refusing, found)) = effective.iter().find(|(_, found)| found.is_noscript()) {
        let allowed = accepting(&|c| !c.is_noscript());
        let note = if allowed.is_empty() {
            "run it from the client, and pass what the script needs in ARGV".to_owned()
        } else {
            only_on_note(allowed)
        };
        diagnostics.push(
            Diagnostic::error(
                Rule::NoscriptCommand,
                Target::File,
                span,
                format!(
                    "`{}` cannot run inside a script: {} flags it `noscript` (\"{}\")",
                    found.name(),
                    refusing.product(),
                    commands::call_refusals(*refusing).noscript
                ),
            )
            .with_note(note),
        );
    } else if declared.read_only
        && let Some((refusing, found)) = effective
            .iter()
            .find(|(server, found)| found.is_write() || found.may_replicate(*server))
    {
        diagnostics.push(
            Diagnostic::error(
                Rule::NoWrites,
                Target::File,
                span,
                format!(
                    "`{}` {}, but the script is declared `no-writes` (\"{}\")",
                    found.name(),
                    if found.is_write() {
                        "writes"
                    } else {
                        "may replicate"
                    },
                    commands::call_refusals(*refusing).write_in_read_only
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
    use super::super::test_support::{ONE_KEY_TWO_ARGS, errors};
    use super::*;
    use crate::diagnostic::{Allowed, Rule};

    #[test]
    fn unknown_commands_can_be_allowed_and_may_replicate_is_a_write() {
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
        let read_only = Declared {
            read_only: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return redis.call('PFCOUNT', KEYS[1])", read_only).len(),
            1
        );
    }
}
