//! The syntax tree of a Lua 5.1 chunk, as Redis runs it.
//!
//! Every node carries the byte range of its source text, so that every
//! diagnostic can quote `file:line:col` and the line itself.

/// A byte range `start..end` in the script's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// Past the last byte (`start` for an empty span).
    pub end: usize,
}

impl Span {
    /// `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A whole script: the body of the implicit vararg main function.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub block: Block,
}

/// A sequence of statements, optionally ended by `return` (or, in Lua 5.1,
/// by `break`, which is a statement here and must also come last).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stats: Vec<Stat>,
    pub ret: Option<Return>,
    pub span: Span,
}

/// `return e1, e2, ...`
#[derive(Debug, Clone, PartialEq)]
pub struct Return {
    pub exprs: Vec<Expr>,
    pub span: Span,
}

/// An identifier as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

// A `NumericFor` is much bigger than a `Break`; statements are few and kept
// in `Vec`s, so the shape stays simple rather than boxing the big variants.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Stat {
    /// `local a, b = e1, e2`
    Local {
        names: Vec<Name>,
        exprs: Vec<Expr>,
        span: Span,
    },
    /// `local function f(...) ... end`: `f` is in scope inside its own body.
    LocalFunction {
        name: Name,
        func: FuncBody,
        span: Span,
    },
    /// `function a.b.c:m(...) ... end`: an assignment to a global or a field.
    Function {
        name: FuncName,
        func: FuncBody,
        span: Span,
    },
    /// `t1, t2 = e1, e2`; each target is a `Name` or an `Index`.
    Assign {
        targets: Vec<Expr>,
        exprs: Vec<Expr>,
        span: Span,
    },
    /// A function or method call used as a statement (`Expr::Call` or `Expr::Method`).
    Call(Expr),
    /// `do ... end`
    Do(Block),
    /// `while cond do ... end`
    While {
        cond: Expr,
        block: Block,
        span: Span,
    },
    /// `repeat ... until cond`: `cond` sees the block's locals.
    Repeat {
        block: Block,
        cond: Expr,
        span: Span,
    },
    /// `if c1 then b1 elseif c2 then b2 else b3 end`
    If {
        arms: Vec<(Expr, Block)>,
        otherwise: Option<Block>,
        span: Span,
    },
    /// `for var = start, stop[, step] do ... end`
    NumericFor {
        var: Name,
        start: Expr,
        stop: Expr,
        step: Option<Expr>,
        block: Block,
        span: Span,
    },
    /// `for n1, n2 in e1, e2 do ... end`
    GenericFor {
        names: Vec<Name>,
        exprs: Vec<Expr>,
        block: Block,
        span: Span,
    },
    /// `break`
    Break(Span),
}

/// The name of a `function` statement: `a.b.c` with an optional `:m`.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncName {
    pub path: Vec<Name>,
    pub method: Option<Name>,
}

/// Parameters and body of a function; `is_vararg` when the list ends in `...`.
/// A method (`function t:m()`) has an implicit first parameter `self`,
/// which is NOT listed in `params`.
#[derive(Debug, Clone, PartialEq)]
pub struct FuncBody {
    pub params: Vec<Name>,
    pub is_vararg: bool,
    pub block: Block,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    Len,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Nil(Span),
    True(Span),
    False(Span),
    /// A numeric literal and its value (Lua 5.1 numbers are doubles).
    Number(f64, Span),
    /// A string literal, its escapes resolved to bytes.
    String(Vec<u8>, Span),
    /// `...`
    Vararg(Span),
    /// `function (...) ... end`
    Function(FuncBody),
    /// `{ ... }`
    Table(Vec<Field>, Span),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        span: Span,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
        span: Span,
    },
    /// A variable reference: a local, an upvalue or a global.
    Name(Name),
    /// `obj[key]`, and `obj.name`, which is `obj["name"]` with `dot` set to the
    /// name as written (its span points at the member, e.g. `calll` in `redis.calll`).
    Index {
        obj: Box<Expr>,
        key: Box<Expr>,
        dot: Option<Name>,
        span: Span,
    },
    /// `f(args)`, `f "str"`, `f {table}`
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        span: Span,
    },
    /// `obj:name(args)`
    Method {
        obj: Box<Expr>,
        name: Name,
        args: Vec<Expr>,
        span: Span,
    },
    /// `(expr)`: truncates a multi-value expression to one value.
    Paren(Box<Expr>, Span),
}

/// A chain of binary operators (`a + b + c`, left-associative) or of
/// suffixes (`a.b.c`, `f()()`, `o:m():m()`) is a tree as deep as the chain
/// is long, which Lua (unlike nested parentheses) does not limit. Dropping
/// it recursively could overflow the stack on a long generated script; so
/// each link is dropped on its own, one after another.
impl Drop for Expr {
    fn drop(&mut self) {
        let mut next = self.take_link();
        while let Some(mut link) = next {
            next = link.take_link();
        }
    }
}

impl Expr {
    /// The parts of `a .. b .. c` in order (a left-deep chain, walked in a
    /// loop); the expression itself when it is no concatenation.
    pub fn concat_parts(&self) -> Vec<&Expr> {
        let mut parts = Vec::new();
        let mut node = self;
        while let Expr::Binary {
            op: BinOp::Concat,
            lhs,
            rhs,
            ..
        } = node
        {
            parts.push(&**rhs);
            node = lhs;
        }
        parts.push(node);
        parts.reverse();
        parts
    }

    /// The next link of a chain that `self` continues (its left operand,
    /// object or function) if that is a link too, moved out and replaced
    /// by a leaf; `None` otherwise.
    fn take_link(&mut self) -> Option<Expr> {
        let child = match self {
            Expr::Binary { lhs, .. } => lhs,
            Expr::Index { obj, .. } | Expr::Method { obj, .. } => obj,
            Expr::Call { func, .. } => func,
            _ => return None,
        };
        let is_link = matches!(
            **child,
            Expr::Binary { .. } | Expr::Index { .. } | Expr::Method { .. } | Expr::Call { .. }
        );
        is_link.then(|| std::mem::replace(&mut **child, Expr::Nil(Span::default())))
    }

    pub fn span(&self) -> Span {
        match self {
            Expr::Nil(span)
            | Expr::True(span)
            | Expr::False(span)
            | Expr::Number(_, span)
            | Expr::String(_, span)
            | Expr::Vararg(span)
            | Expr::Table(_, span)
            | Expr::Binary { span, .. }
            | Expr::Unary { span, .. }
            | Expr::Index { span, .. }
            | Expr::Call { span, .. }
            | Expr::Method { span, .. }
            | Expr::Paren(_, span) => *span,
            Expr::Function(body) => body.span,
            Expr::Name(name) => name.span,
        }
    }
}

/// A table constructor's field.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// `expr`: the next array slot.
    Positional(Expr),
    /// `name = expr`
    Named(Name, Expr),
    /// `[key] = expr`
    Keyed(Expr, Expr),
}
