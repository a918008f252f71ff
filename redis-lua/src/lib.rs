//! `redis-lua`: the checks of redis-script's `#[redis_script]` attribute
//! (the crate `redis-script-analyzer`) on the Redis Lua of any project, as
//! a command-line tool. The binary is `src/main.rs`; this library is what
//! it runs, for tests and benchmarks: [`run`] takes the command line
//! ([`options`]), [`find_files`] ([`walk`]) and [`check_files`] are the
//! engine, [`fix`] applies the fixes the findings carry, [`output`] writes
//! the findings, and [`lsp`] is the language server.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod check;
pub mod config;
mod disk;
pub mod fix;
pub mod globs;
pub mod lsp;
pub mod options;
pub mod output;
mod settings;
mod trouble;
pub mod walk;

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

use anstream::stream::RawStream;
use anstream::{AutoStream, ColorChoice};

use redis_script_analyzer::{Allowed, Severity};

use config::Config;
use options::{CheckOptions, Color, Command};

pub use check::{Checked, Run, check_files};
pub use settings::Settings;
pub use trouble::Trouble;
pub use walk::{Found, find_files, find_files_with};

/// Exit status: no error found.
pub const EXIT_CLEAN: i32 = 0;
/// Exit status: errors found (or warnings, with `--deny-warnings`).
pub const EXIT_FINDINGS: i32 = 1;
/// Exit status: a usage or I/O error.
pub const EXIT_TROUBLE: i32 = 2;

/// Runs the command line `args` (without the program's name), writing
/// findings to `out` and trouble to `err`; returns the exit status. `out`
/// is the terminal's standard output, a `Vec<u8>` or any `dyn Write`:
/// `--color auto` colours it only when it is a terminal (or
/// `CLICOLOR_FORCE` is set), and never when `NO_COLOR` is.
pub fn run<I, O>(args: I, out: &mut O, err: &mut dyn Write) -> i32
where
    I: IntoIterator,
    I::Item: Into<OsString>,
    O: RawStream,
{
    let command = match options::parse(args) {
        Ok(command) => command,
        Err(message) => {
            let _ = writeln!(err, "redis-lua: {}", message.trim_end());
            return EXIT_TROUBLE;
        }
    };
    let written = match command {
        Command::Help => write!(out, "{}", options::USAGE),
        Command::Version => writeln!(out, "redis-lua {}", env!("CARGO_PKG_VERSION")),
        Command::Rules => output::rules(out),
        Command::Check(options) => {
            let choice = match options.color {
                Color::Always => ColorChoice::Always,
                Color::Never => ColorChoice::Never,
                Color::Auto => AutoStream::choice(&out),
            };
            let colored = options.format == options::Format::Human
                && matches!(choice, ColorChoice::Always | ColorChoice::AlwaysAnsi);
            return check_command(&options, out, err, colored);
        }
        Command::Lsp => return lsp::run(),
    };
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(_) => EXIT_TROUBLE,
    }
}

fn check_command(
    options: &CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
    colored: bool,
) -> i32 {
    let config_path = match (&options.config, options.no_config) {
        (_, true) => None,
        (Some(path), false) => Some(path.clone()),
        (None, false) => Config::find(Path::new(".")),
    };
    let config = match config_path.map(|path| Config::read(&path)).transpose() {
        Ok(config) => config,
        Err(message) => {
            let _ = writeln!(err, "redis-lua: {message}");
            return EXIT_TROUBLE;
        }
    };
    let (files, missing) = find_files_with(
        &options.paths,
        config.as_ref().unwrap_or(&Config::default()),
    );
    let settings = Settings {
        servers: options.servers,
        keys: options.keys,
        allowed: options
            .allow
            .iter()
            .fold(Allowed::NONE, |allowed, rule| allowed.with(*rule)),
        cluster: options.cluster,
        config,
    };
    let mut run = if options.fix {
        fix::fix_files(&files, &settings)
    } else {
        check_files(&files, &settings)
    };
    run.unreadable.splice(0..0, missing);
    // Buffered: the documents are written in many small pieces.
    let mut buffered = std::io::BufWriter::new(out);
    let written = match options.format {
        options::Format::Human => output::human(&run, &mut buffered, colored),
        options::Format::Json => output::json(&run, &mut buffered),
        options::Format::Sarif => output::sarif(&run, &mut buffered),
    }
    .and_then(|()| buffered.flush());
    for problem in &run.unreadable {
        let _ = writeln!(err, "redis-lua: {problem}");
    }
    if written.is_err() || !run.unreadable.is_empty() {
        return EXIT_TROUBLE;
    }
    let failing = run.count(Severity::Error)
        + if options.deny_warnings {
            run.count(Severity::Warning)
        } else {
            0
        };
    if failing > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
