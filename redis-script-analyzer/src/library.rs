//! Redis Functions libraries (`FUNCTION LOAD`), as Redis 7.0, Valkey 8.1 and
//! Valkey 9.1 load and run them (the same way; checked on valkey-server 9.1.2): the `#!lua name=<library>` line, the functions the
//! library registers (`redis.register_function('name', callback)` or the
//! table form with `function_name`, `callback`, `flags`, `description`),
//! what its top-level code may do while it loads, and the checks of one
//! registered function's callback against a binding ([`analyze_function`]).
//!
//! While a library loads, its only global is `redis`, and of it only
//! `register_function`, `log`, the `LOG_*` levels and `REDIS_VERSION(_NUM)`
//! exist: reading anything else at top level (`redis.call`, `string`,
//! `tostring`, `KEYS`) fails the load with "Script attempted to access
//! nonexistent global variable". Functions run with the script sandbox
//! minus `KEYS` and `ARGV`: a callback gets the keys and the arguments as
//! its first and second parameters.

use std::collections::HashSet;

use crate::check::{self, Declared};
use crate::diagnostic::{Diagnostic, Rule, Target};
use crate::shebang::FLAGS;
use crate::suggest::suggest;
use crate::syntax::parser;
use crate::syntax::tree::{Block, Chunk, Expr, Field, FuncBody, Span, Stat};

/// What `redis` holds while a library loads.
const LOAD_TIME_MEMBERS: &[&str] = &[
    "register_function",
    "log",
    "LOG_DEBUG",
    "LOG_VERBOSE",
    "LOG_NOTICE",
    "LOG_WARNING",
    "REDIS_VERSION",
    "REDIS_VERSION_NUM",
];

/// One function a library registers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Registered {
    /// Its name, for FCALL.
    pub name: String,
    /// Its flags (`no-writes`, ...), as registered.
    pub flags: Vec<String>,
    /// The registration.
    pub span: Span,
    /// The callback's body, when the text settles which function it is.
    callback: Option<Span>,
}

impl Registered {
    /// Whether FCALL_RO may call it: it is registered `no-writes`.
    pub fn is_read_only(&self) -> bool {
        self.flags.iter().any(|flag| flag == "no-writes")
    }
}

/// The findings on a library and one of its functions.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FunctionAnalysis {
    /// The library's name from `#!lua name=...` (empty if it has none).
    pub library: String,
    /// Every function the library registers that the text settles.
    pub registered: Vec<Registered>,
    /// The function analysed, if the library registers it.
    pub function: Option<Registered>,
    /// Errors and warnings, in the order the checks ran.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the library `source` and checks the function `function` in it
/// against `declared` (whose `read_only` is taken from the function's flags).
pub fn analyze_function<S: AsRef<[u8]> + ?Sized>(
    source: &S,
    function: &str,
    declared: Declared,
) -> FunctionAnalysis {
    analyze(source.as_ref(), Some(function), declared)
}

/// Reads the library `source` and checks every function it registers
/// against `declared`, as [`analyze_function`] checks one; each finding once.
/// [`FunctionAnalysis::function`] is `None`.
pub fn analyze_library<S: AsRef<[u8]> + ?Sized>(
    source: &S,
    declared: Declared,
) -> FunctionAnalysis {
    let source = source.as_ref();
    let mut analysis = analyze(source, None, declared.clone());
    let names: Vec<String> = analysis.registered.iter().map(|r| r.name.clone()).collect();
    for name in names {
        for diagnostic in analyze(source, Some(&name), declared.clone()).diagnostics {
            if !analysis.diagnostics.contains(&diagnostic) {
                analysis.diagnostics.push(diagnostic);
            }
        }
    }
    analysis
}

/// [`analyze_function`], or with no `function` the library and its names alone.
fn analyze(source: &[u8], function: Option<&str>, mut declared: Declared) -> FunctionAnalysis {
    let (inline, inline_errors) = crate::inline_allows(source, declared.checker);
    declared.allowed = declared.allowed.union(inline);
    let mut analysis = FunctionAnalysis {
        library: String::new(),
        registered: Vec::new(),
        function: None,
        diagnostics: inline_errors,
    };
    match library_name(&crate::text::same_offsets(source)) {
        Ok(name) => analysis.library = name,
        Err(diagnostic) => {
            analysis.diagnostics.push(diagnostic);
            return analysis;
        }
    }
    let chunk = match parser::parse(source) {
        Ok(chunk) => chunk,
        Err(error) => {
            analysis
                .diagnostics
                .push(crate::syntax_error(source, error));
            return analysis;
        }
    };
    let mut loading = LoadTime::default();
    loading.block(&chunk.block);
    analysis.diagnostics.append(&mut loading.diagnostics);
    analysis.registered = loading.registered;
    let target = analysis
        .registered
        .iter()
        .find(|registered| Some(registered.name.as_str()) == function)
        .cloned();
    if let Some(function) = function.filter(|_| target.is_none() && !loading.uncertain) {
        analysis
            .diagnostics
            .push(not_registered(&analysis, function, &chunk));
    }
    declared.read_only = target.as_ref().is_some_and(Registered::is_read_only);
    let callback = target
        .as_ref()
        .and_then(|target| target.callback)
        .and_then(|span| find_function(&chunk.block, span));
    analysis
        .diagnostics
        .extend(check::check_function(&chunk, callback, &declared));
    analysis.function = target;
    analysis
}

/// The name in `#!lua name=<library>`, read as FUNCTION LOAD reads it.
fn library_name(source: &str) -> Result<String, Diagnostic> {
    let line_end = source.find('\n');
    let line = &source[..line_end.unwrap_or(source.len())];
    let span = Span::new(0, line.len());
    let error = |message: String, note: &str| {
        Diagnostic::error(Rule::Library, Target::File, span, message).with_note(note.to_owned())
    };
    let example = "start the library with a line such as `#!lua name=mylib`";
    let Some(options) = line.strip_prefix("#!lua") else {
        return Err(error(
            "a Redis Functions library must start with `#!lua name=<library>`: \
             FUNCTION LOAD refuses it (\"Missing library metadata\")"
                .to_owned(),
            example,
        ));
    };
    if line_end.is_none() {
        return Err(error(
            "the `#!lua` line has no line break after it: FUNCTION LOAD refuses it \
             (\"Invalid library metadata\")"
                .to_owned(),
            "put the library's code on the lines after it",
        ));
    }
    let mut name = None;
    for part in options.split_whitespace() {
        match part.strip_prefix("name=") {
            Some(value) => name = Some(value),
            None => {
                return Err(error(
                    format!(
                        "FUNCTION LOAD refuses `{part}` in the `#!lua` line (\"Invalid metadata value given\")"
                    ),
                    "a library's first line takes only `name=<library>`; function flags go in \
                     `redis.register_function{function_name=..., callback=..., flags={...}}`",
                ));
            }
        }
    }
    let Some(name) = name else {
        return Err(error(
            "the `#!lua` line names no library: FUNCTION LOAD refuses it (\"Library name was not given\")".to_owned(),
            example,
        ));
    };
    if !is_valid_name(name) {
        return Err(error(
            format!("`{name}` is not a library name FUNCTION LOAD accepts"),
            "library names can only contain letters, digits and underscores",
        ));
    }
    Ok(name.to_owned())
}

/// Library and function names: letters, digits, underscores, at least one.
fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn not_registered(analysis: &FunctionAnalysis, function: &str, chunk: &Chunk) -> Diagnostic {
    let names: Vec<&str> = analysis
        .registered
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    let note = match suggest(function, names.iter().copied()) {
        Some(name) => format!("did you mean `{name}`?"),
        None if names.is_empty() => {
            "register it: `redis.register_function('name', function(keys, args) ... end)`"
                .to_owned()
        }
        None => format!("the library registers: {}", names.join(", ")),
    };
    let span = analysis
        .registered
        .last()
        .map_or(chunk.block.span, |registered| registered.span);
    Diagnostic::error(
        Rule::Library,
        Target::Params,
        span,
        format!(
            "the library `{}` registers no function `{function}`, so FCALL fails with \"Function not found\"",
            analysis.library
        ),
    )
    .with_note(note)
}

/// The function body that starts at `span`, among the top-level statements.
fn find_function(block: &Block, span: Span) -> Option<&FuncBody> {
    block.stats.iter().find_map(|stat| match stat {
        Stat::LocalFunction { func, .. } if func.span == span => Some(func),
        Stat::Local { exprs, .. } => exprs.iter().find_map(|expr| function_in(expr, span)),
        Stat::Call(call) => function_in(call, span),
        _ => None,
    })
}

fn function_in(expr: &Expr, span: Span) -> Option<&FuncBody> {
    match expr {
        Expr::Function(func) if func.span == span => Some(func),
        Expr::Call { args, .. } => args.iter().find_map(|arg| function_in(arg, span)),
        Expr::Table(fields, _) => fields.iter().find_map(|field| match field {
            Field::Positional(value) | Field::Named(_, value) | Field::Keyed(_, value) => {
                function_in(value, span)
            }
        }),
        _ => None,
    }
}

/// The walk of what runs while the library loads: the top-level code, not
/// the bodies of the functions it defines.
#[derive(Default)]
struct LoadTime {
    /// Locals declared at load time (functions' own locals are not).
    locals: HashSet<String>,
    /// The top-level `local function f` / `local f = function`: name, body.
    functions: Vec<(String, Span)>,
    registered: Vec<Registered>,
    /// A registration the text does not settle (a computed name, one in a
    /// loop): the function may be registered after all.
    uncertain: bool,
    diagnostics: Vec<Diagnostic>,
    /// Depth of blocks below the top level.
    depth: usize,
}

impl LoadTime {
    fn block(&mut self, block: &Block) {
        for stat in &block.stats {
            self.stat(stat);
        }
        if let Some(ret) = &block.ret {
            for expr in &ret.exprs {
                self.expr(expr);
            }
        }
    }

    fn nested(&mut self, block: &Block) {
        self.depth += 1;
        self.block(block);
        self.depth -= 1;
    }

    fn stat(&mut self, stat: &Stat) {
        match stat {
            Stat::Local { names, exprs, .. } => {
                for expr in exprs {
                    self.expr(expr);
                }
                for (name, expr) in names.iter().zip(exprs) {
                    if let Expr::Function(func) = expr {
                        self.functions.push((name.text.clone(), func.span));
                    }
                }
                self.locals
                    .extend(names.iter().map(|name| name.text.clone()));
            }
            Stat::LocalFunction { name, func, .. } => {
                self.locals.insert(name.text.clone());
                self.functions.push((name.text.clone(), func.span));
            }
            // Global writes are the scope check's (it reports them in every
            // environment); their values still run now.
            Stat::Function { .. } => {}
            Stat::Assign { targets, exprs, .. } => {
                for expr in targets.iter().chain(exprs) {
                    if !matches!(expr, Expr::Name(_)) {
                        self.expr(expr);
                    }
                }
            }
            Stat::Call(call) => self.expr(call),
            Stat::Do(block) => self.nested(block),
            Stat::While { cond, block, .. } | Stat::Repeat { block, cond, .. } => {
                self.expr(cond);
                self.nested(block);
            }
            Stat::If {
                arms, otherwise, ..
            } => {
                for (cond, block) in arms {
                    self.expr(cond);
                    self.nested(block);
                }
                if let Some(block) = otherwise {
                    self.nested(block);
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
                for expr in [Some(start), Some(stop), step.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    self.expr(expr);
                }
                self.locals.insert(var.text.clone());
                self.nested(block);
            }
            Stat::GenericFor {
                names,
                exprs,
                block,
                ..
            } => {
                for expr in exprs {
                    self.expr(expr);
                }
                self.locals
                    .extend(names.iter().map(|name| name.text.clone()));
                self.nested(block);
            }
            Stat::Break(_) => {}
        }
    }

    /// An expression evaluated while the library loads; function bodies
    /// are not (they run when called).
    fn expr(&mut self, expr: &Expr) {
        match expr {
            Expr::Name(name) => {
                // KEYS and ARGV: the scope check explains them for functions.
                let explained = matches!(name.text.as_str(), "redis" | "KEYS" | "ARGV");
                if !self.locals.contains(&name.text) && !explained {
                    self.unavailable(name.text.clone(), name.span);
                }
            }
            Expr::Index { obj, key, span, .. } => {
                if let (Expr::Name(library), Expr::String(member, _)) = (&**obj, &**key)
                    && library.text == "redis"
                    && !self.locals.contains("redis")
                {
                    let member = String::from_utf8_lossy(member);
                    if !LOAD_TIME_MEMBERS.contains(&&*member) {
                        self.unavailable(format!("redis.{member}"), *span);
                    }
                    return;
                }
                self.expr(obj);
                self.expr(key);
            }
            Expr::Call { func, args, span } => {
                if is_register_function(func, &self.locals) {
                    self.registration(args, *span);
                } else {
                    self.expr(func);
                }
                for arg in args {
                    self.expr(arg);
                }
            }
            Expr::Method { obj, args, .. } => {
                self.expr(obj);
                for arg in args {
                    self.expr(arg);
                }
            }
            Expr::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            Expr::Unary { expr, .. } | Expr::Paren(expr, _) => self.expr(expr),
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
            Expr::Function(_)
            | Expr::Nil(_)
            | Expr::True(_)
            | Expr::False(_)
            | Expr::Number(..)
            | Expr::String(..)
            | Expr::Vararg(_) => {}
        }
    }

    fn unavailable(&mut self, what: String, span: Span) {
        self.diagnostics.push(
            Diagnostic::error(
                Rule::Library,
                Target::File,
                span,
                format!(
                    "`{what}` does not exist while a library loads, so FUNCTION LOAD fails \
                     (\"Script attempted to access nonexistent global variable\")"
                ),
            )
            .with_note(
                "at load time only `redis.register_function`, `redis.log`, `redis.LOG_*` and \
                 `redis.REDIS_VERSION(_NUM)` exist: move the code into a registered function",
            ),
        );
    }

    /// `redis.register_function(...)` with `args`.
    fn registration(&mut self, args: &[Expr], span: Span) {
        if self.depth > 0 {
            // Inside a loop or a branch: which functions end up registered
            // is not settled by the text.
            self.uncertain = true;
        }
        let (name, callback, flags) = match args {
            [Expr::String(name, name_span), callback] => {
                (Some((name, *name_span)), Some(callback), None)
            }
            [Expr::Table(fields, _)] => match self.table_form(fields) {
                Some(parts) => parts,
                None => return,
            },
            _ => (None, None, None),
        };
        let Some((name, name_span)) = name else {
            self.uncertain = true;
            return;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        if !is_valid_name(&name) {
            self.diagnostics.push(
                Diagnostic::error(
                    Rule::Library,
                    Target::File,
                    name_span,
                    format!("`{name}` is not a function name FUNCTION LOAD accepts"),
                )
                .with_note("function names can only contain letters, digits and underscores"),
            );
        }
        if self
            .registered
            .iter()
            .any(|registered| registered.name == name)
        {
            self.diagnostics.push(
                Diagnostic::error(
                    Rule::Library,
                    Target::File,
                    name_span,
                    format!("the library registers `{name}` twice: FUNCTION LOAD refuses it (\"Function already exists in the library\")"),
                )
                .with_note("give each function its own name"),
            );
        }
        let flags = flags.unwrap_or_default();
        let callback = callback.and_then(|callback| match callback {
            Expr::Function(func) => Some(func.span),
            Expr::Name(local) => self
                .functions
                .iter()
                .rev()
                .find(|(name, _)| *name == local.text)
                .map(|(_, span)| *span),
            _ => None,
        });
        self.registered.push(Registered {
            name,
            flags,
            span,
            callback,
        });
    }

    /// `{function_name = ..., callback = ..., flags = {...}, description = ...}`.
    #[allow(clippy::type_complexity)]
    fn table_form<'e>(
        &mut self,
        fields: &'e [Field],
    ) -> Option<(
        Option<(&'e Vec<u8>, Span)>,
        Option<&'e Expr>,
        Option<Vec<String>>,
    )> {
        let (mut name, mut callback, mut flags) = (None, None, Some(Vec::new()));
        for field in fields {
            let Field::Named(key, value) = field else {
                self.uncertain = true;
                return None;
            };
            match (key.text.as_str(), value) {
                ("function_name", Expr::String(text, span)) => name = Some((text, *span)),
                ("function_name", _) => {}
                ("callback", value) => callback = Some(value),
                ("description", _) => {}
                ("flags", Expr::Table(items, _)) => {
                    let mut known = Vec::new();
                    for item in items {
                        match item {
                            Field::Positional(Expr::String(flag, span)) => {
                                let flag = String::from_utf8_lossy(flag).into_owned();
                                if !FLAGS.contains(&flag.as_str()) {
                                    self.diagnostics.push(
                                        Diagnostic::error(
                                            Rule::Library,
                                            Target::File,
                                            *span,
                                            format!("`{flag}` is not a function flag: FUNCTION LOAD refuses it (\"unknown flag given\")"),
                                        )
                                        .with_note(format!("the flags are {}", FLAGS.join(", "))),
                                    );
                                }
                                known.push(flag);
                            }
                            _ => flags = None,
                        }
                    }
                    if let Some(flags) = &mut flags {
                        *flags = known;
                    }
                }
                ("flags", _) => flags = None,
                (other, _) => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            Rule::Library,
                            Target::File,
                            key.span,
                            format!("`{other}` is not an argument of redis.register_function: FUNCTION LOAD refuses it (\"unknown argument given\")"),
                        )
                        .with_note("the table form takes `function_name`, `callback`, `flags` and `description`"),
                    );
                }
            }
        }
        if flags.is_none() {
            // Flags the text does not settle: the function may be read-only.
            self.uncertain = true;
        }
        Some((name, callback, flags))
    }
}

/// `redis.register_function`, unless `redis` is a local.
fn is_register_function(func: &Expr, locals: &HashSet<String>) -> bool {
    matches!(func, Expr::Index { obj, key, .. }
        if matches!(&**obj, Expr::Name(name) if name.text == "redis" && !locals.contains("redis"))
            && matches!(&**key, Expr::String(member, _) if member == b"register_function"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::ReplyKind;
    use crate::diagnostic::Severity;

    const ONE_KEY_ONE_ARG: Declared = Declared {
        keys: 1,
        args: 1,
        variadic: false,
        variadic_keys: false,
        reply: ReplyKind::NonNull,
        reply_type: crate::reply_type::RustType::Other,
        read_only: false,
        allowed: crate::diagnostic::Allowed::NONE,
        servers: crate::servers::Servers::ALL,
        checker: crate::diagnostic::Checker::Attribute,
        cluster: false,
    };

    fn errors(source: &str, function: &str) -> Vec<String> {
        analyze_function(source, function, ONE_KEY_ONE_ARG)
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message)
            .collect()
    }

    const LIBRARY: &str = "#!lua name=shop\n\
        local function stock(keys, args)\n\
            return redis.call('HINCRBY', keys[1], args[1], 1)\n\
        end\n\
        redis.register_function('add_stock', stock)\n\
        redis.register_function{function_name = 'count', callback = function(keys, args)\n\
            return redis.call('HGET', keys[1], args[1]) or 0\n\
        end, flags = {'no-writes'}, description = 'reads'}\n";

    #[test]
    fn both_registration_forms_are_read_with_their_flags() {
        let analysis = analyze_function(LIBRARY, "count", ONE_KEY_ONE_ARG);
        assert_eq!(analysis.library, "shop");
        let names: Vec<&str> = analysis
            .registered
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, ["add_stock", "count"]);
        assert!(analysis.function.unwrap().is_read_only());
        assert!(
            analysis.diagnostics.is_empty(),
            "{:?}",
            analysis.diagnostics
        );
        assert!(errors(LIBRARY, "add_stock").is_empty());
    }

    #[test]
    fn the_callbacks_parameters_are_keys_and_arguments() {
        let library = LIBRARY.replace("keys[1], args[1], 1", "keys[2], args[1], 1");
        let found = errors(&library, "add_stock");
        assert!(found.iter().any(|e| e.contains("KEYS[2]")), "{found:?}");
        // The other function is not the one bound: its reads are its own.
        assert!(errors(&library, "count").is_empty());
        let found = errors(
            &LIBRARY.replace(
                "return redis.call('HINCRBY', keys[1]",
                "return redis.call('HINCRBY', KEYS[1]",
            ),
            "add_stock",
        );
        assert!(
            found
                .iter()
                .any(|e| e.contains("not a global in a Redis Functions library")),
            "{found:?}"
        );
    }

    #[test]
    fn a_no_writes_function_may_not_write_and_nil_needs_an_option() {
        let library = LIBRARY.replace(
            "redis.call('HGET', keys[1], args[1]) or 0",
            "redis.call('HSET', keys[1], args[1], 1)",
        );
        let found = errors(&library, "count");
        assert!(
            found.iter().any(|e| e.contains("`hset` writes")),
            "{found:?}"
        );
        let library = LIBRARY.replace(" or 0", "");
        let found = errors(&library, "count");
        assert!(
            found.iter().any(|e| e.contains("cannot hold nil")),
            "{found:?}"
        );
    }

    #[test]
    fn load_time_code_may_only_register_and_log() {
        let library = "#!lua name=l\nredis.call('SET', 'x', 1)\nlocal s = string.format('%d', 1)\n\
                       redis.log(redis.LOG_NOTICE, 'loading')\n\
                       redis.register_function('f', function(keys, args) return string.len(args[1]) end)\n";
        let found = errors(library, "f");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("`redis.call` does not exist while a library loads"));
        assert!(found[1].contains("`string` does not exist"));
    }

    #[test]
    fn an_unregistered_function_is_named_with_a_suggestion() {
        let found = errors(LIBRARY, "add_stok");
        assert!(
            found
                .iter()
                .any(|e| e.contains("registers no function `add_stok`")),
            "{found:?}"
        );
        let analysis = analyze_function(LIBRARY, "add_stok", ONE_KEY_ONE_ARG);
        assert_eq!(
            analysis.diagnostics[0].note.as_deref(),
            Some("did you mean `add_stock`?")
        );
    }

    #[test]
    fn the_first_line_is_read_as_function_load_reads_it() {
        for (source, expected) in [
            ("return 1\n", "must start with `#!lua name=<library>`"),
            ("#!lua\nreturn 1\n", "names no library"),
            (
                "#!lua name=a flags=no-writes\n",
                "refuses `flags=no-writes`",
            ),
            ("#!lua name=my-lib\n", "not a library name"),
            ("#!lua name=a", "no line break"),
        ] {
            let found = errors(source, "f");
            assert!(found[0].contains(expected), "{source:?}: {found:?}");
        }
        let found = errors(
            "#!lua name=a\nredis.register_function{function_name='f', callback=function() return 1 end, flags={'bogus'}, extra=1}\n",
            "f",
        );
        assert_eq!(found.len(), 2, "{found:?}");
    }
}
