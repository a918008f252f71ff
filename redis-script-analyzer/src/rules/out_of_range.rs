//! `out_of_range`: `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
//!
//! A literal index that is not a whole number from 1 to the declared count
//! reads nil, which is no key nor argument the caller passed. Under `or`
//! (`tonumber(ARGV[3]) or 10`) a read past the count has its fallback; so
//! has a read into a local that the script tests (`local k = KEYS[5]`, then
//! `if k then ... end`: a template shared by callers with more keys and
//! fewer), and a declared variable tail has no end. Any other use of the
//! table (`#KEYS`, `KEYS[i]`, `unpack(ARGV)`) leaves it unjudged.

use std::collections::HashSet;

use super::table_uses::{self, Table};
use super::{Context, Judges, Meta};
use crate::declared::Declared;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Checker, Rule};
use crate::semantic::Given;
use crate::syntax::tree::{Block, Expr, Span, Stat};

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
    // Asked only where a read is past the count: in a library of many
    // functions, most have none.
    let tested = std::cell::OnceCell::new();
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
                && (unbounded
                    || optional
                    || index <= count as f64
                    || tested
                        .get_or_init(|| tested_reads(context))
                        .contains(&span.start));
            if !valid {
                diagnostics.push(outside(table, index, span, count, declared));
            }
        }
    }
}

/// Where the reads start that a local holds and the script tests: the
/// local's value (`local k = KEYS[5]`) is read in a condition (`if k`,
/// `while k ~= nil`, `until not k`).
fn tested_reads(context: &Context) -> HashSet<usize> {
    let model = context.model;
    let mut conditions = Vec::new();
    for function in &model.functions {
        conditions_in(function.block, &mut conditions);
    }
    let in_condition = |span: Span| {
        conditions
            .iter()
            .any(|condition: &Span| condition.start <= span.start && span.end <= condition.end)
    };
    let mut tested = HashSet::new();
    for (id, binding) in model.bindings.iter().enumerate() {
        let read = binding.given.iter().find_map(|given| match given {
            Given::Expr(expr @ Expr::Index { .. }) | Given::Nth(expr @ Expr::Index { .. }, 0) => {
                Some(expr.span())
            }
            _ => None,
        });
        let Some(read) = read else {
            continue;
        };
        if model
            .names
            .iter()
            .any(|used| used.binding == Some(id) && in_condition(used.name.span))
        {
            tested.insert(read.start);
        }
    }
    tested
}

/// The spans of the conditions of `block`'s `if`, `while` and `repeat`
/// statements, nested blocks included.
fn conditions_in(block: &Block, out: &mut Vec<Span>) {
    for stat in &block.stats {
        match stat {
            Stat::If { arms, otherwise, .. } => {
                for (cond, block) in arms {
                    out.push(cond.span());
                    conditions_in(block, out);
                }
                if let Some(block) = otherwise {
                    conditions_in(block, out);
                }
            }
            Stat::While { cond, block, .. } | Stat::Repeat { block, cond, .. } => {
                out.push(cond.span());
                conditions_in(block, out);
            }
            Stat::Do(block)
            | Stat::NumericFor { block, .. }
            | Stat::GenericFor { block, .. } => conditions_in(block, out),
            _ => {}
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
    fn a_read_the_script_tests_has_its_fallback() {
        // A template shared by callers that pass more keys and fewer.
        let tested = "local extra = KEYS[5]\nif extra then redis.call('DEL', extra) end\nreturn 1";
        assert_eq!(errors(tested, ONE_KEY_TWO_ARGS), Vec::<String>::new());
        let tested_nil = "local extra = ARGV[4] while extra ~= nil do extra = nil end return 1";
        assert_eq!(errors(tested_nil, ONE_KEY_TWO_ARGS), Vec::<String>::new());
        // Read without a test: the caller never passes it.
        let untested = "local extra = KEYS[5]\nreturn redis.call('GET', extra)";
        assert_eq!(errors(untested, ONE_KEY_TWO_ARGS).len(), 1);
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
