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

mod listeners;
#[cfg(feature = "observe-metrics")]
mod recorder;
pub mod worker;

use std::time::Duration;

use redis::Connection;

use crate::alloc::Counts;
use crate::allocations::{self, Row};
use crate::bindings::pad_100;
use crate::measure::{Slice, interleaved, run_slice};
use crate::options::Options;
use crate::sequential;
use crate::server::Server;

pub use worker::Builds;
use worker::Worker;

/// Where a variant runs: this harness, or one of its workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Process {
    /// The harness itself, built without `tracing` and `metrics`.
    Harness,
    /// A worker with spans compiled in that never makes a subscriber: once
    /// one exists in a process, every span callsite there asks it (or the
    /// thread's current one) about each call, listening or not.
    Spans,
    /// A worker of the same build, with a subscriber on its thread during
    /// its typed variant's pieces.
    Subscribed,
    /// A worker with metrics compiled in, with a recorder on its thread
    /// during one variant's pieces and none otherwise (a recorder set for a
    /// thread and a while leaves nothing behind).
    Metrics,
}

impl Process {
    /// The workers, each a process of its own.
    pub const WORKERS: [Process; 3] = [Process::Spans, Process::Subscribed, Process::Metrics];

    /// The feature of this crate its build adds (none for the harness).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            Process::Harness => None,
            Process::Spans | Process::Subscribed => Some("observe-tracing"),
            Process::Metrics => Some("observe-metrics"),
        }
    }

    /// Whether this build is the one the process runs.
    fn is_this_build(self) -> bool {
        let tracing = cfg!(feature = "observe-tracing");
        let metrics = cfg!(feature = "observe-metrics");
        match self {
            Process::Harness => !tracing && !metrics,
            Process::Spans | Process::Subscribed => tracing,
            Process::Metrics => metrics,
        }
    }
}

/// What a variant calls, and what listens meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `pad_100(key).invoke(&mut con)`, nothing listening.
    Typed,
    /// The same EVALSHA by hand: the process's reference.
    ByHand,
    /// The typed call, with a subscriber formatting every span.
    Subscribed,
    /// The typed call, with a recorder keeping every metric.
    Recorded,
}

/// One measured call in one process.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    pub name: &'static str,
    pub process: Process,
    pub call: Call,
}

/// The variants, in the report's order; workers are asked for them by index.
pub const VARIANTS: [Variant; 9] = [
    Variant {
        name: "typed `invoke`, `tracing` and `metrics` off (this harness)",
        process: Process::Harness,
        call: Call::Typed,
    },
    Variant {
        name: "hand-written EVALSHA (this harness)",
        process: Process::Harness,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `tracing` on, no subscriber",
        process: Process::Spans,
        call: Call::Typed,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Spans,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `tracing` on, a subscriber formatting every span",
        process: Process::Subscribed,
        call: Call::Subscribed,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Subscribed,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `metrics` on, no recorder",
        process: Process::Metrics,
        call: Call::Typed,
    },
    Variant {
        name: "typed `invoke`, `metrics` on, a recorder counting every metric",
        process: Process::Metrics,
        call: Call::Recorded,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Metrics,
        call: Call::ByHand,
    },
];

/// The typed call and the hand-written one with the features off.
pub const OFF: usize = 0;
pub const OFF_BY_HAND: usize = 1;
/// The variant of the observability target: `tracing` on, nobody listening.
pub const SPANS_UNHEARD: usize = 2;

/// The hand-written call of the process `which` runs in.
pub fn by_hand(which: usize) -> usize {
    let process = VARIANTS[which].process;
    VARIANTS
        .iter()
        .position(|v| v.process == process && v.call == Call::ByHand)
        .expect("every process has its hand-written call")
}

/// What `which` is compared with in the build without the features: the
/// typed call, or for a hand-written call, the harness's own.
pub fn off(which: usize) -> usize {
    if VARIANTS[which].call == Call::ByHand {
        OFF_BY_HAND
    } else {
        OFF
    }
}

pub struct Results {
    /// Per variant, per round: wall-clock µs per call.
    pub wall_us: Vec<Vec<f64>>,
    /// Per variant, per round: CPU µs per call of the calling thread.
    pub cpu_us: Vec<Vec<f64>>,
    /// Per variant: its allocations, counted in its own process.
    pub allocations: Vec<Row>,
    pub calls: u64,
}

/// Calls before measuring, in each process.
const WARM_UP: usize = 200;

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

// What follows runs `which` in this process: the harness's own variants
// here, a worker's in the worker.

/// One call of `call`, checked.
fn call_once(call: Call, con: &mut Connection) -> i64 {
    match call {
        Call::ByHand => sequential::by_hand(con),
        Call::Typed | Call::Subscribed | Call::Recorded => sequential::typed(con),
    }
}

/// [`WARM_UP`] calls of `which`, then a check that its listener heard them.
fn warm(which: usize, con: &mut Connection) -> Result<(), String> {
    let call = VARIANTS[which].call;
    listeners::listening(call, || {
        for _ in 0..WARM_UP {
            call_once(call, con);
        }
    });
    listeners::heard(call)
}

/// `which` for `length`, its listener on for the piece.
fn slice(which: usize, con: &mut Connection, length: Duration) -> Slice {
    let call = VARIANTS[which].call;
    listeners::listening(call, || {
        run_slice(length, 16, || {
            for _ in 0..16 {
                std::hint::black_box(call_once(call, con));
            }
        })
    })
}

/// The allocations of `which`'s calls, its listener on.
fn count_allocations(which: usize, con: &mut Connection) -> Vec<Counts> {
    let call = VARIANTS[which].call;
    listeners::listening(call, || allocations::count_batches(|| call_once(call, con)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_process_has_a_reference_and_each_worker_a_feature() {
        for (which, variant) in VARIANTS.iter().enumerate() {
            let reference = &VARIANTS[by_hand(which)];
            assert_eq!(reference.process, variant.process);
            assert_eq!(reference.call, Call::ByHand);
        }
        assert!(Process::WORKERS.iter().all(|p| p.feature().is_some()));
        assert_eq!(Process::Harness.feature(), None);
        assert_eq!(off(SPANS_UNHEARD), OFF);
        assert_eq!(off(by_hand(SPANS_UNHEARD)), OFF_BY_HAND);
        assert_eq!(VARIANTS[SPANS_UNHEARD].process, Process::Spans);
        assert_eq!(VARIANTS[SPANS_UNHEARD].call, Call::Typed);
    }

    #[test]
    fn a_test_build_is_the_harness_or_a_worker_by_its_features() {
        let plain = !cfg!(feature = "observe-tracing") && !cfg!(feature = "observe-metrics");
        assert_eq!(Process::Harness.is_this_build(), plain);
        assert_eq!(
            Process::Spans.is_this_build(),
            cfg!(feature = "observe-tracing")
        );
    }
}
