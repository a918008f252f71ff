//! Inline allows: the `-- redis-lua: allow(rule, ...)` comments of a
//! script, read as the lexer reads its comments.

use crate::diagnostic::{Allowed, Diagnostic, Target};
use crate::rule::{Checker, Rule};
use crate::syntax::lexer::Lexer;
use crate::syntax::tree::Span;
use crate::text;

/// The comment that starts an inline allow: `-- redis-lua: allow(unread)`.
pub const INLINE_ALLOW: &str = "redis-lua:";

/// The rules `source` allows in comments: line comments (as the lexer
/// reads them: not `--` in a string, not a long comment `--[[ ]]`) whose
/// text, after the dashes and blanks, is `redis-lua: allow(rule, ...)`,
/// each rule by its name ([`Rule::from_name`]); anywhere in a script (or a
/// file it includes), a comment allows the rule in the whole script. A
/// comment that names no rule an allow may silence is an error of its own
/// ([`Rule::Directive`]), as is one naming a rule `checker` may not allow
/// ([`Rule::allowable_by`]).
pub fn inline_allows<S: AsRef<[u8]> + ?Sized>(
    source: &S,
    checker: Checker,
) -> (Allowed, Vec<Diagnostic>) {
    let source = source.as_ref();
    let mut allowed = Allowed::NONE;
    let mut errors = Vec::new();
    for comment_span in Lexer::line_comments(source) {
        let whole = text::same_offsets(&source[comment_span.start..comment_span.end]);
        let text = whole.trim_end();
        let comment = text.trim_start_matches('-').trim_start();
        let Some(directive) = comment.strip_prefix(INLINE_ALLOW) else {
            continue;
        };
        let span = Span::new(comment_span.start, comment_span.start + text.len());
        let error = |message: String| {
            Diagnostic::error(Rule::Directive, Target::File, span, message).with_note(format!(
                "write `-- {INLINE_ALLOW} allow(rule, ...)` with rules among: {}",
                Rule::allowable_names_by(checker).join(", ")
            ))
        };
        let list = directive
            .trim()
            .strip_prefix("allow(")
            .and_then(|rest| rest.trim_end().strip_suffix(')'));
        let Some(list) = list else {
            errors.push(error(format!("`{text}` is not an inline allow")));
            continue;
        };
        for name in list.split(',') {
            match Rule::from_name(name) {
                Some(rule) if rule.allowable_by(checker) => allowed = allowed.with(rule),
                Some(rule) if rule.allowable() => errors.push(error(format!(
                    "`{rule}` findings cannot be allowed in a script a Rust declaration \
                     binds: its type or the server would fail at run time"
                ))),
                Some(rule) => errors.push(error(format!(
                    "`{rule}` findings cannot be allowed: the server refuses the script"
                ))),
                None => errors.push(error(format!("unknown rule `{}`", name.trim()))),
            }
        }
    }
    (allowed, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_script_allows_only_what_the_tables_may_get_wrong() {
        let source = "-- redis-lua: allow(unknown_commands, nil_reply)\nreturn 1";
        let (allowed, errors) = inline_allows(source, Checker::Attribute);
        assert!(allowed.allows(Rule::UnknownCommands));
        assert!(!allowed.allows(Rule::NilReply));
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].message.contains(
                "`nil_reply` findings cannot be allowed in a script a Rust declaration binds"
            ),
            "{}",
            errors[0].message
        );
        let (allowed, errors) = inline_allows(source, Checker::CommandLine);
        assert!(allowed.allows(Rule::NilReply) && errors.is_empty());
        let attribute: Vec<&str> = Rule::allowable_names_by(Checker::Attribute);
        assert_eq!(
            attribute,
            [
                "unknown_member",
                "unknown_commands",
                "unknown_subcommand",
                "command_arity",
                "command_arguments",
                "wrong_type",
                "unread",
                "nil_comparison",
                "undeclared_key",
                "value_in_keys"
            ]
        );
    }
}
