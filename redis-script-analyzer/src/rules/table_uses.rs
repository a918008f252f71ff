//! What the rules on KEYS and ARGV share: how the script uses each table
//! ([`uses`]), from the model's uses of names. The tables are the globals
//! in a script, the checked callback's first two parameters in a library.

use std::collections::HashSet;

use super::Context;
use crate::semantic::{Access, Builtin, Environment, NameUse};
use crate::syntax::tree::{Expr, Span};

/// `KEYS` or `ARGV`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Table {
    Keys,
    Argv,
}

impl Table {
    /// The global's name.
    pub(super) const fn name(self) -> &'static str {
        match self {
            Table::Keys => "KEYS",
            Table::Argv => "ARGV",
        }
    }
}

/// How a script uses `KEYS` or `ARGV`.
#[derive(Default)]
pub(super) struct TableUse {
    /// Reads by literal index: `KEYS[1]`, spanning the indexing, and
    /// whether the read is an optional one (under `or`, as in
    /// `tonumber(ARGV[2]) or 10`).
    pub(super) literal: Vec<(f64, Span, bool)>,
    /// The whole positive indexes read, for [`TableUse::reads`] in constant time.
    positions: HashSet<usize>,
    /// Any other use (`KEYS[i]`, `#KEYS`, `unpack(ARGV)`, passing it on)
    /// switches the checks off for the table.
    pub(super) dynamic: bool,
}

impl TableUse {
    /// The read `table[key]`, spanning `whole`; `optional` under `or`.
    fn record(&mut self, key: &Expr, whole: Span, optional: bool) {
        match key {
            Expr::Number(value, _) => {
                self.literal.push((*value, whole, optional));
                if value.fract() == 0.0 && *value >= 1.0 {
                    self.positions.insert(*value as usize);
                }
            }
            _ => self.dynamic = true,
        }
    }

    /// Whether `table[position]` is read by a literal index.
    pub(super) fn reads(&self, position: usize) -> bool {
        self.positions.contains(&position)
    }
}

/// How a script uses `KEYS` and `ARGV`.
#[derive(Default)]
pub(super) struct Uses {
    pub(super) keys: TableUse,
    pub(super) argv: TableUse,
}

impl Uses {
    fn of(&mut self, table: Table) -> &mut TableUse {
        match table {
            Table::Keys => &mut self.keys,
            Table::Argv => &mut self.argv,
        }
    }
}

/// How the code judged uses KEYS and ARGV: one pass over the uses of names.
pub(super) fn uses(context: &Context) -> Uses {
    let mut uses = Uses::default();
    for used in context.names() {
        let Some(table) = table(context, used) else {
            continue;
        };
        match used.access {
            Access::Read => uses.of(table).dynamic = true,
            Access::Index { key, whole, .. } => uses.of(table).record(key, whole, used.optional),
            // Writing a callback's parameter's element goes through its
            // value; writing the global's is allowed and reads nothing.
            // A callback's parameter written (an element, or the whole
            // table replaced): its reads are no longer the keys' or
            // arguments' indexes. Writing the global's element is allowed
            // and reads nothing.
            Access::AssignIndex | Access::Assign if used.binding.is_some() => {
                uses.of(table).dynamic = true
            }
            Access::AssignIndex | Access::Assign | Access::FunctionStatement { .. } => {}
        }
    }
    uses
}

/// The table a use of a name stands for: the global in a script, a
/// callback's parameter in a library.
fn table(context: &Context, used: &NameUse) -> Option<Table> {
    match used.binding {
        // The checked callback's own parameters, not another callback's.
        Some(binding) if !is_callback_parameter(context, binding) => None,
        Some(binding) => match context.model.role(binding)? {
            Builtin::Keys => Some(Table::Keys),
            Builtin::Argv => Some(Table::Argv),
            _ => None,
        },
        None if context.model.environment == Environment::Script => match used.name.text.as_str() {
            "KEYS" => Some(Table::Keys),
            "ARGV" => Some(Table::Argv),
            _ => None,
        },
        None => None,
    }
}

/// Whether `binding` is one of the checked callback's first two parameters.
fn is_callback_parameter(context: &Context, binding: crate::semantic::BindingId) -> bool {
    context.callback.is_some_and(|callback| {
        context.model.functions[callback]
            .params
            .iter()
            .take(2)
            .any(|param| *param == binding)
    })
}
