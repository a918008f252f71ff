//! The KEYS/ARGV arity check: literal `KEYS[n]` / `ARGV[n]` against the
//! declaration; and declared values the script never reads, when it reads
//! the table only by literal index ([`Rule::Unread`]).

use super::Declared;
use crate::diagnostic::{Checker, Diagnostic, Rule, Severity, Target};
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
    /// Reads by literal index: `KEYS[1]`, and whether the read is an
    /// optional one (under `or`, as in `tonumber(ARGV[2]) or 10`).
    literal: Vec<(f64, Span, bool)>,
    /// Any other use (`KEYS[i]`, `#KEYS`, `unpack(ARGV)`, passing it on)
    /// switches the arity checks off for the table.
    pub(super) dynamic: bool,
}

impl TableUse {
    /// The read `table[key]`, spanning `whole`; `optional` under `or`.
    pub(super) fn record(&mut self, key: &Expr, whole: Span, optional: bool) {
        match key {
            Expr::Number(value, _) => self.literal.push((*value, whole, optional)),
            _ => self.dynamic = true,
        }
    }

    fn reads(&self, position: usize) -> bool {
        self.literal
            .iter()
            .any(|&(index, ..)| index == position as f64)
    }
}

/// How a script uses `KEYS` and `ARGV`.
#[derive(Default)]
pub(super) struct Uses {
    keys: TableUse,
    argv: TableUse,
}

impl Uses {
    /// The uses of `table`.
    pub(super) fn of(&mut self, table: Table) -> &mut TableUse {
        match table {
            Table::Keys => &mut self.keys,
            Table::Argv => &mut self.argv,
        }
    }
}

/// Checks the literal indexes against the declaration, and warns about
/// declared values the script never reads.
pub(super) fn check(uses: &Uses, declared: &Declared, diagnostics: &mut Vec<Diagnostic>) {
    let tables = [
        (
            Table::Keys,
            &uses.keys,
            declared.keys,
            declared.variadic_keys,
        ),
        (Table::Argv, &uses.argv, declared.args, declared.variadic),
    ];
    for (table, uses, count, unbounded) in tables {
        if uses.dynamic {
            continue;
        }
        for &(index, span, optional) in &uses.literal {
            let valid = index.fract() == 0.0
                && index >= 1.0
                && (unbounded || optional || index <= count as f64);
            if !valid {
                diagnostics.push(outside(table, index, span, count, declared));
            }
        }
        // Allowed, the warnings would all be dropped: not building them
        // keeps a huge key count (`--keys`, a file name) from costing
        // memory in proportion.
        if unbounded || declared.allowed.allows(Rule::Unread) {
            continue;
        }
        for position in (1..=count).filter(|&position| !uses.reads(position)) {
            diagnostics.push(unread(table, position, declared));
        }
    }
}

/// `table[index]` past the `count` values the declaration gives it.
fn outside(table: Table, index: f64, span: Span, count: usize, declared: &Declared) -> Diagnostic {
    let keys = declared.keys;
    let (target, values, note) = match (table, declared.checker) {
        (Table::Keys, Checker::Attribute) => (
            Target::Keys,
            "key(s)",
            format!(
                "KEYS has indexes 1 to {count} (`keys = {count}`); raise `keys`, \
                 or read the value from ARGV"
            ),
        ),
        (Table::Argv, Checker::Attribute) => (
            Target::Params,
            "argument(s)",
            format!(
                "ARGV has indexes 1 to {count}: the parameters after the {keys} key(s); \
                 add a parameter, or mark the last one #[variadic]"
            ),
        ),
        (Table::Keys, Checker::CommandLine) => (
            Target::Keys,
            "key(s)",
            format!(
                "KEYS has indexes 1 to {count}; declare more keys (`---@key` lines, the \
                 file name's `-N`, or `keys` in redis-lua.toml), or read the value from ARGV"
            ),
        ),
        (Table::Argv, Checker::CommandLine) => (
            Target::Params,
            "argument(s)",
            format!(
                "ARGV has indexes 1 to {count}; declare more `---@param` lines, or a \
                 variable tail `---@param ... string`"
            ),
        ),
    };
    let whose = match declared.checker {
        Checker::Attribute => "the binding declares",
        Checker::CommandLine => "the script declares",
    };
    let message = format!(
        "`{}[{index}]` is outside the {count} {values} {whose}",
        table.name()
    );
    Diagnostic::error(Rule::OutOfRange, target, span, message).with_note(note)
}

/// The declared value `table[position]`, which the script never reads.
fn unread(table: Table, position: usize, declared: &Declared) -> Diagnostic {
    let target = match table {
        Table::Keys => Target::Key(position - 1),
        Table::Argv => Target::Arg(position - 1),
    };
    let message = target
        .unread_message("the script", "this parameter")
        .expect("a parameter's target");
    Diagnostic {
        severity: Severity::Warning,
        message,
        span: Span::default(),
        note: Some(format!(
            "if the value is passed on purpose (e.g. a key for cluster slot routing), {}",
            Rule::Unread.hint(declared.checker)
        )),
        target,
        rule: Rule::Unread,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{ONE_KEY_TWO_ARGS, errors, findings};
    use super::*;

    #[test]
    fn literal_indexes_are_checked_against_the_declaration() {
        let found = errors(
            "return {KEYS[2], ARGV[3], ARGV[0], KEYS[1.5]}",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("`KEYS[2]`"), "{found:?}");
        let variadic = Declared {
            variadic: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return {KEYS[1], ARGV[9]}", variadic),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_variadic_key_list_makes_the_fixed_keys_a_lower_bound() {
        let listed = Declared {
            variadic_keys: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors(
                "return {KEYS[1], KEYS[2], KEYS[40], ARGV[2]}",
                listed.clone()
            ),
            Vec::<String>::new()
        );
        // Still whole and positive, and ARGV keeps its own bound.
        let found = errors("return {KEYS[0], KEYS[1.5], ARGV[3]}", listed);
        assert_eq!(found.len(), 3, "{found:?}");
    }

    #[test]
    fn dynamic_use_switches_the_arity_check_off() {
        for script in [
            "return KEYS[tonumber(ARGV[1])]",
            "return #KEYS + #ARGV + KEYS[5] + ARGV[7]",
            "return unpack(KEYS), ARGV[#ARGV], KEYS[3], ARGV[3]",
        ] {
            let found = findings(script, ONE_KEY_TWO_ARGS);
            assert!(
                !found
                    .iter()
                    .any(|(_, target, _)| matches!(target, Target::Keys | Target::Params)),
                "{script}: {found:?}"
            );
        }
    }

    #[test]
    fn no_unread_warning_is_built_when_unread_is_allowed() {
        // Before the allowed rules are filtered: a count in the millions
        // would otherwise build a warning per key.
        let declared = Declared {
            keys: 3,
            allowed: crate::Allowed::NONE.with(Rule::Unread),
            ..ONE_KEY_TWO_ARGS
        };
        let mut diagnostics = Vec::new();
        check(&Uses::default(), &declared, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        check(&Uses::default(), &ONE_KEY_TWO_ARGS, &mut diagnostics);
        assert_eq!(diagnostics.len(), 3);
    }

    #[test]
    fn unread_values_warn_only_when_the_table_is_read_by_literal_index() {
        let found = findings(
            "return redis.call('SET', KEYS[1], ARGV[1])",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(
            found,
            [(Severity::Warning, Target::Arg(1), found[0].2.clone())]
        );
        assert!(
            findings(
                "return redis.call('SET', KEYS[1], unpack(ARGV))",
                ONE_KEY_TWO_ARGS
            )
            .is_empty()
        );
    }
}
