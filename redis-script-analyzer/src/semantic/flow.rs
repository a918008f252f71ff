//! Control flow over the tree, as far as a block's statements show it:
//! whether a block always leaves by `return` or an error ([`terminates`]),
//! and where control falls off its end ([`fall_through_span`]). A function
//! that may fall off its end returns nil there.

use crate::syntax::tree::{Block, Expr, Span, Stat};

/// Whether control can never reach the end of `block`.
pub(crate) fn terminates(block: &Block) -> bool {
    block.ret.is_some() || block.stats.iter().any(stat_terminates)
}

fn stat_terminates(stat: &Stat) -> bool {
    match stat {
        Stat::Do(block) => terminates(block),
        Stat::If {
            arms,
            otherwise: Some(otherwise),
            ..
        } => arms.iter().all(|(_, block)| terminates(block)) && terminates(otherwise),
        Stat::While { cond, block, .. } => is_truthy_constant(cond) && !breaks(block),
        // A `break` before the body's end leaves the loop.
        Stat::Repeat { block, cond, .. } => {
            !breaks(block) && (terminates(block) || matches!(cond, Expr::False(_) | Expr::Nil(_)))
        }
        Stat::Call(Expr::Call { func, args, .. }) => match &**func {
            Expr::Name(name) if name.text == "error" => true,
            // `assert(false, "message")` always raises.
            Expr::Name(name) if name.text == "assert" => {
                matches!(args.first(), Some(Expr::False(_) | Expr::Nil(_)))
            }
            _ => false,
        },
        _ => false,
    }
}

fn is_truthy_constant(expr: &Expr) -> bool {
    matches!(expr, Expr::True(_) | Expr::Number(..) | Expr::String(..))
}

/// Whether a `break` leaves this loop body (not one of its inner loops).
fn breaks(block: &Block) -> bool {
    block.stats.iter().any(|stat| match stat {
        Stat::Break(_) => true,
        Stat::Do(inner) => breaks(inner),
        Stat::If {
            arms, otherwise, ..
        } => arms.iter().any(|(_, b)| breaks(b)) || otherwise.as_ref().is_some_and(breaks),
        _ => false,
    })
}

/// Where falling off the end of `block` is best shown: an `if` without
/// `else` that ends it, or its last statement.
pub(crate) fn fall_through_span(block: &Block) -> Span {
    match block.stats.last() {
        Some(Stat::If { span, .. }) => *span,
        Some(stat) => stat_span(stat),
        None => block.span,
    }
}

fn stat_span(stat: &Stat) -> Span {
    match stat {
        Stat::Local { span, .. }
        | Stat::LocalFunction { span, .. }
        | Stat::Function { span, .. }
        | Stat::Assign { span, .. }
        | Stat::While { span, .. }
        | Stat::Repeat { span, .. }
        | Stat::If { span, .. }
        | Stat::NumericFor { span, .. }
        | Stat::GenericFor { span, .. }
        | Stat::Break(span) => *span,
        Stat::Call(expr) => expr.span(),
        Stat::Do(block) => block.span,
    }
}
