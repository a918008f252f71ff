//! What a finding is of: the [`Rule`]s by their stable names, each with
//! its one-line summary, how severe its findings are and who may allow
//! them; [`Severity`]; and the [`Checker`] that runs them, whose settings
//! decide what it may allow. This is the floor every pass stands on: the
//! declaration, the diagnostics and the fixes name rules, and nothing here
//! knows how a rule finds anything (that is [`crate::rules`]).
//!
//! Adding a rule is one line here, one line in `rules/mod.rs` that names
//! its file (the compiler asks for it), and the file.

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// The script fails at run time (or cannot load) as declared.
    Error,
    /// The script and the declaration may disagree.
    Warning,
}

impl Severity {
    /// In lower case, as the tool's output writes it: `error`, `warning`.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Who runs the checks, which decides how a note says to allow a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Checker {
    /// The `#[redis_script]` and `#[redis_function]` attributes.
    #[default]
    Attribute,
    /// The `redis-lua` command-line tool.
    CommandLine,
}

/// Who may silence a rule with an `allow(...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allow {
    /// Nobody: the server refuses the script, or the file cannot be read as written.
    Never,
    /// The `redis-lua` tool's settings and comments only: allowed in a
    /// script a Rust declaration binds, the binding would fail at run time.
    CommandLine,
    /// Anyone, the attributes too: what the tables may get wrong (a newer
    /// server's command, a module's), a value read for routing alone, a
    /// branch that never runs, a key placed by a hash tag.
    Anywhere,
}

/// Declares the rules: `Variant => name: Severity, Allow;` with the
/// variant's summary as its documentation.
macro_rules! rules {
    ($($(#[doc = $doc:literal])+ $variant:ident => $name:ident: $severity:ident, $allow:ident;)+) => {
        /// The kind of a finding, by a stable name: what `#[redis_script]`'s
        /// `allow(...)`, the `redis-lua` tool's `-- redis-lua: allow(...)`
        /// comments and its config file name. Some rules can be allowed
        /// ([`Rule::allowable`]); the others are findings the server itself
        /// refuses (a script that does not load), which no setting can silence.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl Rule {
            /// Every rule, in the order of the documentation.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)+];

            /// The stable name, as `allow(...)` writes it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Rule::$variant => stringify!($name),)+
                }
            }

            /// What a finding of the rule is, in one sentence.
            pub fn description(self) -> &'static str {
                let text = match self {
                    $(Rule::$variant => concat!($($doc),+),)+
                };
                text.trim_start()
            }

            /// How severe its findings are, unless a finding says otherwise.
            pub const fn severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)+
                }
            }

            /// Who may silence it.
            const fn allow(self) -> Allow {
                match self {
                    $(Rule::$variant => Allow::$allow,)+
                }
            }
        }
    };
}

rules! {
    /// The script is not Lua 5.1 as the server parses it.
    Syntax => syntax: Error, Never;
    /// The `#!lua` line: an unknown flag, or options no server reads.
    Shebang => shebang: Error, Never;
    /// A Redis Functions library that FUNCTION LOAD refuses (its `#!lua name=` line, its
    /// registrations, what its top level does).
    Library => library: Error, Never;
    /// A `--- @include` directive that cannot be resolved.
    Include => include: Error, Never;
    /// A signature header (`---@key`, `---@param`, `---@return`) that does not parse.
    Header => header: Error, Never;
    /// A `-- redis-lua: allow(...)` comment naming no rule an allow may silence.
    Directive => directive: Error, Never;
    /// Reading a global the sandbox does not have (`keys`, `UNPACK`).
    UndefinedGlobal => undefined_global: Error, CommandLine;
    /// Creating a global, or modifying a library the sandbox makes read-only.
    GlobalWrite => global_write: Error, CommandLine;
    /// A library member that does not exist (`string.fromat`).
    UnknownMember => unknown_member: Error, Anywhere;
    /// A command a target's command table does not know.
    UnknownCommands => unknown_commands: Error, Anywhere;
    /// A subcommand a container command does not have (`CONFIG GETT`).
    UnknownSubcommand => unknown_subcommand: Error, Anywhere;
    /// A command called with a number of arguments it refuses.
    CommandArity => command_arity: Error, Anywhere;
    /// A command call whose arguments the command's grammar refuses: an unknown option
    /// word, a missing value, options that exclude each other, a value of the wrong kind.
    CommandArguments => command_arguments: Error, Anywhere;
    /// A key used as two types in a row, so that the second call fails with WRONGTYPE.
    WrongType => wrong_type: Error, Anywhere;
    /// A command flagged `noscript`, which scripts cannot call.
    NoscriptCommand => noscript_command: Error, CommandLine;
    /// A write in a script or function flagged `no-writes`.
    NoWrites => no_writes: Error, CommandLine;
    /// `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
    OutOfRange => out_of_range: Error, CommandLine;
    /// A declared key or argument the script never reads.
    Unread => unread: Warning, Anywhere;
    /// A nil or false reply into a type that cannot hold it.
    NilReply => nil_reply: Error, CommandLine;
    /// A command's reply compared with `nil`, which Redis's nil reply (a Lua `false`) never equals.
    NilComparison => nil_comparison: Error, Anywhere;
    /// A reply whose shape the declared type cannot hold.
    ReplyShape => reply_shape: Error, CommandLine;
    /// A command's key that does not come from KEYS (from ARGV, a literal, a reply), which a
    /// cluster or a proxy routing by KEYS cannot place.
    UndeclaredKey => undeclared_key: Warning, Anywhere;
    /// A KEYS element a command takes as a value, never as a key (a TTL, a token), which a cluster
    /// or a proxy routing by KEYS hashes like a key.
    ValueInKeys => value_in_keys: Warning, Anywhere;
}

impl Rule {
    /// Whether an `allow(...)` may silence it: not for a script the server
    /// refuses to load, nor for a file that cannot be read as written.
    pub const fn allowable(self) -> bool {
        !matches!(self.allow(), Allow::Never)
    }

    /// Whether `checker`'s allows may silence it. The tool's may silence
    /// any [`allowable`](Rule::allowable) rule; the attributes' (and the
    /// `-- redis-lua:` comments of a script a Rust declaration binds) only
    /// those a binding that compiled with them allowed would not fail at
    /// run time for.
    pub const fn allowable_by(self, checker: Checker) -> bool {
        match (checker, self.allow()) {
            (_, Allow::Never) => false,
            (Checker::CommandLine, _) => true,
            (Checker::Attribute, allow) => matches!(allow, Allow::Anywhere),
        }
    }

    /// The rule named `name`; a `-` stands for a `_` (`unknown-commands`).
    pub fn from_name(name: &str) -> Option<Rule> {
        let name = name.trim().replace('-', "_");
        Rule::ALL.iter().copied().find(|rule| rule.name() == name)
    }

    /// The names of the rules the tool's allows may silence, for messages.
    pub fn allowable_names() -> Vec<&'static str> {
        Rule::allowable_names_by(Checker::CommandLine)
    }

    /// The names of the rules `checker`'s allows may silence, for messages.
    pub fn allowable_names_by(checker: Checker) -> Vec<&'static str> {
        Rule::ALL
            .iter()
            .copied()
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

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
