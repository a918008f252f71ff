//! Value flow: what an expression can be, from the model's bindings.
//!
//! [`Model::value`] follows a name to what its binding is given (its
//! declaration and every assignment), a call of a local function to its
//! returns, `unpack` and `pcall` to the values they pass on, a table's field
//! to what the constructor and later assignments put there, and a generic
//! `for` over `ipairs(t)` to `t`'s elements. A binding's value is computed
//! once; the alternatives of a value are capped ([`MAX_ALTERNATIVES`]), so a
//! query costs at most a bounded walk of the expression and each binding
//! once in all.

use std::rc::Rc;

use super::terms::{BindingId, FieldKey, FunctionId, Given};
use super::value::{
    Builtin, FieldWrites, MAX_ALTERNATIVES, MAX_DEPTH, MAX_PARTS, Slot, Value, is_multi,
};
use super::{BindingKind, Environment, Model};
use crate::syntax::tree::{BinOp, Expr, Field, UnOp};

impl<'t> Model<'t> {
    /// What `expr` (its first value) can be.
    pub(crate) fn value(&self, expr: &'t Expr) -> Value<'t> {
        self.value_at(expr, 0)
    }

    fn binding_value_at(&self, id: BindingId, depth: usize) -> Value<'t> {
        if let Some(role) = self.role(id) {
            // A callback's KEYS or ARGV, unless the callback gives the
            // parameter another value.
            return match self.bindings[id].given.len() {
                1 => Value::Builtin(role),
                _ => Value::Unknown,
            };
        }
        if let Some(Slot::Done(value)) = self.memo.bindings.borrow().get(id) {
            return value.clone();
        }
        if matches!(self.memo.bindings.borrow().get(id), Some(Slot::Busy) | None) {
            return Value::Unknown;
        }
        self.memo.bindings.borrow_mut()[id] = Slot::Busy;
        let binding = &self.bindings[id];
        let mut values: Vec<Value<'t>> = Vec::with_capacity(binding.given.len());
        // A parameter's declaration gives what its calls pass (below).
        let skip = usize::from(matches!(binding.kind, BindingKind::Parameter(..)));
        for given in &binding.given[skip..] {
            if values.len() > MAX_ALTERNATIVES {
                values.push(Value::Unknown);
                break;
            }
            values.push(self.given_value(*given, Some(id), depth));
        }
        if let BindingKind::Parameter(function, index) = binding.kind {
            values.push(self.parameter_value(function, index, depth));
        }
        let value = Value::one_of(values);
        self.memo.bindings.borrow_mut()[id] = Slot::Done(value.clone());
        value
    }

    /// What a read of the local `id` (at byte `at`) sees: the values of
    /// it that reach the read (`values`, indexes in its `given`), computed
    /// once per read.
    fn reaching_value(&self, id: BindingId, at: usize, values: &[u32], depth: usize) -> Value<'t> {
        match self.memo.reads.borrow().get(&at) {
            Some(Slot::Done(value)) => return value.clone(),
            Some(Slot::Busy) => return Value::Unknown,
            _ => {}
        }
        self.memo.reads.borrow_mut().insert(at, Slot::Busy);
        let binding = &self.bindings[id];
        let value = Value::one_of(
            values
                .iter()
                .map(|&index| match (binding.kind, index) {
                    // A parameter's declaration gives what its calls pass.
                    (BindingKind::Parameter(function, position), 0) => {
                        self.parameter_value(function, position, depth)
                    }
                    (_, index) => match binding.given.get(index as usize) {
                        Some(given) => self.given_value(*given, Some(id), depth),
                        None => Value::Unknown,
                    },
                })
                .collect(),
        );
        self.memo
            .reads
            .borrow_mut()
            .insert(at, Slot::Done(value.clone()));
        value
    }

    /// What a parameter can hold: the arguments of every call that names
    /// its function, when nothing else may call it.
    fn parameter_value(&self, function: FunctionId, index: usize, depth: usize) -> Value<'t> {
        let named_by = self.functions[function].named_by;
        let calls = &self.functions[function].calls;
        let private = named_by.is_some_and(|id| !self.bindings[id].escapes) && !calls.is_empty();
        if !private || calls.len() > MAX_ALTERNATIVES {
            return Value::Unknown;
        }
        Value::one_of(
            calls
                .iter()
                .map(|args| self.argument(args, index, depth + 1))
                .collect(),
        )
    }

    /// The `index`-th value a list of arguments passes.
    fn argument(&self, args: &'t [Expr], index: usize, depth: usize) -> Value<'t> {
        match args.get(index) {
            Some(arg) if index + 1 < args.len() => self.value_at(arg, depth),
            Some(arg) => self.nth_at(arg, 0, depth),
            None => match args.last() {
                Some(last) if is_multi(last) => self.nth_at(last, index + 1 - args.len(), depth),
                _ => Value::Nil,
            },
        }
    }

    fn given_value(&self, given: Given<'t>, binding: Option<BindingId>, depth: usize) -> Value<'t> {
        match given {
            Given::Expr(Expr::Table(..)) | Given::Nth(Expr::Table(..), 0) => match given {
                Given::Expr(expr) | Given::Nth(expr, _) => Value::Table(expr, binding),
                _ => Value::Unknown,
            },
            Given::Expr(expr) => self.value_at(expr, depth + 1),
            Given::Nth(expr, index) => self.nth_at(expr, index, depth + 1),
            Given::Nil => Value::Nil,
            Given::Unknown => Value::Unknown,
            Given::Number => Value::Number(None),
            Given::Function(function) => Value::Function(function),
            Given::Loop(exprs, index) => self.loop_value(exprs, index, depth + 1),
        }
    }

    /// The `index`-th variable of `for ... in exprs`: over `ipairs(t)` or
    /// `pairs(t)`, the second is an element of `t`.
    fn loop_value(&self, exprs: &'t [Expr], index: usize, depth: usize) -> Value<'t> {
        let [Expr::Call { func, args, .. }] = exprs else {
            return Value::Unknown;
        };
        let iterator = self.value_at(func, depth);
        match (iterator, index) {
            (Value::Builtin(Builtin::Ipairs), 0) => Value::Number(None),
            (Value::Builtin(Builtin::Ipairs | Builtin::Pairs), 1) => match args.first() {
                Some(table) => self.element(self.value_at(table, depth), None, depth),
                None => Value::Unknown,
            },
            _ => Value::Unknown,
        }
    }

    /// An element of `table`: at a literal position (1-based), or any.
    fn element(&self, table: Value<'t>, position: Option<usize>, depth: usize) -> Value<'t> {
        let mut values = Vec::new();
        for table in table.alternatives() {
            values.push(match table {
                Value::Builtin(Builtin::Keys) => Value::Key(position),
                Value::Builtin(Builtin::Argv) => Value::Arg(position),
                Value::Reply(call) => Value::ReplyElement(*call, position.map(|p| p - 1)),
                Value::Table(constructor, binding) => {
                    self.table_element(constructor, *binding, position, depth)
                }
                _ => Value::Unknown,
            });
        }
        Value::one_of(values)
    }

    /// The positional elements of a table a constructor makes, unless the
    /// script writes into it at a place the text does not settle.
    fn table_element(
        &self,
        constructor: &'t Expr,
        binding: Option<BindingId>,
        position: Option<usize>,
        depth: usize,
    ) -> Value<'t> {
        let Expr::Table(fields, _) = constructor else {
            return Value::Unknown;
        };
        // Written into after its construction, or passed where it may be.
        let changed = binding
            .is_some_and(|id| !self.bindings[id].fields.is_empty() || self.bindings[id].escapes);
        if changed || fields.len() > MAX_ALTERNATIVES {
            return Value::Unknown;
        }
        let positional = fields.iter().filter_map(|field| match field {
            Field::Positional(value) => Some(value),
            _ => None,
        });
        match position {
            Some(position) => positional
                .clone()
                .nth(position.wrapping_sub(1))
                .map_or(Value::Unknown, |value| self.value_at(value, depth + 1)),
            None => Value::one_of(
                positional
                    .map(|value| self.value_at(value, depth + 1))
                    .collect(),
            ),
        }
    }

    /// `t.name` of a table: what the constructor and every assignment put
    /// under that name, nil where the constructor has none (the field may
    /// be read before it is written); not settled when some assignment's
    /// key is not, or when the table escapes (passed to a function, held by
    /// another name), which may write into it.
    fn field(&self, table: Value<'t>, key: &'t [u8], depth: usize) -> Value<'t> {
        let Value::Table(Expr::Table(fields, _), binding) = table else {
            return Value::Unknown;
        };
        if fields.len() > MAX_ALTERNATIVES {
            return Value::Unknown;
        }
        let Some(id) = binding else {
            return self
                .constructor_field(fields, key, depth)
                .unwrap_or(Value::Nil);
        };
        if let Some(value) = self.memo.field_values.borrow().get(&(id, key)) {
            return value.clone();
        }
        let writes = self.field_writes(id);
        let value = if writes.unsettled || self.bindings[id].escapes {
            Value::Unknown
        } else {
            let mut values = vec![
                self.constructor_field(fields, key, depth)
                    .unwrap_or(Value::Nil),
            ];
            for given in writes.by_name.get(key).into_iter().flatten() {
                values.push(self.given_value(*given, None, depth));
            }
            Value::one_of(values)
        };
        self.memo
            .field_values
            .borrow_mut()
            .insert((id, key), value.clone());
        value
    }

    /// What a constructor puts under `key`: `None` if nothing; unknown if a
    /// computed key might.
    fn constructor_field(
        &self,
        fields: &'t [Field],
        key: &[u8],
        depth: usize,
    ) -> Option<Value<'t>> {
        let mut found = None;
        for field in fields {
            match field {
                Field::Named(name, value) if name.text.as_bytes() == key => {
                    found = Some(self.value_at(value, depth + 1));
                }
                Field::Keyed(Expr::String(name, _), value) if name[..] == *key => {
                    found = Some(self.value_at(value, depth + 1));
                }
                Field::Keyed(..) => return Some(Value::Unknown),
                _ => {}
            }
        }
        found
    }

    /// The writes into the table `binding` holds, by field name, indexed once.
    fn field_writes(&self, binding: BindingId) -> Rc<FieldWrites<'t>> {
        if let Some(writes) = self.memo.fields.borrow().get(&binding) {
            return Rc::clone(writes);
        }
        let mut writes = FieldWrites::default();
        for (key, given) in &self.bindings[binding].fields {
            match key {
                FieldKey::Name(name) => writes.by_name.entry(name).or_default().push(*given),
                FieldKey::Position => {}
                FieldKey::Other => writes.unsettled = true,
            }
        }
        let writes = Rc::new(writes);
        self.memo
            .fields
            .borrow_mut()
            .insert(binding, Rc::clone(&writes));
        writes
    }

    fn value_at(&self, expr: &'t Expr, depth: usize) -> Value<'t> {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        match expr {
            Expr::Nil(_) => Value::Nil,
            Expr::True(_) => Value::Boolean(Some(true)),
            Expr::False(_) => Value::Boolean(Some(false)),
            Expr::Number(number, _) => Value::Number(Some(*number)),
            Expr::String(text, _) => Value::Text(text),
            Expr::Vararg(_) => Value::Unknown,
            Expr::Function(body) => self
                .function_of(body)
                .map_or(Value::Unknown, Value::Function),
            Expr::Table(..) => Value::Table(expr, None),
            Expr::Paren(inner, _) => self.value_at(inner, depth + 1),
            Expr::Name(name) => match self.binding_of(name) {
                Some(id) => match self.reaching.get(&name.span.start) {
                    Some(values)
                        if !self.bindings[id].assigned_elsewhere && self.role(id).is_none() =>
                    {
                        self.reaching_value(id, name.span.start, values, depth + 1)
                    }
                    _ => self.binding_value_at(id, depth + 1),
                },
                None => self.global(&name.text),
            },
            Expr::Unary { op, .. } => match op {
                UnOp::Not => Value::Boolean(None),
                UnOp::Len | UnOp::Neg => Value::Number(None),
            },
            Expr::Binary { op, .. } => match op {
                BinOp::Concat => self.built(expr, depth),
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                    Value::Number(None)
                }
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    Value::Boolean(None)
                }
                BinOp::And | BinOp::Or => self.logical(expr, depth),
            },
            Expr::Index { obj, key, .. } => {
                let table = self.value_at(obj, depth + 1);
                match (&table, &**key) {
                    (Value::Builtin(library), Expr::String(member, _)) => {
                        library_member(*library, member)
                    }
                    (Value::Table(..), Expr::String(name, _)) => self.field(table, name, depth),
                    (_, Expr::Number(position, _)) => {
                        let position = (position.fract() == 0.0 && *position >= 1.0)
                            .then_some(*position as usize);
                        match position {
                            Some(position) => self.element(table, Some(position), depth),
                            None => Value::Unknown,
                        }
                    }
                    (Value::Builtin(Builtin::Keys | Builtin::Argv) | Value::Reply(_), _) => {
                        self.element(table, None, depth)
                    }
                    _ => Value::Unknown,
                }
            }
            Expr::Call { .. } | Expr::Method { .. } => self.nth_at(expr, 0, depth),
        }
    }

    /// `s:upper()` and the like on a text: a text (made of `s`, for
    /// `sub`, `upper`...).
    fn method_value(&self, obj: &'t Expr, name: &str, depth: usize) -> Value<'t> {
        let value = self.value_at(obj, depth + 1);
        let textual = value.alternatives().iter().all(|value| {
            matches!(
                value,
                Value::Text(_)
                    | Value::AnyText
                    | Value::Built(..)
                    | Value::Derived(_)
                    | Value::Key(_)
                    | Value::Arg(_)
            )
        });
        match name.as_bytes() {
            name if textual && derives_text(name) => derived(value),
            name if textual && makes_text(name) => Value::AnyText,
            b"len" | b"byte" | b"find" if textual => Value::Number(None),
            _ => Value::Unknown,
        }
    }

    /// The `index`-th value of `expr`.
    fn nth_at(&self, expr: &'t Expr, index: usize, depth: usize) -> Value<'t> {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        match expr {
            Expr::Call { func, args, span } => {
                let callee = self.value_at(func, depth + 1);
                self.call_value(callee, args, *span, index, depth)
            }
            Expr::Method { obj, name, .. } if index == 0 => {
                self.method_value(obj, &name.text, depth)
            }
            Expr::Method { .. } | Expr::Vararg(_) => Value::Unknown,
            _ if index == 0 => self.value_at(expr, depth),
            _ => Value::Nil,
        }
    }

    /// The `index`-th value of calling `callee` with `args`.
    fn call_value(
        &self,
        callee: Value<'t>,
        args: &'t [Expr],
        span: crate::syntax::tree::Span,
        index: usize,
        depth: usize,
    ) -> Value<'t> {
        match callee {
            Value::Builtin(Builtin::Call | Builtin::PCall) => match self.call_at(span) {
                Some(call) if index == 0 => Value::Reply(call),
                Some(_) => Value::Nil,
                None => Value::Unknown,
            },
            // `unpack(t)`, `unpack(t, i)`: from element 1 or `i`; from a
            // bound the text does not settle (`unpack(t, i, j)` in a loop),
            // any element of `t`.
            Value::Builtin(Builtin::Unpack) => {
                let first = match args.get(1) {
                    None => Some(1),
                    Some(Expr::Number(first, _)) if first.fract() == 0.0 && *first >= 1.0 => {
                        Some(*first as usize)
                    }
                    Some(_) => None,
                };
                match args.first() {
                    Some(table) => {
                        let table = self.value_at(table, depth + 1);
                        self.element(table, first.map(|first| first + index), depth)
                    }
                    None => Value::Unknown,
                }
            }
            // `pcall(f, ...)`: whether it ran, then what `f(...)` gives.
            Value::Builtin(Builtin::Pcall) => match (index, args.split_first()) {
                (0, _) => Value::Boolean(None),
                (_, Some((func, rest))) => {
                    let callee = self.value_at(func, depth + 1);
                    if matches!(callee, Value::Builtin(Builtin::Call | Builtin::PCall)) {
                        // `pcall(redis.call, 'GET', k)`: the pcall's call site
                        // is the command's.
                        return match self.call_at(span) {
                            Some(call) if index == 1 => Value::Reply(call),
                            _ => Value::Unknown,
                        };
                    }
                    self.call_value(callee, rest, span, index - 1, depth + 1)
                }
                _ => Value::Unknown,
            },
            Value::Builtin(Builtin::ToNumber) if index == 0 => {
                Value::one_of(vec![Value::Number(None), Value::Nil])
            }
            Value::Builtin(Builtin::TextFunction) if index == 0 => Value::AnyText,
            Value::Builtin(Builtin::StringOf) if index == 0 => match args.first() {
                Some(text) => derived(self.value_at(text, depth + 1)),
                None => Value::Unknown,
            },
            // `tostring(s)` of a text is that text.
            Value::Builtin(Builtin::ToString) if index == 0 => match args.first() {
                Some(arg) => Value::one_of(
                    self.value_at(arg, depth + 1)
                        .alternatives()
                        .iter()
                        .map(|value| match value {
                            Value::Text(_)
                            | Value::AnyText
                            | Value::Built(..)
                            | Value::Derived(_)
                            | Value::Key(_)
                            | Value::Arg(_) => value.clone(),
                            _ => Value::AnyText,
                        })
                        .collect(),
                ),
                None => Value::Unknown,
            },
            Value::Builtin(Builtin::NumberFunction) if index == 0 => Value::Number(None),
            Value::Function(function) => self.returned(function, index, depth),
            Value::OneOf(callees) => Value::one_of(
                callees
                    .into_iter()
                    .map(|callee| self.call_value(callee, args, span, index, depth + 1))
                    .collect(),
            ),
            _ => Value::Unknown,
        }
    }

    /// The `index`-th value a function returns: any of its `return`s', nil
    /// where it may end without one.
    fn returned(&self, function: FunctionId, index: usize, depth: usize) -> Value<'t> {
        if index == 0 {
            {
                let mut memo = self.memo.returns.borrow_mut();
                if memo.len() < self.functions.len() {
                    memo.resize(self.functions.len(), Slot::Empty);
                }
                match &memo[function] {
                    Slot::Done(value) => return value.clone(),
                    Slot::Busy => return Value::Unknown,
                    Slot::Empty => memo[function] = Slot::Busy,
                }
            }
            let value = self.returned_uncached(function, 0, depth);
            self.memo.returns.borrow_mut()[function] = Slot::Done(value.clone());
            return value;
        }
        self.returned_uncached(function, index, depth)
    }

    fn returned_uncached(&self, function: FunctionId, index: usize, depth: usize) -> Value<'t> {
        let returns = &self.functions[function].returns;
        if returns.len() > MAX_ALTERNATIVES {
            return Value::Unknown;
        }
        let mut values: Vec<Value<'t>> = returns
            .iter()
            .map(|exprs| self.argument(exprs, index, depth + 1))
            .collect();
        if !super::flow::terminates(self.functions[function].block) {
            values.push(Value::Nil);
        }
        Value::one_of(values)
    }

    /// `a .. b .. c`, a left-deep chain, walked in a loop.
    fn built(&self, expr: &'t Expr, depth: usize) -> Value<'t> {
        let all = expr.concat_parts();
        let more = all.len() > MAX_PARTS;
        let parts = all
            .into_iter()
            .take(MAX_PARTS)
            .map(|part| self.value_at(part, depth + 1))
            .flat_map(|part| match part {
                // `a .. (b .. c)` is one text.
                Value::Built(inner, _) => inner,
                other => vec![other],
            })
            .collect();
        Value::Built(parts, more)
    }

    /// `a and b`, `a or b`: either operand.
    fn logical(&self, expr: &'t Expr, depth: usize) -> Value<'t> {
        let mut operands = Vec::new();
        let mut node = expr;
        while let Expr::Binary {
            op: BinOp::And | BinOp::Or,
            lhs,
            rhs,
            ..
        } = node
        {
            operands.push(&**rhs);
            node = lhs;
            if operands.len() > MAX_ALTERNATIVES {
                return Value::Unknown;
            }
        }
        operands.push(node);
        Value::one_of(
            operands
                .into_iter()
                .map(|operand| self.value_at(operand, depth + 1))
                .collect(),
        )
    }

    /// A global the checks know.
    fn global(&self, name: &str) -> Value<'t> {
        match name {
            "KEYS" if self.environment == Environment::Script => Value::Builtin(Builtin::Keys),
            "ARGV" if self.environment == Environment::Script => Value::Builtin(Builtin::Argv),
            "redis" | "server" => Value::Builtin(Builtin::Redis),
            "unpack" => Value::Builtin(Builtin::Unpack),
            "pcall" => Value::Builtin(Builtin::Pcall),
            "tonumber" => Value::Builtin(Builtin::ToNumber),
            "tostring" => Value::Builtin(Builtin::ToString),
            "math" => Value::Builtin(Builtin::MathLibrary),
            "ipairs" => Value::Builtin(Builtin::Ipairs),
            "pairs" => Value::Builtin(Builtin::Pairs),
            "string" => Value::Builtin(Builtin::StringLibrary),
            "table" => Value::Builtin(Builtin::TableLibrary),
            "cjson" => Value::Builtin(Builtin::Cjson),
            _ => Value::Unknown,
        }
    }

    /// The index in [`Model::calls`] of the command call at `span`.
    pub(crate) fn call_at(&self, span: crate::syntax::tree::Span) -> Option<usize> {
        self.call_index.get(&span.start).and_then(|calls| {
            calls
                .iter()
                .copied()
                .find(|&call| self.calls[call].span == span)
        })
    }
}

/// `library.member`, for the members the checks follow.
fn library_member(library: Builtin, member: &[u8]) -> Value<'static> {
    let builtin = match (library, member) {
        (Builtin::Redis, b"call") => Builtin::Call,
        (Builtin::Redis, b"pcall") => Builtin::PCall,
        (Builtin::Redis, b"setresp") => Builtin::SetResp,
        (Builtin::Redis, b"register_function") => Builtin::RegisterFunction,
        (Builtin::Redis, b"sha1hex")
        | (Builtin::TableLibrary, b"concat")
        | (Builtin::Cjson, b"encode") => Builtin::TextFunction,
        (Builtin::StringLibrary, member) if derives_text(member) => Builtin::StringOf,
        (Builtin::StringLibrary, member) if makes_text(member) => Builtin::TextFunction,
        (Builtin::StringLibrary, b"len" | b"byte" | b"find")
        | (
            Builtin::MathLibrary,
            b"floor" | b"ceil" | b"min" | b"max" | b"abs" | b"fmod" | b"modf",
        )
        | (Builtin::TableLibrary, b"getn") => Builtin::NumberFunction,
        _ => return Value::Unknown,
    };
    Value::Builtin(builtin)
}

/// Whether the `string` function `name` returns a text.
fn makes_text(name: &[u8]) -> bool {
    derives_text(name) || matches!(name, b"format" | b"char")
}

/// Whether the `string` function `name` returns a text made of its first
/// argument.
fn derives_text(name: &[u8]) -> bool {
    matches!(
        name,
        b"sub" | b"upper" | b"lower" | b"rep" | b"reverse" | b"gsub"
    )
}

/// The text a string function makes of `value`: of a literal or a text,
/// some text; of anything else (a key, an argument, a reply), a text
/// derived from it.
fn derived(value: Value<'_>) -> Value<'_> {
    Value::one_of(
        value
            .alternatives()
            .iter()
            .map(|value| match value {
                Value::Text(_) | Value::AnyText | Value::Built(..) | Value::Number(_) => {
                    Value::AnyText
                }
                Value::Derived(inner) => Value::Derived(inner.clone()),
                Value::Unknown => Value::Unknown,
                other => Value::Derived(Box::new(other.clone())),
            })
            .collect(),
    )
}
