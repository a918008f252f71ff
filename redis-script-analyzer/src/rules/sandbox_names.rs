//! What the rules on names share: each use of a global the model records,
//! judged against the sandbox of every targeted server ([`findings`]),
//! and the notes that say where a name does exist.
//!
//! One mistake is one finding however often the name is used: the first
//! use that reads an absent global or creates one reports the name, for
//! `undefined_global` and `global_write` alike, so the two rules read the
//! same list.

use std::collections::HashSet;

use super::Context;
use crate::rule::Checker;
use crate::sandbox::{self, Library};
use crate::semantic::{Access, Environment, NameUse};
use crate::servers::{Servers, only_on_note};
use crate::suggest::{Suggestion, suggestion};
use crate::syntax::tree::{Expr, Name, Span};

/// A mistake on a name, before its words.
pub(super) enum Finding<'t> {
    /// Reading a global some target lacks.
    Undefined(&'t Name),
    /// `KEYS` or `ARGV` read in a Functions library, where they are no globals.
    TableInLibrary(&'t Name),
    /// `name = ...` with no local `name`.
    Assigned(&'t Name),
    /// `function name()` with no local `name`.
    FunctionStatement(&'t Name),
    /// Writing into a library (`string.x = 1`, `function redis.f()`, `_G`).
    ModifiesLibrary(&'t Name),
    /// `library.member` that the targets lack.
    UnknownMember {
        library: &'t Name,
        member: String,
        lib: &'static Library,
        span: Span,
    },
}

/// Every mistake on names, in the order of the text, each with the index
/// of its use in [`Model::names`](crate::semantic::Model::names). The
/// whole file is judged, a library's top level too. Linear: one pass, a
/// set of the names already reported.
pub(super) fn findings<'c, 't>(
    context: &'c Context<'_, 't>,
) -> impl Iterator<Item = (usize, Finding<'t>)> + 'c {
    let mut reported: HashSet<&'t str> = HashSet::new();
    context
        .model
        .names
        .iter()
        .enumerate()
        .filter_map(move |(index, used)| {
            let finding = judge(context, used)?;
            let once = match &finding {
                Finding::Undefined(name)
                | Finding::TableInLibrary(name)
                | Finding::Assigned(name)
                | Finding::FunctionStatement(name) => Some(name.text.as_str()),
                Finding::ModifiesLibrary(_) | Finding::UnknownMember { .. } => None,
            };
            match once {
                Some(name) if !reported.insert(name) => None,
                _ => Some((index, finding)),
            }
        })
}

/// What a use of a name is, if a mistake.
fn judge<'t>(context: &Context<'_, 't>, used: &NameUse<'t>) -> Option<Finding<'t>> {
    if used.binding.is_some() {
        return None;
    }
    let name = used.name;
    let text = name.text.as_str();
    let writable_library = || sandbox::library(text).is_some() || text == "_G";
    match used.access {
        Access::Read => read(context, used),
        Access::Index { key, dot, .. } => {
            if is_table(context, text) {
                return None;
            }
            let (Expr::String(member, span), Some(lib)) = (key, sandbox::library(text)) else {
                return read(context, used);
            };
            // A library some targets lack (`os`, `server`) is the mistake.
            if !sandbox::is_global(text, context.declared.servers) {
                return undefined(context, used);
            }
            let member = String::from_utf8_lossy(member).into_owned();
            // A library registers its functions (through Valkey's `server`
            // too); a script has no such member.
            let registers = context.model.environment == Environment::Library
                && matches!(text, "redis" | "server")
                && member == "register_function";
            let present = registers
                || lib
                    .member(&member)
                    .is_some_and(|m| m.is_on(context.declared.servers));
            // Under `or`, a missing member has its fallback.
            (!present && !used.optional).then(|| Finding::UnknownMember {
                library: name,
                member,
                lib,
                span: dot.map_or(*span, |dot| dot.span),
            })
        }
        Access::Assign => Some(Finding::Assigned(name)),
        // Writing KEYS[n] or ARGV[n] is allowed and reads nothing.
        Access::AssignIndex if matches!(text, "KEYS" | "ARGV") => None,
        Access::AssignIndex if writable_library() => Some(Finding::ModifiesLibrary(name)),
        Access::AssignIndex => read(context, used),
        Access::FunctionStatement { plain: true } => Some(Finding::FunctionStatement(name)),
        Access::FunctionStatement { plain: false } if writable_library() => {
            Some(Finding::ModifiesLibrary(name))
        }
        Access::FunctionStatement { plain: false } => undefined(context, used),
    }
}

/// Whether the global `name` is KEYS or ARGV of a script, read through
/// the table rules rather than judged as a name.
fn is_table(context: &Context, name: &str) -> bool {
    context.model.environment == Environment::Script && matches!(name, "KEYS" | "ARGV")
}

/// The value of a global read: KEYS and ARGV are a library's mistake.
fn read<'t>(context: &Context<'_, 't>, used: &NameUse<'t>) -> Option<Finding<'t>> {
    match used.name.text.as_str() {
        "KEYS" | "ARGV" if context.model.environment == Environment::Library => {
            Some(Finding::TableInLibrary(used.name))
        }
        "KEYS" | "ARGV" => None,
        _ => undefined(context, used),
    }
}

/// A global that some target lacks, read by code that may run.
fn undefined<'t>(context: &Context<'_, 't>, used: &NameUse<'t>) -> Option<Finding<'t>> {
    let present = sandbox::is_global(&used.name.text, context.declared.servers);
    // A local function that never runs never looks its globals up.
    (!present && context.model.is_live(used.function)).then_some(Finding::Undefined(used.name))
}

/// The local declared before the use `index` that `name` may be a typo of.
pub(super) fn suggest_local<'t>(
    context: &Context<'_, 't>,
    index: usize,
    name: &str,
) -> Option<Suggestion<'t>> {
    suggestion(name, context.model.declared_before(index).iter().copied())
}

/// `note`, and where `path` (a global or `library.member`) exists if some
/// server has it: how to target only those servers.
pub(super) fn with_other_servers(note: String, path: &str, checker: Checker) -> String {
    let having = sandbox::servers_with(path, Servers::ALL);
    if having.is_empty() {
        note
    } else {
        format!("{note}; {}", only_on_note(having, checker))
    }
}
