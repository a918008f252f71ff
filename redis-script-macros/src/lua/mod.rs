//! Compile-time analysis of a Lua script as Redis 7.0 and Valkey 8.1 run
//! it ([`servers`]): its shebang, its syntax (Lua 5.1), and the checks in
//! [`check`].
//!
//! Plain Rust over `&str`, testable without a proc-macro context.

pub mod ast;
pub mod check;
pub mod commands;
mod commands_redis_7_0;
mod commands_valkey_8_1;
pub mod lexer;
pub mod parser;
pub mod report;
pub mod sandbox;
pub mod servers;
pub mod shebang;

// Regenerates the command tables and checks them (and `sandbox`) against a real server.
#[cfg(test)]
mod commands_gen;

// Checks the parser's verdict on many scripts against a real server's SCRIPT LOAD.
#[cfg(test)]
mod differential;

pub use check::{Declared, Diagnostic, ReplyKind, Severity, Target};

/// The findings on one script.
pub struct Analysis {
    /// Its shebang (empty without one).
    pub shebang: shebang::Shebang,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the shebang, parses, and checks `source` against `declared`
/// (whose `read_only` is taken from the shebang) on `declared.servers`.
pub fn analyze(source: &str, mut declared: Declared) -> Analysis {
    let shebang = match shebang::parse(source, declared.servers) {
        Ok(shebang) => shebang.unwrap_or_default(),
        Err(error) => {
            let mut diagnostic = Diagnostic::error(Target::File, error.span, error.message);
            diagnostic.note = error.note;
            return Analysis {
                shebang: shebang::Shebang::default(),
                diagnostics: vec![diagnostic],
            };
        }
    };
    declared.read_only = shebang.is_read_only();
    let diagnostics = match parser::parse(source) {
        Ok(chunk) => check::check(&chunk, &declared),
        Err(error) => vec![syntax_error(source, error)],
    };
    Analysis {
        shebang,
        diagnostics,
    }
}

/// A syntax error at the end of input is shown at the script's last
/// character rather than on an empty line; `...` where `..` was meant gets a hint.
fn syntax_error(source: &str, error: parser::SyntaxError) -> Diagnostic {
    let mut span = error.span;
    if span.start >= source.trim_end().len() {
        let end = source.trim_end().len();
        let start = source[..end].char_indices().last().map_or(0, |(at, _)| at);
        span = ast::Span::new(start, end);
    }
    let mut diagnostic = Diagnostic::error(
        Target::File,
        span,
        format!("Lua syntax error: {}", error.message),
    );
    if error.message.ends_with("near '...'") {
        diagnostic.note = Some("`...` is the vararg expression; concatenation is `..`".to_owned());
    }
    diagnostic
}
