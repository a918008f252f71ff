//! The checks on a parsed script: KEYS/ARGV arity, sandbox globals and
//! library members, Redis commands, and whether the script can return nil
//! where the binding's type cannot hold it.
//!
//! Every check is conservative: where the script's meaning is not certain
//! from its text (a dynamic index, a shadowed name, a computed command name),
//! it says nothing.

use super::ast::{BinOp, Block, Chunk, Expr, Field, FuncBody, FuncName, Name, Span, Stat, UnOp};
use super::commands::{self, Command};
use super::sandbox;
use super::servers::{Server, Servers, only_on_note};

/// What the Rust declaration says about the script.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    pub keys: usize,
    /// Fixed ARGV values.
    pub args: usize,
    /// Whether a `#[variadic]` tail may add more ARGV values.
    pub variadic: bool,
    pub reply: ReplyKind,
    /// `#!lua flags=no-writes`.
    pub read_only: bool,
    /// `allow(unknown_commands)`: the script targets a server newer than
    /// the command table.
    pub allow_unknown_commands: bool,
    /// The servers the script must run on (the crate's `Cargo.toml`).
    pub servers: Servers,
}

/// Whether the declared return type can receive what a Lua `nil` or `false` becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyKind {
    /// `Option<_>`, `()`, `redis::Value`: any falsy value.
    Nullable,
    /// `bool`: a Lua `false`, but not a `nil` (which has no boolean meaning in the script).
    Bool,
    /// A scalar that a nil reply fails to convert into: `String`, integers, floats.
    NonNull,
    /// Anything else (collections, generics, user types): not checked.
    Unknown,
}

/// Which Rust token a diagnostic belongs at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The `file = "..."` literal.
    File,
    /// The `keys = N` literal.
    Keys,
    /// The function's name, standing for its parameter list.
    Params,
    /// The `index`-th fixed ARGV parameter (0-based).
    Arg(usize),
    /// The `index`-th key parameter (0-based).
    Key(usize),
    /// The declared return type.
    Reply,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One finding, located in the Lua source and on the Rust side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub note: Option<String>,
    pub target: Target,
}

impl Diagnostic {
    pub fn error(target: Target, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message,
            span,
            note: None,
            target,
        }
    }

    fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }
}

/// Runs every check on `chunk`.
pub fn check(chunk: &Chunk, declared: &Declared) -> Vec<Diagnostic> {
    let mut walker = Walker {
        declared,
        scopes: vec![Vec::new()],
        seen_locals: Vec::new(),
        keys: TableUse::default(),
        argv: TableUse::default(),
        diagnostics: Vec::new(),
        reported: Vec::new(),
        optional: false,
    };
    walker.block(&chunk.block);
    let Walker {
        mut diagnostics,
        keys,
        argv,
        ..
    } = walker;
    check_arity(&keys, &argv, declared, &mut diagnostics);
    check_nil_return(chunk, declared, &mut diagnostics);
    diagnostics
}

/// How a script uses `KEYS` or `ARGV`.
#[derive(Default)]
struct TableUse {
    /// Reads by literal index: `KEYS[1]`, and whether the read is an
    /// optional one (under `or`, as in `tonumber(ARGV[2]) or 10`).
    literal: Vec<(f64, Span, bool)>,
    /// Any other use (`KEYS[i]`, `#KEYS`, `unpack(ARGV)`, passing it on)
    /// switches the arity checks off for the table.
    dynamic: bool,
}

struct Local {
    name: String,
}

struct Walker<'a> {
    declared: &'a Declared,
    /// Locals in scope, innermost block last.
    scopes: Vec<Vec<Local>>,
    /// Every local declared so far, for "did you mean" suggestions.
    seen_locals: Vec<String>,
    keys: TableUse,
    argv: TableUse,
    diagnostics: Vec<Diagnostic>,
    /// Globals already reported: one mistake, one error, however often the
    /// name is used.
    reported: Vec<String>,
    /// Inside an operand of `or`: a value the script has a fallback for, so
    /// a missing library member or an absent ARGV value is no mistake
    /// (`local unpack = unpack or table.unpack`).
    optional: bool,
}

impl Walker<'_> {
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

    /// A global (not shadowed by a local) named `name`.
    fn is_global_ref(&self, expr: &Expr, name: &str) -> bool {
        matches!(expr, Expr::Name(n) if n.text == name && !self.is_local(name))
    }

    fn declare(&mut self, name: &Name) {
        self.seen_locals.push(name.text.clone());
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Local {
                name: name.text.clone(),
            });
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
                self.exprs(exprs);
                for name in names {
                    self.declare(name);
                }
            }
            Stat::LocalFunction { name, func, .. } => {
                self.declare(name);
                self.function(func, false);
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
            for param in &func.params {
                walker.declare(param);
            }
            walker.block(&func.block);
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
                Diagnostic::error(Target::File, first.span, message).with_note(format!(
                    "write `local function {}(...)`; at run time Redis fails with \
                     \"Attempt to modify a readonly table\"",
                    first.text
                )),
            );
        } else if sandbox::library(&first.text).is_some() || first.text == "_G" {
            self.readonly_library(first);
        } else {
            self.global_read(first);
        }
    }

    fn assign_target(&mut self, target: &Expr) {
        match target {
            Expr::Name(name) if !self.is_local(&name.text) => {
                if !self.first_report(&name.text) {
                    return;
                }
                let message = format!(
                    "assigning `{0}` creates a global, and Redis forbids creating globals",
                    name.text
                );
                let mut diagnostic = Diagnostic::error(Target::File, name.span, message);
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
            Diagnostic::error(Target::File, library.span, message)
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
            Expr::Binary { op, lhs, rhs, .. } => {
                let outer = self.optional;
                self.optional |= *op == BinOp::Or;
                self.expr(lhs);
                self.expr(rhs);
                self.optional = outer;
            }
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) => self.expr(expr),
            Expr::Name(name) => self.name_read(name),
            Expr::Index {
                obj,
                key,
                dot,
                span,
            } => self.index(obj, key, dot.as_ref(), *span),
            Expr::Call { func, args, .. } => {
                self.redis_command(func, args);
                self.expr(func);
                self.exprs(args);
            }
            Expr::Method { obj, args, .. } => {
                self.expr(obj);
                self.exprs(args);
            }
        }
    }

    fn name_read(&mut self, name: &Name) {
        if self.is_local(&name.text) {
            return;
        }
        match name.text.as_str() {
            "KEYS" => self.keys.dynamic = true,
            "ARGV" => self.argv.dynamic = true,
            _ => self.global_read(name),
        }
    }

    fn global_read(&mut self, name: &Name) {
        let targets = self.declared.servers;
        if sandbox::is_global(&name.text, targets) || !self.first_report(&name.text) {
            return;
        }
        let lacking = sandbox::first_lacking(&name.text, targets).unwrap_or(self.first_target());
        let message = format!(
            "`{}` is not a global of the script sandbox of {} {}, so reading it fails at run time",
            name.text,
            lacking.product(),
            lacking.version()
        );
        let note = match self.suggest_local(&name.text) {
            Some(local) => format!("did you mean the local `{local}`?"),
            None => match sandbox::suggest_global(&name.text, targets) {
                Some(global) => format!("did you mean `{global}`?"),
                None => sandbox::absent_note(&name.text).map_or_else(
                    || format!("declare it first: `local {} = ...`", name.text),
                    str::to_owned,
                ),
            },
        };
        let note = with_other_servers(note, &name.text);
        self.diagnostics
            .push(Diagnostic::error(Target::File, name.span, message).with_note(note));
    }

    /// The first targeted server, to name where all of them agree.
    fn first_target(&self) -> Server {
        self.declared
            .servers
            .iter()
            .next()
            .unwrap_or(Server::Redis7_0)
    }

    fn suggest_local(&self, name: &str) -> Option<String> {
        sandbox::suggest(name, self.seen_locals.iter().map(String::as_str)).map(str::to_owned)
    }

    fn index(&mut self, obj: &Expr, key: &Expr, dot: Option<&Name>, whole: Span) {
        for (table, which) in [("KEYS", Which::Keys), ("ARGV", Which::Argv)] {
            if self.is_global_ref(obj, table) {
                let uses = match which {
                    Which::Keys => &mut self.keys,
                    Which::Argv => &mut self.argv,
                };
                match key {
                    Expr::Number(value, _) => uses.literal.push((*value, whole, self.optional)),
                    _ => uses.dynamic = true,
                }
                self.expr(key);
                return;
            }
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
            let present = lib
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
                self.first_target().product()
            ),
        };
        let note = sandbox::member_note(library, member)
            .map(str::to_owned)
            .or_else(|| {
                lib.suggest(member, targets)
                    .map(|m| format!("did you mean `{library}.{m}`?"))
            })
            .unwrap_or_else(|| {
                format!("`{library}` has: {}", lib.member_names(targets).join(", "))
            });
        let note = with_other_servers(note, &path);
        self.diagnostics
            .push(Diagnostic::error(Target::File, span, message).with_note(note));
    }

    /// `redis.call('NAME', ...)` / `redis.pcall(...)` with a literal name,
    /// checked against the command table of every targeted server.
    fn redis_command(&mut self, func: &Expr, args: &[Expr]) {
        let Some(call) = redis_call(func, args) else {
            return;
        };
        if self.is_local(call.library) {
            return;
        }
        let (name, span) = (call.name, call.span);
        // Module commands (`JSON.GET`, `BF.ADD`) live in their namespace,
        // which no table of the core server knows.
        if name.contains('.') {
            return;
        }
        let targets = self.declared.servers;
        let known = |server| !name.contains('|') && commands::command(server, &name).is_some();
        let having = Servers::ALL.filter(known);
        let Some(lacking) = targets.iter().find(|server| !having.contains(*server)) else {
            return self.command_on_targets(&name, span, args);
        };
        if self.declared.allow_unknown_commands {
            return;
        }
        let diagnostic = if having.is_empty() {
            let note = commands::suggest(lacking, &name).map_or_else(
                || {
                    format!(
                        "{} {} has no such command; if your server is newer and has it, \
                         add `allow(unknown_commands)` to #[redis_script]",
                        lacking.product(),
                        lacking.version()
                    )
                },
                |known| format!("did you mean `{known}`?"),
            );
            Diagnostic::error(
                Target::File,
                span,
                format!("`{name}` is not a Redis command, so calling it fails at run time"),
            )
            .with_note(note)
        } else {
            Diagnostic::error(
                Target::File,
                span,
                format!(
                    "`{name}` is not a command of {lacking}, so calling it fails there at run time"
                ),
            )
            .with_note(only_on_note(having))
        };
        self.diagnostics.push(diagnostic);
    }

    /// A command every target knows: its subcommand, arity, `noscript` and
    /// writes, on each target.
    fn command_on_targets(&mut self, name: &str, span: Span, args: &[Expr]) {
        let targets = self.declared.servers;
        let first = self.first_target();
        let Some(command) = commands::command(first, name) else {
            return;
        };
        // A container command (CONFIG, SCRIPT, ...) runs the subcommand its
        // first argument names; a computed one cannot be judged.
        let sub = match args.get(1) {
            Some(Expr::String(sub, sub_span)) if command.has_subcommands(first) => {
                Some((String::from_utf8_lossy(sub).into_owned(), *sub_span))
            }
            Some(_) if command.has_subcommands(first) => return,
            _ => None,
        };
        let resolve =
            |server| commands::resolve(server, name, sub.as_ref().map(|(sub, _)| sub.as_str()));
        let having = Servers::ALL.filter(|server| resolve(server).is_some());
        if let (Some(lacking), Some((sub, sub_span))) = (
            targets.iter().find(|server| !having.contains(*server)),
            &sub,
        ) {
            let message = if having.is_empty() {
                format!("`{name}` has no subcommand `{sub}`, so the call fails at run time")
            } else {
                format!(
                    "`{name}` has no subcommand `{sub}` on {lacking}, so the call fails there at run time"
                )
            };
            let note = if having.is_empty() {
                format!(
                    "`{name}` has: {}",
                    command
                        .subcommands(lacking)
                        .iter()
                        .filter_map(|c| c.name().split_once('|').map(|(_, sub)| sub))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                only_on_note(having)
            };
            self.diagnostics
                .push(Diagnostic::error(Target::File, *sub_span, message).with_note(note));
            return;
        }
        let effective: Vec<(Server, &'static Command)> = targets
            .iter()
            .filter_map(|server| resolve(server).map(|found| (server, found)))
            .collect();
        let accepting = |test: &dyn Fn(&Command) -> bool| {
            Servers::ALL.filter(|server| resolve(server).is_some_and(test))
        };
        let counted = !matches!(
            args.last(),
            Some(Expr::Call { .. } | Expr::Method { .. } | Expr::Vararg(_))
        );
        let refusing_arity = effective
            .iter()
            .find(|(_, found)| !found.accepts_word_count(args.len()));
        if let Some((_, found)) = refusing_arity.filter(|_| counted) {
            let arity = found.arity;
            let expected = if arity >= 0 {
                format!("exactly {}", arity - 1)
            } else {
                format!("at least {}", -arity - 1)
            };
            let mut diagnostic = Diagnostic::error(
                Target::File,
                span,
                format!(
                    "`{}` takes {expected} argument(s) after its name, but this call passes {} \
                         (\"Wrong number of args calling Redis command from script\")",
                    command.name(),
                    args.len() - 1
                ),
            );
            let fits = accepting(&|c| c.accepts_word_count(args.len()));
            if !fits.is_empty() {
                diagnostic = diagnostic.with_note(only_on_note(fits));
            }
            self.diagnostics.push(diagnostic);
        }
        if let Some((refusing, found)) = effective.iter().find(|(_, found)| found.is_noscript()) {
            let allowed = accepting(&|c| !c.is_noscript());
            let note = if allowed.is_empty() {
                "run it from the client, and pass what the script needs in ARGV".to_owned()
            } else {
                only_on_note(allowed)
            };
            self.diagnostics.push(
                Diagnostic::error(
                    Target::File,
                    span,
                    format!(
                        "`{}` cannot run inside a script: {} flags it `noscript` \
                         (\"This Redis command is not allowed from script\")",
                        found.name(),
                        refusing.product()
                    ),
                )
                .with_note(note),
            );
        } else if self.declared.read_only
            && let Some((_, found)) = effective
                .iter()
                .find(|(_, found)| found.is_write() || MAY_REPLICATE.contains(&found.name()))
        {
            self.diagnostics.push(
                Diagnostic::error(
                    Target::File,
                    span,
                    format!(
                        "`{}` {}, but the script declares `flags=no-writes` \
                         (\"Write commands are not allowed from read-only scripts\")",
                        found.name(),
                        if found.is_write() {
                            "writes"
                        } else {
                            "may replicate"
                        }
                    ),
                )
                .with_note("remove `no-writes` from the shebang, or the write from the script"),
            );
        }
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

/// A literal-named command call: `redis.call('GET', ...)`.
struct RedisCall<'a> {
    /// `redis`, or Valkey's `server`.
    library: &'a str,
    /// The command name, lower case.
    name: String,
    span: Span,
}

/// `redis.call('NAME', ...)` or `redis.pcall(...)` with a literal name (or
/// `server.call`, Valkey's other name for the library).
fn redis_call<'a>(func: &'a Expr, args: &[Expr]) -> Option<RedisCall<'a>> {
    let Expr::Index { obj, key, .. } = func else {
        return None;
    };
    let Expr::Name(library) = &**obj else {
        return None;
    };
    let is_redis = library.text == "redis" || library.text == "server";
    let is_call =
        matches!(&**key, Expr::String(member, _) if member == b"call" || member == b"pcall");
    match args.first() {
        Some(Expr::String(name, span)) if is_redis && is_call => Some(RedisCall {
            library: &library.text,
            name: String::from_utf8_lossy(name).to_ascii_lowercase(),
            span: *span,
        }),
        _ => None,
    }
}

#[derive(Clone, Copy)]
enum Which {
    Keys,
    Argv,
}

/// Literal `KEYS[n]` / `ARGV[n]` against the declaration; and declared values
/// the script never reads, when it reads the table only by literal index.
fn check_arity(
    keys: &TableUse,
    argv: &TableUse,
    declared: &Declared,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let tables = [
        ("KEYS", keys, declared.keys, false, Target::Keys),
        (
            "ARGV",
            argv,
            declared.args,
            declared.variadic,
            Target::Params,
        ),
    ];
    for (table, uses, count, unbounded, target) in tables {
        if uses.dynamic {
            continue;
        }
        for &(index, span, optional) in &uses.literal {
            let valid = index.fract() == 0.0
                && index >= 1.0
                && (unbounded || optional || index <= count as f64);
            if !valid {
                let message = format!(
                    "`{table}[{index}]` is outside the {count} {} the binding declares",
                    if table == "KEYS" {
                        "key(s)"
                    } else {
                        "argument(s)"
                    }
                );
                let note = if table == "KEYS" {
                    format!(
                        "KEYS has indexes 1 to {count} (`keys = {count}`); raise `keys`, \
                         or read the value from ARGV"
                    )
                } else {
                    format!(
                        "ARGV has indexes 1 to {count}: the parameters after the {} key(s); \
                         add a parameter, or mark the last one #[variadic]",
                        declared.keys
                    )
                };
                diagnostics.push(Diagnostic::error(target, span, message).with_note(note));
            }
        }
        if unbounded && table == "ARGV" {
            continue;
        }
        for position in 1..=count {
            let read = uses
                .literal
                .iter()
                .any(|&(index, ..)| index == position as f64);
            if !read {
                let target = if table == "KEYS" {
                    Target::Key(position - 1)
                } else {
                    Target::Arg(position - 1)
                };
                diagnostics.push(Diagnostic {
                    severity: Severity::Warning,
                    message: format!(
                        "the script never reads `{table}[{position}]`, which this parameter fills"
                    ),
                    span: Span::default(),
                    note: Some(
                        "if it is passed on purpose (e.g. for cluster slot routing), \
                         add `allow(unread)` to #[redis_script]"
                            .to_owned(),
                    ),
                    target,
                });
            }
        }
    }
}

/// Why a script can end with `nil` or `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Falsy {
    /// Only a Lua `false`, which `bool` receives as `false`.
    False,
    /// `nil`, or the end of the script without a value.
    Nil,
}

fn check_nil_return(chunk: &Chunk, declared: &Declared, diagnostics: &mut Vec<Diagnostic>) {
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
        let help = match declared.reply {
            ReplyKind::Bool => "return `true` or `false` on every path, or declare `Option<bool>`",
            _ => "declare the return type as `Option<...>`, or return a value on every path",
        };
        diagnostics.push(
            Diagnostic::error(
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
fn stat_blocks(stat: &Stat) -> Vec<&Block> {
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
            BinOp::And => falsy(lhs).or_else(|| falsy(rhs)),
            BinOp::Or => falsy(rhs),
            _ => None,
        },
        Expr::Unary { op: UnOp::Not, .. } => Some((
            Falsy::False,
            "`not ...` can be false, which replies nil".to_owned(),
        )),
        Expr::Paren(inner, _) => falsy(inner),
        Expr::Call { func, args, .. } => {
            let name = redis_call(func, args)?.name;
            may_reply_nil(&name, args).then(|| {
                (
                    Falsy::False,
                    format!("`{name}` replies nil for a missing key or member (`false` in Lua)"),
                )
            })
        }
        _ => None,
    }
}

/// Commands Redis 7.0 flags `may-replicate`, which it refuses in read-only
/// scripts like writes; `COMMAND` does not report that flag, so the command
/// table cannot carry it.
const MAY_REPLICATE: &[&str] = &["pfcount", "publish", "spublish"];

/// Commands whose reply is a nil bulk string (Lua `false`) when a key,
/// member or element is missing. Not exhaustive: a command missing here is
/// only not checked.
const NIL_REPLY_COMMANDS: &[&str] = &[
    "get",
    "getdel",
    "getex",
    "getset",
    "hget",
    "hrandfield",
    "lindex",
    "lmove",
    "lpop",
    "rpop",
    "rpoplpush",
    "spop",
    "srandmember",
    "zrandmember",
    "zrank",
    "zrevrank",
    "zscore",
];

/// Whether `redis.call(name, args...)` can reply nil; `SET` only with an
/// option that makes it conditional or makes it return the old value.
fn may_reply_nil(name: &str, args: &[Expr]) -> bool {
    if name == "set" {
        return args[1..].iter().any(|arg| {
            matches!(arg, Expr::String(option, _)
                if [&b"nx"[..], b"xx", b"get"].iter().any(|o| option.eq_ignore_ascii_case(o)))
        });
    }
    NIL_REPLY_COMMANDS.contains(&name)
}

/// Whether control can never reach the end of `block`.
fn terminates(block: &Block) -> bool {
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
        Stat::Repeat { block, cond, .. } => {
            terminates(block) || (matches!(cond, Expr::False(_) | Expr::Nil(_)) && !breaks(block))
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

/// Where falling off the end is best shown: an `if` without `else` that
/// ends the script, or the last statement.
fn fall_through_span(block: &Block) -> Span {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::parser::parse;

    const ONE_KEY_TWO_ARGS: Declared = Declared {
        keys: 1,
        args: 2,
        variadic: false,
        reply: ReplyKind::Nullable,
        read_only: false,
        allow_unknown_commands: false,
        servers: Servers::ALL,
    };

    fn findings(source: &str, declared: Declared) -> Vec<(Severity, Target, String)> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        check(&chunk, &declared)
            .into_iter()
            .map(|d| (d.severity, d.target, d.message))
            .collect()
    }

    fn errors(source: &str, declared: Declared) -> Vec<String> {
        findings(source, declared)
            .into_iter()
            .filter(|(severity, ..)| *severity == Severity::Error)
            .map(|(.., message)| message)
            .collect()
    }

    #[test]
    fn correct_scripts_pass() {
        let scripts = [
            "return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])",
            "local n = 0 for i, key in ipairs(KEYS) do n = n + redis.call('EXISTS', key) end return n",
            "local function twice(x) return x * 2 end return twice(tonumber(ARGV[1]))",
            "local t = {} t.x = 1 KEYS[1] = 'k' return cjson.encode(t)",
            "local ok, err = pcall(function() return redis.call('GET', KEYS[1]) end) return ok",
            "return select('#', ...)",
            "local s = string.format('%s:%d', ARGV[1], 3) return s:upper()",
            "repeat local done = true until done return bit.band(3, 1)",
            "redis.call('CONFIG', ARGV[1]) return 1",
        ];
        for script in scripts {
            let declared = Declared {
                variadic: true,
                ..ONE_KEY_TWO_ARGS
            };
            assert_eq!(errors(script, declared), Vec::<String>::new(), "{script}");
        }
    }

    #[test]
    fn literal_indexes_are_checked_against_the_declaration() {
        let found = errors(
            "return {KEYS[2], ARGV[3], ARGV[0], KEYS[1.5]}",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("`KEYS[2]`"), "{found:?}");
        let variadic = Declared {
            variadic: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return {KEYS[1], ARGV[9]}", variadic),
            Vec::<String>::new()
        );
    }

    #[test]
    fn dynamic_use_switches_the_arity_check_off() {
        for script in [
            "return KEYS[tonumber(ARGV[1])]",
            "return #KEYS + #ARGV + KEYS[5] + ARGV[7]",
            "return unpack(KEYS), ARGV[#ARGV], KEYS[3], ARGV[3]",
        ] {
            let found = findings(script, ONE_KEY_TWO_ARGS);
            assert!(
                !found
                    .iter()
                    .any(|(_, target, _)| matches!(target, Target::Keys | Target::Params)),
                "{script}: {found:?}"
            );
        }
    }

    #[test]
    fn unread_values_warn_only_when_the_table_is_read_by_literal_index() {
        let found = findings(
            "return redis.call('SET', KEYS[1], ARGV[1])",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(
            found,
            [(Severity::Warning, Target::Arg(1), found[0].2.clone())]
        );
        assert!(
            findings(
                "return redis.call('SET', KEYS[1], unpack(ARGV))",
                ONE_KEY_TWO_ARGS
            )
            .is_empty()
        );
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

    #[test]
    fn library_members_and_commands_are_checked() {
        let found = errors(
            "redis.calll('GET', KEYS[1]) string.formatt('x') redis.call('GETT') \
             redis.call('config', 'get', 'x') redis.call('config', 'nosuch') redis.call('get')",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 6, "{found:?}");
        let read_only = Declared {
            read_only: true,
            ..ONE_KEY_TWO_ARGS
        };
        let found = errors(
            "redis.call('GET', KEYS[1]) return redis.call('set', KEYS[1], ARGV[1])",
            read_only,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("flags=no-writes"), "{found:?}");
    }

    #[test]
    fn nil_returns_meet_the_declared_type() {
        let string = Declared {
            reply: ReplyKind::NonNull,
            ..ONE_KEY_TWO_ARGS
        };
        let boolean = Declared {
            reply: ReplyKind::Bool,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(errors("if ARGV[1] then return 'x' end", string).len(), 1);
        assert_eq!(errors("return redis.call('GET', KEYS[1])", string).len(), 1);
        assert_eq!(
            errors("return redis.call('INCR', KEYS[1])", string).len(),
            0
        );
        assert_eq!(
            errors("if ARGV[1] then return 'x' else return 'y' end", string).len(),
            0
        );
        assert_eq!(errors("while true do return 1 end", string).len(), 0);
        assert_eq!(errors("error('no') ", string).len(), 0);
        assert_eq!(
            errors("local function f() return nil end return f()", string).len(),
            0
        );
        // `bool` takes a Lua false, but not a nil.
        assert_eq!(
            errors("return redis.call('EXISTS', KEYS[1]) == 1", boolean).len(),
            0
        );
        assert_eq!(errors("if ARGV[1] then return true end", boolean).len(), 1);
        assert_eq!(errors("return nil", boolean).len(), 1);
        assert_eq!(
            errors("if ARGV[1] then return 'x' end assert(false, 'no')", string).len(),
            0
        );
    }

    #[test]
    fn fallbacks_under_or_are_not_mistakes() {
        let scripts = [
            "local unpack = unpack or table.unpack return unpack(KEYS)",
            "local limit = tonumber(ARGV[3]) or 10 return limit + ARGV[1] + ARGV[2]",
            "return redis.call('JSON.GET', KEYS[1], '$')",
        ];
        for script in scripts {
            assert_eq!(
                errors(script, ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
        // Outside `or`, and inside a function under it, the checks apply.
        assert_eq!(
            errors("return table.unpack(KEYS)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        assert_eq!(errors("return ARGV[3]", ONE_KEY_TWO_ARGS).len(), 1);
        let inner = "local f = nil or function() return ARGV[3] end return f()";
        assert_eq!(errors(inner, ONE_KEY_TWO_ARGS).len(), 1);
    }

    #[test]
    fn unknown_commands_can_be_allowed_and_may_replicate_is_a_write() {
        assert_eq!(
            errors("return redis.call('HEXPIRE', KEYS[1], 1)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        let newer = Declared {
            allow_unknown_commands: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return redis.call('HEXPIRE', KEYS[1], 1)", newer).len(),
            0
        );
        let read_only = Declared {
            read_only: true,
            ..ONE_KEY_TWO_ARGS
        };
        assert_eq!(
            errors("return redis.call('PFCOUNT', KEYS[1])", read_only).len(),
            1
        );
    }

    const VALKEY_ONLY: Declared = Declared {
        servers: Servers::VALKEY,
        ..ONE_KEY_TWO_ARGS
    };

    const REDIS_ONLY: Declared = Declared {
        servers: Servers::only(Server::Redis7_0),
        ..ONE_KEY_TWO_ARGS
    };

    #[test]
    fn valkey_names_are_errors_unless_valkey_is_the_only_target() {
        let scripts = [
            "return server.call('GET', KEYS[1])",
            "return os.clock()",
            "return redis.VALKEY_VERSION",
            "return redis.call('WAITAOF', 0, 0, 0)",
            "return redis.call('BLPOP', KEYS[1], 1)",
            "return redis.call('ZRANK', KEYS[1], ARGV[1], 'WITHSCORE')",
            "return redis.call('CLUSTER', 'MYSHARDID')",
        ];
        for script in scripts {
            let found = errors(script, ONE_KEY_TWO_ARGS);
            assert_eq!(found.len(), 1, "{script}: {found:?}");
            assert_eq!(errors(script, REDIS_ONLY), found, "{script}");
            let note = check(&parse(script).unwrap(), &ONE_KEY_TWO_ARGS)[0]
                .note
                .clone()
                .unwrap_or_default();
            assert!(
                note.contains("on Valkey 8.1 only") && note.contains("servers = [\"valkey-8.1\"]"),
                "{script}: {note}"
            );
            assert_eq!(
                errors(script, VALKEY_ONLY),
                Vec::<String>::new(),
                "{script}"
            );
        }
        let found = errors("return server.call('GET', KEYS[1])", ONE_KEY_TWO_ARGS);
        assert!(found[0].contains("not a global of the script sandbox of Redis 7.0.15"));
        // A Valkey script is checked as a Redis one: the command table too.
        let found = errors("return server.call('GETT', KEYS[1])", VALKEY_ONLY);
        assert!(
            found[0].starts_with("`gett` is not a Redis command"),
            "{found:?}"
        );
        let found = errors("return os.time()", VALKEY_ONLY);
        assert!(found[0].contains("`os.time` does not exist"), "{found:?}");
    }

    #[test]
    fn redis_alone_accepts_nothing_valkey_refuses() {
        // Valkey 8.1 has every name and command of Redis 7.0, with arities
        // at least as wide and fewer `noscript` flags: what passes for
        // Redis 7.0 alone passes for both.
        for command in Server::Redis7_0.commands() {
            let valkey = commands::command(Server::Valkey8_1, command.name())
                .unwrap_or_else(|| panic!("{} is not on Valkey", command.name()));
            assert!(
                !valkey.is_noscript() || command.is_noscript(),
                "{}",
                command.name()
            );
            // Every word count Redis takes (up to a bound past every fixed
            // arity), Valkey takes too.
            for words in 1..64 {
                assert!(
                    !command.accepts_word_count(words) || valkey.accepts_word_count(words),
                    "{} with {words} words",
                    command.name()
                );
            }
        }
        assert!(
            sandbox::GLOBALS
                .iter()
                .all(|g| g.servers.contains(Server::Valkey8_1))
        );
    }
}
