//! BENCHMARKS.md and the plots, from one run's results.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::bindings::SIZES;
use crate::options::{Options, Section};
use crate::stats::{Summary, number, ratios};
use crate::svg::{Chart, Series, line_chart};
use crate::{
    allocations, build_cost, concurrent, lint, lock, noscript, observe, pipelines, scale,
    sequential,
};

/// The reference figures the lock benchmark's results sit beside: the same
/// benchmark as first published, Python clients on another machine, 10 s
/// windows. Clients, then attempts and acquisitions of a lock taken with
/// SETNX + EXPIRE (released with WATCH) and of a Lua lock.
pub const REFERENCE_TABLE: [(usize, [u64; 4]); 4] = [
    (1, [31_359, 31_359, 44_494, 44_494]),
    (2, [30_085, 22_507, 50_404, 42_199]),
    (5, [47_694, 19_695, 70_807, 40_826]),
    (10, [71_917, 14_361, 96_871, 33_990]),
];

/// The machine and the software measured.
pub struct Machine {
    pub cpu_model: String,
    pub cpus: usize,
    pub load_start: String,
    pub load_end: String,
    pub rustc: String,
    pub redis_server: String,
    pub redis_rs: String,
    pub server_cpus: String,
    pub client_cpus: String,
}

pub struct Run<'a> {
    pub options: &'a Options,
    pub machine: Machine,
    pub started: String,
    /// The commit measured, as `source_commit` in main.rs names it.
    pub commit: String,
    pub elapsed: Duration,
    pub build: Option<build_cost::Results>,
    pub sequential: Option<sequential::Results>,
    pub allocations: Option<Vec<allocations::Row>>,
    pub noscript: Option<Vec<noscript::Row>>,
    pub pipelines: Option<pipelines::Results>,
    pub concurrent: Option<concurrent::Results>,
    /// The section's results, or why it could not run (a worker that
    /// would not build, start or answer).
    pub observe: Option<Result<observe::Results, String>>,
    pub lock: Option<lock::Results>,
    /// The `lint` section, or why it could not run.
    pub lint: Option<Result<lint::Results, String>>,
    /// The `scale` section.
    pub scale: Option<scale::Results>,
}

/// Met or not, by the median; says so when the range crosses the target.
fn verdict(ratio: &Summary, target: f64, at_most: bool) -> &'static str {
    let met = |x: f64| if at_most { x <= target } else { x >= target };
    match (met(ratio.median), met(ratio.min) == met(ratio.max)) {
        (true, true) => "met",
        (true, false) => "met (median; the range crosses the target)",
        (false, true) => "**not met**",
        (false, false) => "**not met** (median; the range crosses the target)",
    }
}

fn summary_of(values: &[f64]) -> String {
    Summary::of(values).map_or("–".into(), |s| s.show(1))
}

fn rate_of(values: &[f64]) -> String {
    Summary::of(values).map_or("–".into(), |s| s.show(0))
}

/// Writes the report to `markdown` and the plots into `plots`; `plots_link`
/// is the plots' directory as the report links it.
/// A markdown table's header line and the separator under it.
fn table_head<S: AsRef<str>>(md: &mut String, headers: impl IntoIterator<Item = S>) {
    let headers: Vec<S> = headers.into_iter().collect();
    table_row(md, &headers);
    let _ = writeln!(md, "|{}", "---|".repeat(headers.len()));
}

/// One line of a markdown table.
fn table_row<S: AsRef<str>>(md: &mut String, cells: impl IntoIterator<Item = S>) {
    let _ = write!(md, "|");
    for cell in cells {
        let _ = write!(md, " {} |", cell.as_ref());
    }
    let _ = writeln!(md);
}

pub fn write(run: &Run, markdown: &Path, plots: &Path, plots_link: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(plots)?;
    if let Some(lock) = &run.lock {
        std::fs::write(plots.join("lock.svg"), line_chart(&lock_chart(lock, run)))?;
    }
    if let Some(pipelines) = &run.pipelines {
        std::fs::write(
            plots.join("pipelines.svg"),
            line_chart(&pipeline_chart(pipelines)),
        )?;
    }
    if let Some(parent) = markdown.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if let Some(alone) = run.options.section_alone()
        && let Ok(existing) = std::fs::read_to_string(markdown)
        && existing.starts_with("# Benchmarks")
    {
        let mut section = String::new();
        let heading = match alone {
            Section::Build => {
                build_section(&mut section, run);
                BUILD_HEADING
            }
            _ => {
                scale_section(&mut section, run);
                SCALE_HEADING
            }
        };
        return std::fs::write(markdown, splice(&existing, heading, &section));
    }
    std::fs::write(markdown, markdown_text(run, plots_link))
}

/// `report` with the section that starts with the line `heading` replaced
/// by `section` (which starts with it too); a report without it gets it
/// before its last section, the method.
fn splice(report: &str, heading: &str, section: &str) -> String {
    let starts = |at: usize| report[at..].starts_with(heading) && report[..at].ends_with('\n');
    let start = report
        .match_indices(heading)
        .map(|(at, _)| at)
        .find(|&at| starts(at));
    let (start, end) = match start {
        Some(start) => {
            let after = start + heading.len();
            let end = report[after..]
                .find("\n## ")
                .map_or(report.len(), |at| after + at + 1);
            (start, end)
        }
        None => {
            let at = report.rfind("\n## ").map_or(report.len(), |at| at + 1);
            (at, at)
        }
    };
    format!("{}{section}{}", &report[..start], &report[end..])
}

fn lock_chart(lock: &lock::Results, run: &Run) -> Chart {
    let scale = 10.0 / run.options.lock_window.as_secs_f64();
    let series = lock::Variant::ALL
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_python() || lock.python_error.is_none())
        .map(|(which, variant)| Series {
            name: variant.short_name().into(),
            points: lock
                .runs
                .iter()
                .map(|per_variant| {
                    let values: Vec<f64> = per_variant[which]
                        .iter()
                        .map(|c| c.acquisitions as f64 * scale)
                        .collect();
                    Summary::of(&values)
                })
                .collect(),
            dashed: *variant == lock::Variant::RustLua,
        })
        .collect();
    Chart {
        title: "One lock, many clients: acquisitions in 10 s".into(),
        x_label: "clients".into(),
        y_label: "acquisitions per 10 s".into(),
        categories: lock.clients.iter().map(|c| c.to_string()).collect(),
        series,
    }
}

fn pipeline_chart(results: &pipelines::Results) -> Chart {
    let series = (0..pipelines::NAMES.len())
        .map(|which| Series {
            name: series_name(which),
            points: results
                .rates
                .iter()
                .map(|per_variant| Summary::of(&per_variant[which]))
                .collect(),
            dashed: which == pipelines::REDIS_BENCHMARK,
        })
        .collect();
    Chart {
        title: format!(
            "Pipelines of {}: calls per second by script size",
            pipelines::BATCH
        ),
        x_label: "script size".into(),
        y_label: "calls per second".into(),
        categories: results
            .sizes
            .iter()
            .map(|&i| SIZES[i].label.to_string())
            .collect(),
        series,
    }
}

fn series_name(which: usize) -> String {
    pipelines::NAMES[which].replace('`', "")
}

fn markdown_text(run: &Run, plots: &str) -> String {
    let mut md = String::new();
    let o = run.options;
    let _ = writeln!(md, "# Benchmarks\n");
    let _ = writeln!(
        md,
        "Written by the benchmark harness (`benches/`, package `redis-script-benches`); \
         every figure below comes from one run of it. Do not edit by hand: rerun it.\n"
    );
    let _ = writeln!(md, "```sh\n{}\n```\n", o.command_line());
    let _ = writeln!(
        md,
        "Without options it runs every section: 5 rounds, 10 s lock windows, the build \
         timings. `--quick` is a smoke run of a minute or two, written to `target/`; `--help` \
         lists the options.\n"
    );
    let _ = writeln!(md, "## This run\n");
    let m = &run.machine;
    let _ = writeln!(
        md,
        "- Started {} and took {:.1} min, at commit {}.",
        run.started,
        run.elapsed.as_secs_f64() / 60.0,
        run.commit
    );
    let _ = writeln!(md, "- Machine: {} ({} logical CPUs).", m.cpu_model, m.cpus);
    let _ = writeln!(
        md,
        "- Load average (1, 5, 15 min) at the start: {}; at the end: {}. The machine is shared: \
         a load near or above the CPU count means other work competed with this run.",
        m.load_start, m.load_end
    );
    let _ = writeln!(
        md,
        "- Pinning: redis-server may run on CPU {}; the harness and every client (threads, \
         Python processes, redis-benchmark) on CPU {} (as `/proc/<pid>/status` lists them \
         after pinning).",
        m.server_cpus, m.client_cpus
    );
    let python = run
        .lock
        .as_ref()
        .and_then(|l| l.python_versions.clone())
        .unwrap_or_else(|| "Python not run".into());
    let _ = writeln!(
        md,
        "- Versions: {}; {}; redis-rs {}; {} (redis-py installed by the harness into \
         `target/bench-python/`).",
        m.rustc, m.redis_server, m.redis_rs, python
    );
    let _ = writeln!(
        md,
        "- Rounds: {}. In the sequential, pipeline, async and observability comparisons a \
         round gives each variant {:.1} s, in {} pieces taken in turns; in the lock \
         benchmark, one {:.1} s window per variant and client count. Figures are medians over the rounds with the \
         range (min–max) in parentheses; ratios are taken round by round, then the median.\n",
        o.rounds,
        o.slice.as_secs_f64(),
        crate::measure::PIECES,
        o.lock_window.as_secs_f64()
    );

    targets(&mut md, run);
    sequential_section(&mut md, run);
    allocations_section(&mut md, run);
    noscript_section(&mut md, run);
    pipelines_section(&mut md, run, plots);
    async_section(&mut md, run);
    observe_section(&mut md, run);
    lock_section(&mut md, run, plots);
    build_section(&mut md, run);
    lint_section(&mut md, run);
    scale_section(&mut md, run);
    method(&mut md);
    md
}

fn not_run(md: &mut String, run: &Run, section: Section) -> bool {
    if run.options.runs(section) {
        return false;
    }
    let _ = writeln!(md, "Not run (`{}`).\n", run.options.command_line());
    true
}

fn targets(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## Targets\n");
    table_head(md, ["target", "goal", "measured", "verdict"]);
    let mut row = |what: String, goal: &str, measured: String, verdict: &str| {
        table_row(md, [what.as_str(), goal, &measured, verdict]);
    };
    if let Some(seq) = &run.sequential {
        if let Some(r) = ratios(
            &seq.wall_us[sequential::TYPED],
            &seq.wall_us[sequential::RAW],
        ) {
            row(
                "sequential `invoke`: time per call vs hand-written EVALSHA".into(),
                "≤ 1.03x",
                r.show_ratio(),
                verdict(&r, 1.03, true),
            );
        }
        if let Some(r) = ratios(&seq.cpu_us[sequential::TYPED], &seq.cpu_us[sequential::RAW]) {
            row(
                "sequential `invoke`: client CPU per call vs hand-written EVALSHA".into(),
                "≤ 1.00x",
                r.show_ratio(),
                verdict(&r, 1.0, true),
            );
        }
    }
    if let Some(rows) = &run.allocations {
        let typed = &rows[allocations::TYPED];
        let total = typed.total();
        row(
            "heap allocations per warm sequential `invoke` (alloc + realloc)".into(),
            "≤ 2",
            total.show(2),
            verdict(&total, 2.0, true),
        );
    }
    if let Some(p) = &run.pipelines {
        for (i, &size) in p.sizes.iter().enumerate() {
            if SIZES[size].bytes != 100 && SIZES[size].bytes != 4096 {
                continue;
            }
            if let Some(r) = ratios(
                &p.rates[i][pipelines::TYPED],
                &p.rates[i][pipelines::RAW_EVALSHA],
            ) {
                row(
                    format!(
                        "pipelines of {}, {} script: typed (`evalsha_script`) vs hand-written EVALSHA, calls/s",
                        pipelines::BATCH,
                        SIZES[size].label,
                    ),
                    "≥ 0.95x",
                    r.show_ratio(),
                    verdict(&r, 0.95, false),
                );
            }
        }
    }
    if let Some(c) = &run.concurrent
        && let Some(r) = ratios(&c.rates[concurrent::TYPED], &c.rates[concurrent::RAW])
    {
        row(
            format!(
                "async, {} tasks on one multiplexed connection: `invoke_async` vs hand-written EVALSHA, calls/s",
                concurrent::TASKS
            ),
            "≥ 0.95x (within 5%)",
            r.show_ratio(),
            verdict(&r, 0.95, false),
        );
    }
    if let Some(r) = run
        .observe
        .as_ref()
        .and_then(|o| o.as_ref().ok())
        .and_then(spans_unheard)
    {
        row(
            "`tracing` on, no subscriber: time per call vs features off".into(),
            "≤ 1.03x",
            r.show_ratio(),
            verdict(&r, 1.03, true),
        );
    }
    if let Some(rows) = &run.noscript {
        let typed = &rows[0];
        row(
            "extra round trips of `invoke` after SCRIPT FLUSH".into(),
            "1 (redis-rs `Script::invoke`: 2)",
            format!(
                "{} (redis-rs: {})",
                typed.flushed - typed.warm,
                rows[2].flushed - rows[2].warm
            ),
            if typed.flushed - typed.warm == 1 && typed.steady {
                "met"
            } else {
                "**not met**"
            },
        );
    }
    if let Some(l) = &run.lock {
        for (i, clients) in l.clients.iter().enumerate() {
            let acquisitions = |which: usize| -> Vec<f64> {
                l.runs[i][which]
                    .iter()
                    .map(|c| c.acquisitions as f64)
                    .collect()
            };
            if let Some(r) = ratios(&acquisitions(0), &acquisitions(1)) {
                row(
                    format!(
                        "lock, {clients} client{}: recipe vs hand-written Rust Lua lock, acquisitions",
                        if *clients == 1 { "" } else { "s" }
                    ),
                    "≥ 0.97x",
                    r.show_ratio(),
                    verdict(&r, 0.97, false),
                );
            }
        }
    }
    let _ = writeln!(md);
}

fn sequential_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## Sequential calls on one connection\n");
    if not_run(md, run, Section::Sequential) {
        return;
    }
    let Some(seq) = &run.sequential else { return };
    let _ = writeln!(
        md,
        "One synchronous connection, one call at a time, of the 100-byte script \
         (`benches/scripts/pad_100.lua`, INCR of one key), already loaded. \
         {} calls in all.\n",
        number(seq.calls as f64, 0)
    );
    table_head(
        md,
        [
            "variant",
            "µs per call",
            "client CPU µs per call",
            "time vs hand-written",
            "CPU vs hand-written",
        ],
    );
    for (which, name) in sequential::NAMES.iter().enumerate() {
        let time = ratios(&seq.wall_us[which], &seq.wall_us[sequential::RAW]);
        let cpu = ratios(&seq.cpu_us[which], &seq.cpu_us[sequential::RAW]);
        table_row(
            md,
            [
                name.to_string(),
                summary_of(&seq.wall_us[which]),
                Summary::of(&seq.cpu_us[which]).map_or("–".into(), |s| s.show(2)),
                time.map_or("–".into(), |r| r.show_ratio()),
                cpu.map_or("–".into(), |r| r.show_ratio()),
            ],
        );
    }
    let _ = writeln!(
        md,
        "\nClient CPU is `getrusage(RUSAGE_THREAD)` of the calling thread (user + system), \
         whose resolution is coarse next to one call: read it over the slice, not per call.\n"
    );
}

fn allocations_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## Heap allocations per call\n");
    if not_run(md, run, Section::Allocations) {
        return;
    }
    let Some(rows) = &run.allocations else { return };
    let _ = writeln!(
        md,
        "Counted by the harness's global allocator on the calling thread, in {} batches of \
         {} warm calls of the 100-byte script each (reading the reply included): per call, \
         the median batch (min–max over the batches). An allocation is an `alloc` or \
         `alloc_zeroed`; a `realloc` (a buffer growing) is counted apart.\n",
        allocations::BATCHES,
        allocations::BATCH
    );
    table_head(md, ["call", "allocations per call", "reallocs per call"]);
    for row in rows {
        table_row(
            md,
            [
                row.name.to_string(),
                row.allocs().show(2),
                row.reallocs().show(2),
            ],
        );
    }
    let _ = writeln!(md);
}

fn noscript_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## Recovery from NOSCRIPT\n");
    if not_run(md, run, Section::Noscript) {
        return;
    }
    let Some(rows) = &run.noscript else { return };
    let _ = writeln!(
        md,
        "Round trips of one call, counted by a `redis::ConnectionLike` wrapper around the \
         connection (each `req_packed_command` or `req_packed_commands` is one), while the \
         script is cached and right after `SCRIPT FLUSH`; five times each.\n"
    );
    table_head(
        md,
        [
            "call",
            "round trips, cached",
            "after SCRIPT FLUSH",
            "extra",
            "same each time",
        ],
    );
    for row in rows {
        table_row(
            md,
            [
                row.name.to_string(),
                row.warm.to_string(),
                row.flushed.to_string(),
                (row.flushed - row.warm).to_string(),
                if row.steady { "yes" } else { "no" }.to_owned(),
            ],
        );
    }
    let _ = writeln!(md);
}

fn pipelines_section(md: &mut String, run: &Run, plots: &str) {
    let _ = writeln!(md, "## Pipelines\n");
    if not_run(md, run, Section::Pipelines) {
        return;
    }
    let Some(p) = &run.pipelines else { return };
    let _ = writeln!(
        md,
        "Batches of {} calls of one script in one `redis::Pipeline` on one connection, \
         replies read (typed calls through `Invocation::decode`), by script size: the same \
         INCR padded with comments (`benches/scripts/`). `redis-benchmark -c 1 -P {} EVALSHA` \
         sends the same EVALSHA from C, as a bound on what the server and the loopback allow. \
         Calls per second:\n",
        pipelines::BATCH,
        pipelines::BATCH
    );
    let series = (0..pipelines::NAMES.len()).map(series_name);
    table_head(
        md,
        std::iter::once("size".to_owned())
            .chain(series)
            .chain(["typed vs hand-written EVALSHA".to_owned()]),
    );
    for (i, &size) in p.sizes.iter().enumerate() {
        let rates = (0..pipelines::NAMES.len()).map(|which| rate_of(&p.rates[i][which]));
        let ratio = ratios(
            &p.rates[i][pipelines::TYPED],
            &p.rates[i][pipelines::RAW_EVALSHA],
        );
        table_row(
            md,
            std::iter::once(SIZES[size].label.to_owned())
                .chain(rates)
                .chain([ratio.map_or("–".into(), |r| r.show_ratio())]),
        );
    }
    if let Some(error) = &p.benchmark_error {
        let _ = writeln!(md, "\nredis-benchmark was left out: {error}");
    }
    let _ = writeln!(
        md,
        "\n![Pipelined calls per second by script size]({plots}/pipelines.svg)\n"
    );
}

fn async_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## Async calls\n");
    if not_run(md, run, Section::Async) {
        return;
    }
    let Some(c) = &run.concurrent else { return };
    let _ = writeln!(
        md,
        "{} tokio tasks on a current-thread runtime share one `MultiplexedConnection`, each \
         calling the 100-byte script in a loop. Client CPU is the runtime's one thread, \
         which runs the tasks and the connection's driver.\n",
        concurrent::TASKS
    );
    table_head(
        md,
        [
            "variant",
            "calls per second",
            "client CPU µs per call",
            "vs hand-written",
        ],
    );
    for (which, name) in concurrent::NAMES.iter().enumerate() {
        let ratio = ratios(&c.rates[which], &c.rates[concurrent::RAW]);
        table_row(
            md,
            [
                name.to_string(),
                rate_of(&c.rates[which]),
                Summary::of(&c.cpu_us[which]).map_or("–".into(), |s| s.show(2)),
                ratio.map_or("–".into(), |r| r.show_ratio()),
            ],
        );
    }
    let _ = writeln!(md);
}

/// The observability target: a call with spans compiled in and nobody
/// listening, against the same call without them, round by round.
fn spans_unheard(o: &observe::Results) -> Option<Summary> {
    ratios(
        &o.wall_us[observe::variants::SPANS_UNHEARD],
        &o.wall_us[observe::variants::OFF],
    )
}

fn observe_section(md: &mut String, run: &Run) {
    let _ = writeln!(
        md,
        "## Observability: the cost of counters, spans and metrics\n"
    );
    if not_run(md, run, Section::Observe) {
        return;
    }
    let o = match &run.observe {
        Some(Ok(o)) => o,
        Some(Err(error)) => {
            let _ = writeln!(md, "Not measured: {error}.\n");
            return;
        }
        None => return,
    };
    let _ = writeln!(
        md,
        "The targets: with `tracing` and `metrics` off the call stays as it was (the \
         sections above measure that build); with `tracing` on and no subscriber a call \
         costs within 3% of the same call with the feature off; the cost of a subscriber, \
         and of `metrics` with and without a recorder, is reported. The runtime's counts \
         (`Script::stats`) need no feature: every row has them.\n\n\
         Features are chosen at compile time, so the harness, built without them, builds \
         itself again into `target/bench-observe/` with its feature `observe-tracing` (the \
         runtime's `tracing`) or `observe-metrics` (its `metrics`), one feature per build, \
         and runs those builds as worker processes on the client CPU, each with one \
         synchronous connection to the same server. All variants call the 100-byte script \
         and take turns piece by piece, as in the other comparisons; a worker measures its \
         pieces when the harness asks.\n\n\
         - Off: the harness itself.\n\
         - `tracing` on, no subscriber: a worker that never makes one. Once a subscriber \
         exists in a process, every span there asks the current one whether it wants it, \
         so the variant with a subscriber has a worker of its own.\n\
         - `tracing` on, a subscriber: a second worker of the same build, with a \
         `tracing_subscriber` registry and formatter (a line per closed span, \
         `FmtSpan::CLOSE`, written to a sink) set as the thread's default for its pieces.\n\
         - `metrics` on: a third worker, with no recorder, and with one set on the thread \
         for its pieces only (`metrics::with_local_recorder`; no global recorder is ever \
         installed): the harness's own, which finds each metric by name and labels in a \
         map and adds to atomic counters and histogram buckets, as an exporter's registry \
         does.\n\n\
         Each process also runs the hand-written EVALSHA: *vs hand-written* divides by the \
         one of the same process and round. *vs off* divides a typed call by the typed call \
         with the features off, and a hand-written call by the harness's own, the same \
         code in another process, so how far those rows sit from 1.000x is what the \
         processes alone account for. Allocations are counted as in the allocations \
         section, in each variant's process with its listener on. {} calls in all, at \
         commit {}, by `{}`.\n",
        number(o.calls as f64, 0),
        run.commit,
        run.options.command_line()
    );
    table_head(
        md,
        [
            "variant",
            "µs per call",
            "client CPU µs per call",
            "time vs off",
            "CPU vs off",
            "time vs hand-written",
            "allocations per call (alloc + realloc)",
        ],
    );
    let ratio = |values: &[Vec<f64>], which: usize, of: usize| {
        ratios(&values[which], &values[of]).map_or("–".into(), |r| r.show_ratio())
    };
    for (which, variant) in observe::variants::VARIANTS.iter().enumerate() {
        let off = observe::variants::off(which);
        table_row(
            md,
            [
                variant.name.to_string(),
                summary_of(&o.wall_us[which]),
                Summary::of(&o.cpu_us[which]).map_or("–".into(), |s| s.show(2)),
                ratio(&o.wall_us, which, off),
                ratio(&o.cpu_us, which, off),
                ratio(&o.wall_us, which, observe::variants::by_hand(which)),
                o.allocations[which].total().show(2),
            ],
        );
    }
    if let Some(r) = spans_unheard(o) {
        let _ = writeln!(
            md,
            "\nTarget: `tracing` on with no subscriber, time per call vs off, at most \
             1.03x: {}, {}. The same with each typed call first divided by its own \
             process's hand-written call, which takes the processes' differences out: {}.\n",
            r.show_ratio(),
            verdict(&r, 1.03, true),
            spans_unheard_by_hand(o).map_or("–".into(), |r| r.show_ratio())
        );
    }
}

/// [`spans_unheard`], each side first divided by its process's hand-written
/// call of the same round.
fn spans_unheard_by_hand(o: &observe::Results) -> Option<Summary> {
    let relative = |which: usize| -> Vec<f64> {
        let reference = &o.wall_us[observe::variants::by_hand(which)];
        o.wall_us[which]
            .iter()
            .zip(reference)
            .map(|(typed, by_hand)| typed / by_hand)
            .collect()
    };
    ratios(
        &relative(observe::variants::SPANS_UNHEARD),
        &relative(observe::variants::OFF),
    )
}

fn lock_section(md: &mut String, run: &Run, plots: &str) {
    let _ = writeln!(md, "## A Lua lock against a WATCH lock\n");
    if not_run(md, run, Section::Lock) {
        return;
    }
    let Some(l) = &run.lock else { return };
    let window = run.options.lock_window.as_secs_f64();
    let scale = 10.0 / window;
    let _ = writeln!(
        md,
        "1, 2, 5 and 10 clients take and release one lock (`{}`, time to live {} s) \
         over and over; a client that finds it taken sleeps 1 ms and tries again. \
         Counted over {window:.1} s windows{}. Rust clients are threads with a connection \
         each; Python clients are processes (`benches/python/lock_bench.py`), as threads \
         would share the interpreter lock. All clients share CPU {}, the server has CPU {}. \
         The reference columns are the figures first published for this benchmark: Python \
         clients of a Lua lock and of a lock taken with SETNX + EXPIRE, on another machine.\n",
        lock::KEY,
        lock::TTL.as_secs(),
        if (window - 10.0).abs() > 1e-9 {
            " and scaled to 10 s to sit next to the reference figures"
        } else {
            ""
        },
        run.machine.client_cpus,
        run.machine.server_cpus
    );
    let _ = writeln!(md, "Acquisitions in 10 s:\n");
    lock_table(md, l, scale, false);
    let _ = writeln!(md, "\nAttempts in 10 s:\n");
    lock_table(md, l, scale, true);
    if let Some(error) = &l.python_error {
        let _ = writeln!(md, "\nThe Python variants were left out: {error}");
    }
    let _ = writeln!(
        md,
        "\nRound trips per cycle: a Lua lock takes the lock in one (EVALSHA) and releases \
         it in one; the WATCH lock takes it in one (`SET NX PX`, the one command that does \
         what SETNX + EXPIRE do, without the window in which the lock has no expiry) and \
         releases it in three (WATCH, GET, then MULTI/DEL/EXEC in one pipeline). The \
         reference's SETNX lock took two to acquire (SETNX, EXPIRE) and three to release. \
         The reference figures come from another machine: its 44,494 one-client cycles of \
         two calls in 10 s are about 112 µs per call, Python's overhead included; here all \
         clients share one CPU.\n"
    );
    let _ = writeln!(
        md,
        "![Acquisitions by number of clients]({plots}/lock.svg)\n"
    );
}

/// The lock benchmark's counts per client count (acquisitions, or attempts),
/// scaled to 10 s, beside the reference figures; acquisitions add the
/// recipe's ratio.
fn lock_table(md: &mut String, l: &lock::Results, scale: f64, attempts: bool) {
    let names = lock::Variant::ALL
        .iter()
        .map(|variant| variant.name().to_owned());
    let ratio_head = (!attempts).then(|| "recipe vs hand-written".to_owned());
    table_head(
        md,
        ["clients", "reference: Lua lock", "reference: SETNX lock"]
            .map(str::to_owned)
            .into_iter()
            .chain(names)
            .chain(ratio_head),
    );
    let scaled = |counts: &[lock::Counts]| -> Vec<f64> {
        counts
            .iter()
            .map(|c| (if attempts { c.attempts } else { c.acquisitions }) as f64 * scale)
            .collect()
    };
    // The reference table: attempts and acquisitions of its SETNX lock, then of its Lua lock.
    let (lua, setnx) = if attempts { (2, 0) } else { (3, 1) };
    for (i, clients) in l.clients.iter().enumerate() {
        let reference = REFERENCE_TABLE
            .iter()
            .find(|(n, _)| n == clients)
            .map(|(_, s)| *s);
        let reference_cell = |k: usize| reference.map_or("–".into(), |s| number(s[k] as f64, 0));
        let counts = (0..lock::Variant::ALL.len()).map(|which| rate_of(&scaled(&l.runs[i][which])));
        let ratio = (!attempts).then(|| {
            ratios(&scaled(&l.runs[i][0]), &scaled(&l.runs[i][1]))
                .map_or("–".into(), |r| r.show_ratio())
        });
        table_row(
            md,
            [
                clients.to_string(),
                reference_cell(lua),
                reference_cell(setnx),
            ]
            .into_iter()
            .chain(counts)
            .chain(ratio),
        );
    }
}

fn lint_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "## `redis-lua check` on BullMQ's commands\n");
    if not_run(md, run, Section::Lint) {
        return;
    }
    let l = match &run.lint {
        Some(Ok(l)) => l,
        Some(Err(why)) => {
            let _ = writeln!(md, "Could not run: {why}.\n");
            return;
        }
        None => return,
    };
    let _ = writeln!(
        md,
        "The tool's engine (`redis_lua::find_files` and `check_files`, what `redis-lua check` \
         runs, in this release build) over `{}`: {}, fetched at run time, never committed. \
         Each of {} rounds finds, reads, composes and checks every file, pinned to the \
         clients' CPU; one untimed pass first.\n",
        l.folder,
        l.source,
        l.seconds.len()
    );
    table_head(
        md,
        [
            "scripts",
            "included files",
            "findings",
            "ms per check",
            "scripts per s",
        ],
    );
    let ms: Vec<f64> = l.seconds.iter().map(|s| s * 1000.0).collect();
    let rate: Vec<f64> = l.seconds.iter().map(|s| l.scripts as f64 / s).collect();
    table_row(
        md,
        [
            l.scripts.to_string(),
            l.included.to_string(),
            l.findings.to_string(),
            summary_of(&ms),
            rate_of(&rate),
        ],
    );
    let _ = writeln!(md);
}

/// The heading of the `scale` section, which a run of it alone replaces.
const SCALE_HEADING: &str = "## Analysis at scale\n";

/// The longest a family may take at ten times its first measured size.
const SCALE_TARGET_SECONDS: f64 = 1.0;

/// The longest `redis-lua check` may take on BullMQ's commands.
const BULLMQ_TARGET_MS: f64 = 50.0;

fn scale_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "{SCALE_HEADING}");
    if not_run(md, run, Section::Scale) {
        return;
    }
    let Some(results) = &run.scale else {
        return;
    };
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
        results.budget_seconds, run.started, run.commit, m.cpu_model, m.cpus, m.load_start
    );
    for family in &results.families {
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
    for family in &results.families {
        let per_element = |row: &scale::Row| -> Vec<f64> {
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
                    summary_of(&ms),
                    Summary::of(&per_element(row)).map_or("–".into(), |s| s.show(2)),
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
                        results.budget_seconds
                    ),
                    "–".into(),
                    "–".into(),
                    target,
                ],
            );
        }
    }
    let _ = writeln!(md);
    match &run.lint {
        Some(Ok(l)) => {
            let ms: Vec<f64> = l.seconds.iter().map(|s| s * 1000.0).collect();
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
                summary_of(&ms)
            );
        }
        _ => {
            let _ = writeln!(
                md,
                "Beside them, real scripts: `redis-lua check` on BullMQ's commands, timed in \
                 the section above, has a target of under {BULLMQ_TARGET_MS:.0} ms.\n"
            );
        }
    }
}

/// The heading of the `build` section, which a run of it alone replaces.
const BUILD_HEADING: &str = "## What the macro costs at build time\n";

fn build_section(md: &mut String, run: &Run) {
    let _ = writeln!(md, "{BUILD_HEADING}");
    if not_run(md, run, Section::Build) {
        return;
    }
    let Some(b) = &run.build else { return };
    let show = |timings: &[build_cost::Timing], cpu: bool| {
        build_cost::summary(timings, cpu).map_or("–".into(), |s| s.show(2))
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
        b.load_start,
        b.load_end
    );
    table_head(md, ["build", "wall s", "CPU s"]);
    let timed = |what: String, timings: &[build_cost::Timing]| {
        [what, show(timings, false), show(timings, true)]
    };
    let bindings = b.bindings;
    let mut rows = Vec::new();
    if run.options.clean_builds {
        rows.push(timed(
            "clean build of `redis-script-macros` (`cargo build -p redis-script-macros`)".into(),
            &b.macros_clean,
        ));
        rows.push(timed(
            "clean build of syn + quote + proc-macro2 alone, with the macros' features".into(),
            &b.stack_clean,
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
    if let Some(first) = &b.check_first {
        rows.push([
            format!(
                "first `cargo check` of a crate with {bindings} bindings, dependencies included"
            ),
            format!("{:.2}", first.wall),
            format!("{:.2}", first.cpu),
        ]);
    }
    rows.push(timed(
        format!("`cargo check` of that crate after an edit: {bindings} `#[redis_script]` bindings"),
        &b.check_bindings,
    ));
    rows.push(timed(
        format!("the same with {bindings} hand-written EVALSHA functions instead"),
        &b.check_plain,
    ));
    for row in rows {
        table_row(md, row);
    }
    let median = |t: &[build_cost::Timing]| build_cost::summary(t, false).map(|s| s.median);
    if let (Some(with), Some(without)) = (median(&b.check_bindings), median(&b.check_plain)) {
        let _ = writeln!(
            md,
            "\nThe bindings add {:.2} s to a `cargo check` of the crate, {:.1} ms per binding \
             (medians).",
            with - without,
            (with - without) * 1000.0 / bindings as f64
        );
    }
    if !b.analysis.is_empty() {
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
        for row in &b.analysis {
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
        let total = |f: fn(&build_cost::ScriptTiming) -> f64| b.analysis.iter().map(f).sum::<f64>();
        table_row(
            md,
            [
                format!("all {}", b.analysis.len()),
                number(b.analysis.iter().map(|r| r.bytes).sum::<usize>() as f64, 0),
                b.analysis
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

fn method(md: &mut String) {
    let _ = writeln!(md, "## How it is measured\n");
    let _ = writeln!(
        md,
        "- The harness starts its own `redis-server` (the test suite's throwaway server, \
         `REDIS_SCRIPT_SERVER` chooses the binary) and moves all its threads to one CPU with \
         `taskset`, and pins itself to another before starting any thread or process, so \
         every client inherits that CPU. On this machine a round trip flips between about \
         23 µs (server and client on one CPU) and 58 µs (on two) when the kernel is left to \
         choose; pinned, it stays on one of them.\n\
         - Every comparison runs its variants in turns, each for the same time, in an order \
         that rotates from turn to turn: the sequential, pipeline and async comparisons in \
         short pieces (a tenth of a slice), so that a burst of other work on the shared \
         machine falls on every variant alike; the lock benchmark in whole windows, as the \
         reference figures were taken. Ratios are per round, then the median.\n\
         - Sequential, async and pipelined runs call the same script on the same key: \
         `INCR`, so the server's work is the same for every variant and only the client \
         differs.\n\
         - Allocation counts come from a counting global allocator that counts only while \
         a measured loop runs, on its own thread.\n\
         - The observability comparison runs builds of the harness with other features as \
         worker processes (built before anything is pinned, started after, so they inherit \
         the client CPU); the harness sends each a line asking for a piece and waits for \
         the reply, so only one process calls the server at a time.\n\
         - Build timings run before the server starts, unpinned, on every CPU."
    );
}

#[cfg(test)]
mod snapshot;

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(median: f64, min: f64, max: f64) -> Summary {
        Summary { median, min, max }
    }

    #[test]
    fn verdicts_follow_the_median_and_flag_a_range_that_crosses() {
        assert_eq!(verdict(&summary(1.01, 1.0, 1.02), 1.03, true), "met");
        assert_eq!(
            verdict(&summary(1.02, 1.0, 1.05), 1.03, true),
            "met (median; the range crosses the target)"
        );
        assert_eq!(
            verdict(&summary(0.9, 0.85, 0.92), 0.95, false),
            "**not met**"
        );
        assert_eq!(
            verdict(&summary(0.94, 0.9, 0.99), 0.95, false),
            "**not met** (median; the range crosses the target)"
        );
    }

    #[test]
    fn a_section_replaces_its_own_text_or_comes_before_the_method() {
        let report = "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nold\n\n\
                      ## How it is measured\n\nm\n";
        let section = "## Analysis at scale\n\nnew\n\n";
        assert_eq!(
            splice(report, SCALE_HEADING, section),
            "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nnew\n\n\
             ## How it is measured\n\nm\n"
        );
        let without = "# Benchmarks\n\n## A\n\na\n\n## How it is measured\n\nm\n";
        assert_eq!(
            splice(without, SCALE_HEADING, section),
            "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nnew\n\n\
             ## How it is measured\n\nm\n"
        );
        // The last section replaced runs to the end of the report.
        let last = "# Benchmarks\n\n## Analysis at scale\n\nold\n";
        assert_eq!(
            splice(last, SCALE_HEADING, section),
            "# Benchmarks\n\n## Analysis at scale\n\nnew\n\n"
        );
    }

    #[test]
    fn the_reference_table_has_the_published_figures() {
        // Lua lock acquisitions and SETNX lock acquisitions for 1, 2, 5, 10 clients.
        let lua: Vec<u64> = REFERENCE_TABLE.iter().map(|(_, s)| s[3]).collect();
        let watch: Vec<u64> = REFERENCE_TABLE.iter().map(|(_, s)| s[1]).collect();
        assert_eq!(lua, [44_494, 42_199, 40_826, 33_990]);
        assert_eq!(watch, [31_359, 22_507, 19_695, 14_361]);
    }
}
