//! The scope walk: every name the script reads or writes, against its
//! locals and the sandbox of each targeted server (globals, library
//! members, read-only libraries). On the way it hands each literal-named
//! command call to [`super::command_calls`] and records the script's reads
//! of KEYS and ARGV for [`super::arity`].

use std::collections::HashMap;

use super::Declared;
use super::arity::{Table, Uses};
use super::command_calls;
use crate::diagnostic::{Diagnostic, Rule, Target};
use crate::sandbox;
use crate::servers::{Servers, only_on_note};
use crate::suggest::{did_you_mean, suggest};
use crate::syntax::tree::{BinOp, Block, Chunk, Expr, Field, FuncBody, FuncName, Name, Span, Stat};

/// Walks `chunk`: the findings on its names, and how it uses KEYS and ARGV.
pub(super) fn walk(chunk: &Chunk, declared: &Declared) -> (Vec<Diagnostic>, Uses) {
    let (diagnostics, uses, _) = walk_in(chunk, declared, None);
    (diagnostics, uses)
}

/// A Redis Functions library, as its functions run: no KEYS or ARGV
/// globals; the callbacks checked, each by its body's block span and
/// whether it is registered `no-writes` (their first parameter is KEYS,
/// their second ARGV, and the flag holds inside them alone). One walk
/// checks them all: a library's cost is its size, not its size times its
/// functions.
#[derive(Debug, Clone, Default)]
pub(super) struct FunctionEnv {
    /// Each callback's index in the list, and its read-only flag, by the
    /// start of its body's block.
    callbacks: HashMap<usize, (usize, bool)>,
}

impl FunctionEnv {
    /// The environment of a library whose checked callbacks are `callbacks`.
    pub(super) fn new(callbacks: impl IntoIterator<Item = (Span, bool)>) -> FunctionEnv {
        let callbacks = callbacks
            .into_iter()
            .enumerate()
            .map(|(index, (block, read_only))| (block.start, (index, read_only)))
            .collect();
        FunctionEnv { callbacks }
    }
}

/// [`walk`], in a script's environment or (`function`) a library's; in a
/// library, the uses of KEYS and ARGV are each callback's, in the order of
/// [`FunctionEnv::new`].
pub(super) fn walk_in(
    chunk: &Chunk,
    declared: &Declared,
    function: Option<FunctionEnv>,
) -> (Vec<Diagnostic>, Uses, Vec<Uses>) {
    let first = walk_once(chunk, declared, function.clone(), Vec::new());
    // A local function that nothing running ever names never runs, so the
    // globals it reads are never looked up (a shared helper whose free names
    // the including script declares, unused by this script). When there is
    // one, walk again with its reads of globals left unjudged.
    let dead = first.dead_functions();
    if dead.is_empty() {
        return (first.diagnostics, first.uses, first.callback_uses);
    }
    let again = walk_once(chunk, declared, function, dead);
    (again.diagnostics, again.uses, again.callback_uses)
}

fn walk_once(
    chunk: &Chunk,
    declared: &Declared,
    function: Option<FunctionEnv>,
    dead: Vec<Span>,
) -> Walker {
    let callbacks = function.as_ref().map_or(0, |env| env.callbacks.len());
    let mut walker = Walker {
        declared: Declared {
            read_only: declared.read_only && function.is_none(),
            ..declared.clone()
        },
        function,
        callback_uses: std::iter::repeat_with(Uses::default)
            .take(callbacks)
            .collect(),
        scopes: vec![Vec::new()],
        seen_locals: Vec::new(),
        uses: Uses::default(),
        diagnostics: Vec::new(),
        reported: Vec::new(),
        optional: false,
        aliases: 0,
        reassigned: Vec::new(),
        alias_calls: Vec::new(),
        current_function: None,
        local_functions: Vec::new(),
        function_refs: Vec::new(),
        dead,
        in_dead: false,
    };
    walker.block(&chunk.block);
    // A call through an alias is checked once the walk has seen every
    // assignment: an alias assigned anywhere may hold something else.
    for call in std::mem::take(&mut walker.alias_calls) {
        if !walker.reassigned.contains(&call.alias) {
            let redis_call = command_calls::RedisCall {
                library: "redis",
                name: call.name,
                span: call.span,
            };
            command_calls::check(
                &redis_call,
                &call.args,
                &call.declared,
                &mut walker.diagnostics,
            );
        }
    }
    walker
}

/// A command call through an alias of `redis.call` (`rcall('GET', k)`).
struct AliasCall {
    /// The alias's number.
    alias: usize,
    /// The command name, lower case.
    name: String,
    span: Span,
    args: Vec<Expr>,
    /// The declaration in force at the call.
    declared: Declared,
}

struct Local {
    name: String,
    /// A callback's parameter that holds the keys or the arguments.
    role: Option<Table>,
    /// For `local rcall = redis.call` (or `pcall`), BullMQ's idiom: the
    /// alias's number, so that calls through it are checked as commands.
    alias: Option<usize>,
    /// A local function (`local function f`, `local f = function`): its body.
    function: Option<Span>,
}

struct Walker {
    /// The declaration; its `read_only` is the one in force where the walk is.
    declared: Declared,
    /// In a library: where the checked callbacks are.
    function: Option<FunctionEnv>,
    /// In a library: each checked callback's uses of its KEYS and ARGV.
    callback_uses: Vec<Uses>,
    /// Locals in scope, innermost block last.
    scopes: Vec<Vec<Local>>,
    /// Every local declared so far, for "did you mean" suggestions.
    seen_locals: Vec<String>,
    /// The reads of KEYS and ARGV.
    uses: Uses,
    diagnostics: Vec<Diagnostic>,
    /// Globals already reported: one mistake, one error, however often the
    /// name is used.
    reported: Vec<String>,
    /// Inside an operand of `or`: a value the script has a fallback for, so
    /// a missing library member or an absent ARGV value is no mistake
    /// (`local unpack = unpack or table.unpack`).
    optional: bool,
    /// Aliases of `redis.call` declared so far.
    aliases: usize,
    /// The aliases some assignment gives another value.
    reassigned: Vec<usize>,
    /// Calls through aliases, checked at the end of the walk.
    alias_calls: Vec<AliasCall>,
    /// The body of the innermost local function the walk is in (an
    /// anonymous function belongs to the one around it).
    current_function: Option<Span>,
    /// The bodies of every local function.
    local_functions: Vec<Span>,
    /// Each name of a local function read: from which local function's
    /// body (`None`: the main chunk), to which.
    function_refs: Vec<(Option<Span>, Span)>,
    /// Local functions that never run (from a first walk): the globals they
    /// read are not reported.
    dead: Vec<Span>,
    /// Inside one of `dead`.
    in_dead: bool,
}

impl Walker {
    /// The local functions that never run: named by no code that runs (the
    /// main chunk, or a local function that runs).
    fn dead_functions(&self) -> Vec<Span> {
        let mut live: Vec<Span> = Vec::new();
        loop {
            let before = live.len();
            for (from, to) in &self.function_refs {
                if from.is_none_or(|from| live.contains(&from)) && !live.contains(to) {
                    live.push(*to);
                }
            }
            if live.len() == before {
                break;
            }
        }
        self.local_functions
            .iter()
            .filter(|body| !live.contains(body))
            .copied()
            .collect()
    }

    /// Whether `name` is reported for the first time (and notes it).
    fn first_report(&mut self, name: &str) -> bool {
        if self.reported.iter().any(|reported| reported == name) {
            return false;
        }
        self.reported.push(name.to_owned());
        true
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().flatten().any(|local| local.name == name)
    }

    fn declare(&mut self, name: &Name) {
        self.declare_as(name, None);
    }

    fn declare_as(&mut self, name: &Name, role: Option<Table>) {
        self.seen_locals.push(name.text.clone());
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Local {
                name: name.text.clone(),
                role,
                alias: None,
                function: None,
            });
        }
    }

    /// The innermost local named `name`.
    fn local(&self, name: &str) -> Option<&Local> {
        self.scopes
            .iter()
            .flatten()
            .rev()
            .find(|local| local.name == name)
    }

    /// Whether `expr` is KEYS or ARGV: the global in a script, the
    /// callback's parameter in a library.
    fn table_ref(&self, expr: &Expr) -> Option<Table> {
        let Expr::Name(name) = expr else {
            return None;
        };
        match self.local(&name.text) {
            Some(local) => local.role,
            None if self.function.is_some() => None,
            None => [Table::Keys, Table::Argv]
                .into_iter()
                .find(|table| table.name() == name.text),
        }
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
    }

    fn block(&mut self, block: &Block) {
        self.scoped(|walker| walker.block_in_scope(block));
    }

    fn block_in_scope(&mut self, block: &Block) {
        for stat in &block.stats {
            self.stat(stat);
        }
        if let Some(ret) = &block.ret {
            self.exprs(&ret.exprs);
        }
    }

    fn stat(&mut self, stat: &Stat) {
        match stat {
            Stat::Local { names, exprs, .. } => {
                for (index, expr) in exprs.iter().enumerate() {
                    match expr {
                        Expr::Function(func) if index < names.len() => self.local_function(func),
                        _ => self.expr(expr),
                    }
                }
                for (index, name) in names.iter().enumerate() {
                    let aliases = exprs
                        .get(index)
                        .is_some_and(|expr| self.is_redis_call(expr));
                    self.declare(name);
                    if let Some(Expr::Function(func)) = exprs.get(index) {
                        self.mark_function(func.span);
                    }
                    if aliases {
                        self.aliases += 1;
                        let number = self.aliases;
                        if let Some(local) =
                            self.scopes.last_mut().and_then(|scope| scope.last_mut())
                        {
                            local.alias = Some(number);
                        }
                    }
                }
            }
            Stat::LocalFunction { name, func, .. } => {
                self.declare(name);
                self.mark_function(func.span);
                self.local_function(func);
            }
            Stat::Function { name, func, .. } => {
                self.function_name(name);
                self.function(func, name.method.is_some());
            }
            Stat::Assign { targets, exprs, .. } => {
                self.exprs(exprs);
                for target in targets {
                    self.assign_target(target);
                }
            }
            Stat::Call(call) => self.expr(call),
            Stat::Do(block) => self.block(block),
            Stat::While { cond, block, .. } => {
                self.expr(cond);
                self.block(block);
            }
            Stat::Repeat { block, cond, .. } => self.scoped(|walker| {
                // `until` sees the body's locals.
                walker.block_in_scope(block);
                walker.expr(cond);
            }),
            Stat::If {
                arms, otherwise, ..
            } => {
                for (cond, block) in arms {
                    self.expr(cond);
                    self.block(block);
                }
                if let Some(block) = otherwise {
                    self.block(block);
                }
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
                self.scoped(|walker| {
                    walker.declare(var);
                    walker.block(block);
                });
            }
            Stat::GenericFor {
                names,
                exprs,
                block,
                ..
            } => {
                self.exprs(exprs);
                self.scoped(|walker| {
                    for name in names {
                        walker.declare(name);
                    }
                    walker.block(block);
                });
            }
            Stat::Break(_) => {}
        }
    }

    /// The local just declared is the local function whose body is `body`.
    fn mark_function(&mut self, body: Span) {
        self.local_functions.push(body);
        if let Some(local) = self.scopes.last_mut().and_then(|scope| scope.last_mut()) {
            local.function = Some(body);
        }
    }

    /// A local function's body: the walk is in it (and, when it never
    /// runs, in dead code).
    fn local_function(&mut self, func: &FuncBody) {
        let outer = self.current_function.replace(func.span);
        let outer_dead = self.in_dead;
        self.in_dead |= self.dead.contains(&func.span);
        self.function(func, false);
        self.in_dead = outer_dead;
        self.current_function = outer;
    }

    fn function(&mut self, func: &FuncBody, is_method: bool) {
        // A function body runs on its own, whatever expression created it.
        let outer = std::mem::replace(&mut self.optional, false);
        self.scoped(|walker| {
            // Redis builds Lua with 5.0 vararg compatibility: a vararg
            // function has a hidden local `arg` holding its extra arguments.
            if func.is_vararg {
                walker.declare(&Name {
                    text: "arg".to_owned(),
                    span: func.span,
                });
            }
            if is_method {
                walker.declare(&Name {
                    text: "self".to_owned(),
                    span: func.span,
                });
            }
            let target = walker
                .function
                .as_ref()
                .and_then(|env| env.callbacks.get(&func.block.span.start))
                .copied();
            let roles = [Some(Table::Keys), Some(Table::Argv)];
            for (index, param) in func.params.iter().enumerate() {
                let role = if target.is_some() {
                    roles.get(index).copied().flatten()
                } else {
                    None
                };
                walker.declare_as(param, role);
            }
            let read_only = walker.declared.read_only;
            let outer_uses = match target {
                Some((_, target_read_only)) => {
                    walker.declared.read_only = target_read_only;
                    Some(std::mem::take(&mut walker.uses))
                }
                None => None,
            };
            walker.block(&func.block);
            walker.declared.read_only = read_only;
            if let (Some((index, _)), Some(outer)) = (target, outer_uses) {
                walker.callback_uses[index] = std::mem::replace(&mut walker.uses, outer);
            }
        });
        self.optional = outer;
    }

    /// `function a.b:c()`: creates a global when it is a plain name, and
    /// writes a field of `a` otherwise.
    fn function_name(&mut self, name: &FuncName) {
        let Some(first) = name.path.first() else {
            return;
        };
        if self.is_local(&first.text) {
            return;
        }
        if name.path.len() == 1 && name.method.is_none() {
            if !self.first_report(&first.text) {
                return;
            }
            let message = format!(
                "`function {0}` creates the global `{0}`, and Redis forbids creating globals",
                first.text
            );
            self.diagnostics.push(
                Diagnostic::error(Rule::GlobalWrite, Target::File, first.span, message).with_note(
                    format!(
                        "write `local function {}(...)`; at run time Redis fails with \
                     \"Attempt to modify a readonly table\"",
                        first.text
                    ),
                ),
            );
        } else if sandbox::library(&first.text).is_some() || first.text == "_G" {
            self.readonly_library(first);
        } else {
            self.global_read(first);
        }
    }

    fn assign_target(&mut self, target: &Expr) {
        if let Expr::Name(name) = target
            && let Some(alias) = self.local(&name.text).and_then(|local| local.alias)
        {
            self.reassigned.push(alias);
        }
        match target {
            Expr::Name(name) if !self.is_local(&name.text) => {
                if !self.first_report(&name.text) {
                    return;
                }
                let message = format!(
                    "assigning `{0}` creates a global, and Redis forbids creating globals",
                    name.text
                );
                let mut diagnostic =
                    Diagnostic::error(Rule::GlobalWrite, Target::File, name.span, message);
                diagnostic = match self.suggest_local(&name.text) {
                    Some(local) => diagnostic.with_note(format!(
                        "did you mean the local `{local}`? Otherwise declare it: `local {}`",
                        name.text
                    )),
                    None => diagnostic.with_note(format!(
                        "declare it: `local {} = ...`; at run time Redis fails with \
                         \"Attempt to modify a readonly table\"",
                        name.text
                    )),
                };
                self.diagnostics.push(diagnostic);
            }
            Expr::Name(_) => {}
            Expr::Index { obj, key, .. } => {
                match &**obj {
                    // Writing KEYS[n] or ARGV[n] is allowed and reads nothing.
                    Expr::Name(name) if matches!(name.text.as_str(), "KEYS" | "ARGV") => {}
                    Expr::Name(name)
                        if !self.is_local(&name.text)
                            && (sandbox::library(&name.text).is_some() || name.text == "_G") =>
                    {
                        self.readonly_library(name);
                    }
                    other => self.expr(other),
                }
                self.expr(key);
            }
            other => self.expr(other),
        }
    }

    fn readonly_library(&mut self, library: &Name) {
        let message = format!(
            "this modifies `{}`, which Redis makes read-only in scripts",
            library.text
        );
        self.diagnostics.push(
            Diagnostic::error(Rule::GlobalWrite, Target::File, library.span, message)
                .with_note("keep your own values in locals: `local helpers = {}`"),
        );
    }

    fn exprs(&mut self, exprs: &[Expr]) {
        for expr in exprs {
            self.expr(expr);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match expr {
            Expr::Nil(_)
            | Expr::True(_)
            | Expr::False(_)
            | Expr::Number(..)
            | Expr::String(..)
            | Expr::Vararg(_) => {}
            Expr::Function(func) => self.function(func, false),
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
            Expr::Name(name) => self.name_read(name),
            Expr::Index { .. } | Expr::Call { .. } | Expr::Method { .. } => self.suffix_chain(expr),
        }
    }

    /// `a op b op c ...`: a left-associative chain, as deep as it is long
    /// (Lua does not limit it), walked in a loop: each operand in order,
    /// under `or` wherever an enclosing operator is `or`.
    fn binary_chain(&mut self, expr: &Expr) {
        let outer = self.optional;
        let mut optional = outer;
        let mut rights = Vec::new();
        let mut node = expr;
        while let Expr::Binary { op, lhs, rhs, .. } = node {
            optional |= *op == BinOp::Or;
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

    /// `a.b[c]:m(d)(e)...`: a chain of suffixes, as deep as it is long,
    /// walked in a loop: down to its start (a name, a parenthesized
    /// expression, or an index of a name, which [`index`](Self::index)
    /// judges), then each suffix's key or arguments in order. A call's
    /// command is checked on the way down, as before its function.
    fn suffix_chain(&mut self, expr: &Expr) {
        let mut rest = Vec::new();
        let mut node = expr;
        loop {
            match node {
                Expr::Index { obj, key, .. } if !matches!(**obj, Expr::Name(_)) => {
                    rest.push(std::slice::from_ref(&**key));
                    node = obj;
                }
                Expr::Call { func, args, .. } => {
                    self.command_call(func, args);
                    rest.push(args);
                    node = func;
                }
                Expr::Method { obj, args, .. } => {
                    rest.push(args);
                    node = obj;
                }
                _ => break,
            }
        }
        match node {
            Expr::Index {
                obj,
                key,
                dot,
                span,
            } => self.index(obj, key, dot.as_ref(), *span),
            start => self.expr(start),
        }
        for exprs in rest.into_iter().rev() {
            self.exprs(exprs);
        }
    }

    fn name_read(&mut self, name: &Name) {
        if let Some(body) = self.local(&name.text).and_then(|local| local.function) {
            self.function_refs.push((self.current_function, body));
        }
        if let Some(local) = self.local(&name.text) {
            // A callback's keys or arguments passed on or counted.
            if let Some(role) = local.role {
                self.uses.of(role).dynamic = true;
            }
            return;
        }
        match name.text.as_str() {
            "KEYS" | "ARGV" if self.function.is_some() => self.table_in_function(name),
            "KEYS" => self.uses.of(Table::Keys).dynamic = true,
            "ARGV" => self.uses.of(Table::Argv).dynamic = true,
            _ => self.global_read(name),
        }
    }

    /// `KEYS` or `ARGV` in a library, where functions get them as parameters.
    fn table_in_function(&mut self, name: &Name) {
        if !self.first_report(&name.text) {
            return;
        }
        let (position, example) = if name.text == "KEYS" {
            ("first", "keys[1]")
        } else {
            ("second", "args[1]")
        };
        self.diagnostics.push(
            Diagnostic::error(
                Rule::UndefinedGlobal,
                Target::File,
                name.span,
                format!(
                    "`{}` is not a global in a Redis Functions library, so reading it fails at run time",
                    name.text
                ),
            )
            .with_note(format!(
                "a function gets its {} as its callback's {position} parameter: \
                 `function(keys, args) ... {example} ... end`",
                if name.text == "KEYS" { "keys" } else { "arguments" }
            )),
        );
    }

    fn global_read(&mut self, name: &Name) {
        let targets = self.declared.servers;
        if self.in_dead || sandbox::is_global(&name.text, targets) || !self.first_report(&name.text)
        {
            return;
        }
        let lacking =
            sandbox::first_lacking(&name.text, targets).unwrap_or(self.declared.first_target());
        let message = format!(
            "`{}` is not a global of the script sandbox of {} {}, so reading it fails at run time",
            name.text,
            lacking.product(),
            lacking.version()
        );
        let note = match self.suggest_local(&name.text) {
            Some(local) => format!("did you mean the local `{local}`?"),
            None => match sandbox::suggest_global(&name.text, targets) {
                Some(global) => did_you_mean(global),
                None => sandbox::absent_note(&name.text).map_or_else(
                    || format!("declare it first: `local {} = ...`", name.text),
                    str::to_owned,
                ),
            },
        };
        let note = with_other_servers(note, &name.text);
        self.diagnostics.push(
            Diagnostic::error(Rule::UndefinedGlobal, Target::File, name.span, message)
                .with_note(note),
        );
    }

    fn suggest_local(&self, name: &str) -> Option<String> {
        suggest(name, self.seen_locals.iter().map(String::as_str)).map(str::to_owned)
    }

    fn index(&mut self, obj: &Expr, key: &Expr, dot: Option<&Name>, whole: Span) {
        if let Some(table) = self.table_ref(obj) {
            let optional = self.optional;
            self.uses.of(table).record(key, whole, optional);
            self.expr(key);
            return;
        }
        if let (Expr::Name(library), Expr::String(member, span)) = (obj, key)
            && !self.is_local(&library.text)
            && let Some(lib) = sandbox::library(&library.text)
        {
            // A library some targets lack (`os`, `server`) is the mistake.
            if !sandbox::is_global(&library.text, self.declared.servers) {
                self.global_read(library);
                return;
            }
            let member = String::from_utf8_lossy(member);
            // A library registers its functions; a script has no such member.
            let registers =
                self.function.is_some() && library.text == "redis" && member == "register_function";
            let present = registers
                || lib
                    .member(&member)
                    .is_some_and(|m| m.is_on(self.declared.servers));
            if !present && !self.optional {
                let span = dot.map_or(*span, |name| name.span);
                self.unknown_member(&library.text, &member, lib, span);
            }
            return;
        }
        self.expr(obj);
        self.expr(key);
    }

    fn unknown_member(&mut self, library: &str, member: &str, lib: &sandbox::Library, span: Span) {
        let targets = self.declared.servers;
        let path = format!("{library}.{member}");
        let message = match sandbox::first_lacking(&path, targets) {
            Some(lacking) if !sandbox::servers_with(&path, Servers::ALL).is_empty() => format!(
                "`{path}` does not exist in the script sandbox of {} {}",
                lacking.product(),
                lacking.version()
            ),
            _ => format!(
                "`{path}` does not exist in {}'s Lua (5.1)",
                self.declared.first_target().product()
            ),
        };
        let note = sandbox::member_note(library, member)
            .map(str::to_owned)
            .or_else(|| {
                lib.suggest(member, targets)
                    .map(|m| did_you_mean(&format!("{library}.{m}")))
            })
            .unwrap_or_else(|| {
                format!("`{library}` has: {}", lib.member_names(targets).join(", "))
            });
        let note = with_other_servers(note, &path);
        self.diagnostics.push(
            Diagnostic::error(Rule::UnknownMember, Target::File, span, message).with_note(note),
        );
    }

    /// `redis.call('NAME', ...)` and the like, unless `redis` is a local.
    fn command_call(&mut self, func: &Expr, args: &[Expr]) {
        if let Some(call) = command_calls::redis_call(func, args)
            && !self.is_local(call.library)
        {
            command_calls::check(&call, args, &self.declared, &mut self.diagnostics);
            return;
        }
        if let (Expr::Name(name), Some(Expr::String(command, span))) = (func, args.first())
            && let Some(alias) = self.local(&name.text).and_then(|local| local.alias)
        {
            self.alias_calls.push(AliasCall {
                alias,
                name: String::from_utf8_lossy(command).to_ascii_lowercase(),
                span: *span,
                args: args.to_vec(),
                declared: self.declared.clone(),
            });
        }
    }

    /// Whether `expr` is `redis.call` or `redis.pcall` (or Valkey's
    /// `server.`), with the library not shadowed by a local.
    fn is_redis_call(&self, expr: &Expr) -> bool {
        let Expr::Index { obj, key, .. } = expr else {
            return false;
        };
        matches!(&**obj, Expr::Name(library)
            if (library.text == "redis" || library.text == "server") && !self.is_local(&library.text))
            && matches!(&**key, Expr::String(member, _) if member == b"call" || member == b"pcall")
    }
}

/// `note`, and where `path` (a global or `library.member`) exists if some
/// server has it: how to target only those servers.
fn with_other_servers(note: String, path: &str) -> String {
    let having = sandbox::servers_with(path, Servers::ALL);
    if having.is_empty() {
        note
    } else {
        format!("{note}; {}", only_on_note(having))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn calls_through_an_alias_of_redis_call_are_checked() {
        let found = errors(
            "local rcall = redis.call\nlocal function f() return rcall('GETT', KEYS[1]) end\n\
             return rcall('SET', KEYS[1])",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("`gett` is not a Redis command"),
            "{found:?}"
        );
        assert!(found[1].starts_with("`set` takes at least 2"), "{found:?}");
        // An alias assigned anywhere, or a shadowed `redis`, is not judged.
        for script in [
            "local rcall = redis.call\nlocal function f() return rcall('GETT') end\n\
             rcall = function() end return f()",
            "local redis = {call = tostring} local rcall = redis.call return rcall('GETT')",
            "local rcall = redis.call return rcall(ARGV[1])",
        ] {
            assert_eq!(
                errors(script, ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
    }

    #[test]
    fn globals_read_only_by_local_functions_that_never_run_are_not_reported() {
        // A shared helper whose free names the including script declares:
        // a script that never calls it never looks them up.
        let helpers = "local function log_debug(...) if debug_lua ~= true then return end end\n\
                       local log = function(message) log_debug(message) return changelog end\n";
        for script in [
            "return 1",
            // Named only by another helper that never runs.
            "local function unused() return log('x') end return 1",
            // Named only by itself.
            "local function again() return again() .. missing end return 1",
        ] {
            assert_eq!(
                errors(&format!("{helpers}{script}"), ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
        // Called, directly or through a function that runs, they are read.
        for script in [
            "return log('x')",
            "local function run() return log('x') end return run()",
            "return pcall(function() return log('x') end)",
            "local t = {log} return 1",
        ] {
            let found = errors(&format!("{helpers}{script}"), ONE_KEY_TWO_ARGS);
            assert_eq!(found.len(), 2, "{script}: {found:?}");
            assert!(found[0].starts_with("`debug_lua`"), "{found:?}");
            assert!(found[1].starts_with("`changelog`"), "{found:?}");
        }
        // An anonymous function may run; and a dead function's other
        // mistakes are mistakes in any script.
        assert_eq!(
            errors("return pcall(function() return nope end)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        let found = errors(
            "local function f() return redis.call('GETT', KEYS[1]) end return 1",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`gett`"), "{found:?}");
    }

    #[test]
    fn globals_are_checked_and_reported_once() {
        let found = errors(
            "x = 1 x = x + 1 return keys[1] .. keys[2]",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("creates a global"), "{found:?}");
        assert!(found[1].starts_with("`keys`"), "{found:?}");
        assert_eq!(
            errors("local x = 1 x = 2 return x", ONE_KEY_TWO_ARGS),
            Vec::<String>::new()
        );
        // A local shadowing a library is the user's own table.
        assert_eq!(
            errors(
                "local redis = {} redis.x = 1 return redis.x",
                ONE_KEY_TWO_ARGS
            )
            .len(),
            0
        );
    }
}
