//! Script calls in pipelines of 64 on one connection, per script size:
//! typed calls queued through `ScriptPipeline`, hand-written EVALSHA and
//! EVAL, and `redis-benchmark -P 64` sending the same EVALSHA.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use redis::{Connection, Pipeline, Value};
use redis_script::{Invocation, ScriptPipeline};

use crate::bindings::{SIZES, Sized};
use crate::markdown::{figure, ratio, table_head, table_row};
use crate::measure::{Slice, interleaved, run_slice};
use crate::options::Options;
use crate::part::{Part, Plot, Target};
use crate::run::Run;
use crate::section::Section;
use crate::server::{Server, benchmark_binary};
use crate::stats::{Summary, ratios};
use crate::svg::{Chart, Series, line_chart};

pub const BATCH: usize = 64;
const KEY: &str = "bench:pipeline";

/// The variants, in the report's order.
pub const NAMES: [&str; 5] = [
    "typed `evalsha_script` (EVALSHA)",
    "typed `eval_script` (EVAL)",
    "hand-written EVALSHA",
    "hand-written EVAL",
    "redis-benchmark -P 64 EVALSHA",
];
pub const TYPED: usize = 0;
pub const TYPED_EVAL: usize = 1;
pub const RAW_EVALSHA: usize = 2;
pub const RAW_EVAL: usize = 3;
pub const REDIS_BENCHMARK: usize = 4;

pub struct Results {
    /// The sizes measured, as indexes into [`SIZES`].
    pub sizes: Vec<usize>,
    /// Per measured size, per variant, per round: calls per second.
    pub rates: Vec<Vec<Vec<f64>>>,
    /// Why redis-benchmark was not measured, if it was not.
    pub benchmark_error: Option<String>,
}

fn typed_batch(con: &mut Connection, size: &Sized, queue: fn(&mut Pipeline, &Invocation<i64>)) {
    let calls: Vec<Invocation<i64>> = (0..BATCH).map(|_| (size.call)(KEY)).collect();
    let mut pipe = redis::pipe();
    for call in &calls {
        queue(&mut pipe, call);
    }
    let replies: Vec<Value> = pipe.query(con).expect("typed pipeline");
    // Skips the reply of a SCRIPT LOAD queued ahead of the calls, if any.
    let skip = replies.len() - calls.len();
    for (call, reply) in calls.iter().zip(replies.into_iter().skip(skip)) {
        std::hint::black_box(call.decode(Ok(reply)).expect("typed reply"));
    }
}

fn raw_batch(con: &mut Connection, command: &str, script: &str) {
    let mut pipe = redis::pipe();
    for _ in 0..BATCH {
        pipe.cmd(command).arg(script).arg(1).arg(KEY);
    }
    let replies: Vec<i64> = pipe.query(con).expect("hand-written pipeline");
    std::hint::black_box(replies);
}

fn batch(which: usize, con: &mut Connection, size: &Sized) {
    match which {
        TYPED => typed_batch(con, size, |pipe, call| {
            pipe.evalsha_script(call).expect("evalsha_script");
        }),
        TYPED_EVAL => typed_batch(con, size, |pipe, call| {
            pipe.eval_script(call).expect("eval_script");
        }),
        RAW_EVALSHA => raw_batch(con, "EVALSHA", size.script.sha1()),
        _ => raw_batch(con, "EVAL", size.script.source()),
    }
}

/// `redis-benchmark` sending `requests` EVALSHA of `size`'s script over one
/// connection, 64 at a time; its own calls per second.
fn redis_benchmark(server: &Server, size: &Sized, requests: u64) -> Result<f64, String> {
    let binary = benchmark_binary();
    let output = Command::new(&binary)
        .args(["-h", "127.0.0.1", "-p", &server.port().to_string()])
        .args(["-c", "1", "-P", &BATCH.to_string(), "--csv"])
        .args(["-n", &requests.to_string()])
        .args(["EVALSHA", size.script.sha1(), "1", KEY])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    // "test","rps",... then one row per test.
    text.lines()
        .nth(1)
        .and_then(|row| row.split(',').nth(1))
        .and_then(|rps| rps.trim_matches('"').parse().ok())
        .ok_or_else(|| {
            format!(
                "unexpected redis-benchmark output: {} {}",
                text.trim(),
                String::from_utf8_lossy(&output.stderr).trim()
            )
        })
}

pub fn run(server: &Server, options: &Options) -> Results {
    let mut con = server.connection();
    // Per size: redis-benchmark's calls per second of EVALSHA, probed, so
    // that one of its pieces runs about as long as the others.
    let mut probed = Vec::new();
    for &index in &options.sizes {
        let size = &SIZES[index];
        size.script.load(&mut con).expect("SCRIPT LOAD");
        for which in 0..RAW_EVAL + 1 {
            batch(which, &mut con, size);
        }
        let probe = run_slice(options.slice / 4, BATCH as u64, || {
            batch(RAW_EVALSHA, &mut con, size)
        });
        probed.push(probe.rate());
    }
    let mut results = Results {
        sizes: options.sizes.clone(),
        rates: vec![vec![Vec::new(); NAMES.len()]; options.sizes.len()],
        benchmark_error: None,
    };
    let mut benchmark_error = None;
    for round in 0..options.rounds {
        for (i, &index) in options.sizes.iter().enumerate() {
            let size = &SIZES[index];
            let slices = interleaved(NAMES.len(), options.slice, round, |which, length| {
                if which != REDIS_BENCHMARK {
                    return run_slice(length, BATCH as u64, || batch(which, &mut con, size));
                }
                let wanted = (probed[i] * length.as_secs_f64()) as u64;
                let requests = (wanted / BATCH as u64).max(20) * BATCH as u64;
                let rate = match &benchmark_error {
                    Some(_) => Err(String::new()),
                    None => redis_benchmark(server, size, requests),
                };
                match rate {
                    // As if timed here: its own count over its own time.
                    Ok(rate) => Slice {
                        calls: requests,
                        wall: Duration::from_secs_f64(requests as f64 / rate),
                        cpu: Duration::ZERO,
                    },
                    Err(error) => {
                        if benchmark_error.is_none() {
                            eprintln!("  redis-benchmark left out: {error}");
                            benchmark_error = Some(error);
                        }
                        Slice {
                            calls: 0,
                            wall: Duration::ZERO,
                            cpu: Duration::ZERO,
                        }
                    }
                }
            });
            for (which, slice) in slices.iter().enumerate() {
                if slice.calls > 0 {
                    results.rates[i][which].push(slice.rate());
                }
            }
            let last = |which: usize| results.rates[i][which].last().copied().unwrap_or(0.0);
            eprintln!(
                "  pipelines round {} {}: typed {:.0}, EVALSHA {:.0}, EVAL {:.0}, redis-benchmark {:.0} calls/s",
                round + 1,
                size.label,
                last(TYPED),
                last(RAW_EVALSHA),
                last(RAW_EVAL),
                last(REDIS_BENCHMARK)
            );
        }
    }
    results.benchmark_error = benchmark_error;
    results
}

/// A variant's name in the table's header and the plot's legend.
fn series_name(which: usize) -> String {
    NAMES[which].replace('`', "")
}

impl Part for Results {
    fn section(&self) -> Section {
        Section::Pipelines
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let _ = writeln!(
            md,
            "Batches of {BATCH} calls of one script in one `redis::Pipeline` on one connection, \
             replies read (typed calls through `Invocation::decode`), by script size: the same \
             INCR padded with comments (`benches/scripts/`). `redis-benchmark -c 1 -P {BATCH} \
             EVALSHA` sends the same EVALSHA from C, as a bound on what the server and the \
             loopback allow. Calls per second:\n"
        );
        let series = (0..NAMES.len()).map(series_name);
        table_head(
            md,
            std::iter::once("size".to_owned())
                .chain(series)
                .chain(["typed vs hand-written EVALSHA".to_owned()]),
        );
        for (i, &size) in self.sizes.iter().enumerate() {
            let rates = (0..NAMES.len()).map(|which| figure(&self.rates[i][which], 0));
            let typed = ratios(&self.rates[i][TYPED], &self.rates[i][RAW_EVALSHA]);
            table_row(
                md,
                std::iter::once(SIZES[size].label.to_owned())
                    .chain(rates)
                    .chain([ratio(typed)]),
            );
        }
        if let Some(error) = &self.benchmark_error {
            let _ = writeln!(md, "\nredis-benchmark was left out: {error}");
        }
        let _ = writeln!(md);
    }

    fn targets(&self) -> Vec<Target> {
        let mut targets = Vec::new();
        for (i, &size) in self.sizes.iter().enumerate() {
            if SIZES[size].bytes != 100 && SIZES[size].bytes != 4096 {
                continue;
            }
            if let Some(r) = ratios(&self.rates[i][TYPED], &self.rates[i][RAW_EVALSHA]) {
                targets.push(Target::ratio(
                    format!(
                        "pipelines of {BATCH}, {} script: typed (`evalsha_script`) vs \
                         hand-written EVALSHA, calls/s",
                        SIZES[size].label,
                    ),
                    "≥ 0.95x",
                    r,
                    0.95,
                    false,
                ));
            }
        }
        targets
    }

    fn plot(&self, _run: &Run) -> Option<Plot> {
        let series = (0..NAMES.len())
            .map(|which| Series {
                name: series_name(which),
                points: self
                    .rates
                    .iter()
                    .map(|per_variant| Summary::of(&per_variant[which]))
                    .collect(),
                dashed: which == REDIS_BENCHMARK,
            })
            .collect();
        let chart = Chart {
            title: format!("Pipelines of {BATCH}: calls per second by script size"),
            x_label: "script size".into(),
            y_label: "calls per second".into(),
            categories: self
                .sizes
                .iter()
                .map(|&i| SIZES[i].label.to_string())
                .collect(),
            series,
        };
        Some(Plot {
            file: "pipelines.svg",
            alt: "Pipelined calls per second by script size",
            svg: line_chart(&chart),
        })
    }
}
