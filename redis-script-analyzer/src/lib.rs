//! Compile-time analysis of a Redis Lua script, as Redis 7.0 to 8.2 and
//! Valkey 8.0 to 9.1 run it ([`servers`]): its shebang ([`shebang`]), its syntax (a
//! Lua 5.1 parser whose verdicts and messages equal the server's `SCRIPT
//! LOAD`), and the rules ([`Rule`]) against what a caller declares about it
//! ([`Declared`]): KEYS/ARGV arity, sandbox globals and library members,
//! Redis commands, nil replies and reply shapes the declared type cannot
//! hold, comparisons with nil that never hold, and keys that do not come
//! from KEYS.
//!
//! This is the analyzer behind the `#[redis_script]` attribute of
//! [redis-script](https://docs.rs/redis-script) and the `redis-lua`
//! command-line checker, as a plain library over a script's source so that
//! it can be fuzzed, benchmarked and used by other tools. [`analyze`] is the
//! entry point; [`report::render`] shows a finding the way rustc shows its
//! own; [`lint::check_file`] checks a file as `redis-lua` does (includes,
//! headers, libraries).
//!
//! It works in passes: the syntax (a lexer and a parser over the script's
//! bytes), a semantic model built in one walk of the tree (every name
//! resolved to its binding, functions with their returns, the flow of
//! values through locals, tables, `unpack`, `pcall` and local functions),
//! and the rules, one per source file, each reading the model. Each pass is
//! linear in the size of the script.
//!
//! A script is bytes, as the server reads it: the entry points take any
//! `&S` where `S: AsRef<[u8]>` (a `&str`, a `&String`, a `&[u8]`), so a
//! script that is not UTF-8 (Lua strings and comments may hold any byte)
//! is analysed too; spans are byte offsets, and lines are counted as Lua
//! counts them.
//!
//! ```
//! use redis_script_analyzer::{Declared, ReplyKind, Severity, analyze};
//!
//! let declared = Declared::default().keys(1).reply(ReplyKind::NonNull);
//! let analysis = analyze("return redis.call('GET', KEYS[1])", declared);
//! assert_eq!(analysis.diagnostics[0].severity, Severity::Error);
//! assert!(analysis.diagnostics[0].message.contains("cannot hold nil"));
//! ```
//!
//! Public enums and the structs that may grow are `#[non_exhaustive]`, and
//! a declaration is built with setters, so a new server, rule or setting is
//! not a breaking change. The modules the macros and `redis-lua` share with
//! the analyzer but users have no need of (the command tables, includes,
//! headers, reply types, and the repository's test support behind the
//! feature `testing`) are hidden from the documentation and not part of the
//! stable API.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod check;
#[doc(hidden)]
pub mod commands;
#[doc(hidden)]
pub mod compose;
mod declared;
mod diagnostic;
pub mod fix;
#[doc(hidden)]
pub mod header;
pub mod library;
pub mod lint;
#[doc(hidden)]
pub mod replies;
#[doc(hidden)]
pub mod reply_type;
pub mod report;
mod rules;
mod sandbox;
mod semantic;
pub mod servers;
pub mod shebang;
mod suggest;
mod syntax;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
mod text;

pub use declared::{Declared, ReplyKind};
pub use diagnostic::{Allowed, Checker, Diagnostic, Rule, Severity, Target};
pub use fix::{Applicability, Edit, Fix};
pub use syntax::parser::SyntaxError;
pub use syntax::tree::Span;

/// The findings on one script.
#[non_exhaustive]
pub struct Analysis {
    /// Its shebang (empty without one).
    pub shebang: shebang::Shebang,
    /// Every finding, errors and warnings, in the order the checks ran.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the shebang, parses, and checks `source` against `declared`
/// (whose `read_only` is taken from the shebang) on `declared.servers`.
pub fn analyze<S: AsRef<[u8]> + ?Sized>(source: &S, mut declared: Declared) -> Analysis {
    let source = source.as_ref();
    let shebang = match shebang::parse(&text::same_offsets(source), declared.servers) {
        Ok(shebang) => shebang.unwrap_or_default(),
        Err(error) => {
            let mut diagnostic = Diagnostic::error(
                diagnostic::Rule::Shebang,
                Target::File,
                error.span,
                error.message,
            );
            diagnostic.note = error.note.or_else(|| {
                let accepted_by = error.accepted_by?;
                Some(servers::only_on_note(accepted_by, declared.checker))
            });
            return Analysis {
                shebang: shebang::Shebang::default(),
                diagnostics: vec![diagnostic],
            };
        }
    };
    declared.read_only = shebang.is_read_only();
    let (inline, mut diagnostics) = inline_allows(source, declared.checker);
    declared.allowed = declared.allowed.union(inline);
    match syntax::parser::parse(source) {
        Ok(chunk) => diagnostics.extend(check::check(source, &chunk, &declared)),
        Err(error) => diagnostics.push(syntax_error(source, error)),
    }
    Analysis {
        shebang,
        diagnostics,
    }
}

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
    for comment_span in syntax::lexer::Lexer::line_comments(source) {
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

/// Whether `source` is a script Redis loads: `Ok`, or the error
/// `SCRIPT LOAD` gives (its message without the `user_script:LINE:` prefix).
/// The shebang line is skipped, not judged ([`shebang::parse`] does that).
pub fn check_syntax<S: AsRef<[u8]> + ?Sized>(source: &S) -> Result<(), SyntaxError> {
    syntax::parser::parse(source).map(drop)
}

/// A syntax error at the end of input is shown at the script's last
/// character rather than on an empty line; `...` where `..` was meant, and
/// `!=` where `~=` was, get a hint.
fn syntax_error(source: &[u8], error: syntax::parser::SyntaxError) -> Diagnostic {
    let mut span = error.span;
    let end = source.len()
        - source
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            .count();
    if span.start >= end {
        span = syntax::tree::Span::new(text::last_char_start(&source[..end]), end);
    }
    let mut diagnostic = Diagnostic::error(
        diagnostic::Rule::Syntax,
        Target::File,
        span,
        format!("Lua syntax error: {}", error.message),
    );
    if error.message.ends_with("near '...'") {
        diagnostic.note = Some("`...` is the vararg expression; concatenation is `..`".to_owned());
    } else if source
        .get(error.span.start..)
        .is_some_and(|rest| rest.starts_with(b"!="))
    {
        diagnostic.note = Some("Lua writes not-equal as `~=`".to_owned());
        diagnostic.fix = rules::not_equal(source);
    }
    diagnostic
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_equal_written_as_in_c_gets_a_hint() {
        for source in ["return 1 != 2", "if ARGV[1] != 'x' then return 1 end"] {
            let error = syntax::parser::parse(source).unwrap_err();
            let diagnostic = syntax_error(source.as_bytes(), error);
            assert_eq!(
                diagnostic.note.as_deref(),
                Some("Lua writes not-equal as `~=`"),
                "{source}"
            );
        }
        let error = syntax::parser::parse("return 1 !").unwrap_err();
        assert_eq!(syntax_error(b"return 1 !", error).note, None);
        // With its fix, when the fix makes a script the server loads.
        let source = "if ARGV[1] != 'x' then return 1 end";
        let error = syntax::parser::parse(source).unwrap_err();
        let fix = syntax_error(source.as_bytes(), error).fix.expect("a fix");
        assert_eq!(fix.edits, [Edit::replace(Span::new(11, 13), "~=")]);
    }

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
                "unread",
                "nil_comparison",
                "undeclared_key",
                "value_in_keys"
            ]
        );
    }
}
