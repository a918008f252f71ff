//! What the checks report: a [`Diagnostic`] per finding, located in the Lua
//! source ([`Span`]) and at the token of the caller's declaration it
//! concerns ([`Target`]); and the [`Rule`] each is of, which an `allow(...)` may silence.

use crate::syntax::tree::Span;

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

/// The kind of a finding, by a stable name: what `#[redis_script]`'s
/// `allow(...)`, the `redis-lua` tool's `-- redis-lua: allow(...)` comments
/// and its config file name. Some rules can be allowed ([`Rule::allowable`]);
/// the others are findings the server itself refuses (a script that does
/// not load), which no setting can silence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// The script is not Lua 5.1 as the server parses it.
    Syntax,
    /// The `#!lua` line: an unknown flag, or options no server reads.
    Shebang,
    /// A Redis Functions library that FUNCTION LOAD refuses (its `#!lua
    /// name=` line, its registrations, what its top level does).
    Library,
    /// A `--- @include` directive that cannot be resolved.
    Include,
    /// A signature header (`---@key`, `---@param`, `---@return`) that does not parse.
    Header,
    /// A `-- redis-lua: allow(...)` comment naming no rule an allow may silence.
    Directive,
    /// Reading a global the sandbox does not have (`keys`, `UNPACK`).
    UndefinedGlobal,
    /// Creating a global, or modifying a library the sandbox makes read-only.
    GlobalWrite,
    /// A library member that does not exist (`string.fromat`).
    UnknownMember,
    /// A command a target's command table does not know.
    UnknownCommands,
    /// A subcommand a container command does not have (`CONFIG GETT`).
    UnknownSubcommand,
    /// A command called with a number of arguments it refuses.
    CommandArity,
    /// A command flagged `noscript`, which scripts cannot call.
    NoscriptCommand,
    /// A write in a script or function flagged `no-writes`.
    NoWrites,
    /// `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
    OutOfRange,
    /// A declared key or argument the script never reads.
    Unread,
    /// A nil or false reply into a type that cannot hold it.
    NilReply,
    /// A command's reply compared with `nil`, which Redis's nil reply (a Lua `false`) never equals.
    NilComparison,
    /// A reply whose shape the declared type cannot hold.
    ReplyShape,
    /// A command's key that does not come from KEYS (from ARGV, a literal,
    /// a reply), which a cluster or a proxy routing by KEYS cannot place.
    UndeclaredKey,
}

impl Rule {
    /// Every rule, in the order of the documentation.
    pub const ALL: [Rule; 20] = [
        Rule::Syntax,
        Rule::Shebang,
        Rule::Library,
        Rule::Include,
        Rule::Header,
        Rule::Directive,
        Rule::UndefinedGlobal,
        Rule::GlobalWrite,
        Rule::UnknownMember,
        Rule::UnknownCommands,
        Rule::UnknownSubcommand,
        Rule::CommandArity,
        Rule::NoscriptCommand,
        Rule::NoWrites,
        Rule::OutOfRange,
        Rule::Unread,
        Rule::NilReply,
        Rule::NilComparison,
        Rule::ReplyShape,
        Rule::UndeclaredKey,
    ];

    /// The stable name, as `allow(...)` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Syntax => "syntax",
            Rule::Shebang => "shebang",
            Rule::Library => "library",
            Rule::Include => "include",
            Rule::Header => "header",
            Rule::Directive => "directive",
            Rule::UndefinedGlobal => "undefined_global",
            Rule::GlobalWrite => "global_write",
            Rule::UnknownMember => "unknown_member",
            Rule::UnknownCommands => "unknown_commands",
            Rule::UnknownSubcommand => "unknown_subcommand",
            Rule::CommandArity => "command_arity",
            Rule::NoscriptCommand => "noscript_command",
            Rule::NoWrites => "no_writes",
            Rule::OutOfRange => "out_of_range",
            Rule::Unread => "unread",
            Rule::NilReply => "nil_reply",
            Rule::NilComparison => "nil_comparison",
            Rule::ReplyShape => "reply_shape",
            Rule::UndeclaredKey => "undeclared_key",
        }
    }

    /// What a finding of the rule is, in one sentence.
    pub const fn description(self) -> &'static str {
        match self {
            Rule::Syntax => "The script is not Lua 5.1 as the server parses it.",
            Rule::Shebang => "The `#!lua` line: an unknown flag, or options no server reads.",
            Rule::Library => {
                "A Redis Functions library that FUNCTION LOAD refuses (its `#!lua name=` line, its registrations, what its top level does)."
            }
            Rule::Include => "A `--- @include` directive that cannot be resolved.",
            Rule::Header => {
                "A signature header (`---@key`, `---@param`, `---@return`) that does not parse."
            }
            Rule::Directive => {
                "A `-- redis-lua: allow(...)` comment naming no rule an allow may silence."
            }
            Rule::UndefinedGlobal => {
                "Reading a global the sandbox does not have (`keys`, `UNPACK`)."
            }
            Rule::GlobalWrite => {
                "Creating a global, or modifying a library the sandbox makes read-only."
            }
            Rule::UnknownMember => "A library member that does not exist (`string.fromat`).",
            Rule::UnknownCommands => "A command a target's command table does not know.",
            Rule::UnknownSubcommand => {
                "A subcommand a container command does not have (`CONFIG GETT`)."
            }
            Rule::CommandArity => "A command called with a number of arguments it refuses.",
            Rule::NoscriptCommand => "A command flagged `noscript`, which scripts cannot call.",
            Rule::NoWrites => "A write in a script or function flagged `no-writes`.",
            Rule::OutOfRange => {
                "`KEYS[n]` or `ARGV[n]` past what the declaration gives the script."
            }
            Rule::Unread => "A declared key or argument the script never reads.",
            Rule::NilReply => "A nil or false reply into a type that cannot hold it.",
            Rule::NilComparison => {
                "A command's reply compared with `nil`, which Redis's nil reply (a Lua `false`) never equals."
            }
            Rule::ReplyShape => "A reply whose shape the declared type cannot hold.",
            Rule::UndeclaredKey => {
                "A command's key that does not come from KEYS (from ARGV, a literal, a reply), which a cluster or a proxy routing by KEYS cannot place."
            }
        }
    }

    /// The rule named `name`; a `-` stands for a `_` (`unknown-commands`).
    pub fn from_name(name: &str) -> Option<Rule> {
        let name = name.trim().replace('-', "_");
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }

    /// Whether an `allow(...)` may silence it: not for a script the server
    /// refuses to load, nor for a file that cannot be read as written.
    pub const fn allowable(self) -> bool {
        !matches!(
            self,
            Rule::Syntax
                | Rule::Shebang
                | Rule::Library
                | Rule::Include
                | Rule::Header
                | Rule::Directive
        )
    }

    /// Whether `checker`'s allows may silence it. The tool's may silence
    /// any [`allowable`](Rule::allowable) rule. The attributes' (and the
    /// `-- redis-lua:` comments of a script a Rust declaration binds) only
    /// what the tables may get wrong: a command, subcommand or arity a newer
    /// server or a module has, a library member, a value read for routing
    /// alone; and a comparison with nil, a branch that never runs but fails
    /// nothing (`nil_comparison`, say beside a `v == false`). The others mean a Rust type that cannot hold the reply
    /// (`nil_reply`, `reply_shape`), or a call the server refuses
    /// (`out_of_range`, `no_writes`, `noscript_command`, a global): a
    /// binding that compiled with them allowed would fail at run time.
    pub const fn allowable_by(self, checker: Checker) -> bool {
        match checker {
            Checker::CommandLine => self.allowable(),
            Checker::Attribute => matches!(
                self,
                Rule::UnknownCommands
                    | Rule::UnknownSubcommand
                    | Rule::CommandArity
                    | Rule::UnknownMember
                    | Rule::Unread
                    | Rule::NilComparison
                    | Rule::UndeclaredKey
            ),
        }
    }

    /// The names of the rules the tool's allows may silence, for messages.
    pub fn allowable_names() -> Vec<&'static str> {
        Rule::allowable_names_by(Checker::CommandLine)
    }

    /// The names of the rules `checker`'s allows may silence, for messages.
    pub fn allowable_names_by(checker: Checker) -> Vec<&'static str> {
        Rule::ALL
            .into_iter()
            .filter(|rule| rule.allowable_by(checker))
            .map(Rule::name)
            .collect()
    }

    /// How to allow it, for a note, in the words of `checker`.
    pub(crate) fn hint(self, checker: Checker) -> String {
        match checker {
            Checker::Attribute => format!("add `allow({})` to #[redis_script]", self.name()),
            Checker::CommandLine => format!(
                "add a comment `-- redis-lua: allow({})` to the file, or allow it in redis-lua.toml",
                self.name()
            ),
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Who runs the checks, which decides how a note says to allow a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Checker {
    /// The `#[redis_script]` and `#[redis_function]` attributes.
    #[default]
    Attribute,
    /// The `redis-lua` command-line tool.
    CommandLine,
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
        Rule::ALL.into_iter().filter(move |rule| self.allows(*rule))
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
    /// Its kind, by a stable name.
    pub rule: Rule,
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
        }
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }
}
