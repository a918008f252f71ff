//! `nil_comparison`: a command's reply compared with `nil`.
//!
//! Redis's nil reply (GET of a missing key, HGET of a missing field, LPOP
//! of an empty list, a missing field among HMGET's) arrives in Lua as
//! `false`, never as `nil`: so after `local v = redis.call('GET', KEYS[1])`,
//! `if v == nil then` never takes its branch and `v ~= nil` always holds.
//! The rule flags a comparison with `nil` of a value that can only be such
//! a reply ([`replies::may_reply_nil`]: a command whose reply schema has a
//! null its arguments do not rule out) or such an element
//! ([`replies::nil_able_elements`]: one of `MGET`'s, `HMGET`'s,
//! `ZMSCORE`'s or `GEOPOS`'s, one per name), followed through locals,
//! parameters, `unpack` and `pcall` by the semantic model.
//!
//! Not after `redis.setresp(3)` anywhere in the file: replies then reach
//! Lua in RESP3, where a null is `nil`.
//!
//! The fix tests the value as its note says, with the meaning the
//! comparison was written for: `v == nil` becomes `not v` (a boolean, as
//! the comparison was), `v ~= nil` becomes `v` where only its truth counts
//! (the whole condition of an `if`, `while` or `until`) and `v ~= false`
//! elsewhere, where its value may be kept.

use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::fix::edit::{Edit, Fix};
use crate::replies;
use crate::semantic::{Model, NilComparison, Value};
use crate::syntax::tree::{Expr, Span};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let model = context.model;
    let judged = context.nil_comparisons();
    if judged.is_empty() || model.may_use_resp3() {
        return;
    }
    for comparison in judged {
        if let Some((command, element)) = nil_reply(model, model.value(comparison.subject)) {
            diagnostics.push(
                diagnostic(comparison, &command, element)
                    .with_fix(test_instead(context.source, comparison)),
            );
        }
    }
}

/// The command whose nil reply (or nil element, `true`) `value` can only
/// be; `None` if it may be anything else.
fn nil_reply(model: &Model, value: Value) -> Option<(String, bool)> {
    let mut found = None;
    for alternative in value.alternatives() {
        let (call, element) = match alternative {
            Value::Reply(call) => (*call, None),
            // Only an element the reply has: past its end, Lua reads nil.
            Value::ReplyElement(call, Some(index)) => (*call, Some(*index)),
            _ => return None,
        };
        let command = model.command(call)?;
        let args = replies::args_of(command.args);
        let nil_able = match element {
            Some(index) => replies::nil_able_elements(&command.name, &args)
                .is_some_and(|elements| index < elements),
            None => replies::may_reply_nil(&command.name, &args),
        };
        if !nil_able {
            return None;
        }
        found.get_or_insert((command.name, element.is_some()));
    }
    found
}

fn diagnostic(comparison: &NilComparison, command: &str, element: bool) -> Diagnostic {
    let command = command.to_ascii_uppercase();
    let what = if element {
        "an element of the reply"
    } else {
        "the reply"
    };
    let subject = unparen(comparison.subject);
    let (subject, value) = match (subject, written(subject)) {
        (Expr::Name(_), Some(text)) => (format!("`{text}` holds {what}"), text),
        (_, Some(text)) => (format!("`{text}` is {what}"), text),
        (_, None) => (format!("this compares {what}"), "reply".to_owned()),
    };
    let (verdict, fix) = if comparison.equal {
        (
            "never true",
            format!("test for the nil reply with `if not {value} then` (or `{value} == false`)"),
        )
    } else {
        (
            "always true",
            format!("test for a value with `if {value} then` (or `{value} ~= false`)"),
        )
    };
    Diagnostic::error(
        Rule::NilComparison,
        Target::File,
        comparison.span,
        format!(
            "{subject} of `{command}`, whose nil arrives in Lua as `false`: \
             the comparison with `nil` is {verdict}"
        ),
    )
    .with_note(fix)
}

/// The comparison replaced by a test of the value's truth (see the module
/// docs); `None` when a comment lies between its operands, which the edit
/// would delete.
fn test_instead(source: &[u8], comparison: &NilComparison) -> Option<Fix> {
    let subject = comparison.subject.span();
    let (nil, whole) = (comparison.nil, comparison.span);
    let value = written(unparen(comparison.subject)).unwrap_or_else(|| "...".to_owned());
    if !comparison.equal && !comparison.condition {
        return Some(Fix::certain(
            format!("compare `{value}` with `false`"),
            vec![Edit::replace(nil, "false")],
        ));
    }
    // The operator and `nil`, with the blanks between: what the edit removes.
    let subject_first = subject.end <= nil.start;
    let (removed, between) = if subject_first {
        (Span::new(subject.end, whole.end), Span::new(subject.end, nil.start))
    } else {
        (Span::new(whole.start, subject.start), Span::new(nil.end, subject.start))
    };
    let operator: &[u8] = if comparison.equal { b"==" } else { b"~=" };
    if source.get(between.start..between.end)?.trim_ascii() != operator {
        return None;
    }
    if !comparison.equal {
        return Some(Fix::certain(
            format!("test `{value}` itself"),
            vec![Edit::delete(removed)],
        ));
    }
    // A comparison's operand binds tighter than `not` but for an operator
    // (which a reply never is): wrapped then, to keep the meaning.
    let primary = matches!(
        comparison.subject,
        Expr::Name(_) | Expr::Index { .. } | Expr::Call { .. } | Expr::Method { .. } | Expr::Paren(..)
    );
    let (open, close) = if primary { ("not ", "") } else { ("not (", ")") };
    let edits = if subject_first {
        vec![Edit::insert(subject.start, open), Edit::replace(removed, close)]
    } else {
        let mut edits = vec![Edit::replace(removed, open)];
        if !primary {
            edits.push(Edit::insert(subject.end, close));
        }
        edits
    };
    Some(Fix::certain(format!("test with `not {value}`"), edits))
}

/// How the script writes a name, a field or an element by a literal
/// index (`v`, `cache.v`, `vals[2]`), for a note to quote; `None` for other
/// expressions.
fn written(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(name) => Some(name.text.clone()),
        Expr::Index { obj, key, dot, .. } => {
            let obj = written(obj)?;
            match (dot, &**key) {
                (Some(field), _) => Some(format!("{obj}.{}", field.text)),
                (None, Expr::Number(index, _)) if index.fract() == 0.0 => {
                    Some(format!("{obj}[{index}]"))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn unparen(mut expr: &Expr) -> &Expr {
    while let Expr::Paren(inner, _) = expr {
        expr = inner;
    }
    expr
}

#[cfg(test)]
mod tests {
    use crate::declared::Declared;

    fn messages(source: &str) -> Vec<String> {
        crate::rules::test_support::run_rule(source, &Declared::default(), super::check)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_reply_compared_with_nil_is_flagged() {
        let found = messages(
            "local v = redis.call('GET', KEYS[1])\nif v == nil then return 0 end\nreturn v",
        );
        assert_eq!(
            found,
            [
                "`v` holds the reply of `GET`, whose nil arrives in Lua as `false`: \
              the comparison with `nil` is never true"
            ]
        );
        let found = messages("local v = redis.call('HGET', KEYS[1], 'f')\nreturn nil ~= (v)");
        assert_eq!(found.len(), 1);
        assert!(found[0].ends_with("is always true"), "{}", found[0]);
        let found = messages("if redis.call('LPOP', KEYS[1]) == nil then return 1 end");
        assert!(
            found[0].starts_with("this compares the reply of `LPOP`"),
            "{found:?}"
        );
        // Inside a function, in a nested condition.
        let found = messages(
            "local v = redis.call('GET', KEYS[1])\n\
             local function f() return v == nil and 1 or 2 end\nreturn f()",
        );
        assert_eq!(found.len(), 1);
        // RESP2 said out loud keeps nil `false`.
        let found = messages(
            "redis.setresp(2) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
        );
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn the_value_is_followed_through_the_script() {
        let flagged = [
            // Another local of the same name elsewhere does not hide it.
            "local function a() local queue = redis.call('HGET', KEYS[1], 'q') \
             if queue == nil then return 0 end return queue end \
             local function b() local queue = ARGV[1] return queue end return a() .. b()",
            // Out of `unpack` of a reply whose elements may be nil.
            "local state, owner = unpack(redis.call('HMGET', KEYS[1], 'state', 'owner')) \
             if owner == nil then return 0 end return state",
            // An element by index.
            "local values = redis.call('MGET', KEYS[1], KEYS[2]) if values[2] == nil then return 0 end return 1",
            // Through an alias of redis.call, and under pcall.
            "local rcall = redis.call local v = rcall('GET', KEYS[1]) if v == nil then return 0 end return v",
            "local ok, v = pcall(redis.call, 'GET', KEYS[1]) if v == nil then return 0 end return v",
            // A local function's return, and a parameter every call fills with the reply.
            "local function get(k) return redis.call('GET', k) end \
             local v = get(KEYS[1]) if v == nil then return 0 end return v",
            "local function missing(v) return v == nil end \
             return missing(redis.call('GET', KEYS[1]))",
            // Assigned again, the reply each time.
            "local v = redis.call('GET', KEYS[1]) if ARGV[1] then v = redis.call('LPOP', KEYS[1]) end \
             if v == nil then return 0 end return v",
        ];
        for source in flagged {
            assert_eq!(messages(source).len(), 1, "{source}");
        }
    }

    #[test]
    fn values_that_may_not_be_the_reply_are_not() {
        let clean = [
            // No nil reply.
            "local v = redis.call('INCR', KEYS[1]) if v == nil then return 0 end return v",
            // SET replies nil only with NX, XX or GET.
            "local v = redis.call('SET', KEYS[1], 'x') if v == nil then return 0 end return 1",
            // A table lookup is nil for a missing key.
            "local t = {} local v = t[ARGV[1]] if v == nil then return 0 end return v",
            // Assigned again.
            "local v = redis.call('GET', KEYS[1]) v = tonumber(v) if v == nil then return 0 end return v",
            // A parameter some call fills with something else.
            "local v = redis.call('GET', KEYS[1]) local function f(v) return v == nil end return f(v) or f(ARGV[1])",
            // Shadowed by a second local.
            "local v = redis.call('GET', KEYS[1]) do local v = ARGV[1] if v == nil then return 0 end end return v",
            // Compared with false, as it should be.
            "local v = redis.call('GET', KEYS[1]) if v == false then return 0 end return v",
            // In RESP3 (after `redis.setresp(3)`) a null reply is nil.
            "redis.setresp(3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            // ... also when setresp is not called directly.
            "pcall(redis.setresp, 3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            "local resp = redis.setresp resp(3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            // ... nor when it is misspelt (another finding's fix must not
            // assume RESP2).
            "reddis.setresp(3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            // A name compared before the declaration is another variable.
            "if x == nil then return 0 end local x = redis.call('GET', KEYS[1]) return x",
            // Declared nil, then assigned on one way only: the
            // declaration's nil still reaches the comparison.
            "local v if ARGV[1] then v = redis.call('GET', KEYS[1]) end \
             if v == nil then return 0 end return v",
            // A field the constructor lacks is nil until it is written.
            "local cache = {} if cache.v == nil then cache.v = redis.call('GET', KEYS[1]) end \
             return cache.v",
            // A table passed to a function may be written there.
            "local state = {v = redis.call('GET', KEYS[1])} local function clear(s) s.v = nil end \
             if ARGV[1] == 'x' then clear(state) end if state.v == nil then return 0 end return 1",
            // Past the fields asked for, unpack gives nil; an index the
            // text does not settle may be past them too.
            "local a, b = unpack(redis.call('HMGET', KEYS[1], 'only')) if b == nil then return 0 end return a",
            "local vals = redis.call('HMGET', KEYS[1], 'a', 'b') local i, n = 1, 0 \
             while vals[i] ~= nil do n = n + 1 i = i + 1 end return n",
            // HGETALL's elements are never nil.
            "local a, b = unpack(redis.call('HGETALL', KEYS[1])) if b == nil then return 0 end return a",
            // A shadowed `redis`.
            "local redis = {call = function() return nil end} local v = redis.call('GET', 'k') if v == nil then return 0 end return 1",
        ];
        for source in clean {
            assert_eq!(messages(source), Vec::<String>::new(), "{source}");
        }
        // Declared nil, then assigned a reply on every way: only the
        // replies reach the comparison.
        let assigned = "local v if ARGV[1] then v = redis.call('GET', KEYS[1]) \
                        else v = redis.call('LPOP', KEYS[1]) end \
                        if v == nil then return 0 end return v";
        assert_eq!(messages(assigned).len(), 1, "{assigned}");
    }

    fn fixed(source: &str) -> Vec<Option<String>> {
        crate::rules::test_support::fixed(source, Declared::default(), super::check)
    }

    #[test]
    fn a_comparison_that_never_holds_becomes_a_test_of_the_value() {
        for (source, expected) in [
            (
                "local v = redis.call('GET', KEYS[1])\nif v == nil then return 0 end\nreturn v",
                "local v = redis.call('GET', KEYS[1])\nif not v then return 0 end\nreturn v",
            ),
            (
                "if nil==redis.call('LPOP', KEYS[1]) then return 1 end",
                "if not redis.call('LPOP', KEYS[1]) then return 1 end",
            ),
            // `not` binds tighter than `and`: the same meaning unparenthesized.
            (
                "local v = redis.call('GET', KEYS[1]) return v == nil and 1 or 2",
                "local v = redis.call('GET', KEYS[1]) return not v and 1 or 2",
            ),
            (
                "local v = redis.call('GET', KEYS[1]) if (v) == nil then return 0 end",
                "local v = redis.call('GET', KEYS[1]) if not (v) then return 0 end",
            ),
            // Where only its truth counts, the value itself.
            (
                "local v = redis.call('HGET', KEYS[1], 'f') while (v ~= nil) do v = redis.call('LPOP', KEYS[1]) end",
                "local v = redis.call('HGET', KEYS[1], 'f') while (v) do v = redis.call('LPOP', KEYS[1]) end",
            ),
            (
                "local vals = redis.call('MGET', KEYS[1], KEYS[2]) if nil ~= vals[2] then return 1 end",
                "local vals = redis.call('MGET', KEYS[1], KEYS[2]) if vals[2] then return 1 end",
            ),
            (
                "repeat local v = redis.call('LPOP', KEYS[1]) until v ~= nil return 1",
                "repeat local v = redis.call('LPOP', KEYS[1]) until v return 1",
            ),
            // Elsewhere its value would differ from the comparison's: `false`.
            (
                "local v = redis.call('GET', KEYS[1]) return v ~= nil",
                "local v = redis.call('GET', KEYS[1]) return v ~= false",
            ),
            (
                "local v = redis.call('GET', KEYS[1]) if v ~= nil and ARGV[1] then return 1 end",
                "local v = redis.call('GET', KEYS[1]) if v ~= false and ARGV[1] then return 1 end",
            ),
        ] {
            assert_eq!(fixed(source), [Some(expected.to_owned())], "{source}");
        }
    }

    #[test]
    fn a_comment_between_the_operands_is_kept_by_giving_no_fix() {
        assert_eq!(
            fixed("local v = redis.call('GET', KEYS[1]) if v --[[ gone? ]] == nil then return 0 end"),
            [None]
        );
    }
}
