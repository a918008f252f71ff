//! What the macro costs at build time: a clean build of the macros crate
//! against its parsing stack alone, `cargo check` of a crate with 50
//! bindings against the same crate with 50 hand-written functions, and the
//! analyzer's time per script.
//!
//! Cargo runs in temporary directories with target directories of their
//! own, offline, with the repository's `Cargo.lock` so that every crate has
//! the version the workspace builds. A build that fails is an error of the
//! run, never a figure: a fixture the macro rejects measures nothing.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use redis_script::Arity;
use redis_script_analyzer::header::{self, LuaType};
use redis_script_analyzer::{Declared, ReplyKind, analyze, check_syntax};

use crate::markdown::{table_head, table_row};
use crate::measure::order;
use crate::options::{Options, repo_root};
use crate::part::Part;
use crate::run::Run;
use crate::section::Section;
use crate::stats::{Summary, number};
use crate::sys;

/// How many of cargo's last stderr lines a failed build's error shows.
const STDERR_LINES: usize = 20;

/// One cargo command: wall-clock and CPU (user + system of cargo and
/// everything it ran) seconds.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub wall: f64,
    pub cpu: f64,
}

pub struct ScriptTiming {
    pub file: String,
    pub bytes: usize,
    pub lines: usize,
    /// `check_syntax`, µs per run.
    pub parse_us: f64,
    /// `analyze`, µs per run.
    pub analyze_us: f64,
}

#[derive(Default)]
pub struct Results {
    /// Empty with `--quick`, which builds no clean macros crate.
    pub macros_clean: Vec<Timing>,
    pub stack_clean: Vec<Timing>,
    /// The bindings (and hand-written functions) of the checked crates.
    pub bindings: usize,
    /// The first `cargo check` of the crate with the bindings, dependencies
    /// included.
    pub check_first: Option<Timing>,
    pub check_bindings: Vec<Timing>,
    pub check_plain: Vec<Timing>,
    pub analysis: Vec<ScriptTiming>,
    /// Load average (1, 5, 15 min) before the first build and after the
    /// last: the builds use every CPU, so other work on the machine shows
    /// in their times.
    pub load_start: String,
    pub load_end: String,
}

pub fn summary(timings: &[Timing], cpu: bool) -> Option<Summary> {
    let values: Vec<f64> = timings
        .iter()
        .map(|t| if cpu { t.cpu } else { t.wall })
        .collect();
    Summary::of(&values)
}

/// Runs the section; `Err` names the build that failed, with the end of
/// cargo's output.
pub fn run(options: &Options) -> Result<Results, String> {
    let mut results = Results {
        bindings: options.build_bindings,
        load_start: sys::load_average(),
        ..Results::default()
    };
    let work = std::env::temp_dir().join(format!("redis-script-benches-{}", std::process::id()));
    // In one closure so that the temporary crates and target directories
    // go whichever build fails.
    let built = (|| {
        if options.clean_builds {
            clean_builds(&work, options.build_runs, &mut results)?;
        }
        checks(&work, options.build_runs, &mut results)
    })();
    let _ = fs::remove_dir_all(&work);
    built?;
    results.load_end = sys::load_average();
    results.analysis = analysis_times();
    Ok(results)
}

/// `cargo build -p redis-script-macros` and a crate of its parsing stack,
/// each in a fresh target directory, in turns.
fn clean_builds(work: &Path, runs: usize, results: &mut Results) -> Result<(), String> {
    let root = repo_root();
    let stack = work.join("macro-stack");
    let manifest = fs::read_to_string(root.join("redis-script-macros/Cargo.toml"))
        .map_err(|e| format!("cannot read the macros' Cargo.toml: {e}"))?;
    write_crate(
        &stack,
        &format!(
            "[package]\nname = \"macro-stack\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [lib]\nproc-macro = true\n\n[dependencies]\n{}\n[workspace]\n",
            stack_dependencies(&manifest)?
        ),
        "//! syn, quote and proc-macro2 with the macros crate's features, and nothing else.\n",
    )?;
    for run in 0..runs {
        for which in order(2, run) {
            let target = work.join(format!("target-clean-{run}-{which}"));
            let timing = if which == 0 {
                cargo(
                    "clean build of redis-script-macros",
                    &root,
                    &target,
                    &["build", "-p", "redis-script-macros"],
                    "redis-script-macros",
                )?
            } else {
                cargo(
                    "clean build of syn + quote + proc-macro2",
                    &stack,
                    &target,
                    &["build"],
                    "macro-stack",
                )?
            };
            let _ = fs::remove_dir_all(&target);
            eprintln!(
                "  clean build {}: {:.1} s",
                if which == 0 {
                    "redis-script-macros"
                } else {
                    "syn + quote + proc-macro2"
                },
                timing.wall
            );
            if which == 0 {
                results.macros_clean.push(timing);
            } else {
                results.stack_clean.push(timing);
            }
        }
    }
    Ok(())
}

/// The `proc-macro2`, `quote` and `syn` lines of the macros' manifest.
fn stack_dependencies(manifest: &str) -> Result<String, String> {
    let mut lines = String::new();
    for name in ["proc-macro2", "quote", "syn"] {
        let line = manifest
            .lines()
            .find(|line| line.starts_with(&format!("{name} =")))
            .ok_or_else(|| format!("no `{name} = ...` line in redis-script-macros/Cargo.toml"))?;
        let _ = writeln!(lines, "{line}");
    }
    Ok(lines)
}

/// `cargo check` of a crate with `count` bindings and of one with as many
/// hand-written functions, after a first check of each (dependencies
/// included), changing `src/lib.rs` before each timed check.
fn checks(work: &Path, runs: usize, results: &mut Results) -> Result<(), String> {
    let root = repo_root();
    let count = results.bindings;
    let target = work.join("target-check");
    let dependency = format!(
        "[dependencies]\nredis-script = {{ path = \"{}\" }}\n\n[workspace]\n",
        root.display()
    );
    let package = |name: &str| {
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n{dependency}"
        )
    };
    let fixture = bindings(count)?;
    let with_bindings = work.join(WITH_BINDINGS);
    let hand_written = work.join(HAND_WRITTEN);
    write_crate(
        &with_bindings,
        &package(WITH_BINDINGS),
        &bindings_source(&fixture),
    )?;
    write_crate(
        &hand_written,
        &package(HAND_WRITTEN),
        &plain_source(&fixture),
    )?;
    fs::create_dir_all(with_bindings.join("scripts")).map_err(|e| e.to_string())?;
    for binding in &fixture {
        fs::write(
            with_bindings.join("scripts").join(&binding.file),
            binding.source,
        )
        .map_err(|e| e.to_string())?;
    }
    let first = cargo(
        &format!("first cargo check of {count} bindings"),
        &with_bindings,
        &target,
        &["check"],
        WITH_BINDINGS,
    )?;
    eprintln!(
        "  first cargo check (dependencies included): {:.1} s",
        first.wall
    );
    results.check_first = Some(first);
    cargo(
        &format!("first cargo check of {count} hand-written functions"),
        &hand_written,
        &target,
        &["check"],
        HAND_WRITTEN,
    )?;
    for run in 0..runs {
        for which in order(2, run) {
            let (dir, name, source, what) = if which == 0 {
                (
                    &with_bindings,
                    WITH_BINDINGS,
                    bindings_source(&fixture),
                    "bindings",
                )
            } else {
                (
                    &hand_written,
                    HAND_WRITTEN,
                    plain_source(&fixture),
                    "hand-written functions",
                )
            };
            fs::write(dir.join("src/lib.rs"), format!("{source}// run {run}\n"))
                .map_err(|e| e.to_string())?;
            let timing = cargo(
                &format!("cargo check of {count} {what} after an edit"),
                dir,
                &target,
                &["check"],
                name,
            )?;
            eprintln!("  cargo check, {count} {what}: {:.2} s", timing.wall);
            if which == 0 {
                results.check_bindings.push(timing);
            } else {
                results.check_plain.push(timing);
            }
        }
    }
    Ok(())
}

/// The checked crates' package names.
const WITH_BINDINGS: &str = "fixture-bindings";
const HAND_WRITTEN: &str = "fixture-hand-written";

/// One binding of the generated crates: a script of the recipes, its
/// parameters typed as its header declares them (the macro rejects a type
/// the header's does not hold).
struct Binding {
    /// The copy's file name in the crate's `scripts/`.
    file: String,
    source: &'static str,
    sha1: &'static str,
    key_count: usize,
    /// Keys, then arguments: name and Rust type.
    parameters: Vec<(String, &'static str)>,
    /// The Rust type of one value of the variadic tail (`---@param ...`).
    tail: Option<&'static str>,
    reply: &'static str,
}

/// `count` bindings, going round the recipes' scripts.
fn bindings(count: usize) -> Result<Vec<Binding>, String> {
    let mut scripts: Vec<&'static redis_script::Script> = Vec::new();
    for script in redis_script::recipes::scripts() {
        if !scripts.iter().any(|s| s.file() == script.file()) {
            scripts.push(script);
        }
    }
    if scripts.is_empty() {
        return Err("the recipes have no scripts to bind".into());
    }
    (0..count)
        .map(|i| {
            let script = scripts[i % scripts.len()];
            let stem = Path::new(script.file())
                .file_stem()
                .map_or("script".into(), |s| s.to_string_lossy().into_owned());
            let signature = header::parse(script.source())
                .map_err(|errors| {
                    format!(
                        "the header of {} does not parse: {}",
                        script.file(),
                        errors
                            .iter()
                            .map(|e| e.message.as_str())
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                })?
                .ok_or_else(|| format!("{} has no signature header", script.file()))?;
            if signature.variadic_keys.is_some() {
                return Err(format!(
                    "{} takes a list of keys (`---@key ...`), which the fixture does not declare",
                    script.file()
                ));
            }
            let typed = |value: &header::Value| {
                rust_type(&value.ty)
                    .map_err(|why| format!("{}: `{}`: {why}", script.file(), value.name))
            };
            let parameters = signature
                .keys
                .iter()
                .chain(&signature.args)
                .map(|value| Ok((value.name.clone(), typed(value)?)))
                .collect::<Result<Vec<_>, String>>()?;
            let tail = signature.variadic.as_ref().map(typed).transpose()?;
            // Replies a generated crate cannot name (the recipes' own types,
            // generics) become the raw reply.
            let reply = match script.reply_type() {
                known @ ("bool" | "usize" | "u64" | "i64" | "String" | "Option<String>"
                | "Vec<String>") => known,
                _ => "redis::Value",
            };
            Ok(Binding {
                file: format!("b{i}_{stem}.lua"),
                source: script.source(),
                sha1: script.sha1(),
                key_count: signature.keys.len(),
                parameters,
                tail,
                reply,
            })
        })
        .collect()
}

/// The Rust type a binding's parameter takes for a value the header
/// declares `ty`: one the macro accepts for it, and that redis-rs sends.
fn rust_type(ty: &LuaType) -> Result<&'static str, String> {
    match ty {
        LuaType::String => Ok("&str"),
        LuaType::Integer => Ok("i64"),
        LuaType::Number => Ok("f64"),
        LuaType::Boolean => Ok("bool"),
        other => Err(format!("no parameter type for `{other}`")),
    }
}

impl Binding {
    /// `key: &str, ttl_ms: i64, rest: &[&str]`.
    fn parameters(&self, variadic_attribute: bool) -> String {
        let mut parameters: Vec<String> = self
            .parameters
            .iter()
            .map(|(name, ty)| format!("{name}: {ty}"))
            .collect();
        if let Some(ty) = self.tail {
            let attribute = if variadic_attribute {
                "#[variadic] "
            } else {
                ""
            };
            parameters.push(format!("{attribute}rest: &[{ty}]"));
        }
        parameters.join(", ")
    }
}

fn bindings_source(fixture: &[Binding]) -> String {
    let mut source = format!(
        "//! {} `#[redis_script]` bindings of the recipes' scripts.\n\n\
         use redis_script::{{redis, redis_script}};\n",
        fixture.len()
    );
    for (i, binding) in fixture.iter().enumerate() {
        let _ = write!(
            source,
            "\n/// Binding {i}.\n#[redis_script(file = \"scripts/{}\", keys = {})]\n\
             pub fn b{i}({}) -> {};\n",
            binding.file,
            binding.key_count,
            binding.parameters(true),
            binding.reply
        );
    }
    source
}

/// The same calls by hand: the EVALSHA command of each, with its SHA1.
fn plain_source(fixture: &[Binding]) -> String {
    let mut source = format!(
        "//! {} hand-written EVALSHA commands.\n\nuse redis_script::redis;\n",
        fixture.len()
    );
    for (i, binding) in fixture.iter().enumerate() {
        let mut arguments: String = binding
            .parameters
            .iter()
            .map(|(name, _)| format!(".arg({name})"))
            .collect();
        if binding.tail.is_some() {
            arguments.push_str(".arg(rest)");
        }
        let _ = write!(
            source,
            "\n/// Call {i}.\npub fn b{i}({}) -> redis::Cmd {{\n    \
             let mut cmd = redis::cmd(\"EVALSHA\");\n    \
             cmd.arg(\"{}\").arg({}){arguments};\n    cmd\n}}\n",
            binding.parameters(false),
            binding.sha1,
            binding.key_count
        );
    }
    source
}

fn write_crate(dir: &Path, manifest: &str, lib: &str) -> Result<(), String> {
    fs::create_dir_all(dir.join("src")).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    fs::write(dir.join("src/lib.rs"), lib).map_err(|e| e.to_string())?;
    // The workspace's versions, so that nothing is resolved anew.
    fs::copy(repo_root().join("Cargo.lock"), dir.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;
    Ok(())
}

/// Runs `cargo <args> --offline` in `dir` with `target` as its target
/// directory, timing it; fails unless cargo says it compiled (or checked)
/// `expected`, so that a timing is never one of a build that did nothing.
/// An error names `step` and ends with the last lines cargo wrote.
fn cargo(
    step: &str,
    dir: &Path,
    target: &Path,
    args: &[&str],
    expected: &str,
) -> Result<Timing, String> {
    let cpu_before = sys::children_cpu();
    let start = Instant::now();
    let output = cargo_command(dir, target)
        .args(args)
        .arg("--offline")
        .output()
        .map_err(|e| format!("{step}: cannot run cargo: {e}"))?;
    let wall = start.elapsed();
    let cpu = sys::children_cpu().saturating_sub(cpu_before);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let failure = |what: String| {
        format!(
            "{step} failed: `cargo {} --offline` in {} {what}; the last lines of its stderr:\n{}",
            args.join(" "),
            dir.display(),
            last_lines(&stderr, STDERR_LINES)
        )
    };
    if !output.status.success() {
        return Err(failure(format!("ended with {}", output.status)));
    }
    let did = |verb: &str| {
        stderr.lines().any(|line| {
            line.trim_start()
                .starts_with(&format!("{verb} {expected} "))
        })
    };
    if !did("Compiling") && !did("Checking") {
        return Err(failure(format!("did not build {expected}")));
    }
    Ok(Timing {
        wall: wall.as_secs_f64(),
        cpu: cpu.as_secs_f64(),
    })
}

/// The last `count` lines of `text`, trimmed of blank lines at its end.
fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// A cargo command run in `dir` with `target` as its target directory.
pub fn cargo_command(dir: &Path, target: &Path) -> Command {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // Not the jobserver of a `cargo run` that started the harness.
        .env_remove("CARGO_MAKEFLAGS")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS");
    command
}

/// `check_syntax` and `analyze` on each script of the recipes, declared as
/// its binding declares it.
fn analysis_times() -> Vec<ScriptTiming> {
    let mut seen = Vec::new();
    let mut rows = Vec::new();
    for script in redis_script::recipes::scripts() {
        if seen.contains(&script.file()) {
            continue;
        }
        seen.push(script.file());
        let (args, variadic) = match script.arg_arity() {
            Arity::Exactly(n) => (n, false),
            Arity::AtLeast(n) => (n, true),
        };
        let reply = match script.reply_type() {
            "bool" => ReplyKind::Bool,
            "()" | "redis::Value" => ReplyKind::Nullable,
            t if t.starts_with("Option<") => ReplyKind::Nullable,
            "String" | "i64" | "u64" | "usize" | "i32" | "u32" | "f64" => ReplyKind::NonNull,
            _ => ReplyKind::Unknown,
        };
        let declared = Declared::default()
            .keys(script.key_count())
            .args(args)
            .variadic(variadic)
            .reply(reply);
        let source = script.source();
        let parse_us = time_per_run(|| {
            std::hint::black_box(check_syntax(std::hint::black_box(source)).is_ok());
        });
        let analyze_us = time_per_run(|| {
            std::hint::black_box(analyze(std::hint::black_box(source), declared.clone()));
        });
        rows.push(ScriptTiming {
            file: script.file().to_string(),
            bytes: source.len(),
            lines: source.lines().count(),
            parse_us,
            analyze_us,
        });
    }
    rows.sort_by(|a, b| a.file.cmp(&b.file));
    rows
}

/// The median over 5 batches of about 20 ms of µs per call of `f`.
fn time_per_run(mut f: impl FnMut()) -> f64 {
    let mut batch = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            f();
        }
        if start.elapsed() >= Duration::from_millis(20) || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let mut each = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..batch {
            f();
        }
        each.push(start.elapsed().as_secs_f64() * 1e6 / f64::from(batch));
    }
    Summary::of(&each).map_or(f64::NAN, |s| s.median)
}

impl Part for Results {
    fn section(&self) -> Section {
        Section::Build
    }

    fn write(&self, md: &mut String, run: &Run) {
        let show = |timings: &[Timing], cpu: bool| {
            summary(timings, cpu).map_or("–".into(), |s| s.show(2))
        };
        let m = &run.machine;
        let _ = writeln!(
            md,
            "Each build runs cargo (dev profile, offline, with the workspace's `Cargo.lock`) in a \
             temporary directory with a target directory of its own, on every CPU, before the \
             server starts; the two compared builds alternate, runs of each: {}. CPU is user + \
             system of cargo and the compilers it ran. The bindings are the recipes' scripts in \
             turn, each parameter typed as the script's header declares it. Run {} at commit {}, \
             {} ({} logical CPUs), by `{}`. Load average (1, 5, 15 min) before the first build: \
             {}; after the last: {}. Builds use every CPU, so a load near or above the CPU count \
             means other work competed with them and their times are longer than on an idle \
             machine.\n",
            run.options.build_runs,
            run.started,
            run.commit,
            m.cpu_model,
            m.cpus,
            run.options.command_line(),
            self.load_start,
            self.load_end
        );
        table_head(md, ["build", "wall s", "CPU s"]);
        let timed =
            |what: String, timings: &[Timing]| [what, show(timings, false), show(timings, true)];
        let bindings = self.bindings;
        let mut rows = Vec::new();
        if run.options.clean_builds {
            rows.push(timed(
                "clean build of `redis-script-macros` (`cargo build -p redis-script-macros`)"
                    .into(),
                &self.macros_clean,
            ));
            rows.push(timed(
                "clean build of syn + quote + proc-macro2 alone, with the macros' features".into(),
                &self.stack_clean,
            ));
        } else {
            for what in ["`redis-script-macros`", "syn + quote + proc-macro2 alone"] {
                rows.push([
                    format!("clean build of {what}"),
                    "not run (`--quick`)".into(),
                    "–".into(),
                ]);
            }
        }
        if let Some(first) = &self.check_first {
            rows.push([
                format!(
                    "first `cargo check` of a crate with {bindings} bindings, dependencies included"
                ),
                format!("{:.2}", first.wall),
                format!("{:.2}", first.cpu),
            ]);
        }
        rows.push(timed(
            format!(
                "`cargo check` of that crate after an edit: {bindings} `#[redis_script]` bindings"
            ),
            &self.check_bindings,
        ));
        rows.push(timed(
            format!("the same with {bindings} hand-written EVALSHA functions instead"),
            &self.check_plain,
        ));
        for row in rows {
            table_row(md, row);
        }
        let median = |t: &[Timing]| summary(t, false).map(|s| s.median);
        if let (Some(with), Some(without)) =
            (median(&self.check_bindings), median(&self.check_plain))
        {
            let _ = writeln!(
                md,
                "\nThe bindings add {:.2} s to a `cargo check` of the crate, {:.1} ms per binding \
                 (medians).",
                with - without,
                (with - without) * 1000.0 / bindings as f64
            );
        }
        if !self.analysis.is_empty() {
            let _ = writeln!(
                md,
                "\nThe analyzer (`redis-script-analyzer`) on each script of `scripts/`, declared as \
                 its recipe binding declares it: `check_syntax` (the parser alone) and `analyze` \
                 (shebang, parse, every check). Timed in this harness, {}.\n",
                if cfg!(debug_assertions) {
                    "an unoptimized build, as the macro runs it (proc macros build in the dev profile)"
                } else {
                    "an optimized build; the macro runs it unoptimized (proc macros build in the dev \
                     profile), several times slower"
                }
            );
            table_head(
                md,
                ["script", "bytes", "lines", "check_syntax µs", "analyze µs"],
            );
            for row in &self.analysis {
                table_row(
                    md,
                    [
                        format!("`{}`", row.file),
                        number(row.bytes as f64, 0),
                        row.lines.to_string(),
                        format!("{:.1}", row.parse_us),
                        format!("{:.1}", row.analyze_us),
                    ],
                );
            }
            let total = |f: fn(&ScriptTiming) -> f64| self.analysis.iter().map(f).sum::<f64>();
            table_row(
                md,
                [
                    format!("all {}", self.analysis.len()),
                    number(
                        self.analysis.iter().map(|r| r.bytes).sum::<usize>() as f64,
                        0,
                    ),
                    self.analysis
                        .iter()
                        .map(|r| r.lines)
                        .sum::<usize>()
                        .to_string(),
                    format!("{:.1}", total(|r| r.parse_us)),
                    format!("{:.1}", total(|r| r.analyze_us)),
                ],
            );
        }
        let _ = writeln!(md);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{BUILD_BINDINGS, QUICK_BUILD_BINDINGS};

    #[test]
    fn the_stack_crate_takes_the_macros_own_dependency_lines() {
        let manifest = include_str!("../../redis-script-macros/Cargo.toml");
        let lines = stack_dependencies(manifest).unwrap();
        assert_eq!(lines.lines().count(), 3);
        assert!(lines.contains("syn = { version = \"3\""));
        assert!(stack_dependencies("[dependencies]\n").is_err());
    }

    #[test]
    fn the_generated_crates_have_one_function_per_binding() {
        let fixture = bindings(BUILD_BINDINGS).unwrap();
        let bindings = bindings_source(&fixture);
        let plain = plain_source(&fixture);
        assert_eq!(bindings.matches("#[redis_script(").count(), BUILD_BINDINGS);
        assert_eq!(plain.matches("-> redis::Cmd").count(), BUILD_BINDINGS);
        // The lock's acquire script: one key, two arguments, the time to
        // live an `integer` in its header.
        let acquire = &redis_script::recipes::lock::acquire_lock_script::SCRIPT;
        assert!(plain.contains(acquire.sha1()));
        assert!(bindings.contains("keys = 1)]\npub fn b"));
        assert!(bindings.contains("(lock: &str, ttl_ms: i64, token: &str) -> Option<String>;"));
        assert!(bindings.contains("#[variadic] rest: &[&str]"));
        assert!(bindings.contains("#[variadic] rest: &[i64]"));
        assert!(bindings.contains("score: f64"));
        assert!(plain.contains("(lock: &str, ttl_ms: i64, token: &str) -> redis::Cmd"));
    }

    #[test]
    fn the_quick_fixture_has_every_kind_of_parameter() {
        let fixture = bindings(QUICK_BUILD_BINDINGS).unwrap();
        let types: Vec<&str> = fixture
            .iter()
            .flat_map(|b| b.parameters.iter().map(|(_, ty)| *ty).chain(b.tail))
            .collect();
        for ty in ["&str", "i64", "f64"] {
            assert!(types.contains(&ty), "no `{ty}` in {types:?}");
        }
    }

    #[test]
    fn header_types_become_the_types_the_macro_accepts() {
        assert_eq!(rust_type(&LuaType::Integer).unwrap(), "i64");
        assert_eq!(rust_type(&LuaType::Number).unwrap(), "f64");
        assert_eq!(rust_type(&LuaType::String).unwrap(), "&str");
        assert!(rust_type(&LuaType::Array(Box::new(LuaType::String))).is_err());
    }

    #[test]
    fn a_failed_build_shows_the_end_of_cargo_output() {
        let stderr = (1..=30).map(|n| format!("line {n}\n")).collect::<String>() + "\n\n";
        let last = last_lines(&stderr, 3);
        assert_eq!(last, "line 28\nline 29\nline 30");
        assert_eq!(last_lines("one\n", 20), "one");
    }
}
