//! What the rules on commands share: a literal-named command call
//! ([`CommandCall`]) looked up in the command table of every targeted
//! server ([`lookup`]), and whether a call runs where writes are refused
//! ([`read_only_at`]).
//!
//! The whole file is judged, in a library too (a helper the callback
//! calls is outside its body), and so are local functions that never
//! run: a wrong command is a mistake in any script that includes them.

use super::Context;
use crate::commands::{self, Command, Forms};
use crate::semantic::command::CommandCall;
use crate::semantic::value::is_multi;
use crate::servers::{Server, Servers};
use crate::syntax::tree::{Expr, Span};

/// What the command tables of the targets make of a call.
pub(super) enum Lookup {
    /// Not judged: a module's command (`JSON.GET`, in its namespace, which
    /// no table of the core server knows), or a container command whose
    /// subcommand is computed.
    Unjudged,
    /// A command some target lacks: the servers that have it (maybe none)
    /// and the first target that lacks it.
    UnknownCommand { having: Servers, lacking: Server },
    /// A subcommand some target's container command lacks.
    UnknownSubcommand {
        /// The container command, on the first target.
        command: &'static Command,
        sub: String,
        span: Span,
        having: Servers,
        lacking: Server,
    },
    /// A command (or subcommand) every target has.
    Known(Known),
}

/// A command every target has.
pub(super) struct Known {
    /// The command called, on the first target (the container of a subcommand).
    pub(super) command: &'static Command,
    /// What each target runs: the command, or its subcommand.
    pub(super) effective: Vec<(Server, &'static Command)>,
    name: String,
    sub: Option<String>,
}

impl Known {
    /// The servers (of all, targeted or not) whose command passes `test`.
    pub(super) fn accepting(&self, test: impl Fn(&Command) -> bool) -> Servers {
        Servers::ALL.filter(|server| {
            commands::resolve(server, &self.name, self.sub.as_deref()).is_some_and(&test)
        })
    }
}

/// `call` looked up in the command tables of `targets`.
pub(super) fn lookup(call: &CommandCall, targets: Servers) -> Lookup {
    let name = call.name.as_str();
    if name.contains('.') {
        return Lookup::Unjudged;
    }
    // One search for every server's form of the command.
    let forms = if name.contains('|') {
        None
    } else {
        Some(Forms::of(name))
    };
    let having = forms.map_or(Servers::empty(), Forms::servers);
    if let Some(lacking) = targets.iter().find(|server| !having.contains(*server)) {
        return Lookup::UnknownCommand { having, lacking };
    }
    let first = targets.iter().next().unwrap_or(Server::Redis7_0);
    let Some(command) = forms.and_then(|forms| forms.on(first)) else {
        return Lookup::Unjudged;
    };
    // A container command (CONFIG, SCRIPT, ...) runs the subcommand its
    // first argument names; a computed one cannot be judged.
    let sub = match call.args.first() {
        Some(Expr::String(sub, span)) if command.has_subcommands(first) => {
            Some((String::from_utf8_lossy(sub).into_owned(), *span))
        }
        Some(_) if command.has_subcommands(first) => return Lookup::Unjudged,
        _ => None,
    };
    let sub_name = sub.as_ref().map(|(sub, _)| sub.as_str());
    let resolve = |server| match sub_name {
        Some(_) => commands::resolve(server, name, sub_name),
        None => forms.and_then(|forms| forms.on(server)),
    };
    let having = match sub_name {
        Some(_) => Servers::ALL.filter(|server| resolve(server).is_some()),
        None => having,
    };
    if let (Some(lacking), Some((sub, span))) = (
        targets.iter().find(|server| !having.contains(*server)),
        &sub,
    ) {
        return Lookup::UnknownSubcommand {
            command,
            sub: sub.clone(),
            span: *span,
            having,
            lacking,
        };
    }
    let effective = targets
        .iter()
        .filter_map(|server| resolve(server).map(|found| (server, found)))
        .collect();
    Lookup::Known(Known {
        command,
        effective,
        name: name.to_owned(),
        sub: sub.map(|(sub, _)| sub),
    })
}

/// How many words the server gets: the name and its arguments.
pub(super) fn words(call: &CommandCall) -> usize {
    call.args.len() + 1
}

/// Whether the call's arguments can be counted: a last argument that
/// spreads values (`unpack(t)`, `...`) may pass any number.
pub(super) fn counted(call: &CommandCall) -> bool {
    !call.args.last().is_some_and(is_multi)
}

/// Whether `call` runs where writes are refused: anywhere in a script
/// flagged `no-writes`; in a library, inside the checked callback when its
/// registration flags it so (`declared.read_only` is that flag).
pub(super) fn read_only_at(context: &Context, call: &CommandCall) -> bool {
    context.declared.read_only && context.judges(context.model.calls[call.call].function)
}

/// Where a call's keys are, from `COMMAND`'s first key, last key and step
/// for the command (or subcommand) it runs on the first targeted server
/// that has it.
pub(super) struct KeyPositions {
    /// The indexes in the call's arguments (after the command's name).
    pub(super) positions: Vec<usize>,
    /// Whether they are all its keys: a command flagged `movablekeys`
    /// (`ZUNIONSTORE`, `XREAD`, `EVAL`) finds some of its keys otherwise.
    pub(super) complete: bool,
}

/// Where `call`'s keys are; `None` for a command no table knows.
pub(super) fn key_positions(call: &CommandCall, servers: Servers) -> Option<KeyPositions> {
    let first_arg = match call.args.first() {
        Some(Expr::String(text, _)) => Some(String::from_utf8_lossy(text).into_owned()),
        _ => None,
    };
    let command = servers
        .iter()
        .chain(Servers::ALL.iter())
        .find_map(|server| commands::resolve(server, &call.name, first_arg.as_deref()))?;
    let args = call.args.len();
    // Words count the command's name (and a subcommand's container).
    let words = args + 1;
    let first = command.first_key;
    let last = match command.last_key {
        last if last < 0 => words as i32 + last,
        last => last,
    };
    let step = command.key_step.max(1);
    let range = if first <= 0 || last < first {
        0..0
    } else {
        first..last + 1
    };
    let positions = range
        .step_by(step as usize)
        .map(|word| word as usize - 1)
        .filter(|&index| index < args)
        .collect();
    let complete = !command.flags.contains(commands::flag::MOVABLEKEYS) && counted(call);
    Some(KeyPositions {
        positions,
        complete,
    })
}
