//! `out_of_range`: `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
//!
//! A literal index that is not a whole number from 1 to the declared count
//! reads nil, which is no key nor argument the caller passed. Under `or`
//! (`tonumber(ARGV[3]) or 10`) a read past the count has its fallback, and
//! a declared variable tail has no end. Any other use of the table (`#KEYS`,
//! `KEYS[i]`, `unpack(ARGV)`) leaves it unjudged.

use super::table_uses::{self, Table};
use super::{Context, Judges, Meta};
use crate::declared::Declared;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Checker, Rule};
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    if !context.judges_any() {
        return;
    }
    let declared = context.declared;
    let uses = table_uses::uses(context);
    let tables = [
        (Table::Keys, &uses.keys, declared.keys, declared.variadic_keys),
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

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors, findings};
    use crate::declared::Declared;
    use crate::diagnostic::Target;

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
}
