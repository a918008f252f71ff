//! What the rules' tests share: a script checked by one rule or by all of
//! them, a fix applied, and the declaration most tests check against.

use super::{Context, check};
use crate::declared::Declared;
use crate::diagnostic::{Allowed, Diagnostic, Target};
use crate::reply_type::ReplyKind;
use crate::reply_type::RustType;
use crate::rule::{Checker, Severity};
use crate::semantic::{Environment, Model};
use crate::servers::Servers;
use crate::syntax::parser::parse;

/// The findings of one rule's `check` on the script `source`.
pub(crate) fn run_rule(
    source: &str,
    declared: &Declared,
    check: fn(&Context, &mut Vec<Diagnostic>),
) -> Vec<Diagnostic> {
    let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
    let model = Model::build(&chunk, Environment::Script);
    let context = Context {
        source: source.as_bytes(),
        model: &model,
        declared,
        callback: None,
    };
    let mut diagnostics = Vec::new();
    check(&context, &mut diagnostics);
    diagnostics
}

/// For each finding of one rule's `check` on `source`, the script with
/// the finding's fix applied, which must be certain; `None` for a
/// finding without a fix.
pub(crate) fn fixed(
    source: &str,
    declared: Declared,
    check: fn(&Context, &mut Vec<Diagnostic>),
) -> Vec<Option<String>> {
    run_rule(source, &declared, check)
        .into_iter()
        .map(|diagnostic| {
            let fix = diagnostic.fix?;
            assert_eq!(fix.applicability, crate::fix::edit::Applicability::Certain);
            Some(apply(source, &fix))
        })
        .collect()
}

/// `source` with the edits of `fix` made.
pub(crate) fn apply(source: &str, fix: &crate::fix::edit::Fix) -> String {
    let mut out = Vec::new();
    let mut at = 0;
    for edit in &fix.edits {
        assert!(edit.span.start >= at, "overlapping edits: {fix:?}");
        out.extend_from_slice(&source.as_bytes()[at..edit.span.start]);
        out.extend_from_slice(edit.replacement.as_bytes());
        at = edit.span.end;
    }
    out.extend_from_slice(&source.as_bytes()[at..]);
    String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
}

pub(crate) const ONE_KEY_TWO_ARGS: Declared = Declared {
    keys: 1,
    args: 2,
    variadic: false,
    variadic_keys: false,
    reply: ReplyKind::Nullable,
    reply_type: RustType::Other,
    read_only: false,
    allowed: Allowed::NONE,
    servers: Servers::ALL,
    checker: Checker::Attribute,
    cluster: false,
};

/// Every finding on `source`: severity, target and message.
pub(crate) fn findings(source: &str, declared: Declared) -> Vec<(Severity, Target, String)> {
    let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
    check(source.as_bytes(), &chunk, &declared)
        .into_iter()
        .map(|d| (d.severity, d.target, d.message))
        .collect()
}

/// The messages of the errors on `source`.
pub(crate) fn errors(source: &str, declared: Declared) -> Vec<String> {
    findings(source, declared)
        .into_iter()
        .filter(|(severity, ..)| *severity == Severity::Error)
        .map(|(.., message)| message)
        .collect()
}

/// The notes of the errors on `source`.
pub(crate) fn notes(source: &str, declared: Declared) -> Vec<String> {
    let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
    check(source.as_bytes(), &chunk, &declared)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| d.note)
        .collect()
}
