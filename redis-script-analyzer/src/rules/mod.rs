//! The rules: one file each, listed once below (`rules!`). The list
//! makes the [`Rule`] enum (each variant's documentation is the rule's
//! one-line summary, its stable name the file's), and each file's
//! [`Meta`] says how severe its findings are by default, who may allow
//! them, and, for a rule that reads the semantic model, the function that
//! finds them ([`run`] calls each in the list's order). Adding a rule is
//! its file and one line here.

use crate::declared::Declared;
use crate::diagnostic::{Checker, Diagnostic, Severity};
use crate::semantic::{Environment, Extent, FunctionId, Model, NameUse, NilComparison};

pub(crate) use library::load_time;
pub(crate) use syntax::not_equal;

/// What a script can reply, as the reply-shape rule and the reply types
/// ([`crate::reply_type`]) name it.
pub(crate) use reply_shape::reply;

/// What a rule is, beside its name and summary.
pub(crate) struct Meta {
    /// The severity of its findings, unless a finding says otherwise.
    pub(crate) severity: Severity,
    /// Who may silence it.
    pub(crate) allow: Allow,
    /// Finds it on a model; `None` for a rule whose findings come from
    /// reading the file (its syntax, shebang, header, includes).
    pub(crate) check: Option<fn(&Context, &mut Vec<Diagnostic>)>,
    /// What its check judges in a Functions library.
    pub(crate) judges: Judges,
}

/// What a rule judges in a Functions library (in a script, both are the
/// whole script, judged once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Judges {
    /// The whole file, once: its names and its commands, wherever they are.
    File,
    /// The code of each registered function checked: what its body reads,
    /// writes, compares and replies.
    Code,
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

/// What a rule reads: the model of the file, the declaration, and in a
/// Functions library the callback checked.
pub(crate) struct Context<'m, 't> {
    /// The text the model is of, for a fix to quote what it keeps.
    pub(crate) source: &'m [u8],
    pub(crate) model: &'m Model<'t>,
    pub(crate) declared: &'m Declared,
    /// In a library, the function of the callback checked; its body and
    /// the functions in it are what the rules judge. `None` in a script.
    pub(crate) callback: Option<FunctionId>,
}

impl<'m, 't> Context<'m, 't> {
    /// Whether code of `function` is judged: anywhere when no callback is
    /// checked (a script, or a library's file as a whole), inside the
    /// callback when one is.
    pub(crate) fn judges(&self, function: FunctionId) -> bool {
        match self.callback {
            Some(callback) => self.model.within(function, callback),
            None => true,
        }
    }

    /// Whether any code is judged: a script, or a library's callback.
    pub(crate) fn judges_any(&self) -> bool {
        self.callback.is_some() || self.model.environment == Environment::Script
    }

    /// The judged functions' facts: the whole file's in a script, the
    /// callback's in a library (so that checking each callback of a big
    /// library costs the callback's size, not the library's).
    fn extent(&self) -> &'m Extent {
        &self.model.functions[self.callback.unwrap_or(0)].extent
    }

    /// The indexes in [`Model::calls`] of the judged calls.
    pub(crate) fn calls(&self) -> std::ops::Range<usize> {
        let calls = self.extent().calls.clone();
        debug_assert!(
            calls
                .clone()
                .all(|call| self.judges(self.model.calls[call].function))
        );
        calls
    }

    /// The judged uses of names.
    pub(crate) fn names(&self) -> &'m [NameUse<'t>] {
        &self.model.names[self.extent().names.clone()]
    }

    /// The judged comparisons with nil.
    pub(crate) fn nil_comparisons(&self) -> &'m [NilComparison<'t>] {
        let judged = &self.model.nil_comparisons[self.extent().nil_comparisons.clone()];
        debug_assert!(judged.iter().all(|c| self.judges(c.function)));
        judged
    }
}

/// Runs the rules that read the model, in the order of the list: in a
/// script, all of them; in a library, those judging the file when no
/// callback is checked, those judging code when one is.
pub(crate) fn run(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let library = context.model.environment == Environment::Library;
    for rule in Rule::ALL {
        let meta = rule.meta();
        let runs = match meta.judges {
            Judges::File => context.callback.is_none(),
            Judges::Code => !library || context.callback.is_some(),
        };
        if let (Some(check), true) = (meta.check, runs) {
            check(context, diagnostics);
        }
    }
}

mod command_table;
mod sandbox_names;
mod table_uses;

/// Declares the rules: `Variant => module,` with the variant's summary as
/// its documentation.
macro_rules! rules {
    ($($(#[doc = $doc:literal])+ $variant:ident => $module:ident,)+) => {
        $(mod $module;)+

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
                    $(Rule::$variant => stringify!($module),)+
                }
            }

            /// What a finding of the rule is, in one sentence.
            pub fn description(self) -> &'static str {
                let text = match self {
                    $(Rule::$variant => concat!($($doc),+),)+
                };
                text.trim_start()
            }

            pub(crate) const fn meta(self) -> &'static Meta {
                match self {
                    $(Rule::$variant => &$module::RULE,)+
                }
            }
        }
    };
}

rules! {
    /// The script is not Lua 5.1 as the server parses it.
    Syntax => syntax,
    /// The `#!lua` line: an unknown flag, or options no server reads.
    Shebang => shebang,
    /// A Redis Functions library that FUNCTION LOAD refuses (its `#!lua name=` line, its
    /// registrations, what its top level does).
    Library => library,
    /// A `--- @include` directive that cannot be resolved.
    Include => include,
    /// A signature header (`---@key`, `---@param`, `---@return`) that does not parse.
    Header => header,
    /// A `-- redis-lua: allow(...)` comment naming no rule an allow may silence.
    Directive => directive,
    /// Reading a global the sandbox does not have (`keys`, `UNPACK`).
    UndefinedGlobal => undefined_global,
    /// Creating a global, or modifying a library the sandbox makes read-only.
    GlobalWrite => global_write,
    /// A library member that does not exist (`string.fromat`).
    UnknownMember => unknown_member,
    /// A command a target's command table does not know.
    UnknownCommands => unknown_commands,
    /// A subcommand a container command does not have (`CONFIG GETT`).
    UnknownSubcommand => unknown_subcommand,
    /// A command called with a number of arguments it refuses.
    CommandArity => command_arity,
    /// A command flagged `noscript`, which scripts cannot call.
    NoscriptCommand => noscript_command,
    /// A write in a script or function flagged `no-writes`.
    NoWrites => no_writes,
    /// `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
    OutOfRange => out_of_range,
    /// A declared key or argument the script never reads.
    Unread => unread,
    /// A nil or false reply into a type that cannot hold it.
    NilReply => nil_reply,
    /// A command's reply compared with `nil`, which Redis's nil reply (a Lua `false`) never equals.
    NilComparison => nil_comparison,
    /// A reply whose shape the declared type cannot hold.
    ReplyShape => reply_shape,
    /// A command's key that does not come from KEYS (from ARGV, a literal, a reply), which a
    /// cluster or a proxy routing by KEYS cannot place.
    UndeclaredKey => undeclared_key,
    /// A KEYS element a command takes as a value, never as a key (a TTL, a token), which a cluster
    /// or a proxy routing by KEYS hashes like a key.
    ValueInKeys => value_in_keys,
}

impl Rule {
    /// How severe its findings are, unless a finding says otherwise.
    pub const fn severity(self) -> Severity {
        self.meta().severity
    }

    /// Whether an `allow(...)` may silence it: not for a script the server
    /// refuses to load, nor for a file that cannot be read as written.
    pub const fn allowable(self) -> bool {
        !matches!(self.meta().allow, Allow::Never)
    }

    /// Whether `checker`'s allows may silence it. The tool's may silence
    /// any [`allowable`](Rule::allowable) rule; the attributes' (and the
    /// `-- redis-lua:` comments of a script a Rust declaration binds) only
    /// those a binding that compiled with them allowed would not fail at
    /// run time for.
    pub const fn allowable_by(self, checker: Checker) -> bool {
        match (checker, self.meta().allow) {
            (_, Allow::Never) => false,
            (Checker::CommandLine, _) => true,
            (Checker::Attribute, allow) => matches!(allow, Allow::Anywhere),
        }
    }
}
