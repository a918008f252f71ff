//! `unread`: a declared key or argument the script never reads.
//!
//! Said only when the script reads the table by literal indexes alone:
//! any other use (`#KEYS`, `KEYS[i]`, `unpack(ARGV)`) may read any
//! element. A variable tail has no last element to miss.

use super::table_uses::{self, Table};
use super::{Context, Judges, Meta};
use crate::declared::Declared;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Rule, Severity};
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let declared = context.declared;
    // Allowed, the warnings would all be dropped: not building them keeps
    // a huge key count (`--keys`, a file name) from costing memory in
    // proportion.
    if !context.judges_any() || declared.allowed.allows(Rule::Unread) {
        return;
    }
    let uses = table_uses::uses(context);
    let tables = [
        (Table::Keys, &uses.keys, declared.keys, declared.variadic_keys),
        (Table::Argv, &uses.argv, declared.args, declared.variadic),
    ];
    for (table, uses, count, unbounded) in tables {
        if uses.dynamic || unbounded {
            continue;
        }
        for position in (1..=count).filter(|&position| !uses.reads(position)) {
            diagnostics.push(unread(table, position, declared));
        }
    }
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
        fix: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, findings, run_rule};
    use crate::semantic::{Environment, Model};
    use crate::syntax::parser::parse;

    /// The unread warnings on `source`, by this rule alone.
    fn unread_on(source: &str, declared: &Declared) -> Vec<Diagnostic> {
        run_rule(source, declared, check)
    }

    #[test]
    fn no_unread_warning_is_built_when_unread_is_allowed() {
        // Before the allowed rules are filtered: a count in the millions
        // would otherwise build a warning per key.
        let declared = Declared {
            keys: 3,
            allowed: crate::diagnostic::Allowed::NONE.with(Rule::Unread),
            ..ONE_KEY_TWO_ARGS
        };
        assert!(unread_on("return 1", &declared).is_empty());
        assert_eq!(unread_on("return 1", &ONE_KEY_TWO_ARGS).len(), 3);
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

    #[test]
    fn many_declared_values_read_by_index_cost_one_lookup_each() {
        // Every position read: no warning, each found in the set of reads
        // (not by scanning the reads for each position).
        let count = 2000;
        let reads: Vec<String> = (1..=count).map(|i| format!("KEYS[{i}]")).collect();
        let source = format!("return {{{}}}", reads.join(", "));
        let declared = Declared {
            keys: count,
            args: 0,
            ..ONE_KEY_TWO_ARGS
        };
        assert!(unread_on(&source, &declared).is_empty());
        let uses = {
            let chunk = parse(&source).unwrap();
            let model = Model::build(&chunk, Environment::Script);
            let context = Context {
                source: source.as_bytes(),
                model: &model,
                declared: &declared,
                callback: None,
            };
            table_uses::uses(&context)
        };
        assert!((1..=count).all(|position| uses.keys.reads(position)));
        assert!(!uses.keys.reads(count + 1));
    }
}
