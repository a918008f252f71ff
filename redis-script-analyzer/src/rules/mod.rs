//! The rules: one file each, listed once below (`rules!`). The list
//! makes the [`Rule`] enum (each variant's documentation is the rule's
//! one-line summary, its stable name the file's), and each file's
//! [`Meta`] says how severe its findings are by default, who may allow
//! them, and, for a rule that reads the semantic model, the function that
//! finds them ([`run`] calls each in the list's order). Adding a rule is
//! its file and one line here.

use crate::declared::Declared;
use crate::diagnostic::Diagnostic;
use crate::rule::Rule;
use crate::semantic::{Environment, Extent, FunctionId, Model, NameUse, NilComparison};
use crate::syntax::tree::Chunk;

/// What a rule is, beside its name and summary.
pub(crate) struct Meta {
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
        let meta = meta(*rule);
        let runs = match meta.judges {
            Judges::File => context.callback.is_none(),
            Judges::Code => !library || context.callback.is_some(),
        };
        if let (Some(check), true) = (meta.check, runs) {
            check(context, diagnostics);
        }
    }
}

/// Runs every check on `chunk` (parsed from `source`), and leaves out what
/// `declared` allows.
pub fn check(source: &[u8], chunk: &Chunk, declared: &Declared) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let model = Model::build(chunk, Environment::Script);
    let context = Context {
        source,
        model: &model,
        declared,
        callback: None,
    };
    run(&context, &mut diagnostics);
    allowed_out(diagnostics, declared)
}

/// A registered function of a library to check: its callback's function
/// in the library's model, and the declaration it is checked against (its
/// `read_only` from the registration's flags).
pub(crate) struct Callback {
    pub(crate) function: FunctionId,
    pub(crate) declared: Declared,
}

/// The checks of a Redis Functions library, whose `model` is built once
/// with the callbacks set ([`Model::set_callbacks`]): the rules that judge
/// the whole file (its names, its commands) once, against `declared`; then
/// the rules that judge a function's code, on each of `callbacks` against
/// its own declaration, reading the callback's own part of the model. So
/// the cost is the library's size, not its size times its functions.
/// Without callbacks (the text settles none), only the file's rules.
pub(crate) fn check_library(
    source: &[u8],
    model: &Model,
    declared: &Declared,
    callbacks: &[Callback],
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let file = Context {
        source,
        model,
        declared,
        callback: None,
    };
    run(&file, &mut diagnostics);
    for callback in callbacks {
        let context = Context {
            source,
            model,
            declared: &callback.declared,
            callback: Some(callback.function),
        };
        run(&context, &mut diagnostics);
    }
    allowed_out(diagnostics, declared)
}

/// `diagnostics` without the findings `declared` allows.
fn allowed_out(mut diagnostics: Vec<Diagnostic>, declared: &Declared) -> Vec<Diagnostic> {
    diagnostics.retain(|diagnostic| !declared.allowed.allows(diagnostic.rule));
    diagnostics
}

mod command_table;
mod sandbox_names;
mod table_uses;
#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod tests;

/// Declares each rule's file: `Variant => module,`. The match in
/// [`meta`] is exhaustive, so a rule of [`Rule`] without its line here does
/// not compile.
macro_rules! implementations {
    ($($variant:ident => $module:ident,)+) => {
        $(pub(crate) mod $module;)+

        /// How `rule` is found.
        const fn meta(rule: Rule) -> &'static Meta {
            match rule {
                $(Rule::$variant => &$module::RULE,)+
            }
        }
    };
}

implementations! {
    Syntax => syntax,
    Shebang => shebang,
    Library => library,
    Include => include,
    Header => header,
    Directive => directive,
    UndefinedGlobal => undefined_global,
    GlobalWrite => global_write,
    UnknownMember => unknown_member,
    UnknownCommands => unknown_commands,
    UnknownSubcommand => unknown_subcommand,
    CommandArity => command_arity,
    CommandArguments => command_arguments,
    WrongType => wrong_type,
    NoscriptCommand => noscript_command,
    NoWrites => no_writes,
    OutOfRange => out_of_range,
    Unread => unread,
    NilReply => nil_reply,
    NilComparison => nil_comparison,
    ReplyShape => reply_shape,
    UndeclaredKey => undeclared_key,
    ValueInKeys => value_in_keys,
}
