//! `syntax`: the script is not Lua 5.1 as the server parses it.
//!
//! The parser (`crate::syntax::parser`) gives these findings, with the words of `SCRIPT LOAD`. No setting can silence them: the server refuses the file.
//!
//! One mistake has a certain fix: `!=`, the not-equal of C and most
//! languages, is `~=` in Lua ([`not_equal`]).

use super::{Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::fix::edit::{Edit, Fix};
use crate::rule::Rule;
use crate::syntax::lexer::{Lexer, TokenKind};
use crate::syntax::parser::SyntaxError;
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};

/// A syntax error at the end of input is shown at the script's last
/// character rather than on an empty line; `...` where `..` was meant, and
/// `!=` where `~=` was, get a hint.
pub(crate) fn finding(source: &[u8], error: SyntaxError) -> Diagnostic {
    let mut span = error.span;
    let end = source.len()
        - source
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
            .count();
    if span.start >= end {
        span = Span::new(crate::text::last_char_start(&source[..end]), end);
    }
    let mut diagnostic = Diagnostic::error(
        Rule::Syntax,
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
        diagnostic.fix = not_equal(source);
    }
    diagnostic
}

/// Every `!=` of `source` (in its code, not in a string or a comment)
/// written `~=`, when that makes the script one the server loads: `!` is
/// no Lua operator, so each is a not-equal written as in C. A script that
/// would still not load (`local x != 1`, or another mistake) gets no fix.
pub(crate) fn not_equal(source: &[u8]) -> Option<Fix> {
    let mut lexer = Lexer::new(source).ok()?;
    let mut edits = Vec::new();
    let mut bang: Option<Span> = None;
    while let Ok(token) = lexer.next_token() {
        match (bang, token.kind) {
            (_, TokenKind::Eof) => break,
            (Some(at), TokenKind::Char('=')) if token.span.start == at.end => {
                edits.push(Edit::replace(at.to(token.span), "~="));
            }
            _ => {}
        }
        bang = (token.kind == TokenKind::Char('!')).then_some(token.span);
    }
    if edits.is_empty() {
        return None;
    }
    let fix = Fix::certain("replace `!=` with `~=`", edits);
    let mut fixed = source.to_vec();
    for edit in fix.edits.iter().rev() {
        fixed.splice(edit.span.start..edit.span.end, edit.replacement.bytes());
    }
    crate::syntax::parser::parse(&fixed).is_ok().then_some(fix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parser::parse;

    fn fixed(source: &str) -> Option<String> {
        let fix = not_equal(source.as_bytes())?;
        Some(crate::rules::test_support::apply(source, &fix))
    }

    #[test]
    fn every_not_equal_in_the_code_becomes_lua_s() {
        assert_eq!(
            fixed("if ARGV[1] != 'a!=b' then return 1 != 2 end -- x != y\nreturn ARGV[2]!=nil"),
            Some(
                "if ARGV[1] ~= 'a!=b' then return 1 ~= 2 end -- x != y\nreturn ARGV[2]~=nil"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_script_that_would_still_not_load_gets_no_fix() {
        for source in [
            "local x != 1",
            "if a != b then return 1",
            "return 1 ! = 2",
            "return 1 !== 2",
            "return 1 + 2",
        ] {
            assert_eq!(fixed(source), None, "{source}");
        }
    }

    #[test]
    fn not_equal_written_as_in_c_gets_a_hint() {
        for source in ["return 1 != 2", "if ARGV[1] != 'x' then return 1 end"] {
            let error = parse(source).unwrap_err();
            let diagnostic = finding(source.as_bytes(), error);
            assert_eq!(
                diagnostic.note.as_deref(),
                Some("Lua writes not-equal as `~=`"),
                "{source}"
            );
        }
        let error = parse("return 1 !").unwrap_err();
        assert_eq!(finding(b"return 1 !", error).note, None);
        // With its fix, when the fix makes a script the server loads.
        let source = "if ARGV[1] != 'x' then return 1 end";
        let error = parse(source).unwrap_err();
        let fix = finding(source.as_bytes(), error).fix.expect("a fix");
        assert_eq!(fix.edits, [Edit::replace(Span::new(11, 13), "~=")]);
    }
}
