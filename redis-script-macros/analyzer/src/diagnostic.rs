//! What the checks report: a [`Diagnostic`] per finding, located in the Lua
//! source ([`Span`]) and at the token of the caller's declaration it
//! concerns ([`Target`]); and the [`Lint`]s an `allow(...)` can silence.

use crate::ast::Span;

/// Which token of the declaration a diagnostic belongs at (for
/// `#[redis_script]`, a Rust token of the annotated function).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The script fails at run time (or cannot load) as declared.
    Error,
    /// The script and the declaration may disagree.
    Warning,
}

/// A kind of finding that the caller may allow, as `#[redis_script]`'s
/// `allow(...)` does: allowed, it is not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lint {
    /// A declared key or argument the script never reads (`allow(unread)`).
    Unread,
    /// A command the command table of a target does not know
    /// (`allow(unknown_commands)`: the server is newer than the table).
    UnknownCommands,
}

impl Lint {
    /// The name inside `allow(...)`.
    pub const fn name(self) -> &'static str {
        match self {
            Lint::Unread => "unread",
            Lint::UnknownCommands => "unknown_commands",
        }
    }

    /// How to allow it, for a note.
    pub(crate) fn hint(self) -> String {
        format!("add `allow({})` to #[redis_script]", self.name())
    }
}

/// The [`Lint`]s a caller allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Allowed {
    /// [`Lint::Unread`].
    pub unread: bool,
    /// [`Lint::UnknownCommands`].
    pub unknown_commands: bool,
}

impl Allowed {
    /// Whether `lint` is allowed.
    pub const fn allows(self, lint: Lint) -> bool {
        match lint {
            Lint::Unread => self.unread,
            Lint::UnknownCommands => self.unknown_commands,
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The lint that allows it, if one does.
    pub lint: Option<Lint>,
}

impl Diagnostic {
    /// An error without a note.
    pub fn error(target: Target, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message,
            span,
            note: None,
            target,
            lint: None,
        }
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// Marks the finding as one that `lint` allows.
    pub(crate) fn allowed_by(mut self, lint: Lint) -> Diagnostic {
        self.lint = Some(lint);
        self
    }
}
