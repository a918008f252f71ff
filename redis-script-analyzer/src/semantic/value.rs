//! What an expression can be ([`Value`]), the library values the model
//! follows ([`Builtin`]), and the memo that keeps each binding's value once
//! computed ([`super::evaluate`] computes them).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::terms::{BindingId, FunctionId, Given};
use crate::syntax::tree::Expr;

/// What the text settles about a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'t> {
    /// Not settled.
    Unknown,
    Nil,
    /// `true` or `false`, or a boolean the text does not settle (`None`).
    Boolean(Option<bool>),
    /// A number, with its value when literal.
    Number(Option<f64>),
    /// A string literal's bytes.
    Text(&'t [u8]),
    /// A string whose text is not settled (`tostring(x)`, `string.format`).
    AnyText,
    /// `a .. b .. c`: the parts in order (capped; `more` when some were left off).
    Built(Vec<Value<'t>>, bool),
    /// A text a string function makes of this value (`string.sub(KEYS[1],
    /// 1, 8)`, `ARGV[1]:upper()`): derived from it, not equal to it.
    Derived(Box<Value<'t>>),
    /// A library value the checks know: KEYS, ARGV, `redis.call`, `unpack`...
    Builtin(Builtin),
    /// `KEYS[n]` (`Some(n)`, 1-based) or `KEYS[i]`.
    Key(Option<usize>),
    /// `ARGV[n]` or `ARGV[i]`.
    Arg(Option<usize>),
    /// The reply of the command call at this index of [`Model::calls`].
    Reply(usize),
    /// An element of that reply: the `n`-th (0-based) or any.
    ReplyElement(usize, Option<usize>),
    /// The table a constructor makes, held by this binding (if any).
    Table(&'t Expr, Option<BindingId>),
    /// A function of the model.
    Function(FunctionId),
    /// Any of these.
    OneOf(Vec<Value<'t>>),
}

/// The library values the checks follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    /// The table KEYS (a global in a script, a callback's first parameter in a library).
    Keys,
    /// The table ARGV.
    Argv,
    /// `redis` (or Valkey's `server`).
    Redis,
    /// `redis.call`.
    Call,
    /// `redis.pcall`.
    PCall,
    /// `redis.setresp`.
    SetResp,
    /// `redis.register_function`, which a Functions library calls while it loads.
    RegisterFunction,
    /// `unpack`.
    Unpack,
    /// `pcall`.
    Pcall,
    /// `tonumber`.
    ToNumber,
    /// `string.format`, `string.char`, `table.concat`, `cjson.encode`...: a text.
    TextFunction,
    /// `string.sub`, `upper`, `lower`, `rep`, `reverse`, `gsub`: a text made
    /// of the first argument ([`Value::Derived`]).
    StringOf,
    /// `tostring`: a text as it is, anything else as text.
    ToString,
    /// `string.len`, `math.floor`, `math.ceil`, `math.min`, `math.max`,
    /// `math.abs`...: a number.
    NumberFunction,
    /// `ipairs`.
    Ipairs,
    /// `pairs`.
    Pairs,
    /// The library `string` (whose members mostly make text).
    StringLibrary,
    /// The library `table`.
    TableLibrary,
    /// The library `cjson`.
    Cjson,
    /// The library `math`.
    MathLibrary,
}

/// The most alternatives a value keeps before it is [`Value::Unknown`].
pub(super) const MAX_ALTERNATIVES: usize = 32;
/// The most parts a built text keeps.
pub(super) const MAX_PARTS: usize = 8;
/// How deep one query follows expressions inside expressions.
pub(super) const MAX_DEPTH: usize = 48;

/// Bindings' and functions' values, computed once.
#[derive(Default)]
pub(crate) struct Memo<'t> {
    pub(super) bindings: RefCell<Vec<Slot<Value<'t>>>>,
    pub(super) returns: RefCell<Vec<Slot<Value<'t>>>>,
    /// [`Model::may_use_resp3`]: asked by each callback of a library, a
    /// scan of every call computed once.
    pub(super) resp3: std::cell::OnceCell<bool>,
    /// Each table binding's writes by field name, and what each field read
    /// holds: a read costs its field's writes, not the table's.
    pub(super) fields: RefCell<HashMap<BindingId, Rc<FieldWrites<'t>>>>,
    pub(super) field_values: RefCell<HashMap<(BindingId, &'t [u8]), Value<'t>>>,
    /// What each read of a local sees, by the name's first byte, where the
    /// walk knows which of its values reach it.
    pub(super) reads: RefCell<HashMap<usize, Slot<Value<'t>>>>,
}

/// The writes into a table binding, by field name.
#[derive(Default)]
pub(super) struct FieldWrites<'t> {
    /// Some write's key is not settled (`t[k] = v`): any field may hold anything.
    pub(super) unsettled: bool,
    pub(super) by_name: HashMap<&'t [u8], Vec<Given<'t>>>,
}

#[derive(Clone)]
pub(super) enum Slot<T> {
    Empty,
    /// Being computed: a cycle reads it as unknown.
    Busy,
    Done(T),
}

impl<'t> Memo<'t> {
    pub(super) fn new(bindings: usize) -> Memo<'t> {
        Memo {
            bindings: RefCell::new(vec![Slot::Empty; bindings]),
            returns: RefCell::new(Vec::new()),
            resp3: std::cell::OnceCell::new(),
            fields: RefCell::default(),
            field_values: RefCell::default(),
            reads: RefCell::default(),
        }
    }

    pub(super) fn clear(&mut self) {
        for slot in self.bindings.get_mut() {
            *slot = Slot::Empty;
        }
        self.returns.get_mut().clear();
        self.resp3.take();
        self.fields.get_mut().clear();
        self.field_values.get_mut().clear();
        self.reads.get_mut().clear();
    }
}

/// Whether `expr` may give several values (a call or `...`).
pub(crate) fn is_multi(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Call { .. } | Expr::Method { .. } | Expr::Vararg(_)
    )
}

impl<'t> Value<'t> {
    /// Any of `values`: one alone as itself, too many as unknown.
    pub(crate) fn one_of(values: Vec<Value<'t>>) -> Value<'t> {
        let mut flat: Vec<Value<'t>> = Vec::new();
        for value in values {
            let alternatives = match value {
                Value::OneOf(inner) => inner,
                other => vec![other],
            };
            for value in alternatives {
                if !flat.contains(&value) {
                    flat.push(value);
                }
                // Checked as it grows, so a dedupe costs a bounded number
                // of comparisons.
                if flat.len() > MAX_ALTERNATIVES {
                    return Value::Unknown;
                }
            }
        }
        match flat.len() {
            0 => Value::Unknown,
            1 => flat.pop().unwrap_or(Value::Unknown),
            _ => Value::OneOf(flat),
        }
    }

    /// Each alternative (itself, unless it is [`Value::OneOf`]).
    pub(crate) fn alternatives(&self) -> &[Value<'t>] {
        match self {
            Value::OneOf(values) => values,
            other => std::slice::from_ref(other),
        }
    }
}
