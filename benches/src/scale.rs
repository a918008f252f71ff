//! The `scale` section: the analyzer on inputs far larger than real
//! scripts, generated here, to show how its time grows with their size.
//! The proc macro runs the analyzer on every build, so a step that grows
//! faster than the input is build time that explodes on a large script.
//!
//! Four families, each at the size it was first measured at, three times
//! it and ten times it (`--quick`: a tenth and a twentieth of it):
//! - a Functions library of one-line functions, through
//!   [`library::analyze_library`] (what the macro and `redis-lua` run on a
//!   library);
//! - one reply compared with `nil` again and again, through
//!   [`lint::check_file`] (what `redis-lua` runs on a file: each comparison
//!   a finding, placed and rendered);
//! - a chain of `--- @include` files, each including the next, through
//!   `redis_lua::find_files` and `check_files` on the folder (what
//!   `redis-lua check` runs);
//! - a signature header of `---@key` lines, through [`lint::check_file`]
//!   (what `redis-lua` runs on a file).
//!
//! Every generated input is checked for the findings it must give (none,
//! one per comparison with `nil`, one per key never read): a run that
//! finds others is an error of the harness, not a figure.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use redis_script_analyzer::lint::{self, FileKind, FileOptions};
use redis_script_analyzer::{Declared, Rule, Severity, library};

use crate::markdown::{figure, table_head, table_row};
use crate::options::{Options, repo_root};
use crate::part::Part;
use crate::run::Run;
use crate::section::Section;
use crate::stats::{Summary, number};

/// A run longer than this stops its family from growing: the larger sizes
/// would take minutes (or hours) and add nothing but the verdict.
const BUDGET_SECONDS: f64 = 30.0;

/// The generated inputs of one family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Library,
    NilComparisons,
    IncludeChain,
    HeaderKeys,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Library,
        Kind::NilComparisons,
        Kind::IncludeChain,
        Kind::HeaderKeys,
    ];

    /// The size the family was first measured at; the target holds at ten
    /// times it.
    pub fn quoted(self) -> usize {
        match self {
            Kind::Library => 1_000,
            Kind::NilComparisons => 4_000,
            Kind::IncludeChain => 1_000,
            Kind::HeaderKeys => 20_000,
        }
    }

    /// What the family is, for the report.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Library => {
                "a Functions library of one-line functions \
                 (`redis.register_function('fN', function(keys, args) return N end)`), \
                 `library::analyze_library`"
            }
            Kind::NilComparisons => {
                "`local v = redis.call('GET', KEYS[1])`, then lines \
                 `if v == nil then x = x + 1 end` (each one finding, placed and rendered), \
                 `lint::check_file`"
            }
            Kind::IncludeChain => {
                "a folder of files, each including the next with `--- @include`, \
                 `redis_lua::find_files` and `check_files` on it"
            }
            Kind::HeaderKeys => {
                "a script whose header declares its keys in `---@key kN string` lines and \
                 which reads the first (each other one a warning, placed and rendered), \
                 `lint::check_file`"
            }
        }
    }

    /// What one element of the family is, plural.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Library => "functions",
            Kind::NilComparisons => "comparisons",
            Kind::IncludeChain => "files",
            Kind::HeaderKeys => "key lines",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Library => "library",
            Kind::NilComparisons => "nil comparisons",
            Kind::IncludeChain => "include chain",
            Kind::HeaderKeys => "header keys",
        }
    }
}

/// One size of a family: its timed runs.
pub struct Row {
    pub size: usize,
    /// Seconds per run; one run only when it took longer than the budget.
    pub seconds: Vec<f64>,
}

pub struct Family {
    pub kind: Kind,
    pub rows: Vec<Row>,
    /// The sizes left out because a smaller one took longer than the budget.
    pub skipped: Vec<usize>,
}

pub struct Results {
    pub families: Vec<Family>,
    pub budget_seconds: f64,
}

/// The sizes a family runs at.
pub fn sizes(kind: Kind, quick: bool) -> Vec<usize> {
    let quoted = kind.quoted();
    if quick {
        vec![quoted / 20, quoted / 10]
    } else {
        vec![quoted, quoted * 3, quoted * 10]
    }
}

/// Runs every family; `Err` when an input does not analyse as it must.
pub fn run(options: &Options) -> Result<Results, String> {
    let scratch = repo_root().join("target/scale-inputs");
    let mut families = Vec::new();
    for kind in Kind::ALL {
        let mut family = Family {
            kind,
            rows: Vec::new(),
            skipped: Vec::new(),
        };
        for size in sizes(kind, options.quick) {
            if family
                .rows
                .last()
                .is_some_and(|row| row.seconds.iter().any(|s| *s > BUDGET_SECONDS))
            {
                family.skipped.push(size);
                continue;
            }
            eprintln!("scale: {} of {size}", kind.name());
            let input = Input::generate(kind, size, &scratch)?;
            // The first run checks what the input gives, and is timed too:
            // a run over the budget is the only one.
            let clock = Instant::now();
            input.run_checked()?;
            let first = clock.elapsed().as_secs_f64();
            let mut seconds = vec![first];
            if first <= BUDGET_SECONDS {
                seconds.clear();
                for _ in 0..options.rounds {
                    let clock = Instant::now();
                    input.run_checked()?;
                    seconds.push(clock.elapsed().as_secs_f64());
                }
            }
            input.remove();
            family.rows.push(Row { size, seconds });
        }
        families.push(family);
    }
    let _ = std::fs::remove_dir(&scratch);
    Ok(Results {
        families,
        budget_seconds: BUDGET_SECONDS,
    })
}

/// A generated input, in memory or in a folder of its own.
enum Input {
    Library { source: String, size: usize },
    NilComparisons { source: String, size: usize },
    IncludeChain { folder: PathBuf, size: usize },
    HeaderKeys { source: String, size: usize },
}

impl Input {
    fn generate(kind: Kind, size: usize, scratch: &Path) -> Result<Input, String> {
        Ok(match kind {
            Kind::Library => Input::Library {
                source: library_source(size),
                size,
            },
            Kind::NilComparisons => Input::NilComparisons {
                source: nil_comparisons_source(size),
                size,
            },
            Kind::IncludeChain => {
                let folder = scratch.join(format!("chain-{size}"));
                write_chain(&folder, size)
                    .map_err(|error| format!("scale: writing {}: {error}", folder.display()))?;
                Input::IncludeChain { folder, size }
            }
            Kind::HeaderKeys => Input::HeaderKeys {
                source: header_keys_source(size),
                size,
            },
        })
    }

    /// Runs the analyzer on the input; `Err` unless it finds exactly what
    /// the input must give.
    fn run_checked(&self) -> Result<(), String> {
        match self {
            Input::Library { source, size } => {
                let analysis = library::analyze_library(source, Declared::default());
                if !analysis.diagnostics.is_empty() || analysis.registered.len() != *size {
                    return Err(format!(
                        "scale: the library of {size} functions gave {} findings and {} \
                         functions (expected none and {size}); first: {:?}",
                        analysis.diagnostics.len(),
                        analysis.registered.len(),
                        analysis.diagnostics.first().map(|d| &d.message)
                    ));
                }
            }
            Input::NilComparisons { source, size } => {
                let report = lint::check_file(
                    "nil.lua",
                    Path::new("nil.lua"),
                    source.clone(),
                    &mut |_| Err(std::io::ErrorKind::NotFound.into()),
                    &FileOptions::default(),
                );
                let other = report
                    .findings
                    .iter()
                    .find(|finding| finding.rule != Rule::NilComparison);
                if report.findings.len() != *size || other.is_some() {
                    return Err(format!(
                        "scale: {size} comparisons with nil gave {} findings (expected {size}, \
                         all nil_comparison); first other: {:?}",
                        report.findings.len(),
                        other.map(|f| report.rendered(f))
                    ));
                }
            }
            Input::IncludeChain { folder, size } => {
                let paths = vec![folder.display().to_string()];
                let (files, missing) = redis_lua::find_files(&paths);
                if !missing.is_empty() || files.len() != *size {
                    return Err(format!(
                        "scale: found {} of the chain's {size} files",
                        files.len()
                    ));
                }
                let run = redis_lua::check_files(&files, &redis_lua::Settings::default());
                let findings: Vec<String> = run
                    .checked
                    .iter()
                    .flat_map(|checked| {
                        let report = &checked.report;
                        report.findings.iter().map(|f| report.rendered(f))
                    })
                    .collect();
                if run.checked.len() != 1 || run.included != size - 1 || !findings.is_empty() {
                    return Err(format!(
                        "scale: the chain of {size} files gave {} scripts, {} included files \
                         and {} findings (expected 1, {} and none); first: {:?}",
                        run.checked.len(),
                        run.included,
                        findings.len(),
                        size - 1,
                        findings.first()
                    ));
                }
            }
            Input::HeaderKeys { source, size } => {
                let report = lint::check_file(
                    "keys.lua",
                    Path::new("keys.lua"),
                    source.clone(),
                    &mut |_| Err(std::io::ErrorKind::NotFound.into()),
                    &FileOptions::default(),
                );
                let other = report.findings.iter().find(|finding| {
                    finding.rule != Rule::Unread || finding.severity != Severity::Warning
                });
                if report.kind != FileKind::Headed(*size)
                    || report.findings.len() != size - 1
                    || other.is_some()
                {
                    return Err(format!(
                        "scale: the header of {size} keys was read as {:?} with {} findings \
                         (expected Headed({size}) and {} unread-key warnings); first other: {:?}",
                        report.kind,
                        report.findings.len(),
                        size - 1,
                        other.map(|f| report.rendered(f))
                    ));
                }
            }
        }
        Ok(())
    }

    fn remove(&self) {
        if let Input::IncludeChain { folder, .. } = self {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

/// `#!lua name=big`, then `size` functions of one line each.
pub fn library_source(size: usize) -> String {
    let mut source = String::from("#!lua name=big\n");
    for i in 0..size {
        let _ = writeln!(
            source,
            "redis.register_function('f{i}', function(keys, args) return {i} end)"
        );
    }
    source
}

/// One reply in a local, compared with `nil` on `size` lines.
pub fn nil_comparisons_source(size: usize) -> String {
    let mut source = String::from("local v = redis.call('GET', KEYS[1])\nlocal x = 0\n");
    for _ in 0..size {
        source.push_str("if v == nil then x = x + 1 end\n");
    }
    source.push_str("return x\n");
    source
}

/// A header declaring `size` keys, and a body that reads the first: each
/// other one is a warning (a key declared but never read), so every
/// finding is placed in the file and rendered, as `redis-lua` shows it.
pub fn header_keys_source(size: usize) -> String {
    let mut source = String::from("--- Reads its first key.\n");
    for i in 0..size {
        let _ = writeln!(source, "---@key k{i} string");
    }
    source.push_str(
        "---@return integer\n\
         redis.call('GET', KEYS[1])\n\
         return 1\n",
    );
    source
}

/// The name of link `i` of a chain (sorted by name, the script comes first).
fn link_name(i: usize) -> String {
    format!("link{i:06}")
}

/// `size` files in `folder`: the script, `link000000.lua`, declares a local
/// and includes `link000001`, which includes the next, and so on; each
/// included file adds one to the local (a fragment uses its includer's
/// locals, as BullMQ's do).
fn write_chain(folder: &Path, size: usize) -> std::io::Result<()> {
    let _ = std::fs::remove_dir_all(folder);
    std::fs::create_dir_all(folder)?;
    for i in 0..size {
        let mut text = String::new();
        if i == 0 {
            text.push_str("local n = 0\n");
        }
        if i + 1 < size {
            let _ = writeln!(text, "--- @include \"{}\"", link_name(i + 1));
        }
        if i == 0 {
            text.push_str("return n\n");
        } else {
            text.push_str("n = n + 1\n");
        }
        std::fs::write(folder.join(format!("{}.lua", link_name(i))), text)?;
    }
    Ok(())
}

/// The section's results, beside the `lint` section's check of real
/// scripts when it ran.
pub struct Report {
    pub results: Results,
    pub real_scripts: Option<crate::lint::Results>,
}

/// The longest a family may take at ten times its first measured size.
const SCALE_TARGET_SECONDS: f64 = 1.0;

/// The longest `redis-lua check` may take on BullMQ's commands.
const BULLMQ_TARGET_MS: f64 = 50.0;

impl Part for Report {
    fn section(&self) -> Section {
        Section::Scale
    }

    fn write(&self, md: &mut String, run: &Run) {
        let m = &run.machine;
        let sizes = if run.options.quick {
            "a twentieth and a tenth of the size it was first measured at (`--quick`: the \
             target, at ten times that size, is not measured)"
        } else {
            "the size it was first measured at, three times it and ten times it"
        };
        let _ = writeln!(
            md,
            "The analyzer's public API on generated inputs far larger than real scripts, to \
             show how its time grows with their size: the macro runs it on every build. Each \
             family runs at {sizes}; the target is under {SCALE_TARGET_SECONDS:.0} s at ten \
             times. Every input is checked for the findings it must give (none, one per \
             comparison with `nil`, one per key never read) before its figures count. A size \
             that takes over {:.0} s is run once, and the family stops growing there. Run {} \
             at commit {}, {} ({} logical CPUs), load average {} at the start, in this build, \
             pinned to the clients' CPU.\n",
            self.results.budget_seconds, run.started, run.commit, m.cpu_model, m.cpus, m.load_start
        );
        for family in &self.results.families {
            let _ = writeln!(md, "- {}: {}.", family.kind.unit(), family.kind.describe());
        }
        let _ = writeln!(md);
        table_head(
            md,
            [
                "family",
                "size",
                "ms per run",
                "µs per element",
                "per element vs the first size",
                "target",
            ],
        );
        for family in &self.results.families {
            let per_element = |row: &Row| -> Vec<f64> {
                row.seconds
                    .iter()
                    .map(|s| s * 1e6 / row.size as f64)
                    .collect()
            };
            let first = family
                .rows
                .first()
                .and_then(|row| Summary::of(&per_element(row)));
            let ten_times = family.kind.quoted() * 10;
            for row in &family.rows {
                let ms: Vec<f64> = row.seconds.iter().map(|s| s * 1000.0).collect();
                let each = Summary::of(&per_element(row));
                let growth = match (each, first) {
                    (Some(each), Some(first)) => format!("{:.2}x", each.median / first.median),
                    _ => "–".into(),
                };
                let target = if row.size == ten_times {
                    let median = Summary::of(&row.seconds).map_or(f64::INFINITY, |s| s.median);
                    let met = if median < SCALE_TARGET_SECONDS {
                        "met"
                    } else {
                        "**not met**"
                    };
                    format!("< {SCALE_TARGET_SECONDS:.0} s: {met}")
                } else {
                    String::new()
                };
                table_row(
                    md,
                    [
                        family.kind.unit().to_string(),
                        number(row.size as f64, 0),
                        figure(&ms, 1),
                        figure(&per_element(row), 2),
                        growth,
                        target,
                    ],
                );
            }
            for size in &family.skipped {
                let target = if *size == ten_times {
                    format!("< {SCALE_TARGET_SECONDS:.0} s: **not met**")
                } else {
                    String::new()
                };
                table_row(
                    md,
                    [
                        family.kind.unit().to_string(),
                        number(*size as f64, 0),
                        format!(
                            "not run: a smaller size took over {:.0} s",
                            self.results.budget_seconds
                        ),
                        "–".into(),
                        "–".into(),
                        target,
                    ],
                );
            }
        }
        let _ = writeln!(md);
        match &self.real_scripts {
            Some(l) => {
                let ms = l.milliseconds();
                let median = Summary::of(&ms).map_or(f64::INFINITY, |s| s.median);
                let met = if median < BULLMQ_TARGET_MS {
                    "met"
                } else {
                    "**not met**"
                };
                let _ = writeln!(
                    md,
                    "Beside them, real scripts: `redis-lua check` on BullMQ's {} commands takes {} ms \
                     (the section above); target under {BULLMQ_TARGET_MS:.0} ms: {met}.\n",
                    l.scripts,
                    figure(&ms, 1)
                );
            }
            None => {
                let _ = writeln!(
                    md,
                    "Beside them, real scripts: `redis-lua check` on BullMQ's commands, timed in \
                     the section above, has a target of under {BULLMQ_TARGET_MS:.0} ms.\n"
                );
            }
        }
    }
}
