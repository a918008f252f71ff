//! The benchmark harness of redis-script: measures typed calls against
//! hand-written EVALSHA, a Lua lock against a WATCH lock, and what the macro
//! costs a build, against a server it starts and pins, side by side in
//! alternating rounds, and writes `BENCHMARKS.md` and the plots in
//! `benches/results/`.
//!
//! ```sh
//! cargo run --release -p redis-script-benches            # everything, ~20 min
//! cargo run --release -p redis-script-benches -- --quick # a smoke run
//! cargo run --release -p redis-script-benches -- --help
//! ```
//!
//! Each section's module measures its part and writes it (the [`part::Part`]
//! it implements for its results, with the table and verdict helpers of
//! `markdown.rs`); `report.rs` only puts the parts in order under the run's
//! setting (`run.rs`) and the sections' headings (`section.rs`).

// The redis-rs that `redis-2` picks is `redis` here too (see redis-script-runtime).
#[cfg(feature = "redis-2")]
extern crate redis2 as redis;

mod alloc;
mod allocations;
mod bindings;
mod build_cost;
mod concurrent;
mod editor;
mod lint;
mod lock;
mod markdown;
mod measure;
mod noscript;
mod observe;
mod options;
mod part;
mod pipelines;
mod report;
mod run;
mod scale;
mod section;
mod sequential;
mod server;
mod stats;
mod svg;
mod sys;
mod test_servers;

use std::process::{Command, ExitCode};
use std::time::Instant;

use options::{Options, USAGE, repo_root};
use part::Part;
use run::{Machine, Run};
use section::Section;
use server::Server;

/// Counts allocations where [`alloc::count`] asks; passes through elsewhere.
#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Started by the observe section as one of its workers, not as a run.
    if let Some(port) = observe::worker::worker_port(&args) {
        return observe::worker::serve(port);
    }
    // Started by the test-servers section as one test's process.
    if args.first().map(String::as_str) == Some(test_servers::ONE_TEST) {
        return test_servers::one_test();
    }
    let options = match Options::parse(&args) {
        Ok(options) => options,
        Err(message) if message == USAGE => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let clock = Instant::now();
    let started = sys::first_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    let load_start = sys::load_average();

    // Each section's results, as the report shows them.
    let mut parts: Vec<Box<dyn Part>> = Vec::new();
    // Unpinned, before the server starts: builds use every CPU. A build
    // that fails is a failure of the run, not a figure.
    if options.runs(Section::Build) {
        eprintln!("build cost");
        match build_cost::run(&options) {
            Ok(results) => parts.push(Box::new(results)),
            Err(message) => {
                eprintln!("build cost: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    // Also before pinning: the observe section's workers are this harness
    // built again, with features.
    let observe_builds = options.runs(Section::Observe).then(|| {
        eprintln!("observe: building the workers");
        observe::worker::build()
    });

    // A machine without the CPU asked for runs unpinned; the report shows
    // where each side ran.
    if let Some(cpu) = options.client_cpu
        && let Err(error) = sys::pin_self(cpu)
    {
        eprintln!("running the clients unpinned: cannot pin to CPU {cpu}: {error}");
    }
    let client_cpus = sys::allowed_cpus("self");
    // Pinned like the clients, before the server starts: no server needed.
    let lint = options.runs(Section::Lint).then(|| {
        eprintln!("lint");
        lint::run(&options)
    });
    // Also pinned, with no server; an input that does not analyse as it
    // must is a failure of the run, not a figure.
    if options.runs(Section::Scale) {
        eprintln!("scale");
        match scale::run(&options) {
            Ok(results) => parts.push(Box::new(scale::Report {
                results,
                real_scripts: lint.as_ref().and_then(|l| l.as_ref().ok()).cloned(),
            })),
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Some(lint) = lint {
        parts.push(Box::new(lint));
    }
    // Pinned too, with no server: the language server in this process.
    if options.runs(Section::Editor) {
        eprintln!("editor");
        parts.push(Box::new(editor::run(&options)));
    }
    // Pinned too: the servers it times are its own.
    if options.runs(Section::TestServers) {
        eprintln!("test servers");
        parts.push(Box::new(test_servers::run(&options)));
    }
    let needs_server = options.sections.iter().any(|s| {
        !matches!(
            s,
            Section::Build | Section::Lint | Section::Scale | Section::Editor
        )
    });
    let server = needs_server.then(|| Server::start(options.server_cpu));
    let server_cpus = server
        .as_ref()
        .map_or_else(|| "(no server started)".into(), |s| s.cpus.clone());

    let mut run = Run {
        options: &options,
        machine: Machine {
            cpu_model: String::new(),
            cpus: 0,
            load_start,
            load_end: String::new(),
            rustc: sys::first_line("rustc", &["--version"]),
            // Only a run that starts a server needs one installed.
            redis_server: if needs_server {
                server_version()
            } else {
                "(no server started)".into()
            },
            redis_rs: redis_rs_version(),
            python: None,
            server_cpus,
            client_cpus,
        },
        started,
        commit: source_commit(),
        elapsed: Default::default(),
    };
    if let Some(server) = &server {
        if options.runs(Section::Sequential) {
            eprintln!("sequential");
            parts.push(Box::new(sequential::run(server, &options)));
        }
        if options.runs(Section::Allocations) {
            eprintln!("allocations");
            parts.push(Box::new(allocations::run(server)));
        }
        if options.runs(Section::Noscript) {
            eprintln!("noscript");
            parts.push(Box::new(noscript::run(server)));
        }
        if options.runs(Section::Pipelines) {
            eprintln!("pipelines");
            parts.push(Box::new(pipelines::run(server, &options)));
        }
        if options.runs(Section::Async) {
            eprintln!("async");
            parts.push(Box::new(concurrent::run(server, &options)));
        }
        if let Some(builds) = observe_builds {
            eprintln!("observe");
            parts.push(Box::new(
                builds.and_then(|b| observe::run(server, &options, &b)),
            ));
        }
        if options.runs(Section::Lock) {
            eprintln!("lock");
            let lock = lock::run(server, &options);
            run.machine.python = lock.python_versions.clone();
            parts.push(Box::new(lock));
        }
    }
    let (cpu_model, cpus) = sys::cpu_model();
    run.machine.cpu_model = cpu_model;
    run.machine.cpus = cpus;
    run.machine.load_end = sys::load_average();
    run.elapsed = clock.elapsed();

    let root = repo_root();
    let (markdown, plots, link) = match &options.out {
        Some(dir) => (dir.join(REPORT), dir.clone(), ".".to_string()),
        None => (root.join(REPORT), root.join(PLOTS), PLOTS.to_string()),
    };
    if let Err(error) = report::write(&run, &parts, &markdown, &plots, &link) {
        eprintln!("cannot write {}: {error}", markdown.display());
        return ExitCode::FAILURE;
    }
    eprintln!(
        "wrote {} and the plots in {} ({:.1} min)",
        markdown.display(),
        plots.display(),
        run.elapsed.as_secs_f64() / 60.0
    );
    ExitCode::SUCCESS
}

/// The commit of the repository, noting changes to tracked files not yet
/// committed (the harness runs what `cargo run` just built from them).
pub fn source_commit() -> String {
    let root = repo_root();
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return "unknown (no git)".into();
    };
    match git(&["status", "--porcelain", "--untracked-files=no"]) {
        Some(changes) if !changes.is_empty() => format!("{commit} with uncommitted changes"),
        _ => commit,
    }
}

/// `redis-server 7.0.15`, from the binary the harness starts.
fn server_version() -> String {
    let binary = redis_script_test::ServerBinary::find().path().to_path_buf();
    let line = sys::first_line(&binary.to_string_lossy(), &["--version"]);
    let version = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("v="))
        .unwrap_or(&line);
    let name = binary
        .file_name()
        .map_or("redis-server".into(), |n| n.to_string_lossy().into_owned());
    format!("{name} {version}")
}

/// The report and the plots' folder, relative to the repository: a build
/// on redis-rs 2.0 (`--features redis-2`) writes its own, beside 1.x's.
#[cfg(not(feature = "redis-2"))]
const REPORT: &str = "BENCHMARKS.md";
#[cfg(not(feature = "redis-2"))]
const PLOTS: &str = "benches/results";
#[cfg(feature = "redis-2")]
const REPORT: &str = "BENCHMARKS-redis-2.md";
#[cfg(feature = "redis-2")]
const PLOTS: &str = "benches/results/redis-2";

/// The version of the redis-rs this build measures, from the workspace's
/// `Cargo.lock` (which holds 1.x and 2.0).
fn redis_rs_version() -> String {
    let major = if cfg!(feature = "redis-2") {
        "2."
    } else {
        "1."
    };
    let lock = std::fs::read_to_string(repo_root().join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"redis\""
            && let Some(version) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
                .filter(|version| version.starts_with(major))
        {
            return version.to_string();
        }
    }
    "?".into()
}
