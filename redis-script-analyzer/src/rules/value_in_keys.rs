//! `value_in_keys`: a KEYS element a command takes as a value, never as a
//! key: a TTL, a count, a token passed in KEYS where ARGV was meant.
//!
//! Redis Cluster sends a script to the node that owns the slot of its
//! KEYS, and refuses a script whose KEYS span several slots (CROSSSLOT);
//! proxies route by them too. A value in KEYS is hashed like a key: on one
//! server the script works, on a cluster it fails, or runs on a node
//! chosen by the value. The rule looks at the commands called by a
//! literal name whose key positions `COMMAND` gives in full (not
//! `movablekeys` commands, not calls whose last argument spreads values):
//! a `KEYS[n]` in a position that is not a key, when no command anywhere in
//! the judged code takes that `KEYS[n]` as a key, is reported. It says
//! nothing when the script uses KEYS other than by literal index (a loop,
//! `unpack(KEYS)`) or passes a KEYS element to a command it names at run
//! time.

use std::collections::{BTreeMap, HashSet};

use super::{Context, Judges, Meta, command_table};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Rule, Severity};
use crate::semantic::{Builtin, Value};
use crate::syntax::tree::Span;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    if uses_keys_dynamically(context) {
        return;
    }
    let model = context.model;
    // Each KEYS element taken as a key, and the first place each is taken
    // as a value: the command, the argument's span.
    let mut as_key: HashSet<usize> = HashSet::new();
    let mut as_value: BTreeMap<usize, (String, Span)> = BTreeMap::new();
    for call in context.calls() {
        let Some(command) = model.command(call) else {
            // A command named at run time may take anything as a key.
            if is_command_call(context, call) {
                for arg in model.calls[call].args {
                    match model.value(arg) {
                        Value::Key(Some(index)) => {
                            as_key.insert(index);
                        }
                        Value::Key(None) => return,
                        _ => {}
                    }
                }
            }
            continue;
        };
        let keys = command_table::key_positions(&command, context.declared.servers);
        for (position, arg) in command.args.iter().enumerate() {
            let value = model.value(arg);
            let key_position = keys
                .as_ref()
                .is_none_or(|keys| keys.positions.contains(&position));
            for alternative in value.alternatives() {
                match alternative {
                    Value::Key(None) => return,
                    Value::Key(Some(index)) if key_position => {
                        as_key.insert(*index);
                    }
                    Value::Key(Some(index)) => {
                        if keys.as_ref().is_some_and(|keys| keys.complete) {
                            as_value
                                .entry(*index)
                                .or_insert_with(|| (command.name.clone(), arg.span()));
                        } else {
                            as_key.insert(*index);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    for (index, (command, span)) in as_value {
        if as_key.contains(&index) {
            continue;
        }
        let severity = if context.declared.cluster {
            Severity::Error
        } else {
            Severity::Warning
        };
        let mut diagnostic = Diagnostic::error(
            Rule::ValueInKeys,
            Target::File,
            span,
            format!(
                "KEYS[{index}] is a value of `{}` here, and no command takes it as a key: \
                 Redis Cluster and proxies route a script by every element of KEYS, so a \
                 value there is hashed like a key",
                command.to_ascii_uppercase()
            ),
        )
        .with_note(format!(
            "pass it in ARGV, and KEYS only the keys the script touches; if the script runs \
             on one server only, {}",
            Rule::ValueInKeys.hint(context.declared.checker)
        ));
        diagnostic.severity = severity;
        diagnostics.push(diagnostic);
    }
}

/// Whether the call is `redis.call`/`redis.pcall` with a name not given as a literal.
fn is_command_call(context: &Context, call: usize) -> bool {
    matches!(
        context.model.value(context.model.calls[call].func),
        Value::Builtin(Builtin::Call | Builtin::PCall | Builtin::Pcall)
    )
}

/// Whether the judged code uses KEYS other than by literal index: a loop
/// over it, `unpack(KEYS)`, `#KEYS`, passing it on.
fn uses_keys_dynamically(context: &Context) -> bool {
    let uses = super::table_uses::uses(context);
    uses.keys.dynamic
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::Declared;

    fn findings(source: &str, cluster: bool) -> Vec<(Severity, String)> {
        let declared = Declared::default().cluster(cluster);
        crate::rules::test_support::run_rule(source, &declared, check)
            .into_iter()
            .map(|d| (d.severity, d.message))
            .collect()
    }

    #[test]
    fn a_value_passed_in_keys_is_found() {
        for (source, words) in [
            // A TTL and a token passed as KEYS.
            (
                "redis.call('SET', KEYS[1], KEYS[3], 'EX', KEYS[2]) return 1",
                "KEYS[2] is a value of `SET`",
            ),
            (
                "local ttl = KEYS[2] return redis.call('EXPIRE', KEYS[1], ttl)",
                "KEYS[2] is a value of `EXPIRE`",
            ),
        ] {
            let single = findings(source, false);
            assert!(!single.is_empty(), "{source}");
            assert!(single.iter().all(|(severity, _)| *severity == Severity::Warning));
            assert!(single[0].1.starts_with(words), "{source}: {single:?}");
            assert!(findings(source, true).iter().all(|(s, _)| *s == Severity::Error));
        }
    }

    #[test]
    fn keys_taken_as_keys_somewhere_are_not() {
        for source in [
            // Also a key of another command: a value compared or stored.
            "redis.call('SET', KEYS[1], KEYS[2]) return redis.call('GET', KEYS[2])",
            // RPOPLPUSH's and LMOVE's keys, SORT ... STORE (movablekeys): not judged.
            "return redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')",
            "return redis.call('SORT', KEYS[1], 'STORE', KEYS[2])",
            // KEYS used as a whole, or a command named at run time.
            "for _, key in ipairs(KEYS) do redis.call('DEL', key) end \
             return redis.call('SET', KEYS[1], KEYS[2])",
            "redis.call(ARGV[1], KEYS[2]) return redis.call('SET', KEYS[1], KEYS[2])",
            // A value from ARGV, as it should be.
            "return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])",
        ] {
            assert_eq!(findings(source, true), [], "{source}");
        }
    }
}
