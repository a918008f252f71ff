//! The words the model is written in: the ids of bindings and functions,
//! what a binding is given, the key of a table write.

use crate::syntax::tree::{BinOp, Expr, UnOp};

/// A binding's index in [`Model::bindings`].
pub(crate) type BindingId = usize;
/// A function's index in [`Model::functions`]; the main chunk is 0.
pub(crate) type FunctionId = usize;

/// One value a binding is given: at its declaration or by an assignment.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Given<'t> {
    /// The first value of this expression.
    Expr(&'t Expr),
    /// The `index`-th value (0-based) of a multi-value expression (`local
    /// a, b = unpack(t)`).
    Nth(&'t Expr, usize),
    /// Nothing: `local x` alone, or past the values of a list.
    Nil,
    /// What the text does not settle: a parameter, `...`.
    Unknown,
    /// The `index`-th value of a generic `for` over these expressions.
    Loop(&'t [Expr], usize),
    /// A numeric `for` variable.
    Number,
    /// This function (`local function f`, `function t.f`).
    Function(FunctionId),
}

/// The key of a write into a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldKey<'t> {
    /// `t.name`, `t['name']`.
    Name(&'t [u8]),
    /// `t[1]`, `t[#t + 1]`: a position of the array part.
    Position,
    /// A key the text does not settle.
    Other,
}

impl<'t> FieldKey<'t> {
    pub(super) fn of(key: &'t Expr) -> FieldKey<'t> {
        match key {
            Expr::String(text, _) => FieldKey::Name(text),
            Expr::Number(..) | Expr::Unary { op: UnOp::Len, .. } => FieldKey::Position,
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                ..
            } if matches!(&**lhs, Expr::Unary { op: UnOp::Len, .. } | Expr::Number(..)) => {
                FieldKey::Position
            }
            _ => FieldKey::Other,
        }
    }
}
