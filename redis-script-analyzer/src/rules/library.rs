//! `library`: a Redis Functions library that FUNCTION LOAD refuses (its `#!lua name=` line, its registrations, what its top level does).
//!
//! `crate::library` reads the `#!lua name=` line and runs [`load_time`]
//! once per library: what runs while the library loads is the main chunk
//! of its model (function 0), so the registrations are its calls whose
//! callee is `redis.register_function`, and what it may touch is its uses
//! of globals. No setting can silence these findings: the server refuses
//! the file.

use std::collections::HashSet;

use super::{Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::semantic::{Access, Builtin, FunctionId, Model, Value};
use crate::servers::{Product, Servers};
use crate::shebang::FLAGS;
use crate::syntax::tree::{Block, Chunk, Expr, Field, Span, Stat};

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};

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
    /// The callback's function in the library's model, when the text
    /// settles which function it is.
    pub(crate) callback: Option<FunctionId>,
}

impl Registered {
    /// Whether FCALL_RO may call it: it is registered `no-writes`.
    pub fn is_read_only(&self) -> bool {
        self.flags.iter().any(|flag| flag == "no-writes")
    }
}

/// Library and function names: letters, digits, underscores, at least one.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}


/// What `redis` holds while a library loads, on every server.
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

/// What Valkey's `redis` (and its `server`, the same table) holds besides,
/// while a library loads (asked of Valkey 8.1.8 and 9.1.2).
const VALKEY_LOAD_TIME_MEMBERS: &[&str] = &["VALKEY_VERSION", "VALKEY_VERSION_NUM", "SERVER_NAME"];

/// Whether `redis.member` (or `server.member` where `server` exists) is
/// there while a library loads on every server of `targets`.
fn loads_with(member: &str, targets: Servers) -> bool {
    LOAD_TIME_MEMBERS.contains(&member)
        || (targets.iter().all(|server| server.product() == Product::Valkey)
            && VALKEY_LOAD_TIME_MEMBERS.contains(&member))
}

/// What a library does while it loads.
pub(crate) struct LoadTime {
    /// The registrations the text settles, in the order of the text.
    pub(crate) registered: Vec<Registered>,
    /// A registration the text does not settle (a computed name, one in a
    /// loop, a branch or a function): the function may be registered after all.
    pub(crate) uncertain: bool,
    /// The findings, in the order of the text.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The names registered so far: a second registration of one is refused.
    names: HashSet<String>,
}

/// Reads what the library `chunk`, of which `model` is the model, does
/// while it loads.
pub(crate) fn load_time(model: &Model, chunk: &Chunk, targets: Servers) -> LoadTime {
    let mut loading = LoadTime {
        registered: Vec::new(),
        uncertain: false,
        diagnostics: Vec::new(),
        names: HashSet::new(),
    };
    unavailable_names(model, targets, &mut loading.diagnostics);
    let nested = nested_blocks(&chunk.block);
    for site in &model.calls {
        if model.value(site.func) != Value::Builtin(Builtin::RegisterFunction) {
            continue;
        }
        if site.function != 0 {
            // In a function: whether it runs while the library loads is
            // not settled by the text.
            loading.uncertain = true;
            continue;
        }
        if is_nested(&nested, site.span) {
            // Inside a loop or a branch: which functions end up registered
            // is not settled by the text.
            loading.uncertain = true;
        }
        registration(model, site.args, site.span, &mut loading);
    }
    // One list in the order of the text, as one walk would give it.
    loading.diagnostics.sort_by_key(|diagnostic| diagnostic.span.start);
    loading
}

/// The globals the main chunk reads that do not exist while a library
/// loads: anything but `redis` (and Valkey's `server`, when every target
/// is Valkey), and of it anything but [`LOAD_TIME_MEMBERS`] (and Valkey's
/// own). Writes of globals are the scope check's (it reports them in every
/// environment); `KEYS` and `ARGV` too (it explains them for functions).
fn unavailable_names(model: &Model, targets: Servers, diagnostics: &mut Vec<Diagnostic>) {
    let valkey = targets.iter().all(|server| server.product() == Product::Valkey);
    for used in &model.names {
        if used.function != 0 || used.binding.is_some() {
            continue;
        }
        let name = used.name.text.as_str();
        let library = name == "redis" || (valkey && name == "server");
        let explained = library || matches!(name, "KEYS" | "ARGV");
        match used.access {
            Access::Index {
                key: Expr::String(member, _),
                whole,
                ..
            } if library => {
                let member = String::from_utf8_lossy(member);
                if !loads_with(&member, targets) {
                    diagnostics.push(unavailable(&format!("{name}.{member}"), whole));
                }
            }
            // `redis[k]`: a member the text does not settle.
            Access::Index { .. } if library => {}
            Access::Read | Access::Index { .. } | Access::AssignIndex if !explained => {
                diagnostics.push(unavailable(name, used.name.span));
            }
            _ => {}
        }
    }
}

fn unavailable(what: &str, span: Span) -> Diagnostic {
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
    )
}

/// The blocks of the main chunk's loops, branches and `do` blocks, in the
/// order of the text: what runs in them may run any number of times.
fn nested_blocks(block: &Block) -> Vec<Span> {
    let mut spans = Vec::new();
    for stat in &block.stats {
        match stat {
            Stat::Do(block)
            | Stat::While { block, .. }
            | Stat::Repeat { block, .. }
            | Stat::NumericFor { block, .. }
            | Stat::GenericFor { block, .. } => spans.push(block.span),
            Stat::If {
                arms, otherwise, ..
            } => {
                spans.extend(arms.iter().map(|(_, block)| block.span));
                spans.extend(otherwise.iter().map(|block| block.span));
            }
            _ => {}
        }
    }
    spans
}

/// Whether `span` lies in one of `nested` (disjoint, in order).
fn is_nested(nested: &[Span], span: Span) -> bool {
    let after = nested.partition_point(|block| block.start <= span.start);
    after > 0 && span.start < nested[after - 1].end
}

/// `redis.register_function(...)` with `args`, at `span`.
fn registration<'t>(model: &Model<'t>, args: &'t [Expr], span: Span, loading: &mut LoadTime) {
    let (name, callback, flags) = match args {
        [name, callback] => (literal(model, name), Some(callback), None),
        [Expr::Table(fields, _)] => match table_form(model, fields, loading) {
            Some(parts) => parts,
            None => return,
        },
        _ => (None, None, None),
    };
    let Some((name, name_span)) = name else {
        loading.uncertain = true;
        return;
    };
    let name = String::from_utf8_lossy(name).into_owned();
    if !is_valid_name(&name) {
        loading.diagnostics.push(
            Diagnostic::error(
                Rule::Library,
                Target::File,
                name_span,
                format!("`{name}` is not a function name FUNCTION LOAD accepts"),
            )
            .with_note("function names can only contain letters, digits and underscores"),
        );
    }
    if !loading.names.insert(name.clone()) {
        loading.diagnostics.push(
            Diagnostic::error(
                Rule::Library,
                Target::File,
                name_span,
                format!("the library registers `{name}` twice: FUNCTION LOAD refuses it (\"Function already exists in the library\")"),
            )
            .with_note("give each function its own name"),
        );
    }
    // A function expression, or a local naming one.
    let callback = callback.and_then(|callback| match model.value(callback) {
        Value::Function(function) => Some(function),
        _ => None,
    });
    loading.registered.push(Registered {
        name,
        flags: flags.unwrap_or_default(),
        span,
        callback,
    });
}

/// The text `expr` settles (a literal, or a local holding one), and its span.
fn literal<'t>(model: &Model<'t>, expr: &'t Expr) -> Option<(&'t [u8], Span)> {
    match model.value(expr) {
        Value::Text(text) => Some((text, expr.span())),
        _ => None,
    }
}

/// The parts of a registration: its name, callback and flags.
type Parts<'t> = (Option<(&'t [u8], Span)>, Option<&'t Expr>, Option<Vec<String>>);

/// `{function_name = ..., callback = ..., flags = {...}, description = ...}`.
fn table_form<'t>(
    model: &Model<'t>,
    fields: &'t [Field],
    loading: &mut LoadTime,
) -> Option<Parts<'t>> {
    let (mut name, mut callback, mut flags) = (None, None, Some(Vec::new()));
    for field in fields {
        let Field::Named(key, value) = field else {
            loading.uncertain = true;
            return None;
        };
        match (key.text.as_str(), value) {
            ("function_name", value) => name = literal(model, value),
            ("callback", value) => callback = Some(value),
            ("description", _) => {}
            ("flags", Expr::Table(items, _)) => {
                let mut known = Vec::new();
                for item in items {
                    match item {
                        Field::Positional(Expr::String(flag, span)) => {
                            let flag = String::from_utf8_lossy(flag).into_owned();
                            if !FLAGS.contains(&flag.as_str()) {
                                loading.diagnostics.push(
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
                loading.diagnostics.push(
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
        loading.uncertain = true;
    }
    Some((name, callback, flags))
}
