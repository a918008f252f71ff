//! The `test-servers` section: what a test pays for a server nobody else
//! writes to, the choice a test harness for users' scripts makes. Three
//! ways, each timed per test, on the binary the tests use
//! (`REDIS_SCRIPT_SERVER`, else `redis-server`):
//!
//! - a server per test, in the test's thread (as `cargo test` runs tests):
//!   a throwaway server started on a free port until it answers, a
//!   connection, `PING`, then the server stopped and its folder removed;
//! - the same in a process of its own per test (as nextest runs tests):
//!   this harness started again to do it, timed from spawn to exit;
//! - isolation on one shared server: a new connection, then `FLUSHALL`,
//!   `SCRIPT FLUSH` and `FUNCTION FLUSH` (keys, cached scripts and
//!   libraries gone) and `PING`. Cheap, but tests that share the server
//!   cannot run at once.

use std::fmt::Write as _;
use std::process::{Command, ExitCode};
use std::time::Instant;

use redis_script_test::{RedisServer, ServerBinary};

use crate::markdown::{figure, table_head, table_row};
use crate::options::Options;
use crate::part::Part;
use crate::run::Run;
use crate::section::Section;

/// The argument that makes this harness one test's process: start a
/// server, use it, stop it, exit.
pub const ONE_TEST: &str = "--one-test-server";

/// One way of giving a test its server, timed.
#[derive(Debug, Clone)]
pub struct Way {
    pub name: &'static str,
    /// What a test cannot see of another's.
    pub isolates: &'static str,
    /// Milliseconds per test, one per test.
    pub ms: Vec<f64>,
}

#[derive(Debug, Clone)]
pub struct Results {
    /// The binary, as its path names it.
    pub binary: String,
    pub ways: Vec<Way>,
}

/// One test's server, used and stopped: what [`ONE_TEST`] runs.
fn server_for_one_test() {
    let server = RedisServer::start();
    let mut connection = server.connection();
    redis::cmd("PING")
        .query::<String>(&mut connection)
        .expect("PING");
}

/// Runs as one test's process: see [`ONE_TEST`].
pub fn one_test() -> ExitCode {
    server_for_one_test();
    ExitCode::SUCCESS
}

pub fn run(options: &Options) -> Result<Results, String> {
    let tests = if options.quick { 5 } else { 30 };
    let binary = ServerBinary::find().path().display().to_string();
    let timed = |mut test: Box<dyn FnMut() -> Result<(), String>>| -> Result<Vec<f64>, String> {
        // One untimed, for the page cache.
        test()?;
        (0..tests)
            .map(|_| {
                let clock = Instant::now();
                test().map(|()| clock.elapsed().as_secs_f64() * 1000.0)
            })
            .collect()
    };
    let in_thread = timed(Box::new(|| {
        server_for_one_test();
        Ok(())
    }))?;
    let harness = std::env::current_exe().map_err(|e| format!("this harness's path: {e}"))?;
    let in_process = timed(Box::new(move || {
        let status = Command::new(&harness)
            .arg(ONE_TEST)
            .status()
            .map_err(|e| format!("{} {ONE_TEST}: {e}", harness.display()))?;
        status
            .success()
            .then_some(())
            .ok_or_else(|| format!("{ONE_TEST} exited with {status}"))
    }))?;
    let shared = RedisServer::start();
    let client = shared.client();
    let isolated = timed(Box::new(move || {
        let mut connection = client.get_connection().map_err(|e| e.to_string())?;
        redis::pipe()
            .cmd("FLUSHALL")
            .cmd("SCRIPT")
            .arg("FLUSH")
            .cmd("FUNCTION")
            .arg("FLUSH")
            .cmd("PING")
            .query::<()>(&mut connection)
            .map_err(|e| e.to_string())
    }))?;
    Ok(Results {
        binary,
        ways: vec![
            Way {
                name: "a server per test, in the test's thread",
                isolates: "everything: keys, scripts, libraries, config, faults",
                ms: in_thread,
            },
            Way {
                name: "a server per test, in a process per test",
                isolates: "everything, and the test's process",
                ms: in_process,
            },
            Way {
                name: "one shared server, flushed per test",
                isolates: "keys, cached scripts, libraries; tests run one at a time",
                ms: isolated,
            },
        ],
    })
}

/// The section's results, or why it could not run.
impl Part for Result<Results, String> {
    fn section(&self) -> Section {
        Section::TestServers
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let results = match self {
            Ok(results) => results,
            Err(why) => {
                let _ = writeln!(md, "Could not run: {why}.\n");
                return;
            }
        };
        let tests = results.ways.first().map_or(0, |way| way.ms.len());
        let _ = writeln!(
            md,
            "What a test pays for a server nobody else writes to, on `{}`, {tests} tests each \
             (one untimed first), pinned to the clients' CPU with the servers they start. A \
             server per test: started on a free port until it answers, a connection and \
             `PING`, stopped and its folder removed; in a process per test, the harness \
             itself started again to do that, from spawn to exit. A shared server: a new \
             connection, `FLUSHALL`, `SCRIPT FLUSH`, `FUNCTION FLUSH` and `PING`.\n",
            results.binary
        );
        table_head(
            md,
            ["way", "ms per test", "what a test cannot see of another's"],
        );
        for way in &results.ways {
            table_row(
                md,
                [
                    way.name.to_owned(),
                    figure(&way.ms, 2),
                    way.isolates.to_owned(),
                ],
            );
        }
        let _ = writeln!(md);
    }
}
