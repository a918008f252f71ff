//! `undeclared_key`: a command's key that does not come from KEYS.
//!
//! Redis Cluster, and every proxy that routes a script by its keys, sends
//! the script to the node that owns the slots of the keys it is given in
//! KEYS; a key the script reads from ARGV, spells as a literal, takes out
//! of a reply or builds from those lives wherever its own slot is. On one
//! server it works; on a cluster it fails with a cross-slot or "key not
//! on this node" error (or, behind a proxy, reads another node's data).
//!
//! The rule looks at each argument in a key position of a command called
//! by a literal name (the positions `COMMAND` reports for it), follows its
//! value through the semantic model, and tells apart:
//! - an element of KEYS: declared, nothing to say;
//! - text built on a KEYS element (`KEYS[1] .. ':meta'`, or made of one
//!   by a string function: `string.sub(KEYS[1], 1, 8)`), or on an ARGV
//!   element the caller passes as a namespace (`ARGV[1] .. id`): in the
//!   declared keys' slot only when that part carries their hash tag
//!   (`{user:1}:`), which is how scripts that are cluster-safe by design
//!   build their keys; said only where the user targets a cluster, as a
//!   warning;
//! - a key that is an ARGV element, a literal (`'config'`, `'job:' ..
//!   ARGV[1]`) or a reply: a warning, and an error where the user targets
//!   a cluster.
//!
//! A key the text does not settle (a loop over a computed list, a
//! parameter of a function called from several places) is not judged.

use crate::declared::Declared;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Rule, Severity};
use crate::semantic::{Environment, Value};
use crate::semantic::command::CommandCall;
use crate::syntax::tree::Expr;
use super::{Context, Judges, Meta, command_table};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

/// Where a key comes from, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Origin {
    Keys,
    /// Built from the KEYS element at this position (0: not a literal index).
    DerivedFromKeys(usize),
    /// Built on an ARGV element: a namespace the caller passes, which may
    /// carry the declared keys' hash tag.
    DerivedFromArgv,
    Reply,
    Argv,
    Literal,
}

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let (model, declared) = (context.model, context.declared);
    // A library's top level runs while it loads, where no command can be
    // called (the `library` rule says so): only its functions are judged.
    let load_time = |call: usize| {
        model.environment == Environment::Library && model.calls[call].function == 0
    };
    let calls = context.calls().filter(|&call| !load_time(call));
    for call in calls.filter_map(|call| model.command(call)) {
        let Some(keys) = command_table::key_positions(&call, declared.servers) else {
            continue;
        };
        for position in keys.positions {
            let arg = &call.args[position];
            if let Some(origin) = origin(model.value(arg))
                && let Some(diagnostic) = diagnostic(&call, arg, origin, declared)
            {
                diagnostics.push(diagnostic);
            }
        }
    }
}

/// Where `value` comes from, if the text settles it for every alternative.
fn origin(value: Value) -> Option<Origin> {
    let mut worst = None;
    for alternative in value.alternatives() {
        let origin = match alternative {
            Value::Key(_) => Origin::Keys,
            Value::Arg(_) => Origin::Argv,
            Value::Text(_) => Origin::Literal,
            Value::Reply(_) | Value::ReplyElement(..) => Origin::Reply,
            Value::Built(parts, _) => match parts.first()? {
                Value::Key(index) => Origin::DerivedFromKeys(index.unwrap_or(0)),
                derived @ Value::Derived(_) => derived_origin(derived)?,
                Value::Arg(_) => Origin::DerivedFromArgv,
                Value::Text(_) => match parts.get(1)? {
                    // `'{' .. KEYS[1] .. '}'` and the like: not settled here.
                    Value::Key(_) => return None,
                    Value::Arg(_) => Origin::Argv,
                    Value::Reply(_) | Value::ReplyElement(..) => Origin::Reply,
                    Value::Text(_) => Origin::Literal,
                    _ => return None,
                },
                Value::Reply(_) | Value::ReplyElement(..) => Origin::Reply,
                _ => return None,
            },
            derived @ Value::Derived(_) => derived_origin(derived)?,
            _ => return None,
        };
        worst = worst.max(Some(origin));
    }
    worst
}

/// Where a text a string function made comes from (`string.sub(KEYS[1],
/// 1, 8)`, `ARGV[1]:lower()`): what it is made of.
fn derived_origin(value: &Value) -> Option<Origin> {
    let Value::Derived(inner) = value else {
        return None;
    };
    Some(match &**inner {
        Value::Key(index) => Origin::DerivedFromKeys(index.unwrap_or(0)),
        Value::Arg(_) => Origin::DerivedFromArgv,
        Value::Reply(_) | Value::ReplyElement(..) => Origin::Reply,
        _ => return None,
    })
}

fn diagnostic(
    call: &CommandCall,
    arg: &Expr,
    origin: Origin,
    declared: &Declared,
) -> Option<Diagnostic> {
    let command = call.name.to_ascii_uppercase();
    let (severity, message, note) = match origin {
        Origin::Keys => return None,
        Origin::DerivedFromKeys(_) | Origin::DerivedFromArgv if !declared.cluster => return None,
        Origin::DerivedFromArgv => (
            Severity::Warning,
            format!(
                "this key of `{command}` is built on an ARGV value, so on a cluster it is in the \
                 declared keys' slot only if that value carries their hash tag"
            ),
            "pass the key in KEYS, or build it from a KEYS element with a hash tag".to_owned(),
        ),
        Origin::DerivedFromKeys(index) => {
            let element = match index {
                0 => "a KEYS element".to_owned(),
                index => format!("KEYS[{index}]"),
            };
            (
                Severity::Warning,
                format!(
                    "this key of `{command}` is built from {element}, so on a cluster it is in \
                     that element's slot only if the element carries a hash tag"
                ),
                "give the KEYS element a hash tag (`{order:42}:lines`) so every key built from it \
                 shares its slot, or pass this key in KEYS"
                    .to_owned(),
            )
        }
        Origin::Argv | Origin::Literal | Origin::Reply => {
            let source = match origin {
                Origin::Argv => "comes from ARGV",
                Origin::Literal => "is a literal",
                _ => "comes from a reply",
            };
            let severity = if declared.cluster {
                Severity::Error
            } else {
                Severity::Warning
            };
            (
                severity,
                format!(
                    "this key of `{command}` {source}, not from KEYS: Redis Cluster and proxies \
                     route a script by its KEYS, so there the key may live on another node"
                ),
                format!(
                    "pass the key in KEYS, or build it from a KEYS element with a hash tag; if \
                     the script runs on one server only, {}",
                    Rule::UndeclaredKey.hint(declared.checker)
                ),
            )
        }
    };
    let mut diagnostic =
        Diagnostic::error(Rule::UndeclaredKey, Target::File, arg.span(), message).with_note(note);
    diagnostic.severity = severity;
    Some(diagnostic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(source: &str, cluster: bool) -> Vec<(Severity, String)> {
        let declared = Declared::default().cluster(cluster);
        crate::rules::test_support::run_rule(source, &declared, check)
            .into_iter()
            .map(|d| (d.severity, d.message))
            .collect()
    }

    #[test]
    fn a_key_made_of_a_keys_element_by_the_string_library_is_built_from_it() {
        for script in [
            "local base = string.sub(KEYS[1], 1, 8) redis.call('DEL', base .. ':x')",
            "local k = string.sub(KEYS[1], 1, 8) return redis.call('LPUSH', k, ARGV[1])",
            "return redis.call('DEL', KEYS[1]:lower())",
        ] {
            let found = findings(script, true);
            assert_eq!(found.len(), 1, "{script}: {found:?}");
            assert!(found[0].1.contains("built from KEYS[1]"), "{script}: {found:?}");
            assert_eq!(findings(script, false), Vec::new(), "{script}");
        }
        // Made of an ARGV element: built on a namespace the caller passes,
        // as `ARGV[1] .. ':x'` is.
        let found = findings("return redis.call('GET', string.upper(ARGV[1]))", true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Severity::Warning, "{found:?}");
        // tostring of a KEYS element is that element.
        assert_eq!(findings("return redis.call('GET', tostring(KEYS[1]))", true), Vec::new());
    }

    #[test]
    fn keys_from_keys_are_declared() {
        for source in [
            "return redis.call('GET', KEYS[1])",
            "local key = KEYS[1] return redis.call('GET', key)",
            "for _, key in ipairs(KEYS) do redis.call('DEL', key) end",
            "local function get(k) return redis.call('GET', k) end return get(KEYS[1])",
            "local keys = {KEYS[1], KEYS[2]} return redis.call('GET', keys[2])",
            "local k = {main = KEYS[1]} return redis.call('GET', k.main)",
            "return redis.call('MSET', KEYS[1], ARGV[1], KEYS[2], ARGV[2])",
            // Values in non-key positions are no keys.
            "return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])",
            "return redis.call('PUBLISH', ARGV[1], ARGV[2])",
            // A table written through another name; `unpack` from its second element.
            "local t = {ARGV[1]} local u = t u[1] = KEYS[1] return redis.call('GET', t[1])",
            "local t = {ARGV[1], KEYS[1]} return redis.call('GET', unpack(t, 2))",
            // Held in a table and walked with ipairs.
            "local keys = {KEYS[1], KEYS[2]} for _, key in ipairs(keys) do redis.call('DEL', key) end",
            // Not settled: a parameter of a function that escapes.
            "local function get(k) return redis.call('GET', k) end return pcall(get, ARGV[1])",
        ] {
            assert_eq!(findings(source, true), [], "{source}");
        }
    }

    #[test]
    fn keys_from_elsewhere_are_warnings_and_errors_on_a_cluster() {
        let cases = [
            ("return redis.call('GET', ARGV[1])", "comes from ARGV"),
            ("return redis.call('GET', 'config')", "is a literal"),
            (
                "local id = ARGV[1] return redis.call('HGET', 'job:' .. id, 'x')",
                "comes from ARGV",
            ),
            (
                "local next = redis.call('LPOP', KEYS[1]) return redis.call('GET', next)",
                "comes from a reply",
            ),
            (
                "local a, b = unpack(ARGV) return redis.call('DEL', KEYS[1], b)",
                "comes from ARGV",
            ),
            (
                "local rcall = redis.call return rcall('MSET', KEYS[1], 1, ARGV[1], 2)",
                "comes from ARGV",
            ),
            (
                "local function id() return ARGV[1] end return redis.call('GET', 'job:' .. id())",
                "comes from ARGV",
            ),
            (
                "local ids = redis.call('SMEMBERS', KEYS[1]) return redis.call('GET', 'job:' .. ids[1])",
                "comes from a reply",
            ),
        ];
        for (source, words) in cases {
            let single = findings(source, false);
            assert_eq!(single.len(), 1, "{source}: {single:?}");
            assert_eq!(single[0].0, Severity::Warning, "{source}");
            assert!(single[0].1.contains(words), "{source}: {single:?}");
            let cluster = findings(source, true);
            assert_eq!(cluster.len(), 1, "{source}: {cluster:?}");
            assert_eq!(cluster[0].0, Severity::Error, "{source}");
        }
    }

    #[test]
    fn keys_built_on_keys_or_a_passed_namespace_are_said_only_on_a_cluster() {
        let cases = [
            (
                "local base = KEYS[1] return redis.call('GET', base .. ':meta')",
                "built from KEYS[1]",
            ),
            (
                "local prefix = ARGV[1] return redis.call('GET', prefix .. ARGV[2])",
                "built on an ARGV value",
            ),
            (
                "local function prefix() return ARGV[1] end return redis.call('GET', prefix() .. ':x')",
                "built on an ARGV value",
            ),
        ];
        for (source, words) in cases {
            assert_eq!(findings(source, false), [], "{source}");
            let cluster = findings(source, true);
            assert_eq!(cluster.len(), 1, "{source}");
            assert_eq!(cluster[0].0, Severity::Warning, "{source}");
            assert!(
                cluster[0].1.contains(words) && cluster[0].1.contains("hash tag"),
                "{cluster:?}"
            );
        }
    }
}
