//! The run a report is of: how it was asked for, on which machine and
//! software, when, and at which commit.

use std::time::Duration;

use crate::options::Options;

/// The machine and the software measured.
pub struct Machine {
    pub cpu_model: String,
    pub cpus: usize,
    pub load_start: String,
    pub load_end: String,
    pub rustc: String,
    pub redis_server: String,
    pub redis_rs: String,
    /// `python=3.11.7 redis-py=8.1.0`, when the lock section ran its
    /// Python clients.
    pub python: Option<String>,
    pub server_cpus: String,
    pub client_cpus: String,
}

/// One run of the harness, as every part of its report may describe it.
pub struct Run<'a> {
    pub options: &'a Options,
    pub machine: Machine,
    pub started: String,
    /// The commit measured, as `source_commit` in main.rs names it.
    pub commit: String,
    pub elapsed: Duration,
}
