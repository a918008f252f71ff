//! `unknown_member`: a library member that does not exist (`string.fromat`).
//!
//! `library.member` of a sandbox library (not shadowed by a local) that a
//! targeted server's library lacks is nil there: calling it fails at run
//! time. Every use is reported, except under `or`, where the script has a
//! fallback (`local unpack = unpack or table.unpack`).

use super::sandbox_names::{self, Finding};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::fix::edit::{self, Edit, Fix};
use crate::sandbox::{self, Library};
use crate::servers::Servers;
use crate::suggest::did_you_mean;
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    for (_, finding) in sandbox_names::findings(context) {
        if let Finding::UnknownMember {
            library,
            member,
            lib,
            span,
        } = finding
        {
            diagnostics.push(unknown_member(context, &library.text, &member, lib, span));
        }
    }
}

/// `library.member` (or `library['member']`, `member` written at `span`),
/// which a target's `lib` lacks.
fn unknown_member(
    context: &Context,
    library: &str,
    member: &str,
    lib: &Library,
    span: Span,
) -> Diagnostic {
    let targets = context.declared.servers;
    let path = format!("{library}.{member}");
    let elsewhere = !sandbox::servers_with(&path, Servers::ALL).is_empty();
    let message = match sandbox::first_lacking(&path, targets) {
        Some(lacking) if elsewhere => format!(
            "`{path}` does not exist in the script sandbox of {} {}",
            lacking.product(),
            lacking.version()
        ),
        _ => format!(
            "`{path}` does not exist in {}'s Lua (5.1)",
            context.declared.first_target().product()
        ),
    };
    let explained = sandbox::member_note(library, member);
    let suggestion = match explained {
        Some(_) => None,
        None => lib.suggest(member, targets),
    };
    let note = explained
        .map(str::to_owned)
        .or_else(|| suggestion.map(|found| did_you_mean(&format!("{library}.{}", found.name))))
        .unwrap_or_else(|| format!("`{library}` has: {}", lib.member_names(targets).join(", ")));
    let note = sandbox_names::with_other_servers(note, &path, context.declared.checker);
    // A member some server has is no misspelling: the note says where it is.
    let fix = suggestion
        .filter(|found| found.unique && !elsewhere)
        .and_then(|found| respell(context, library, member, span, found.name));
    Diagnostic::error(Rule::UnknownMember, Target::File, span, message)
        .with_note(note)
        .with_fix(fix)
}

/// The member written at `span` (a name after a dot, or a plainly quoted
/// string in brackets) replaced by `right`: certain for a slip that keeps
/// errors as they were ([`Fix::respelling`]; `redis.cal` is `redis.call`,
/// `redis.calll` too, but `redis.xcall` is no certain `redis.pcall`).
fn respell(context: &Context, library: &str, member: &str, span: Span, right: &str) -> Option<Fix> {
    let written = context.source.get(span.start..span.end)?;
    let text = if written == member.as_bytes() {
        span
    } else {
        edit::quoted_text(context.source, span)?
    };
    Some(Fix::respelling(
        format!("replace `{library}.{member}` with `{library}.{right}`"),
        member,
        right,
        vec![Edit::replace(text, right)],
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn every_use_of_a_missing_member_is_reported_unless_under_or() {
        let found = errors(
            "string.fromat('x') string.fromat('y') return string['formatt']",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("`string.fromat` does not exist"), "{found:?}");
        assert_eq!(
            errors("local u = table.unpack or unpack return u(KEYS)", ONE_KEY_TWO_ARGS),
            Vec::<String>::new()
        );
        // A shadowed library is the script's own table.
        assert_eq!(
            errors("local string = {} return string.fromat", ONE_KEY_TWO_ARGS),
            Vec::<String>::new()
        );
    }

    fn fixed(source: &str) -> Vec<Option<String>> {
        crate::rules::test_support::fixed(source, ONE_KEY_TWO_ARGS, super::check)
    }

    #[test]
    fn a_misspelt_member_is_respelt() {
        assert_eq!(
            fixed("local n = redis.cal('GET', KEYS[1]) return string.fromat('%s', n)"),
            [
                Some("local n = redis.call('GET', KEYS[1]) return string.fromat('%s', n)".to_owned()),
                Some("local n = redis.cal('GET', KEYS[1]) return string.format('%s', n)".to_owned()),
            ]
        );
        assert_eq!(
            fixed("return string[\"fromat\"]('%s', 1)"),
            [Some("return string[\"format\"]('%s', 1)".to_owned())]
        );
    }

    #[test]
    fn an_explained_member_or_a_guess_is_no_fix() {
        for source in [
            // Explained by a note: Lua 5.1 has `unpack`, not `table.unpack`.
            "return table.unpack(KEYS)",
            // Nothing close.
            "return string.xyzzy('a')",
            // Written with an escape.
            "return string['from\\97t']('%s', 1)",
        ] {
            assert_eq!(fixed(source), [None], "{source}");
        }
    }
}
