//! The nil-return flow analysis: whether the script can reply nil (a
//! `return nil`, a falsy expression, a command that replies nil, the end of
//! the script) where the declared return type cannot hold it.

use super::command_calls::redis_call;
use super::{Declared, ReplyKind};
use crate::commands;
use crate::diagnostic::{Checker, Diagnostic, Rule, Target};
use crate::semantic::flow::{fall_through_span, terminates};
use crate::syntax::tree::{BinOp, Block, Chunk, Expr, Span, Stat, UnOp};

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
pub(super) fn check(chunk: &Chunk, declared: &Declared, diagnostics: &mut Vec<Diagnostic>) {
    if matches!(declared.reply, ReplyKind::Nullable | ReplyKind::Unknown) {
        return;
    }
    let mut exits = Vec::new();
    collect_falsy_exits(&chunk.block, &mut exits);
    if !terminates(&chunk.block) {
        let span = fall_through_span(&chunk.block);
        exits.push((
            Falsy::Nil,
            span,
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

/// `return` statements of the main function (not of nested functions) whose
/// first value can be `nil` or `false`.
fn collect_falsy_exits(block: &Block, exits: &mut Vec<(Falsy, Span, String)>) {
    for stat in &block.stats {
        for inner in stat_blocks(stat) {
            collect_falsy_exits(inner, exits);
        }
    }
    if let Some(ret) = &block.ret {
        match ret.exprs.first() {
            None => exits.push((
                Falsy::Nil,
                ret.span,
                "`return` without a value replies nil".to_owned(),
            )),
            Some(expr) => {
                if let Some((falsy, why)) = falsy(expr) {
                    exits.push((falsy, expr.span(), why));
                }
            }
        }
    }
}

/// The blocks directly inside a statement, in the same function.
pub(super) fn stat_blocks(stat: &Stat) -> Vec<&Block> {
    match stat {
        Stat::Do(block)
        | Stat::While { block, .. }
        | Stat::Repeat { block, .. }
        | Stat::NumericFor { block, .. }
        | Stat::GenericFor { block, .. } => vec![block],
        Stat::If {
            arms, otherwise, ..
        } => arms
            .iter()
            .map(|(_, block)| block)
            .chain(otherwise.iter())
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether an expression's value can be `nil` or `false`, as far as its
/// text shows; `None` when it cannot or nobody can tell.
fn falsy(expr: &Expr) -> Option<(Falsy, String)> {
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
                falsy(first).or_else(|| rights.into_iter().rev().find_map(falsy))
            }
            BinOp::Or => falsy(rhs),
            _ => None,
        },
        Expr::Unary { op: UnOp::Not, .. } => Some((
            Falsy::False,
            "`not ...` can be false, which replies nil".to_owned(),
        )),
        Expr::Paren(inner, _) => falsy(inner),
        Expr::Call { func, args, .. } => nil_replying_command(func, args).map(|name| {
            (
                Falsy::False,
                format!("`{name}` replies nil for a missing key or member (`false` in Lua)"),
            )
        }),
        _ => None,
    }
}

/// The command (lower case) of a `redis.call(...)` that can reply nil,
/// which arrives in Lua as `false`.
pub(super) fn nil_replying_command(func: &Expr, args: &[Expr]) -> Option<String> {
    let name = redis_call(func, args)?.name;
    let literal_args = args[1..].iter().filter_map(|arg| match arg {
        Expr::String(text, _) => Some(&text[..]),
        _ => None,
    });
    commands::may_reply_nil(&name, literal_args).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{ONE_KEY_TWO_ARGS, errors};
    use super::*;

    #[test]
    fn nil_returns_meet_the_declared_type() {
        const STRING: Declared = Declared {
            reply: ReplyKind::NonNull,
            ..ONE_KEY_TWO_ARGS
        };
        const BOOLEAN: Declared = Declared {
            reply: ReplyKind::Bool,
            ..ONE_KEY_TWO_ARGS
        };
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
}
