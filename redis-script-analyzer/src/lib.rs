//! Compile-time analysis of a Redis Lua script, as Redis 7.0 to 8.2 and
//! Valkey 8.0 to 9.1 run it ([`servers`]): its shebang ([`shebang`]), its syntax (a
//! Lua 5.1 parser whose verdicts and messages equal the server's `SCRIPT
//! LOAD`), and the rules ([`Rule`]) against what a caller declares about it
//! ([`Declared`]): KEYS/ARGV arity, sandbox globals and library members,
//! Redis commands, nil replies and reply shapes the declared type cannot
//! hold, comparisons with nil that never hold, and keys that do not come
//! from KEYS.
//!
//! This is the analyzer behind the `#[redis_script]` attribute of
//! [redis-script](https://docs.rs/redis-script) and the `redis-lua`
//! command-line checker, as a plain library over a script's source so that
//! it can be fuzzed, benchmarked and used by other tools. [`analyze`] is the
//! entry point; [`report::render`] shows a finding the way rustc shows its
//! own; [`lint::check_file`] checks a file as `redis-lua` does (includes,
//! headers, libraries).
//!
//! It works in passes: the syntax (a lexer and a parser over the script's
//! bytes), a semantic model built in one walk of the tree (every name
//! resolved to its binding, functions with their returns, the flow of
//! values through locals, tables, `unpack`, `pcall` and local functions),
//! and the rules, one per source file, each reading the model. Each pass is
//! linear in the size of the script.
//!
//! A script is bytes, as the server reads it: the entry points take any
//! `&S` where `S: AsRef<[u8]>` (a `&str`, a `&String`, a `&[u8]`), so a
//! script that is not UTF-8 (Lua strings and comments may hold any byte)
//! is analysed too; spans are byte offsets, and lines are counted as Lua
//! counts them.
//!
//! ```
//! use redis_script_analyzer::{Declared, ReplyKind, Severity, analyze};
//!
//! let declared = Declared::default().keys(1).reply(ReplyKind::NonNull);
//! let analysis = analyze("return redis.call('GET', KEYS[1])", declared);
//! assert_eq!(analysis.diagnostics[0].severity, Severity::Error);
//! assert!(analysis.diagnostics[0].message.contains("cannot hold nil"));
//! ```
//!
//! # Public API
//!
//! What a user of the analyzer as a library calls, documented here and
//! kept stable (public enums and the structs that may grow are
//! `#[non_exhaustive]`, and a declaration is built with setters, so a new
//! server, rule or setting is not a breaking change):
//!
//! - A script: [`analyze`] (every finding, against a [`Declared`] with its
//!   [`ReplyKind`]), [`check_syntax`] (whether `SCRIPT LOAD` takes it,
//!   else its [`SyntaxError`]) and [`tokens`] (where its tokens are); the
//!   findings: [`Analysis`], [`Diagnostic`]
//!   with its [`Severity`], [`Target`], [`Span`] and [`Fix`] ([`Edit`],
//!   [`Applicability`]); [`Rule`] names each kind of finding, [`Allowed`]
//!   and [`inline_allows`] (the `-- redis-lua: allow(...)` comments,
//!   [`INLINE_ALLOW`]) silence them, [`Checker`] says whose settings apply.
//! - A Redis Functions library: [`library`] ([`library::analyze_function`]
//!   checks one function a library registers).
//! - A file as `redis-lua` checks it, with its includes and signature
//!   header: [`lint`] ([`lint::check_file`] gives a [`lint::FileReport`]:
//!   each [`lint::Finding`] is a file's index and a byte span, and the
//!   report keeps the files, so it gives the line and column
//!   ([`lint::FileReport::line_column`]) and the drawing
//!   ([`lint::FileReport::snippet`]) when they are shown); fixes placed in
//!   the files they edit: [`fix`]; a finding drawn as rustc draws its own,
//!   for a compile error or a terminal: [`report`] ([`report::Snippet`],
//!   [`report::Style`]).
//! - The servers a script may target: [`servers`] ([`servers::Server`],
//!   [`servers::Servers`]); their `#!lua` line: [`shebang`].
//!
//! For redis-script's own crates only, hidden from this documentation and
//! with no promise of stability: `commands` (the command table and the
//! words of each command's arguments, which `redis-lua`'s language server
//! completes and explains), `grammar` (each command's argument tree, from
//! which it offers the words that may come next), `replies` (what each
//! command replies), `compose`
//! (`--- @include`), `header` (the signature header), `reply_type` (what a
//! declared Rust type can hold) and `sandbox` (what the tests compare with
//! each server's Lua sandbox), which the macros and `redis-lua` share
//! with the analyzer. Everything else is private to the crate.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod commands;
#[doc(hidden)]
pub mod compose;
mod declared;
mod diagnostic;
pub mod fix;
#[doc(hidden)]
pub mod grammar;
#[doc(hidden)]
pub mod header;
mod inline_allow;
mod key_types;
pub mod library;
pub mod lint;
#[doc(hidden)]
pub mod replies;
mod reply;
#[doc(hidden)]
pub mod reply_type;
pub mod report;
mod rule;
mod rules;
#[doc(hidden)]
pub mod sandbox;
mod semantic;
pub mod servers;
pub mod shebang;
mod sources;
mod suggest;
mod syntax;
mod text;

pub use declared::Declared;
pub use diagnostic::{Allowed, Diagnostic, Target};
pub use fix::{Applicability, Edit, Fix};
pub use inline_allow::{INLINE_ALLOW, inline_allows};
pub use reply_type::ReplyKind;
pub use rule::{Checker, Rule, Severity};
pub use syntax::parser::SyntaxError;
pub use syntax::tree::Span;

/// The findings on one script.
#[non_exhaustive]
pub struct Analysis {
    /// Its shebang (empty without one).
    pub shebang: shebang::Shebang,
    /// Every finding, errors and warnings, in the order the checks ran.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the shebang, parses, and checks `source` against `declared`
/// (whose `read_only` is taken from the shebang) on `declared.servers`.
pub fn analyze<S: AsRef<[u8]> + ?Sized>(source: &S, mut declared: Declared) -> Analysis {
    let source = source.as_ref();
    let shebang = match shebang::parse(&text::same_offsets(source), declared.servers) {
        Ok(shebang) => shebang.unwrap_or_default(),
        Err(error) => {
            let mut diagnostic =
                Diagnostic::error(Rule::Shebang, Target::File, error.span, error.message);
            diagnostic.note = error.note.or_else(|| {
                let accepted_by = error.accepted_by?;
                Some(servers::only_on_note(accepted_by, declared.checker))
            });
            return Analysis {
                shebang: shebang::Shebang::default(),
                diagnostics: vec![diagnostic],
            };
        }
    };
    declared.read_only = shebang.is_read_only();
    let (inline, mut diagnostics) = inline_allows(source, declared.checker);
    declared.allowed = declared.allowed.union(inline);
    match syntax::parser::parse(source) {
        Ok(chunk) => diagnostics.extend(rules::check(source, &chunk, &declared)),
        Err(error) => diagnostics.push(rules::syntax::finding(source, error)),
    }
    Analysis {
        shebang,
        diagnostics,
    }
}

/// The spans of `source`'s tokens as the server's lexer reads them (names,
/// keywords, literals, operators; no comments), up to the end or the first
/// token it cannot read: for a tool that highlights a script or edits it
/// token by token.
pub fn tokens<S: AsRef<[u8]> + ?Sized>(source: &S) -> Vec<Span> {
    syntax::lexer::Lexer::token_spans(source.as_ref())
}

/// Whether `source` is a script Redis loads: `Ok`, or the error
/// `SCRIPT LOAD` gives (its message without the `user_script:LINE:` prefix).
/// The shebang line is skipped, not judged ([`shebang::parse`] does that).
pub fn check_syntax<S: AsRef<[u8]> + ?Sized>(source: &S) -> Result<(), SyntaxError> {
    syntax::parser::parse(source).map(drop)
}
