//! `nil_reply`: a nil or false reply into a type that cannot hold it.
//!
//! A script replies nil where a `return` of its main function (in a
//! library, of the callback) gives `nil`, `false` or nothing, a value that
//! can be falsy (a comparison, `not`, `a and b`, a command that replies
//! nil, which arrives in Lua as `false`: one whose reply schema has a null
//! its arguments do not rule out, [`replies::may_reply_nil`]), or where
//! control falls off the end. A declared `bool` takes a `false`, but not a
//! nil.

use super::{Context, Judges, Meta};
use crate::reply_type::ReplyKind;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Checker, Rule};
use crate::replies;
use crate::semantic::flow::{fall_through_span, terminates};
use crate::semantic::{Model, Value};
use crate::syntax::tree::{BinOp, Expr, UnOp};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

/// Why a script can end with `nil` or `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Falsy {
    /// Only a Lua `false`, which `bool` receives as `false`.
    False,
    /// `nil`, or the end of the script without a value.
    Nil,
}

/// Where the script can end with a value the declared return type cannot
/// hold: a falsy `return`, or the end of the script without one.
fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let declared = context.declared;
    if matches!(declared.reply, ReplyKind::Nullable | ReplyKind::Unknown) {
        return;
    }
    let model = context.model;
    let body = &model.functions[context.callback.unwrap_or(0)];
    let mut exits = Vec::new();
    for (exprs, span) in body.returns.iter().zip(&body.return_spans) {
        match exprs.first() {
            None => exits.push((
                Falsy::Nil,
                *span,
                "`return` without a value replies nil".to_owned(),
            )),
            Some(expr) => {
                if let Some((falsy, why)) = falsy(model, expr) {
                    exits.push((falsy, expr.span(), why));
                }
            }
        }
    }
    if !terminates(body.block) {
        exits.push((
            Falsy::Nil,
            fall_through_span(body.block),
            "the script can end here without `return`, replying nil".to_owned(),
        ));
    }
    for (falsy, span, why) in exits {
        if declared.reply == ReplyKind::Bool && falsy == Falsy::False {
            continue;
        }
        let help = match (declared.reply, declared.checker) {
            (ReplyKind::Bool, Checker::Attribute) => {
                "return `true` or `false` on every path, or declare `Option<bool>`"
            }
            (_, Checker::Attribute) => {
                "declare the return type as `Option<...>`, or return a value on every path"
            }
            (ReplyKind::Bool, Checker::CommandLine) => {
                "return `true` or `false` on every path, or declare `---@return boolean?`"
            }
            (_, Checker::CommandLine) => {
                "declare the reply optional in the header (`---@return T?`), or return a value \
                 on every path"
            }
        };
        diagnostics.push(
            Diagnostic::error(
                Rule::NilReply,
                Target::Reply,
                span,
                format!("{why}, but the declared return type cannot hold nil"),
            )
            .with_note(help),
        );
    }
}

/// Whether an expression's value can be `nil` or `false`, as far as its
/// text shows; `None` when it cannot or nobody can tell.
fn falsy<'t>(model: &Model<'t>, expr: &'t Expr) -> Option<(Falsy, String)> {
    match expr {
        Expr::Nil(_) => Some((Falsy::Nil, "`return nil` replies nil".to_owned())),
        Expr::False(_) => Some((Falsy::False, "`return false` replies nil".to_owned())),
        Expr::Binary { op, lhs, rhs, .. } => match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Some((
                Falsy::False,
                "this comparison can be false, which replies nil".to_owned(),
            )),
            BinOp::And => {
                // `a and b and c ...` nests as deep as it is long: in a loop,
                // the first operand that can be falsy, from the left.
                let mut rights = vec![&**rhs];
                let mut first = &**lhs;
                while let Expr::Binary {
                    op: BinOp::And,
                    lhs,
                    rhs,
                    ..
                } = first
                {
                    rights.push(rhs);
                    first = lhs;
                }
                falsy(model, first).or_else(|| {
                    rights
                        .into_iter()
                        .rev()
                        .find_map(|right| falsy(model, right))
                })
            }
            BinOp::Or => falsy(model, rhs),
            _ => None,
        },
        Expr::Unary { op: UnOp::Not, .. } => Some((
            Falsy::False,
            "`not ...` can be false, which replies nil".to_owned(),
        )),
        Expr::Paren(inner, _) => falsy(model, inner),
        Expr::Call { span, .. } => nil_replying_command(model, expr, model.call_at(*span)?).map(
            |name| {
                (
                    Falsy::False,
                    format!("`{name}` replies nil for a missing key or member (`false` in Lua)"),
                )
            },
        ),
        _ => None,
    }
}

/// The command (lower case) of `expr`, the command call `call`, if it can
/// reply nil, which arrives in Lua as `false`. Only a call whose value is
/// the reply itself: `pcall(redis.call, ...)` first gives whether it ran.
fn nil_replying_command<'t>(model: &Model<'t>, expr: &'t Expr, call: usize) -> Option<String> {
    if model.value(expr) != Value::Reply(call) {
        return None;
    }
    let command = model.command(call)?;
    replies::may_reply_nil(&command.name, &replies::args_of(command.args)).then_some(command.name)
}

#[cfg(test)]
mod tests {
    use crate::declared::Declared;
use crate::reply_type::ReplyKind;
    use crate::rules::Context;
    use crate::semantic::{Environment, Model};
    use crate::syntax::parser::parse;

    /// The messages of the findings on `source` with `reply` declared.
    fn errors(source: &str, reply: ReplyKind) -> Vec<String> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        let model = Model::build(&chunk, Environment::Script);
        let declared = Declared {
            keys: 1,
            args: 2,
            reply,
            ..Declared::default()
        };
        let context = Context {
            source: source.as_bytes(),
            model: &model,
            declared: &declared,
            callback: None,
        };
        let mut diagnostics = Vec::new();
        super::check(&context, &mut diagnostics);
        diagnostics.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn nil_returns_meet_the_declared_type() {
        const STRING: ReplyKind = ReplyKind::NonNull;
        const BOOLEAN: ReplyKind = ReplyKind::Bool;
        assert_eq!(errors("if ARGV[1] then return 'x' end", STRING).len(), 1);
        assert_eq!(errors("return redis.call('GET', KEYS[1])", STRING).len(), 1);
        assert_eq!(
            errors("return redis.call('INCR', KEYS[1])", STRING).len(),
            0
        );
        assert_eq!(
            errors("if ARGV[1] then return 'x' else return 'y' end", STRING).len(),
            0
        );
        assert_eq!(errors("while true do return 1 end", STRING).len(), 0);
        assert_eq!(errors("error('no') ", STRING).len(), 0);
        assert_eq!(
            errors("local function f() return nil end return f()", STRING).len(),
            0
        );
        // `bool` takes a Lua false, but not a nil.
        assert_eq!(
            errors("return redis.call('EXISTS', KEYS[1]) == 1", BOOLEAN).len(),
            0
        );
        assert_eq!(errors("if ARGV[1] then return true end", BOOLEAN).len(), 1);
        assert_eq!(errors("return nil", BOOLEAN).len(), 1);
        assert_eq!(
            errors("if ARGV[1] then return 'x' end assert(false, 'no')", STRING).len(),
            0
        );
    }

    #[test]
    fn reply_schemas_say_which_commands_reply_nil() {
        let nil = |source| errors(source, ReplyKind::NonNull).len();
        assert_eq!(nil("return redis.call('OBJECT', 'ENCODING', KEYS[1])"), 1);
        assert_eq!(nil("return redis.call('RANDOMKEY')"), 1);
        assert_eq!(nil("return redis.call('GEODIST', KEYS[1], 'a', 'b')"), 1);
        // The arguments rule the null out.
        assert_eq!(nil("return redis.call('XADD', KEYS[1], '*', 'f', 'v')"), 0);
        assert_eq!(
            nil("return redis.call('XADD', KEYS[1], 'NOMKSTREAM', '*', 'f', 'v')"),
            1
        );
        assert_eq!(nil("return redis.call('ZADD', KEYS[1], 1, 'm')"), 0);
        assert_eq!(nil("return redis.call('SRANDMEMBER', KEYS[1], 2)"), 0);
        assert_eq!(nil("return redis.call('TYPE', KEYS[1])"), 0);
        // Options the text does not settle.
        assert_eq!(nil("return redis.call('SET', KEYS[1], unpack(ARGV))"), 0);
        assert_eq!(nil("return redis.call('GET', unpack(KEYS))"), 1);
    }

    #[test]
    fn a_command_replies_nil_through_an_alias_but_not_under_pcall() {
        let found = errors(
            "local rcall = redis.call return rcall('GET', KEYS[1])",
            ReplyKind::NonNull,
        );
        assert_eq!(
            found,
            [
                "`get` replies nil for a missing key or member (`false` in Lua), \
                 but the declared return type cannot hold nil"
            ]
        );
        for source in [
            // The first value of pcall says whether the command ran.
            "return pcall(redis.call, 'GET', KEYS[1])",
            // Not Redis's `redis`.
            "local redis = {call = function() return 1 end} return redis.call('GET', KEYS[1])",
        ] {
            assert_eq!(
                errors(source, ReplyKind::NonNull),
                Vec::<String>::new(),
                "{source}"
            );
        }
    }
}
