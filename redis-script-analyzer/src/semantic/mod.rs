//! The semantic model of a script: built in one walk of its tree
//! ([`Model::build`]) and read by the rules.
//!
//! It resolves every name to its binding (a local, a parameter, a loop
//! variable) or to a global, lists the functions with their returns and the
//! places they are called from, and records what each binding is given
//! (its declaration and every later assignment). From that, [`value`] says
//! for each expression what it can be: an element of KEYS or ARGV, a
//! literal, text built from parts, the reply of a command call, a table,
//! a call of a local function, or several of these ([`Value`]).
//!
//! Building it is linear in the size of the tree: each node is visited
//! once, each name is looked up in a map of the names in scope, and a
//! binding's value is computed once and kept.

pub(crate) mod command;
mod evaluate;
pub(crate) mod flow;
mod terms;
pub(crate) mod value;

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;

use crate::syntax::tree::{BinOp, Block, Chunk, Expr, Field, FuncBody, FuncName, Name, Span, Stat};
pub(crate) use terms::{BindingId, FieldKey, FunctionId, Given};
pub(crate) use value::{Builtin, Value, is_multi};

/// What a binding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BindingKind {
    /// `local x`.
    Local,
    /// `local function f`.
    LocalFunction,
    /// A function's parameter, by position; `arg` and `self` are implicit.
    Parameter(FunctionId, usize),
    /// Redis builds Lua with 5.0 vararg compatibility: a vararg function
    /// has a hidden local `arg`; a method has `self`.
    Implicit,
    /// A `for` loop's variable.
    LoopVariable,
}

/// A name a script binds.
#[derive(Debug)]
pub(crate) struct Binding<'t> {
    pub(crate) kind: BindingKind,
    /// Its declaration's value, then every assignment's, in the order of the text.
    pub(crate) given: Vec<Given<'t>>,
    /// `t.k = v` and `t[k] = v` with this binding as `t`: the key and the value.
    pub(crate) fields: Vec<(FieldKey<'t>, Given<'t>)>,
    /// Whether its value is read other than as a called function's name.
    pub(crate) escapes: bool,
    /// Whether a function other than the one that declares it assigns it:
    /// a closure may run between any two statements, so no read knows
    /// which of its values reach it.
    pub(crate) assigned_elsewhere: bool,
}

/// A function: the main chunk (0) or a function expression.
#[derive(Debug)]
pub(crate) struct Function<'t> {
    /// Its block.
    pub(crate) block: &'t Block,
    /// Its parameters' bindings.
    pub(crate) params: Vec<BindingId>,
    /// Every `return` of its own (not of nested functions): the expressions.
    pub(crate) returns: Vec<&'t [Expr]>,
    /// The span of each `return` statement, in the order of `returns`
    /// (a bare `return` has no expression to point at).
    pub(crate) return_spans: Vec<Span>,
    /// The function around it (the main chunk around itself).
    pub(crate) parent: FunctionId,
    /// The argument lists it is called with, where a call names it directly.
    pub(crate) calls: Vec<&'t [Expr]>,
    /// The local that names it (`local function f`, `local f = function`).
    pub(crate) named_by: Option<BindingId>,
    /// One past the last function nested in it: functions are numbered in
    /// the order of the text, so the ones inside it are `id + 1..end`.
    pub(crate) end: FunctionId,
    /// Where the facts of its body, its nested functions' included, lie.
    pub(crate) extent: Extent,
}

/// Indexes in [`Model::calls`] and [`Model::nil_comparisons`]: the walk records a function's facts one
/// after another, so a callback's rules read its own facts, not the file's.
#[derive(Debug, Clone, Default)]
pub(crate) struct Extent {
    pub(crate) calls: Range<usize>,
    pub(crate) nil_comparisons: Range<usize>,
    pub(crate) names: Range<usize>,
}

/// A comparison with `nil`: `x == nil`, `nil ~= x`.
#[derive(Debug)]
pub(crate) struct NilComparison<'t> {
    /// What is compared with nil.
    pub(crate) subject: &'t Expr,
    /// `==` (true) or `~=`.
    pub(crate) equal: bool,
    pub(crate) span: Span,
    /// The `nil` literal.
    pub(crate) nil: Span,
    /// Whether the comparison is the whole condition of an `if`, `elseif`,
    /// `while` or `until` (in parentheses or not): only its truth counts.
    pub(crate) condition: bool,
    /// The function whose body holds it.
    pub(crate) function: FunctionId,
}

/// How a name is used.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Access<'t> {
    /// Its value is read (passed, called, compared...).
    Read,
    /// `name[key]` or `name.key` is read; `dot` is the member's name as
    /// written after a dot; `whole` spans the indexing.
    Index {
        key: &'t Expr,
        dot: Option<&'t Name>,
        whole: Span,
    },
    /// `name = ...`.
    Assign,
    /// `name[key] = ...` or `name.key = ...`.
    AssignIndex,
    /// `function name()` (`plain`) or `function name.a:b()`.
    FunctionStatement { plain: bool },
}

/// A use of a name: a local's (`binding`) or a global's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameUse<'t> {
    pub(crate) name: &'t Name,
    pub(crate) binding: Option<BindingId>,
    pub(crate) access: Access<'t>,
    /// The function whose body holds it.
    pub(crate) function: FunctionId,
    /// Inside an operand of `or`: a value the script has a fallback for
    /// (`local unpack = unpack or table.unpack`).
    pub(crate) optional: bool,
}

/// A call site: `f(args)`, in the function whose body holds it.
#[derive(Debug)]
pub(crate) struct CallSite<'t> {
    pub(crate) func: &'t Expr,
    pub(crate) args: &'t [Expr],
    pub(crate) span: Span,
    pub(crate) function: FunctionId,
}

/// The environment a script runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Environment {
    /// `EVAL`: KEYS and ARGV are globals.
    Script,
    /// A Functions library: the callbacks get them as parameters.
    Library,
}

/// The semantic model of one script or library.
pub(crate) struct Model<'t> {
    pub(crate) environment: Environment,
    pub(crate) bindings: Vec<Binding<'t>>,
    pub(crate) functions: Vec<Function<'t>>,
    /// Every call, in the order of the text.
    pub(crate) calls: Vec<CallSite<'t>>,
    pub(crate) nil_comparisons: Vec<NilComparison<'t>>,
    /// Every use of a name, in the order of the walk.
    pub(crate) names: Vec<NameUse<'t>>,
    /// Every local declared, in the order of the text (for suggestions).
    pub(crate) declared_names: Vec<&'t str>,
    /// For each of [`Model::declared_names`], how many uses of names the
    /// walk had recorded when it was declared ([`Model::declared_before`]).
    declared_at: Vec<usize>,
    /// For each of [`Model::declared_names`], how many uses of names the
    /// walk had recorded when its scope closed: the uses in its scope are
    /// those from `declared_at` up to this ([`Model::local_scopes`]).
    declared_until: Vec<usize>,
    /// Which functions may run ([`Model::is_live`]), computed once.
    live: std::sync::OnceLock<Vec<bool>>,
    /// Each name expression that reads or writes a local: its binding, by
    /// the name's first byte (unique among names).
    resolved: HashMap<usize, BindingId>,
    /// Each function expression's id, by its body's first byte.
    function_ids: HashMap<usize, FunctionId>,
    /// The parameters of callbacks that hold KEYS (first) and ARGV (second).
    roles: HashMap<BindingId, Builtin>,
    /// Each call's index in [`Model::calls`], by its first byte.
    pub(crate) call_index: HashMap<usize, Vec<usize>>,
    /// For each read of a local (by the name's first byte), the indexes in
    /// its binding's `given` of the values that may reach it: its
    /// declaration or the assignments after it on the way there. A read
    /// not listed may see any of them (in a loop that assigns it, in
    /// another function than the local's).
    pub(crate) reaching: HashMap<usize, Vec<u32>>,
    /// Memoized values of bindings ([`value`]).
    pub(crate) memo: value::Memo<'t>,
}

impl<'t> Model<'t> {
    /// The model of `chunk`, run in `environment`.
    pub(crate) fn build(chunk: &'t Chunk, environment: Environment) -> Model<'t> {
        let mut builder = Builder {
            model: Model {
                environment,
                bindings: Vec::new(),
                functions: vec![Function {
                    block: &chunk.block,
                    params: Vec::new(),
                    returns: Vec::new(),
                    return_spans: Vec::new(),
                    parent: 0,
                    calls: Vec::new(),
                    named_by: None,
                    end: 1,
                    extent: Extent::default(),
                }],
                calls: Vec::new(),
                nil_comparisons: Vec::new(),
                names: Vec::new(),
                declared_names: Vec::new(),
                declared_at: Vec::new(),
                declared_until: Vec::new(),
                live: std::sync::OnceLock::new(),
                resolved: HashMap::new(),
                function_ids: HashMap::new(),
                roles: HashMap::new(),
                call_index: HashMap::new(),
                reaching: HashMap::new(),
                memo: value::Memo::default(),
            },
            in_scope: HashMap::new(),
            reaching: HashMap::new(),
            scopes: vec![Vec::new()],
            function: 0,
            optional: false,
            condition: None,
        };
        let start = builder.counts();
        builder.block(&chunk.block);
        builder.model.functions[0].end = builder.model.functions.len();
        builder.model.functions[0].extent = builder.extent_from(start);
        builder.model.memo = value::Memo::new(builder.model.bindings.len());
        builder.model
    }

    /// The binding `name` (a name expression of this tree) refers to; `None` for a global.
    pub(crate) fn binding_of(&self, name: &Name) -> Option<BindingId> {
        self.resolved.get(&name.span.start).copied()
    }

    /// The function a function expression of this tree creates.
    pub(crate) fn function_of(&self, body: &FuncBody) -> Option<FunctionId> {
        self.function_ids.get(&body.span.start).copied()
    }

    /// Takes the first two parameters of each of `functions` (the callbacks
    /// a library registers) as a Functions callback's KEYS and ARGV.
    pub(crate) fn set_callbacks(&mut self, functions: impl IntoIterator<Item = FunctionId>) {
        for function in functions {
            let params = &self.functions[function].params;
            for (param, role) in params.iter().zip([Builtin::Keys, Builtin::Argv]) {
                self.roles.insert(*param, role);
            }
        }
        self.memo.clear();
    }

    /// The table KEYS or ARGV a binding stands for, as a callback's parameter.
    pub(crate) fn role(&self, binding: BindingId) -> Option<Builtin> {
        self.roles.get(&binding).copied()
    }

    /// The function a binding is declared as (`local function f`, `local f
    /// = function`), whatever it is assigned later.
    pub(crate) fn declared_function(&self, binding: BindingId) -> Option<FunctionId> {
        match self.bindings[binding].given.first()? {
            Given::Function(function) => Some(*function),
            // `local f = function` gives the last value of its list as `Nth`.
            Given::Expr(Expr::Function(body)) | Given::Nth(Expr::Function(body), 0) => {
                self.function_of(body)
            }
            _ => None,
        }
    }

    /// Whether `function` may run: it is the main chunk, an anonymous
    /// function inside one that may run, or a local function named by code
    /// that may run. A local function nothing running names never runs, so
    /// the globals it reads are never looked up.
    pub(crate) fn is_live(&self, function: FunctionId) -> bool {
        let live = self.live.get_or_init(|| self.live_functions());
        live[function]
    }

    /// Whether `function` is `outer` or nested in it, in constant time.
    pub(crate) fn within(&self, function: FunctionId, outer: FunctionId) -> bool {
        (outer..self.functions[outer].end).contains(&function)
    }

    /// Which functions may run, each computed once: a linear pass over the
    /// uses of names, then a search from the main chunk.
    fn live_functions(&self) -> Vec<bool> {
        // The local function each function's code belongs to: itself if a
        // local names it, else its parent's (parents come first).
        let mut owners: Vec<FunctionId> = Vec::with_capacity(self.functions.len());
        for (id, function) in self.functions.iter().enumerate() {
            let owner = if id == 0 || function.named_by.is_some() {
                id
            } else {
                owners[function.parent]
            };
            owners.push(owner);
        }
        // Which local functions each owner's code names: reading the name
        // (to call it, pass it, index it) may run it, assigning it does not.
        let mut names: Vec<Vec<FunctionId>> = vec![Vec::new(); self.functions.len()];
        for used in &self.names {
            if matches!(
                used.access,
                Access::Assign | Access::FunctionStatement { .. }
            ) {
                continue;
            }
            if let Some(named) = used.binding.and_then(|id| self.declared_function(id)) {
                names[owners[used.function]].push(named);
            }
        }
        let mut live_owners = vec![false; self.functions.len()];
        let mut pending = vec![0];
        live_owners[0] = true;
        while let Some(owner) = pending.pop() {
            for &named in &names[owner] {
                if !live_owners[named] {
                    live_owners[named] = true;
                    pending.push(named);
                }
            }
        }
        owners.iter().map(|&owner| live_owners[owner]).collect()
    }

    /// The locals declared before the use `self.names[index]`, in the
    /// order of the text: what a suggestion there may name.
    pub(crate) fn declared_before(&self, index: usize) -> &[&'t str] {
        let count = self.declared_at.partition_point(|&at| at <= index);
        &self.declared_names[..count]
    }

    /// The scopes of the locals called `name`, each as the range of the
    /// indexes in [`Model::names`] of the uses it covers: a use there of
    /// `name` would be that local (or one within it).
    pub(crate) fn local_scopes(&self, name: &str) -> Vec<Range<usize>> {
        self.declared_names
            .iter()
            .zip(self.declared_at.iter().zip(&self.declared_until))
            .filter(|(declared, _)| **declared == name)
            .map(|(_, (&at, &until))| at..until)
            .collect()
    }
}

/// The names `block` assigns (`x = ...`, `function x()`), nested blocks
/// included, functions' bodies not (they run when called).
fn assigned_names<'t>(block: &'t Block, names: &mut HashSet<&'t str>) {
    for stat in &block.stats {
        match stat {
            Stat::Assign { targets, .. } => {
                for target in targets {
                    if let Expr::Name(name) = target {
                        names.insert(&name.text);
                    }
                }
            }
            Stat::Function { name, .. } if name.path.len() == 1 && name.method.is_none() => {
                names.insert(&name.path[0].text);
            }
            Stat::Do(inner)
            | Stat::While { block: inner, .. }
            | Stat::Repeat { block: inner, .. }
            | Stat::NumericFor { block: inner, .. }
            | Stat::GenericFor { block: inner, .. } => assigned_names(inner, names),
            Stat::If {
                arms, otherwise, ..
            } => {
                for (_, inner) in arms {
                    assigned_names(inner, names);
                }
                if let Some(inner) = otherwise {
                    assigned_names(inner, names);
                }
            }
            _ => {}
        }
    }
}

/// The names Lua declares without the script writing them.
static IMPLICIT_SELF: LazyLock<Name> = LazyLock::new(|| Name {
    text: "self".to_owned(),
    span: Span::default(),
});
static IMPLICIT_ARG: LazyLock<Name> = LazyLock::new(|| Name {
    text: "arg".to_owned(),
    span: Span::default(),
});

/// What `local a, b, c = e1, e2` gives the name at `index`: the value of
/// its expression, the rest of a last multi-value expression, or nil.
fn given_at(exprs: &[Expr], index: usize) -> Given<'_> {
    match exprs.get(index) {
        Some(expr) if index + 1 < exprs.len() => Given::Expr(expr),
        Some(expr) => Given::Nth(expr, 0),
        None => match exprs.last() {
            Some(last) if value::is_multi(last) => Given::Nth(last, index + 1 - exprs.len()),
            _ => Given::Nil,
        },
    }
}

/// The one walk that builds the model.
struct Builder<'t> {
    model: Model<'t>,
    /// The bindings each name has in scope, innermost last.
    in_scope: HashMap<&'t str, Vec<BindingId>>,
    /// The names each open block declared, innermost last, each with its
    /// index in [`Model::declared_names`] (`None` for an implicit one).
    scopes: Vec<Vec<(&'t str, Option<usize>)>>,
    /// The function being walked.
    function: FunctionId,
    /// Inside an operand of `or`.
    optional: bool,
    /// The span of the condition being walked (without its parentheses).
    condition: Option<Span>,
    /// The locals of the function being walked, each with its values that
    /// reach the point of the walk.
    reaching: Reaching,
}

/// What reaches each local at a point of the walk.
type Reaching = HashMap<BindingId, Reach>;

/// Which of a local's values (indexes in its `given`) reach a point.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reach {
    /// Any of them.
    Any,
    One(u32),
    /// These, sorted.
    Some(std::rc::Rc<[u32]>),
}

impl Reach {
    fn values(&self) -> Option<Vec<u32>> {
        match self {
            Reach::Any => None,
            Reach::One(value) => Some(vec![*value]),
            Reach::Some(values) => Some(values.to_vec()),
        }
    }
}

/// The values that reach a point from any of `states` (each a way there),
/// for the locals `before` knows.
fn merge(before: &Reaching, states: &[Reaching]) -> Reaching {
    before
        .keys()
        .map(|&id| {
            let reaches: Vec<&Reach> = states.iter().filter_map(|state| state.get(&id)).collect();
            if reaches.len() < states.len() || reaches.contains(&&Reach::Any) {
                return (id, Reach::Any);
            }
            if let Some(first) = reaches.first()
                && reaches.iter().all(|reach| reach == first)
            {
                return (id, (*first).clone());
            }
            let mut all: Vec<u32> = reaches
                .iter()
                .filter_map(|reach| reach.values())
                .flatten()
                .collect();
            all.sort_unstable();
            all.dedup();
            // Past as many alternatives as a value keeps, any of them:
            // a local assigned in each of many branches costs no more.
            if all.len() > value::MAX_ALTERNATIVES {
                return (id, Reach::Any);
            }
            (id, Reach::Some(all.into()))
        })
        .collect()
}

impl<'t> Builder<'t> {
    fn declare(&mut self, name: &'t Name, kind: BindingKind, given: Given<'t>) -> BindingId {
        let id = self.model.bindings.len();
        self.model.bindings.push(Binding {
            kind,
            given: vec![given],
            fields: Vec::new(),
            escapes: false,
            assigned_elsewhere: false,
        });
        self.reaching.insert(id, Reach::One(0));
        self.in_scope.entry(&name.text).or_default().push(id);
        let declared = (kind != BindingKind::Implicit).then(|| {
            self.model.declared_names.push(&name.text);
            self.model.declared_at.push(self.model.names.len());
            // Until its scope closes; the main chunk's never does.
            self.model.declared_until.push(usize::MAX);
            self.model.declared_names.len() - 1
        });
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((&name.text, declared));
        }
        id
    }

    /// Records a use of `name`, resolved in the scope of the walk.
    fn use_name(&mut self, name: &'t Name, access: Access<'t>) -> Option<BindingId> {
        let binding = self.lookup(&name.text);
        if let Some(id) = binding {
            self.model.resolved.insert(name.span.start, id);
            if matches!(access, Access::Read | Access::Index { .. })
                && let Some(values) = self.reaching.get(&id).and_then(Reach::values)
            {
                self.model.reaching.insert(name.span.start, values);
            }
        }
        self.model.names.push(NameUse {
            name,
            binding,
            access,
            function: self.function,
            optional: self.optional,
        });
        binding
    }

    /// How many calls and nil comparisons are recorded so far.
    fn counts(&self) -> [usize; 3] {
        [
            self.model.calls.len(),
            self.model.nil_comparisons.len(),
            self.model.names.len(),
        ]
    }

    /// The facts recorded since [`Builder::counts`] gave `start`.
    fn extent_from(&self, start: [usize; 3]) -> Extent {
        let [calls, nil_comparisons, names] = self.counts();
        Extent {
            calls: start[0]..calls,
            nil_comparisons: start[1]..nil_comparisons,
            names: start[2]..names,
        }
    }

    fn lookup(&self, name: &str) -> Option<BindingId> {
        self.in_scope.get(name).and_then(|ids| ids.last()).copied()
    }

    fn open(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn close(&mut self) {
        let closed_at = self.model.names.len();
        for (name, declared) in self.scopes.pop().unwrap_or_default() {
            if let Some(ids) = self.in_scope.get_mut(name)
                && let Some(id) = ids.pop()
            {
                // Out of scope: nothing reads it again.
                self.reaching.remove(&id);
            }
            if let Some(declared) = declared {
                self.model.declared_until[declared] = closed_at;
            }
        }
    }

    fn block(&mut self, block: &'t Block) {
        self.open();
        self.block_in_scope(block);
        self.close();
    }

    fn block_in_scope(&mut self, block: &'t Block) {
        for stat in &block.stats {
            self.stat(stat);
        }
        if let Some(ret) = &block.ret {
            self.exprs(&ret.exprs);
            let function = &mut self.model.functions[self.function];
            function.returns.push(&ret.exprs);
            function.return_spans.push(ret.span);
        }
    }

    fn stat(&mut self, stat: &'t Stat) {
        match stat {
            Stat::Local { names, exprs, .. } => {
                self.exprs(exprs);
                for (index, name) in names.iter().enumerate() {
                    let given = given_at(exprs, index);
                    let id = self.declare(name, BindingKind::Local, given);
                    if let Some(Expr::Function(body)) = exprs.get(index)
                        && let Some(function) = self.model.function_of(body)
                    {
                        self.model.functions[function].named_by = Some(id);
                    }
                }
            }
            Stat::LocalFunction { name, func, .. } => {
                // The function sees its own name: declared first, given
                // its value once the body has an id.
                let id = self.declare(name, BindingKind::LocalFunction, Given::Unknown);
                let function = self.function(func, false);
                self.model.bindings[id].given[0] = Given::Function(function);
                self.model.functions[function].named_by = Some(id);
            }
            Stat::Function { name, func, .. } => {
                // The name is used (and judged) before the body, as the
                // text reads; the body's id is the next one.
                let binding = self.function_name_use(name);
                let function = self.function(func, name.method.is_some());
                if let Some(id) = binding {
                    self.function_name(name, id, function);
                }
            }
            Stat::Assign { targets, exprs, .. } => {
                self.exprs(exprs);
                for (index, target) in targets.iter().enumerate() {
                    self.assign(target, given_at(exprs, index));
                }
                // `a, a = 1, 2`: which value stays is Lua's choice.
                let mut seen = Vec::new();
                for target in targets {
                    if let Expr::Name(name) = target
                        && let Some(id) = self.lookup(&name.text)
                    {
                        if seen.contains(&id) {
                            self.any_values(&[id]);
                        }
                        seen.push(id);
                    }
                }
            }
            Stat::Call(call) => self.expr(call),
            Stat::Do(block) => self.block(block),
            Stat::While { cond, block, .. } => {
                let assigned = self.loop_assigns(block);
                self.condition(cond);
                self.block(block);
                self.any_values(&assigned);
            }
            Stat::Repeat { block, cond, .. } => {
                let assigned = self.loop_assigns(block);
                // `until` sees the body's locals.
                self.open();
                self.block_in_scope(block);
                self.condition(cond);
                self.close();
                self.any_values(&assigned);
            }
            Stat::If {
                arms, otherwise, ..
            } => {
                let before = self.reaching.clone();
                let mut ends = Vec::new();
                for (cond, block) in arms {
                    self.reaching = before.clone();
                    self.condition(cond);
                    ends.extend(self.way(block, &before));
                }
                match otherwise {
                    Some(block) => ends.extend(self.way(block, &before)),
                    None => ends.push(before.clone()),
                }
                self.reaching = merge(&before, &ends);
            }
            Stat::NumericFor {
                var,
                start,
                stop,
                step,
                block,
                ..
            } => {
                self.expr(start);
                self.expr(stop);
                if let Some(step) = step {
                    self.expr(step);
                }
                let assigned = self.loop_assigns(block);
                self.open();
                self.declare(var, BindingKind::LoopVariable, Given::Number);
                self.block(block);
                self.close();
                self.any_values(&assigned);
            }
            Stat::GenericFor {
                names,
                exprs,
                block,
                ..
            } => {
                self.exprs(exprs);
                let assigned = self.loop_assigns(block);
                self.open();
                for (index, name) in names.iter().enumerate() {
                    self.declare(name, BindingKind::LoopVariable, Given::Loop(exprs, index));
                }
                self.block(block);
                self.close();
                self.any_values(&assigned);
            }
            Stat::Break(_) => {}
        }
    }

    /// `function a.b:c()`: the use of `a`, and its binding if a local.
    fn function_name_use(&mut self, name: &'t FuncName) -> Option<BindingId> {
        let first = name.path.first()?;
        let plain = name.path.len() == 1 && name.method.is_none();
        self.use_name(first, Access::FunctionStatement { plain })
    }

    /// `function a.b:c()` with a local `a` (`id`): an assignment to it or
    /// to one of its fields.
    fn function_name(&mut self, name: &'t FuncName, id: BindingId, function: FunctionId) {
        match (&name.path[1..], &name.method) {
            // `function f()` with a local `f`: a new value for it.
            ([], None) => {
                self.model.bindings[id]
                    .given
                    .push(Given::Function(function));
                self.assigned(id);
            }
            ([field], None) | ([], Some(field)) => self.model.bindings[id].fields.push((
                FieldKey::Name(field.text.as_bytes()),
                Given::Function(function),
            )),
            _ => {}
        }
    }

    /// The local `id` was just given its last value: from here on only
    /// that reaches, in the function that declares it.
    fn assigned(&mut self, id: BindingId) {
        let last = self.model.bindings[id].given.len() as u32 - 1;
        match self.reaching.get_mut(&id) {
            Some(values) => *values = Reach::One(last),
            None => self.model.bindings[id].assigned_elsewhere = true,
        }
    }

    /// Walks `block` as a way that may be taken: from what reaches before,
    /// giving what reaches at its end (`None` when it never ends there:
    /// it returns or raises).
    fn way(&mut self, block: &'t Block, before: &Reaching) -> Option<Reaching> {
        if self.reaching != *before {
            self.reaching = before.clone();
        }
        self.block(block);
        let after = std::mem::take(&mut self.reaching);
        (!flow::terminates(block)).then_some(after)
    }

    /// Before a loop: the locals it assigns may hold any of their values
    /// at any point of it, and after it.
    /// (Called before the loop and again after it, with what the first
    /// call gave.)
    fn loop_assigns(&mut self, block: &'t Block) -> Vec<BindingId> {
        let mut names = HashSet::new();
        assigned_names(block, &mut names);
        let ids: Vec<BindingId> = names
            .into_iter()
            .filter_map(|name| self.lookup(name))
            .collect();
        self.any_values(&ids);
        ids
    }

    fn any_values(&mut self, ids: &[BindingId]) {
        for id in ids {
            if let Some(values) = self.reaching.get_mut(id) {
                *values = Reach::Any;
            }
        }
    }

    fn assign(&mut self, target: &'t Expr, given: Given<'t>) {
        match target {
            Expr::Name(name) => {
                if let Some(id) = self.use_name(name, Access::Assign) {
                    self.model.bindings[id].given.push(given);
                    self.assigned(id);
                }
            }
            Expr::Index { obj, key, .. } => {
                if let Expr::Name(table) = &**obj {
                    if let Some(id) = self.use_name(table, Access::AssignIndex) {
                        self.model.bindings[id]
                            .fields
                            .push((FieldKey::of(key), given));
                    }
                } else {
                    self.expr(obj);
                }
                self.expr(key);
            }
            other => self.expr(other),
        }
    }

    /// A function's body: a new function of the model.
    fn function(&mut self, func: &'t FuncBody, is_method: bool) -> FunctionId {
        let id = self.model.functions.len();
        self.model.functions.push(Function {
            block: &func.block,
            params: Vec::new(),
            returns: Vec::new(),
            return_spans: Vec::new(),
            parent: self.function,
            calls: Vec::new(),
            named_by: None,
            end: id + 1,
            extent: Extent::default(),
        });
        let start = self.counts();
        self.model.function_ids.insert(func.span.start, id);
        let outer = std::mem::replace(&mut self.function, id);
        // A function body runs on its own, whatever expression created it,
        // whenever it is called: the outer locals it reads may hold any of
        // their values.
        let outer_optional = std::mem::replace(&mut self.optional, false);
        let outer_reaching = std::mem::take(&mut self.reaching);
        self.open();
        if is_method {
            self.declare(&IMPLICIT_SELF, BindingKind::Implicit, Given::Unknown);
        }
        for (index, param) in func.params.iter().enumerate() {
            let binding = self.declare(param, BindingKind::Parameter(id, index), Given::Unknown);
            self.model.functions[id].params.push(binding);
        }
        if func.is_vararg {
            self.declare(&IMPLICIT_ARG, BindingKind::Implicit, Given::Unknown);
        }
        self.block(&func.block);
        self.close();
        self.model.functions[id].end = self.model.functions.len();
        self.model.functions[id].extent = self.extent_from(start);
        self.function = outer;
        self.optional = outer_optional;
        self.reaching = outer_reaching;
        id
    }

    fn exprs(&mut self, exprs: &'t [Expr]) {
        for expr in exprs {
            self.expr(expr);
        }
    }

    fn expr(&mut self, expr: &'t Expr) {
        match expr {
            Expr::Nil(_)
            | Expr::True(_)
            | Expr::False(_)
            | Expr::Number(..)
            | Expr::String(..)
            | Expr::Vararg(_) => {}
            Expr::Function(func) => {
                self.function(func, false);
            }
            Expr::Table(fields, _) => {
                for field in fields {
                    match field {
                        Field::Positional(value) | Field::Named(_, value) => self.expr(value),
                        Field::Keyed(key, value) => {
                            self.expr(key);
                            self.expr(value);
                        }
                    }
                }
            }
            Expr::Binary { .. } => self.binary_chain(expr),
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) => self.expr(expr),
            Expr::Name(name) => self.read(name, true),
            Expr::Index { .. } | Expr::Call { .. } | Expr::Method { .. } => self.suffix_chain(expr),
        }
    }

    /// The condition of an `if`, `elseif`, `while` or `until`.
    fn condition(&mut self, cond: &'t Expr) {
        let mut whole = cond;
        while let Expr::Paren(inner, _) = whole {
            whole = inner;
        }
        let outer = self.condition.replace(whole.span());
        self.expr(cond);
        self.condition = outer;
    }

    fn read(&mut self, name: &'t Name, escapes: bool) {
        if let Some(id) = self.use_name(name, Access::Read)
            && escapes
        {
            self.model.bindings[id].escapes = true;
        }
    }

    /// `a op b op c ...`: a left-associative chain as deep as it is long,
    /// walked in a loop.
    fn binary_chain(&mut self, expr: &'t Expr) {
        let outer = self.optional;
        let mut optional = outer;
        let mut rights = Vec::new();
        let mut node = expr;
        while let Expr::Binary { op, lhs, rhs, span } = node {
            optional |= *op == BinOp::Or;
            if matches!(op, BinOp::Eq | BinOp::Ne) {
                let compared = match (&**lhs, &**rhs) {
                    (subject, Expr::Nil(nil)) | (Expr::Nil(nil), subject) => Some((subject, nil)),
                    _ => None,
                };
                if let Some((subject, nil)) = compared {
                    self.model.nil_comparisons.push(NilComparison {
                        subject,
                        equal: *op == BinOp::Eq,
                        span: *span,
                        nil: *nil,
                        condition: self.condition == Some(*span),
                        function: self.function,
                    });
                }
            }
            rights.push((&**rhs, optional));
            node = lhs;
        }
        self.optional = optional;
        self.expr(node);
        for (rhs, optional) in rights.into_iter().rev() {
            self.optional = optional;
            self.expr(rhs);
        }
        self.optional = outer;
    }

    /// `a.b[c]:m(d)(e)...`: a chain of suffixes as deep as it is long,
    /// walked in a loop down to its start, then each suffix in order.
    fn suffix_chain(&mut self, expr: &'t Expr) {
        // Each suffix's expressions, and whether a table named among them
        // stays where it is (an argument of `ipairs`, `unpack`...).
        let mut rest: Vec<(&'t [Expr], bool)> = Vec::new();
        let mut node = expr;
        loop {
            match node {
                Expr::Index {
                    obj,
                    key,
                    dot,
                    span,
                } => {
                    rest.push((std::slice::from_ref(&**key), false));
                    if let Expr::Name(name) = &**obj {
                        let access = Access::Index {
                            key,
                            dot: dot.as_ref(),
                            whole: *span,
                        };
                        self.use_name(name, access);
                        break;
                    }
                    node = obj;
                }
                Expr::Call { func, args, span } => {
                    let index = self.model.calls.len();
                    self.model
                        .call_index
                        .entry(span.start)
                        .or_default()
                        .push(index);
                    self.model.calls.push(CallSite {
                        func,
                        args,
                        span: *span,
                        function: self.function,
                    });
                    if let Expr::Name(name) = &**func {
                        // Calling a local function by its name: its
                        // arguments flow into its parameters.
                        let binding = self.use_name(name, Access::Read);
                        if let Some(function) =
                            binding.and_then(|id| self.model.declared_function(id))
                        {
                            self.model.functions[function].calls.push(args);
                        }
                        let reads_only = binding.is_none() && READS_ONLY.contains(&&*name.text);
                        rest.push((args, reads_only));
                        break;
                    }
                    rest.push((args, false));
                    node = func;
                }
                Expr::Method { obj, args, .. } => {
                    rest.push((args, false));
                    node = obj;
                }
                _ => {
                    self.expr(node);
                    break;
                }
            }
        }
        for (exprs, reads_only) in rest.into_iter().rev() {
            for expr in exprs {
                match expr {
                    Expr::Name(name) if reads_only => self.read(name, false),
                    _ => self.expr(expr),
                }
            }
        }
    }
}

/// Globals of the sandbox that read the tables they are given and keep no
/// hold of them: a table passed to one still holds what the script put there.
const READS_ONLY: &[&str] = &[
    "ipairs", "pairs", "unpack", "next", "select", "type", "tostring", "tonumber",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parser::parse;

    #[test]
    fn nested_functions_are_a_range_of_ids() {
        let source = "local function a() return function() return function() end end end\n\
                      local function b() end return a, b";
        let chunk = parse(source).unwrap();
        let model = Model::build(&chunk, Environment::Script);
        // 0: main, 1: a, 2 and 3 inside a, 4: b.
        assert_eq!(model.functions.len(), 5);
        assert_eq!(
            model.functions.iter().map(|f| f.end).collect::<Vec<_>>(),
            [5, 4, 4, 4, 5]
        );
        assert!(model.within(3, 1) && model.within(3, 2) && model.within(1, 1));
        assert!(!model.within(4, 1) && !model.within(1, 2) && model.within(4, 0));
    }

    #[test]
    fn liveness_follows_a_long_chain_in_one_pass() {
        // f1 is named by f2, f2 by f3, ...: found live from the main chunk
        // by one search over the names, not a fixpoint over every pair.
        // (Lua allows 200 locals in a function.)
        let count = 190;
        let mut source = String::from("local function f0() return missing end\n");
        for i in 1..count {
            source.push_str(&format!("local function f{i}() return f{}() end\n", i - 1));
        }
        let called = format!("{source}return f{}()", count - 1);
        let chunk = parse(&called).unwrap();
        let model = Model::build(&chunk, Environment::Script);
        assert!((0..model.functions.len()).all(|f| model.is_live(f)));
        let uncalled = format!("{source}return 1");
        let chunk = parse(&uncalled).unwrap();
        let model = Model::build(&chunk, Environment::Script);
        assert!((1..model.functions.len()).all(|f| !model.is_live(f)));
        // Assigning a local function does not run it.
        let chunk = parse("local function f() return missing end f = nil return 1").unwrap();
        let model = Model::build(&chunk, Environment::Script);
        assert!(!model.is_live(1));
        // `local f = function` names its function too.
        let chunk = parse("local f = function() end return f()").unwrap();
        let model = Model::build(&chunk, Environment::Script);
        assert_eq!(model.functions[1].named_by, Some(0));
        assert!(model.is_live(1));
    }

    #[test]
    fn a_use_sees_the_locals_declared_before_it() {
        let chunk = parse("local a = 1 print(a) local b = 2 print(b) function c() end").unwrap();
        let model = Model::build(&chunk, Environment::Script);
        let seen: Vec<(&str, &[&str])> = model
            .names
            .iter()
            .enumerate()
            .map(|(index, used)| (used.name.text.as_str(), model.declared_before(index)))
            .collect();
        assert_eq!(
            seen,
            [
                ("print", &["a"][..]),
                ("a", &["a"][..]),
                ("print", &["a", "b"][..]),
                ("b", &["a", "b"][..]),
                ("c", &["a", "b"][..]),
            ]
        );
    }

    #[test]
    fn a_function_statement_is_used_before_its_body() {
        let chunk = parse("function f() return g end").unwrap();
        let model = Model::build(&chunk, Environment::Script);
        let order: Vec<&str> = model.names.iter().map(|u| u.name.text.as_str()).collect();
        assert_eq!(order, ["f", "g"]);
    }

    /// The value of the last argument of the script's last call.
    fn last_argument(source: &str) -> String {
        let chunk = parse(source).unwrap();
        let model = Model::build(&chunk, Environment::Script);
        let site = model.calls.last().expect("a call");
        format!("{:?}", model.value(site.args.last().expect("an argument")))
    }

    #[test]
    fn a_read_sees_the_values_that_reach_it() {
        // A declaration, then assignments: only the last reaches.
        assert_eq!(
            last_argument("local x x = 'a' x = 'b' print(x)"),
            r#"Text([98])"#
        );
        // Both ways of an `if`, not the declaration's nil.
        assert_eq!(
            last_argument("local x if ARGV[1] then x = 'a' else x = 'b' end print(x)"),
            r#"OneOf([Text([97]), Text([98])])"#
        );
        // One way only: the declaration's value too.
        assert_eq!(
            last_argument("local x = 'a' if ARGV[1] then x = 'b' end print(x)"),
            r#"OneOf([Text([97]), Text([98])])"#
        );
        // A way that returns takes its value with it.
        assert_eq!(
            last_argument("local x = 'a' if ARGV[1] then x = 'b' return end print(x)"),
            r#"Text([97])"#
        );
        // In and after a loop that assigns it: any of its values.
        assert_eq!(
            last_argument("local x = 'a' for i = 1, 2 do print(x) x = 'b' end print(x)"),
            r#"OneOf([Text([97]), Text([98])])"#
        );
        // Assigned twice in one statement: either.
        assert_eq!(
            last_argument("local t t, t = 60, 'x' print(t)"),
            r#"OneOf([Nil, Number(Some(60.0)), Text([120])])"#
        );
        // A `break` may leave the loop before its `return`.
        assert_eq!(
            last_argument(
                "local x = 'a' if ARGV[1] then repeat x = 'b' if ARGV[2] then break end \
                 return 0 until true end print(x)"
            ),
            r#"OneOf([Text([97]), Text([98])])"#
        );
        // Assigned by a function, which may run anywhere: any of them.
        assert_eq!(
            last_argument("local x = 'a' local function f() x = 'b' end f() x = 'c' print(x)"),
            r#"OneOf([Text([97]), Text([98]), Text([99])])"#
        );
    }

    #[test]
    fn unpack_from_a_bound_the_text_does_not_settle_gives_any_element() {
        assert_eq!(
            last_argument("for i = 1, #KEYS, 2 do local k = unpack(KEYS, i, i + 1) print(k) end"),
            "Key(None)"
        );
        assert_eq!(
            last_argument("local a = unpack(ARGV, 2) print(a)"),
            "Arg(Some(2))"
        );
    }
}
