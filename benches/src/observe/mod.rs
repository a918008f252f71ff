//! What observability costs a call: the sequential call of the 100-byte
//! script with the runtime's `tracing` and `metrics` features off (this
//! harness) and on (the harness built again with one of them, run as a
//! worker process), with and without something listening, in alternating
//! pieces against the same server, each process with its own hand-written
//! EVALSHA as a reference.
//!
//! Features are chosen at compile time, so "off and on in one run" takes
//! several builds: [`worker::build`] makes them before the harness pins
//! itself, [`run`] starts the workers and asks each for its pieces in the
//! turns [`interleaved`] gives, measuring its own variants in between.

mod in_process;
mod listeners;
#[cfg(feature = "observe-metrics")]
mod recorder;
pub mod variants;
pub mod worker;

use std::fmt::Write as _;
use std::time::Duration;

use redis::Connection;

use crate::alloc::Counts;
use crate::allocations::Row;
use crate::bindings::pad_100;
use crate::markdown::{figure, ratio, table_head, table_row, verdict};
use crate::measure::{Slice, interleaved};
use crate::options::Options;
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::server::Server;
use crate::stats::{Summary, number, ratios};

use in_process::{count_allocations, slice, warm};
use variants::{Call, OFF, Process, SPANS_UNHEARD, VARIANTS, by_hand, off};
pub use worker::Builds;
use worker::Worker;

pub struct Results {
    /// Per variant, per round: wall-clock µs per call.
    pub wall_us: Vec<Vec<f64>>,
    /// Per variant, per round: CPU µs per call of the calling thread.
    pub cpu_us: Vec<Vec<f64>>,
    /// Per variant: its allocations, counted in its own process.
    pub allocations: Vec<Row>,
    pub calls: u64,
}

pub fn run(server: &Server, options: &Options, builds: &Builds) -> Result<Results, String> {
    if !Process::Harness.is_this_build() {
        return Err(
            "the harness itself was built with an `observe` feature; it builds its workers \
             with them, and must be built without"
                .into(),
        );
    }
    let mut processes = Processes {
        con: server.connection(),
        workers: Vec::new(),
    };
    pad_100::SCRIPT
        .load(&mut processes.con)
        .expect("SCRIPT LOAD");
    for process in Process::WORKERS {
        let binary = builds.binary(process)?;
        processes
            .workers
            .push(Worker::start(process, binary, server.port())?);
    }
    for which in 0..VARIANTS.len() {
        processes.warm(which)?;
    }
    let mut results = Results {
        wall_us: vec![Vec::new(); VARIANTS.len()],
        cpu_us: vec![Vec::new(); VARIANTS.len()],
        allocations: Vec::new(),
        calls: 0,
    };
    for round in 0..options.rounds {
        // A worker's failure ends the section, not the harness: the
        // remaining pieces of the round are skipped, then reported.
        let mut failure = None;
        let slices = interleaved(VARIANTS.len(), options.slice, round, |which, length| {
            if failure.is_some() {
                return Slice::NONE;
            }
            processes.slice(which, length).unwrap_or_else(|error| {
                failure = Some(error);
                Slice::NONE
            })
        });
        if let Some(error) = failure {
            return Err(error);
        }
        for (which, slice) in slices.iter().enumerate() {
            results.wall_us[which].push(slice.us_per_call());
            results.cpu_us[which].push(slice.cpu_us_per_call());
            results.calls += slice.calls;
        }
        let typed: Vec<String> = (0..VARIANTS.len())
            .filter(|&which| VARIANTS[which].call != Call::ByHand)
            .map(|which| format!("{:.1}", results.wall_us[which][round]))
            .collect();
        eprintln!(
            "  observe round {}: typed calls {} µs (off, spans, subscribed, metrics, recorded)",
            round + 1,
            typed.join(", ")
        );
    }
    for (which, variant) in VARIANTS.iter().enumerate() {
        results.allocations.push(Row {
            name: variant.name,
            batches: processes.allocations(which)?,
        });
    }
    Ok(results)
}

/// The harness's connection and its workers: where each variant runs.
struct Processes {
    con: Connection,
    workers: Vec<Worker>,
}

impl Processes {
    fn warm(&mut self, which: usize) -> Result<(), String> {
        match worker_of(&mut self.workers, which) {
            Some(worker) => worker.warm(which),
            None => warm(which, &mut self.con),
        }
    }

    fn slice(&mut self, which: usize, length: Duration) -> Result<Slice, String> {
        match worker_of(&mut self.workers, which) {
            Some(worker) => worker.slice(which, length),
            None => Ok(slice(which, &mut self.con, length)),
        }
    }

    fn allocations(&mut self, which: usize) -> Result<Vec<Counts>, String> {
        match worker_of(&mut self.workers, which) {
            Some(worker) => worker.allocations(which),
            None => Ok(count_allocations(which, &mut self.con)),
        }
    }
}

/// The worker that runs `which`; `None` for the harness's own variants.
fn worker_of(workers: &mut [Worker], which: usize) -> Option<&mut Worker> {
    let process = VARIANTS[which].process;
    workers.iter_mut().find(|w| w.process == process)
}

/// The section's results, or why it could not run (a worker that would not
/// build, start or answer).
impl Part for Result<Results, String> {
    fn section(&self) -> Section {
        Section::Observe
    }

    fn write(&self, md: &mut String, run: &Run) {
        let o = match self {
            Ok(o) => o,
            Err(error) => {
                let _ = writeln!(md, "Not measured: {error}.\n");
                return;
            }
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
        let versus = |values: &[Vec<f64>], which: usize, of: usize| {
            ratio(ratios(&values[which], &values[of]))
        };
        for (which, variant) in VARIANTS.iter().enumerate() {
            let features_off = off(which);
            table_row(
                md,
                [
                    variant.name.to_string(),
                    figure(&o.wall_us[which], 1),
                    figure(&o.cpu_us[which], 2),
                    versus(&o.wall_us, which, features_off),
                    versus(&o.cpu_us, which, features_off),
                    versus(&o.wall_us, which, by_hand(which)),
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
                ratio(spans_unheard_by_hand(o))
            );
        }
    }

    fn targets(&self) -> Vec<Target> {
        self.as_ref()
            .ok()
            .and_then(spans_unheard)
            .map(|r| {
                Target::ratio(
                    "`tracing` on, no subscriber: time per call vs features off".into(),
                    "≤ 1.03x",
                    r,
                    1.03,
                    true,
                )
            })
            .into_iter()
            .collect()
    }
}

/// The observability target: a call with spans compiled in and nobody
/// listening, against the same call without them, round by round.
fn spans_unheard(o: &Results) -> Option<Summary> {
    ratios(&o.wall_us[SPANS_UNHEARD], &o.wall_us[OFF])
}

/// [`spans_unheard`], each side first divided by its process's hand-written
/// call of the same round.
fn spans_unheard_by_hand(o: &Results) -> Option<Summary> {
    let relative = |which: usize| -> Vec<f64> {
        let reference = &o.wall_us[by_hand(which)];
        o.wall_us[which]
            .iter()
            .zip(reference)
            .map(|(typed, by_hand)| typed / by_hand)
            .collect()
    };
    ratios(&relative(SPANS_UNHEARD), &relative(OFF))
}
