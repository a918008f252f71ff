//! One `#[redis_script::test]`: run once on each server of the matrix, each
//! run on servers of its own, and a failure that names the server it
//! happened on.

use std::any::Any;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

use crate::binary::ServerBinary;
use crate::setup::{Setup, Topology};

/// What the attribute's arguments ask for.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The test function's name, for messages.
    pub name: &'static str,
    /// Which servers to start.
    pub topology: Topology,
    /// Each fixture's path (as written) and text, in order.
    pub fixtures: &'static [(&'static str, &'static str)],
    /// Whether every binding's script and library is loaded first.
    pub load_all: bool,
    /// How long the test's body may run before it fails and its servers
    /// are killed (starting the servers and the fixtures are not counted).
    pub timeout: Option<Duration>,
}

/// What a test function returns: `()`, or a `Result` whose `Err` fails it.
pub trait Outcome {
    /// `Err` with the message of a failed test.
    fn into_result(self) -> Result<(), String>;
}

impl Outcome for () {
    fn into_result(self) -> Result<(), String> {
        Ok(())
    }
}

impl<T, E: Debug> Outcome for Result<T, E> {
    fn into_result(self) -> Result<(), String> {
        self.map(drop)
            .map_err(|error| format!("the test returned Err({error:?})"))
    }
}

/// The test's body, given the set-up of one run: makes the parameters,
/// calls the function, and reports its outcome.
pub type Body = fn(&Setup) -> Result<(), String>;

/// Runs `body` once on each server of [`ServerBinary::matrix`], and fails
/// (panics) naming every server a run failed on.
pub fn run(options: &Options, body: Body) {
    let failures: Vec<String> = ServerBinary::matrix()
        .iter()
        .filter_map(|binary| run_on(options, binary, body).err())
        .collect();
    if !failures.is_empty() {
        panic!("{}", failures.join("\n\n"));
    }
}

/// One run, on servers of `binary` started for it and stopped after it.
/// A panic anywhere in it (a server that does not start, a pair that loses
/// its primary) fails this run only, named by its server.
fn run_on(options: &Options, binary: &ServerBinary, body: Body) -> Result<(), String> {
    let name = options.name;
    let setup = panic::catch_unwind(|| Setup::start(binary, options.topology))
        .map_err(|payload| format!("{name}: no server for it: {}", message(&*payload)))?;
    let setup = Arc::new(setup);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        // Captured with the test's output, shown when it fails.
        eprintln!("{name}: running on {setup}");
        setup.prepare(options.fixtures, options.load_all)?;
        match options.timeout {
            None => body(&setup),
            Some(limit) => within(limit, &setup, body),
        }
    }))
    .unwrap_or_else(|payload| Err(message(&*payload)));
    outcome.map_err(|why| {
        let mut report = format!("{name} failed on {setup}: {why}");
        for crash in setup.crash_reports() {
            report.push('\n');
            report.push_str(&crash);
        }
        report
    })
}

/// Runs `body` on a thread of its own and waits at most `limit`; a body
/// still running then is left behind with its servers killed (a thread
/// cannot be stopped), so it fails soon if it waits on them.
fn within(limit: Duration, setup: &Arc<Setup>, body: Body) -> Result<(), String> {
    let (done, outcome) = mpsc::channel();
    let for_body = Arc::clone(setup);
    thread::Builder::new()
        .name(thread::current().name().unwrap_or("test").to_owned())
        .spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(|| body(&for_body)))
                .unwrap_or_else(|payload| Err(message(&*payload)));
            let _ = done.send(result);
        })
        .map_err(|e| format!("cannot start the test's thread: {e}"))?;
    outcome.recv_timeout(limit).unwrap_or_else(|_| {
        setup.discard();
        Err(format!(
            "timed out after {limit:?}; its servers were killed"
        ))
    })
}

/// A panic's message.
fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the test panicked".to_owned())
}
