//! `unknown_member`: a library member that does not exist (`string.fromat`).
//!
//! `library.member` of a sandbox library (not shadowed by a local) that a
//! targeted server's library lacks is nil there: calling it fails at run
//! time. Every use is reported, except under `or`, where the script has a
//! fallback (`local unpack = unpack or table.unpack`).

use super::sandbox_names::{self, Finding};
use super::{Allow, Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Rule, Severity, Target};
use crate::sandbox::{self, Library};
use crate::servers::Servers;
use crate::suggest::did_you_mean;
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Anywhere,
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

fn unknown_member(
    context: &Context,
    library: &str,
    member: &str,
    lib: &Library,
    span: Span,
) -> Diagnostic {
    let targets = context.declared.servers;
    let path = format!("{library}.{member}");
    let message = match sandbox::first_lacking(&path, targets) {
        Some(lacking) if !sandbox::servers_with(&path, Servers::ALL).is_empty() => format!(
            "`{path}` does not exist in the script sandbox of {} {}",
            lacking.product(),
            lacking.version()
        ),
        _ => format!(
            "`{path}` does not exist in {}'s Lua (5.1)",
            context.declared.first_target().product()
        ),
    };
    let note = sandbox::member_note(library, member)
        .map(str::to_owned)
        .or_else(|| {
            lib.suggest(member, targets)
                .map(|m| did_you_mean(&format!("{library}.{m}")))
        })
        .unwrap_or_else(|| format!("`{library}` has: {}", lib.member_names(targets).join(", ")));
    let note = sandbox_names::with_other_servers(note, &path, context.declared.checker);
    Diagnostic::error(Rule::UnknownMember, Target::File, span, message).with_note(note)
}

#[cfg(test)]
mod tests {
    use crate::check::test_support::{ONE_KEY_TWO_ARGS, errors};

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
}
