//! What the checks report: a [`Diagnostic`] per finding, located in the Lua
//! source ([`Span`]) and at the token of the caller's declaration it
//! concerns ([`Target`]), with the change that corrects it when that is
//! certain ([`Fix`]); and the [`Rule`] each is of, which an `allow(...)` may silence.

use crate::fix::edit::Fix;
use crate::rule::{Rule, Severity};
use crate::syntax::tree::Span;

/// Which token of the declaration a diagnostic belongs at (for
/// `#[redis_script]`, a Rust token of the annotated function).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// The script file itself (the `file = "..."` literal).
    File,
    /// The number of keys (the `keys = N` literal).
    Keys,
    /// The parameter list as a whole (the function's name).
    Params,
    /// The `index`-th fixed ARGV parameter (0-based).
    Arg(usize),
    /// The `index`-th key parameter (0-based).
    Key(usize),
    /// The declared return type.
    Reply,
}

impl Target {
    /// The finding on a declared key or argument the script never reads,
    /// with `script` and `parameter` named as the caller names them (`the
    /// script`, `` `limit` ``); `None` for a target that is no parameter.
    pub fn unread_message(self, script: &str, parameter: &str) -> Option<String> {
        let (table, position) = match self {
            Target::Key(index) => ("KEYS", index + 1),
            Target::Arg(index) => ("ARGV", index + 1),
            _ => return None,
        };
        Some(format!(
            "{script} never reads {table}[{position}], which {parameter} fills, although it \
             reads {table} only by literal index: the declaration and the script may disagree"
        ))
    }
}

/// The [`Rule`]s a caller allows: allowed, a finding is not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Allowed(u32);

impl Allowed {
    /// Nothing allowed.
    pub const NONE: Allowed = Allowed(0);

    /// These and `rule` (a rule that is not [`Rule::allowable`] is ignored).
    pub const fn with(self, rule: Rule) -> Allowed {
        if rule.allowable() {
            Allowed(self.0 | 1 << rule as u32)
        } else {
            self
        }
    }

    /// The rules either set allows.
    pub const fn union(self, other: Allowed) -> Allowed {
        Allowed(self.0 | other.0)
    }

    /// Whether `rule` is allowed.
    pub const fn allows(self, rule: Rule) -> bool {
        self.0 & (1 << rule as u32) != 0
    }

    /// Every allowed rule.
    pub fn rules(self) -> impl Iterator<Item = Rule> {
        Rule::ALL
            .iter()
            .copied()
            .filter(move |rule| self.allows(*rule))
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where in the script (empty for a finding about the declaration alone).
    pub span: Span,
    /// How to fix it, or why it is so.
    pub note: Option<String>,
    /// Where in the declaration.
    pub target: Target,
    /// Its kind, by a stable name.
    pub rule: Rule,
    /// The change that corrects it, when that change is certain.
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// An error of `rule` without a note.
    pub fn error(rule: Rule, target: Target, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message,
            span,
            note: None,
            target,
            rule,
            fix: None,
        }
    }

    pub(crate) fn with_fix(mut self, fix: Option<Fix>) -> Diagnostic {
        self.fix = fix;
        self
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }
}
