//! The report rendered from fixed, hand-made results of every section, and
//! compared with the text stored under `snapshots/`: a change to the report's
//! code that changes its output shows here. With `REDIS_SCRIPT_REGENERATE=1`
//! the test writes the snapshots instead (review the diff before committing).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;
use crate::alloc::Counts;
use crate::options::Options;
use crate::run::Machine;
use crate::scale::Kind;
use crate::{
    allocations, build_cost, concurrent, editor, lint, lock, noscript, observe, pipelines, scale,
    sequential, test_servers,
};

/// `rounds` values from `first`, each `step` more than the one before.
fn rounds(first: f64, step: f64) -> Vec<f64> {
    (0..3).map(|round| first + step * round as f64).collect()
}

fn options(args: &[&str]) -> Options {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    Options::parse(&args).expect("the fixture's options parse")
}

fn machine() -> Machine {
    Machine {
        cpu_model: "Test CPU @ 3.00GHz".into(),
        cpus: 4,
        load_start: "0.50, 0.40, 0.30".into(),
        load_end: "1.25, 0.75, 0.50".into(),
        rustc: "rustc 1.90.0 (fixture)".into(),
        redis_server: "redis-server 7.0.15".into(),
        redis_rs: "1.0.0".into(),
        python: None,
        server_cpus: "0".into(),
        client_cpus: "1".into(),
    }
}

fn sequential() -> sequential::Results {
    sequential::Results {
        wall_us: vec![rounds(24.5, 0.25), rounds(24.0, 0.5), rounds(26.0, 1.0)],
        cpu_us: vec![rounds(6.0, 0.5), rounds(6.25, 0.25), rounds(8.0, 0.5)],
        calls: 123_456,
    }
}

fn counts(allocs: u64, reallocs: u64) -> Vec<Counts> {
    (0..4)
        .map(|batch| Counts {
            allocs: allocs + batch * 10,
            reallocs: reallocs + batch,
        })
        .collect()
}

fn allocations() -> Vec<allocations::Row> {
    let names = [
        "typed, built each time",
        "typed, built once",
        "redis-rs",
        "by hand",
    ];
    names
        .iter()
        .enumerate()
        .map(|(i, name)| allocations::Row {
            name,
            batches: counts(150 + 50 * i as u64, i as u64),
        })
        .collect()
}

fn noscript() -> Vec<noscript::Row> {
    [
        ("typed", 1, 2, true),
        ("typed, load", 1, 3, true),
        ("redis-rs", 1, 3, false),
    ]
    .into_iter()
    .map(|(name, warm, flushed, steady)| noscript::Row {
        name,
        warm,
        flushed,
        steady,
    })
    .collect()
}

fn pipelines(sizes: &[usize], benchmark_error: Option<&str>) -> pipelines::Results {
    pipelines::Results {
        sizes: sizes.to_vec(),
        rates: sizes
            .iter()
            .map(|&size| {
                (0..pipelines::NAMES.len())
                    .map(|which| {
                        let rate = 200_000.0 - 10_000.0 * size as f64 - 5_000.0 * which as f64;
                        if which == pipelines::REDIS_BENCHMARK && benchmark_error.is_some() {
                            Vec::new()
                        } else {
                            rounds(rate, 1_500.0 - 500.0 * which as f64)
                        }
                    })
                    .collect()
            })
            .collect(),
        benchmark_error: benchmark_error.map(str::to_owned),
    }
}

fn concurrent() -> concurrent::Results {
    concurrent::Results {
        rates: vec![rounds(95_000.0, 1_000.0), rounds(100_000.0, 500.0)],
        cpu_us: vec![rounds(9.5, 0.25), rounds(9.0, 0.5)],
    }
}

fn observe() -> observe::Results {
    let variants = observe::variants::VARIANTS.len();
    observe::Results {
        wall_us: (0..variants)
            .map(|which| rounds(24.0 + 0.5 * which as f64, 0.25))
            .collect(),
        cpu_us: (0..variants)
            .map(|which| rounds(6.0 + 0.25 * which as f64, 0.5))
            .collect(),
        allocations: observe::variants::VARIANTS
            .iter()
            .enumerate()
            .map(|(which, variant)| allocations::Row {
                name: variant.name,
                batches: counts(200 + 20 * which as u64, 0),
            })
            .collect(),
        calls: 654_321,
    }
}

fn lock(clients: &[usize], python: bool) -> lock::Results {
    lock::Results {
        clients: clients.to_vec(),
        runs: clients
            .iter()
            .map(|&n| {
                lock::Variant::ALL
                    .iter()
                    .enumerate()
                    .map(|(which, _)| {
                        (0..3u64)
                            .map(|round| lock::Counts {
                                attempts: 40_000 + 1_000 * n as u64 + 700 * which as u64 + round,
                                acquisitions: 30_000 - 1_000 * n as u64 - 900 * which as u64
                                    + 3 * round,
                                lost: 0,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        python_error: (!python).then(|| "python3 not found".to_owned()),
        python_versions: python.then(|| "python=3.11.7 redis-py=8.1.0".to_owned()),
    }
}

fn timings(wall: f64, cpu: f64) -> Vec<build_cost::Timing> {
    rounds(wall, 0.5)
        .into_iter()
        .zip(rounds(cpu, 1.0))
        .map(|(wall, cpu)| build_cost::Timing { wall, cpu })
        .collect()
}

fn build(options: &Options, analysis: bool) -> build_cost::Results {
    build_cost::Results {
        macros_clean: if options.clean_builds {
            timings(20.0, 60.0)
        } else {
            Vec::new()
        },
        stack_clean: if options.clean_builds {
            timings(12.0, 40.0)
        } else {
            Vec::new()
        },
        bindings: options.build_bindings,
        check_first: analysis.then_some(build_cost::Timing {
            wall: 45.5,
            cpu: 120.25,
        }),
        check_bindings: timings(3.5, 4.0),
        check_plain: timings(1.5, 2.0),
        analysis: if analysis {
            ["lock_acquire.lua", "rate_limit.lua"]
                .into_iter()
                .enumerate()
                .map(|(i, file)| build_cost::ScriptTiming {
                    file: file.to_owned(),
                    bytes: 1_234 + 1_000 * i,
                    lines: 30 + 10 * i,
                    parse_us: 12.5 + i as f64,
                    analyze_us: 80.25 + 10.0 * i as f64,
                })
                .collect()
        } else {
            Vec::new()
        },
        load_start: "2.00, 1.50, 1.00".into(),
        load_end: "3.00, 2.00, 1.25".into(),
    }
}

fn lint() -> lint::Results {
    lint::Results {
        source: "bullmq 6.7.0 (npm)".into(),
        folder: "target/lint-corpus/package/dist/esm/commands".into(),
        scripts: 52,
        included: 17,
        findings: 3,
        seconds: rounds(0.0205, 0.001),
    }
}

fn test_servers() -> test_servers::Results {
    let way = |name, isolates, base: f64| test_servers::Way {
        name,
        isolates,
        ms: rounds(base, base / 10.0),
    };
    test_servers::Results {
        binary: "/usr/bin/redis-server".into(),
        ways: vec![
            way(
                "a server per test, in the test's thread",
                "everything",
                15.0,
            ),
            way(
                "a server per test, in a process per test",
                "everything, and its process",
                20.0,
            ),
            way(
                "one shared server, flushed per test",
                "keys, scripts, libraries",
                0.25,
            ),
        ],
    }
}

fn editor() -> editor::Results {
    let file = |name, findings, base: f64| editor::File {
        name,
        lines: editor::LINES,
        findings,
        open_ms: base * 1.5,
        keystroke_ms: rounds(base, base / 10.0),
    };
    editor::Results {
        files: vec![
            file("checks clean", 0, 7.0),
            file("a mistake per function", 333, 21.0),
        ],
    }
}

fn scale(quick: bool, slow: bool) -> scale::Results {
    scale::Results {
        families: Kind::ALL
            .into_iter()
            .map(|kind| {
                let sizes = scale::sizes(kind, quick);
                // The slow fixture's last size was left out, as over budget.
                let kept = if slow { sizes.len() - 1 } else { sizes.len() };
                scale::Family {
                    kind,
                    rows: sizes[..kept]
                        .iter()
                        .map(|&size| scale::Row {
                            size,
                            seconds: rounds(size as f64 * 2e-5, size as f64 * 1e-6),
                        })
                        .collect(),
                    skipped: sizes[kept..].to_vec(),
                }
            })
            .collect(),
        budget_seconds: 30.0,
    }
}

/// A run and its sections' parts, as main.rs gives them to [`write`].
struct Fixture<'a> {
    run: Run<'a>,
    parts: Vec<Box<dyn Part>>,
}

impl<'a> Fixture<'a> {
    /// A run of `options`, no section measured yet.
    fn new(options: &'a Options) -> Fixture<'a> {
        Fixture {
            run: Run {
                options,
                machine: machine(),
                started: "2026-01-02 03:04 UTC".into(),
                commit: "abc1234".into(),
                elapsed: Duration::from_secs(754),
            },
            parts: Vec::new(),
        }
    }

    fn with(mut self, part: impl Part + 'static) -> Self {
        self.parts.push(Box::new(part));
        self
    }

    /// With the lock section, whose Python clients the run's versions name.
    fn with_lock(mut self, lock: lock::Results) -> Self {
        self.run.machine.python = lock.python_versions.clone();
        self.with(lock)
    }
}

/// Every section run: measured, or with what may fail failed (`smoke`), as
/// a smoke run may.
fn every_section(options: &Options, smoke: bool) -> Fixture<'_> {
    let fixture = Fixture::new(options)
        .with(build(options, !smoke))
        .with(sequential())
        .with(allocations())
        .with(noscript())
        .with(concurrent())
        .with_lock(lock(&options.lock_clients, !smoke));
    if smoke {
        let lint: Result<lint::Results, String> =
            Err("npm pack bullmq@6.7.0 failed: offline".into());
        let observe: Result<observe::Results, String> = Err("the Spans worker exited".into());
        let editor: Result<editor::Results, String> = Err("the server stopped".into());
        let servers: Result<test_servers::Results, String> =
            Err("redis-server not found on PATH".into());
        fixture
            .with(servers)
            .with(pipelines(&options.sizes, Some("redis-benchmark not found")))
            .with(observe)
            .with(lint)
            .with(editor)
            .with(scale::Report {
                results: scale(options.quick, true),
                real_scripts: None,
            })
    } else {
        fixture
            .with(pipelines(&options.sizes, None))
            .with(Ok::<_, String>(observe()))
            .with(Ok::<_, String>(lint()))
            .with(Ok::<_, String>(editor()))
            .with(Ok::<_, String>(test_servers()))
            .with(scale::Report {
                results: scale(options.quick, false),
                real_scripts: Some(lint()),
            })
    }
}

/// A folder of its own for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "redis-script-benches-report-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// What [`write`] leaves in `dir` (the report, then each plot), as one text.
fn written(dir: &Path) -> String {
    let mut files = vec![dir.join("BENCHMARKS.md")];
    let mut plots: Vec<PathBuf> = std::fs::read_dir(dir.join("plots"))
        .map(|entries| entries.map(|e| e.expect("a plot").path()).collect())
        .unwrap_or_default();
    plots.sort();
    files.extend(plots);
    let mut text = String::new();
    for file in files {
        let name = file.strip_prefix(dir).expect("in the folder");
        let content = std::fs::read_to_string(&file).expect("a written file");
        text.push_str(&format!("==> {} <==\n{content}", name.display()));
    }
    // The command line names the redis-rs of the build: the snapshots are of
    // the default one.
    text.replace(" --no-default-features --features redis-2", "")
}

/// Writes the reports of `runs` in turn into a scratch folder (a run of one
/// section alone over the report before it), and compares what is left
/// there with the snapshot `name`.
fn check(name: &str, runs: &[Fixture]) {
    let dir = scratch(name);
    for Fixture { run, parts } in runs {
        write(
            run,
            parts,
            &dir.join("BENCHMARKS.md"),
            &dir.join("plots"),
            "plots",
        )
        .expect("the report is written");
    }
    let text = written(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/report/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var("REDIS_SCRIPT_REGENERATE").as_deref() == Ok("1") {
        std::fs::write(&snapshot, &text).expect("the snapshot is written");
        eprintln!("wrote {}", snapshot.display());
        return;
    }
    let stored = std::fs::read_to_string(&snapshot).unwrap_or_default();
    if text != stored {
        let line = text
            .lines()
            .zip(stored.lines())
            .position(|(new, old)| new != old)
            .map_or_else(|| "the end".to_owned(), |i| format!("line {}", i + 1));
        panic!(
            "the report differs from {} from {line}; rerun with REDIS_SCRIPT_REGENERATE=1 \
             if the change is meant, and review the diff\n{text}",
            snapshot.display()
        );
    }
}

// The optimized build says so in the build section: the snapshots are of
// the tests' usual, unoptimized one.

#[test]
#[cfg_attr(not(debug_assertions), ignore = "the snapshots are of a debug build")]
fn every_section_measured() {
    let options = options(&[]);
    check("full", &[every_section(&options, false)]);
}

#[test]
#[cfg_attr(not(debug_assertions), ignore = "the snapshots are of a debug build")]
fn a_smoke_run_where_what_may_fail_did() {
    let options = options(&["--quick", "--skip-python"]);
    check("quick", &[every_section(&options, true)]);
}

#[test]
#[cfg_attr(not(debug_assertions), ignore = "the snapshots are of a debug build")]
fn sections_not_run() {
    let options = options(&["--only", "sequential,lock", "--lock-seconds", "2.5"]);
    let fixture = Fixture::new(&options)
        .with(sequential())
        .with_lock(lock(&options.lock_clients, true));
    check("some", &[fixture]);
}

#[test]
#[cfg_attr(not(debug_assertions), ignore = "the snapshots are of a debug build")]
fn one_section_alone_replaces_its_part() {
    let everything = options(&[]);
    let build_alone = options(&["--only", "build", "--build-runs", "2"]);
    check(
        "build-alone",
        &[
            every_section(&everything, false),
            Fixture::new(&build_alone).with(build(&build_alone, false)),
        ],
    );
    // Over a report of a run without it.
    let some = options(&["--only", "sequential"]);
    let scale_alone = options(&["--only", "scale"]);
    check(
        "scale-alone",
        &[
            Fixture::new(&some).with(sequential()),
            Fixture::new(&scale_alone).with(scale::Report {
                results: scale(false, true),
                real_scripts: None,
            }),
        ],
    );
}
