//! `redis-lua`: the checks of redis-script's `#[redis_script]` attribute
//! (the crate `redis-script-analyzer`) on the Redis Lua of any project, as
//! a command-line tool. The binary is `src/main.rs`; this library is what
//! it runs, for tests and benchmarks: [`run`] takes the command line
//! ([`options`]), [`find_files`] ([`walk`]) and [`check_files`] are the
//! engine, [`fix`] applies the fixes the findings carry, [`output`] writes
//! the findings, and [`lsp`] is the language server.
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod config;
pub mod fix;
pub mod globs;
pub mod lsp;
pub mod options;
pub mod output;
mod render;
pub mod walk;

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use anstream::stream::RawStream;
use anstream::{AutoStream, ColorChoice};

use redis_script_analyzer::compose;
use redis_script_analyzer::lint::{self, FileKind, FileOptions, FileReport};
use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{Allowed, Severity};

use config::Config;
use options::{CheckOptions, Color, Command};
use walk::canonical;
pub use walk::{Found, find_files, find_files_with};

/// Exit status: no error found.
pub const EXIT_CLEAN: i32 = 0;
/// Exit status: errors found (or warnings, with `--deny-warnings`).
pub const EXIT_FINDINGS: i32 = 1;
/// Exit status: a usage or I/O error.
pub const EXIT_TROUBLE: i32 = 2;

/// Settings that hold for every file, before the config's per-file ones.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--server`s (empty: the config's, or every server).
    pub servers: Servers,
    /// `--keys`.
    pub keys: Option<usize>,
    /// `--allow`s.
    pub allowed: Allowed,
    /// `--cluster`.
    pub cluster: bool,
    /// The config file, if one is read.
    pub config: Option<Config>,
}

impl Settings {
    /// The settings of `redis-lua check` without flags: the nearest
    /// `redis-lua.toml` in `start` or a folder above it, if there is one.
    pub fn from_nearest_config(start: &Path) -> Result<Settings, String> {
        let config = Config::find(start)
            .map(|path| Config::read(&path))
            .transpose()?;
        Ok(Settings {
            // No `--server`: the config's servers, or every server.
            servers: Servers::empty(),
            config,
            ..Settings::default()
        })
    }

    /// How the file at `path` is checked: the flags, then the config's
    /// settings for that file; `None` when the config excludes it.
    pub fn file_options(&self, path: &Path) -> Option<FileOptions> {
        let per_file = self.config.as_ref().map(|config| config.for_file(path));
        match per_file {
            Some(file) if file.excluded => None,
            _ => Some(self.options(per_file)),
        }
    }

    /// The servers the file at `path` is checked for.
    pub fn servers_for(&self, path: &Path) -> Servers {
        let per_file = self.config.as_ref().map(|config| config.for_file(path));
        self.servers(per_file)
    }

    fn servers(&self, per_file: Option<config::ForFile>) -> Servers {
        if !self.servers.is_empty() {
            return self.servers;
        }
        match per_file {
            Some(file) if !file.servers.is_empty() => file.servers,
            _ => Servers::ALL,
        }
    }

    /// The options of a file the config says `per_file` of (excluded or not).
    fn options(&self, per_file: Option<config::ForFile>) -> FileOptions {
        let (mut keys, mut allowed) = (self.keys, self.allowed);
        if let Some(file) = per_file {
            keys = keys.or(file.keys);
            allowed = allowed.union(file.allowed);
        }
        FileOptions::default()
            .servers(self.servers(per_file))
            .keys(keys)
            .keys_from_name(self.config.as_ref().is_none_or(|c| c.keys_from_name))
            .allowed(allowed)
            .cluster(self.cluster || self.config.as_ref().is_some_and(|c| c.cluster))
    }
}

/// A file checked.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its path as shown (as given, or joined onto the folder given).
    pub display: String,
    /// Its path on disk.
    pub path: PathBuf,
    /// The findings.
    pub report: FileReport,
}

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Each file checked on its own, in the order found.
    pub checked: Vec<Checked>,
    /// Files not checked on their own because another file includes them.
    pub included: usize,
    /// Files the config excludes.
    pub excluded: usize,
    /// Paths that could not be read (missing, not a file), each
    /// with why; with `--fix`, files that could not be written too.
    pub unreadable: Vec<Trouble>,
    /// With `--fix`, the files fixes were applied to ([`fix::fix_files`]).
    pub fixed: Vec<fix::Fixed>,
}

/// A path that could not be checked, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trouble {
    /// The path as given or found.
    pub path: String,
    /// Why it could not be read.
    pub why: String,
}

impl Trouble {
    fn new(path: impl Into<String>, why: impl Into<String>) -> Trouble {
        Trouble {
            path: path.into(),
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Trouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.why)
    }
}

impl Run {
    /// The number of findings of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.checked
            .iter()
            .flat_map(|checked| &checked.report.findings)
            .filter(|finding| finding.severity == severity)
            .count()
    }

    /// How many files were checked as libraries.
    pub fn libraries(&self) -> usize {
        self.checked
            .iter()
            .filter(|checked| checked.report.kind == FileKind::Library)
            .count()
    }
}

/// Checks `files` under `settings`. A file another one includes is checked
/// only as part of it: an include is a fragment, not a script (BullMQ's
/// `includes/` hold helpers that use the including script's locals); a
/// finding in it is reported once, however many scripts include it. A file
/// is a fragment too when the script including it fails to compose (the
/// files reached before the error) or is excluded by the config.
///
/// Files that no other file includes are composed first, and a file that
/// a script composed whole already reached is not composed again on its
/// own: it is a fragment, and what it includes was reached with it. So a
/// chain of includes is composed once, not once from each of its files.
pub fn check_files(files: &[Found], settings: &Settings) -> Run {
    let mut run = Run::default();
    let canonicals: Vec<PathBuf> = files.iter().map(|(_, path)| canonical(path)).collect();
    let mut targets = HashSet::new();
    for (_, path) in files {
        if let Ok(source) = read_source(path) {
            let named = compose::direct_includes(path, &source);
            targets.extend(named.iter().map(|target| canonical(target)));
        }
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&index| targets.contains(&canonicals[index]));
    drop(targets);
    // Every file reached by some file's includes: a fragment.
    let mut included = HashSet::new();
    // The files reached by compositions that succeeded: each one's own
    // composition would reach nothing more.
    let mut covered = HashSet::new();
    let mut checked = Vec::new();
    let mut unreadable = Vec::new();
    // Fragments not checked on their own: covered by a script before them.
    let mut skipped = 0;
    for index in order {
        let (display, path) = &files[index];
        let per_file = settings.config.as_ref().map(|config| config.for_file(path));
        let excluded = per_file.is_some_and(|file| file.excluded);
        if excluded {
            run.excluded += 1;
        }
        if covered.contains(&canonicals[index]) {
            skipped += usize::from(!excluded);
            continue;
        }
        if excluded {
            // Not checked, but what it includes is a fragment all the same.
            if let Ok(source) = read_source(path) {
                let composed = compose::compose(display, path, source, &mut |p| std::fs::read(p));
                let (reached, whole) = match &composed {
                    Ok(composed) => (
                        composed.files[1..].iter().map(|f| f.path.clone()).collect(),
                        true,
                    ),
                    Err(error) => (error.reached.clone(), false),
                };
                reach(&reached, whole, &mut included, &mut covered);
            }
            continue;
        }
        let options = settings.options(per_file);
        let source = match read_source(path) {
            Ok(source) => source,
            Err(why) => {
                unreadable.push((index, Trouble::new(display.as_str(), why)));
                continue;
            }
        };
        let report = lint::check_file(display, path, source, &mut |p| std::fs::read(p), &options);
        let whole = report.kind != FileKind::Uncomposed;
        reach(&report.included, whole, &mut included, &mut covered);
        checked.push((
            index,
            Checked {
                display: display.clone(),
                path: path.clone(),
                report,
            },
        ));
    }
    // In the order found, whatever order they were checked in.
    checked.sort_by_key(|(index, _)| *index);
    unreadable.sort_by_key(|(index, _)| *index);
    run.unreadable = unreadable.into_iter().map(|(_, trouble)| trouble).collect();
    let before = checked.len();
    run.checked = checked
        .into_iter()
        .filter(|(index, _)| !included.contains(&canonicals[*index]))
        .map(|(_, checked)| checked)
        .collect();
    run.included = skipped + before - run.checked.len();
    // A mistake in a file several scripts include is shown once.
    let mut seen = HashSet::new();
    for checked in &mut run.checked {
        checked.report.findings.retain(|finding| {
            seen.insert((
                finding.file.clone(),
                finding.line,
                finding.column,
                finding.rule,
                finding.message.clone(),
            ))
        });
    }
    run
}

/// Adds the files a composition reached to the fragments, and to the files
/// covered when it composed `whole`.
fn reach(
    reached: &[PathBuf],
    whole: bool,
    included: &mut HashSet<PathBuf>,
    covered: &mut HashSet<PathBuf>,
) {
    for path in reached {
        let path = canonical(path);
        if whole {
            covered.insert(path.clone());
        }
        included.insert(path);
    }
}

/// The file's bytes (as the server reads a script: they need not be
/// UTF-8), or why it cannot be read.
fn read_source(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| error.to_string())
}

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
            return check(&options, out, err, colored);
        }
        Command::Lsp => return lsp::run(),
    };
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(_) => EXIT_TROUBLE,
    }
}

fn check(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write, colored: bool) -> i32 {
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
    let written = match options.format {
        options::Format::Human => output::human(&run, out, colored),
        options::Format::Json => output::json(&run, out),
        options::Format::Sarif => output::sarif(&run, out),
    };
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
