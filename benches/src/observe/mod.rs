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

use std::time::Duration;

use redis::Connection;

use crate::alloc::Counts;
use crate::allocations::Row;
use crate::bindings::pad_100;
use crate::measure::{Slice, interleaved};
use crate::options::Options;
use crate::server::Server;

use in_process::{count_allocations, slice, warm};
use variants::{Call, Process, VARIANTS};
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
