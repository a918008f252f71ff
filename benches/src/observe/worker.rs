//! The workers of the observe section: the harness built again with a
//! feature (`observe-tracing` or `observe-metrics`), started with
//! [`WORKER_FLAG`] and the server's port, measuring its variants when the
//! harness asks. One line a request on its input, one line a reply on its
//! output; its input ending ends it.
//!
//! ```text
//! (worker)  ready observe-tracing
//! harness:  warm 2                  -> ok
//! harness:  slice 2 100000000       -> <calls> <wall ns> <cpu ns>
//! harness:  allocations 2           -> <allocs>/<reallocs>, one per batch, space-separated
//! (anything that fails)             -> error <message>
//! ```

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Duration;

use redis::Connection;

use super::in_process;
use super::variants::{Process, VARIANTS};
use crate::alloc::Counts;
use crate::bindings::pad_100;
use crate::build_cost::cargo_command;
use crate::measure::Slice;
use crate::options::repo_root;

/// The hidden command-line flag that makes the harness a worker.
pub const WORKER_FLAG: &str = "--observe-worker";

/// The port after [`WORKER_FLAG`], when the harness is started as a worker.
pub fn worker_port(args: &[String]) -> Option<&str> {
    match args {
        [flag, port] if flag == WORKER_FLAG => Some(port),
        _ => None,
    }
}

// The harness's side.

/// The workers' binaries, one per feature.
pub struct Builds {
    binaries: Vec<(&'static str, PathBuf)>,
}

impl Builds {
    /// The binary `process` runs.
    pub fn binary(&self, process: Process) -> Result<&Path, String> {
        let feature = process.feature().ok_or("the harness is no worker")?;
        self.binaries
            .iter()
            .find(|(built, _)| *built == feature)
            .map(|(_, binary)| binary.as_path())
            .ok_or_else(|| format!("no worker was built with `{feature}`"))
    }
}

/// Builds the workers: this crate with each worker's feature, on the
/// redis-rs and in the profile of this build. Run before the harness pins
/// itself, so that cargo has every CPU.
pub fn build() -> Result<Builds, String> {
    let mut binaries: Vec<(&'static str, PathBuf)> = Vec::new();
    for feature in Process::WORKERS.iter().filter_map(|p| p.feature()) {
        if !binaries.iter().any(|(built, _)| *built == feature) {
            binaries.push((feature, build_with(feature)?));
        }
    }
    Ok(Builds { binaries })
}

/// The profile of this build, which the workers are built in too.
const PROFILE: &str = if cfg!(debug_assertions) {
    "debug"
} else {
    "release"
};

/// `cargo build` of this crate with `feature` into `target/bench-observe/`
/// (a target directory of its own, as the features change what the runtime
/// and this crate compile to), then a copy of the binary named after the
/// feature, which the next build leaves alone.
fn build_with(feature: &'static str) -> Result<PathBuf, String> {
    let root = repo_root();
    let target = root.join("target/bench-observe");
    let mut command = cargo_command(&root, &target);
    command.args(["build", "-p", "redis-script-benches", "--features", feature]);
    if PROFILE == "release" {
        command.arg("--release");
    }
    if cfg!(feature = "redis-2") {
        command.args(["--no-default-features", "--features", "redis-2"]);
    }
    eprintln!(
        "  building the `{feature}` worker into {}",
        target.display()
    );
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the `{feature}` worker failed ({status})"));
    }
    let exe = std::env::consts::EXE_SUFFIX;
    let built = target
        .join(PROFILE)
        .join(format!("redis-script-benches{exe}"));
    let kept = target.join(format!("redis-script-benches-{feature}{exe}"));
    // Renamed into place: a binary still running cannot be written over.
    let fresh = kept.with_extension("new");
    fs::copy(&built, &fresh)
        .and_then(|_| fs::rename(&fresh, &kept))
        .map_err(|e| format!("cannot copy {} to {}: {e}", built.display(), kept.display()))?;
    Ok(kept)
}

/// A worker as the harness sees it.
pub struct Worker {
    pub process: Process,
    child: Child,
    /// `None` once dropped, which ends the worker.
    requests: Option<ChildStdin>,
    replies: BufReader<ChildStdout>,
}

impl Worker {
    /// Starts `binary` as a worker for `process` on the server at `port`,
    /// and waits until it says it is ready and was built as asked.
    pub fn start(process: Process, binary: &Path, port: u16) -> Result<Worker, String> {
        let mut child = Command::new(binary)
            .args([WORKER_FLAG, &port.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let requests = child.stdin.take();
        let replies = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut worker = Worker {
            process,
            child,
            requests,
            replies,
        };
        let ready = worker.reply()?;
        let expected = format!("ready {}", process.feature().unwrap_or(""));
        if ready != expected {
            return Err(format!(
                "the {process:?} worker said `{ready}`, not `{expected}`"
            ));
        }
        Ok(worker)
    }

    pub fn warm(&mut self, which: usize) -> Result<(), String> {
        self.ask(Request::Warm(which)).map(drop)
    }

    pub fn slice(&mut self, which: usize, length: Duration) -> Result<Slice, String> {
        parse_slice(&self.ask(Request::Slice(which, length))?)
    }

    pub fn allocations(&mut self, which: usize) -> Result<Vec<Counts>, String> {
        parse_counts(&self.ask(Request::Allocations(which))?)
    }

    fn ask(&mut self, request: Request) -> Result<String, String> {
        let requests = self.requests.as_mut().expect("open until dropped");
        writeln!(requests, "{}", request.line())
            .and_then(|()| requests.flush())
            .map_err(|e| format!("the {:?} worker: cannot ask: {e}", self.process))?;
        self.reply()
    }

    fn reply(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.replies.read_line(&mut line) {
            Ok(0) => Err(format!("the {:?} worker exited", self.process)),
            Err(e) => Err(format!("the {:?} worker: cannot read: {e}", self.process)),
            Ok(_) => match line.trim_end().strip_prefix("error ") {
                Some(message) => Err(format!("the {:?} worker: {message}", self.process)),
                None => Ok(line.trim_end().to_string()),
            },
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        drop(self.requests.take());
        let _ = self.child.wait();
    }
}

// The worker's side.

/// Measures what the harness asks on a connection of its own to the
/// server at `port`, until its input ends.
pub fn serve(port: &str) -> ExitCode {
    let url = format!("redis://127.0.0.1:{port}/");
    let connected = redis::Client::open(url.as_str()).and_then(|c| c.get_connection());
    let mut con = match connected {
        Ok(con) => con,
        Err(error) => {
            eprintln!("observe worker: cannot connect to {url}: {error}");
            return ExitCode::FAILURE;
        }
    };
    pad_100::SCRIPT.load(&mut con).expect("SCRIPT LOAD");
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "ready {}", this_build());
    let _ = out.flush();
    for line in std::io::stdin().lines() {
        let Ok(line) = line else { break };
        let reply = Request::parse(&line)
            .and_then(|request| answer(request, &mut con))
            .unwrap_or_else(|error| format!("error {error}"));
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// The worker features compiled into this build, as `ready` names them.
fn this_build() -> String {
    let features = [
        (cfg!(feature = "observe-tracing"), "observe-tracing"),
        (cfg!(feature = "observe-metrics"), "observe-metrics"),
    ];
    let on: Vec<&str> = features
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
    on.join(",")
}

fn answer(request: Request, con: &mut Connection) -> Result<String, String> {
    let which = request.variant();
    let variant = VARIANTS
        .get(which)
        .ok_or_else(|| format!("no variant {which}"))?;
    if !variant.process.is_this_build() {
        return Err(format!(
            "`{}` does not run in this build ({})",
            variant.name,
            this_build()
        ));
    }
    Ok(match request {
        Request::Warm(_) => {
            in_process::warm(which, con)?;
            "ok".into()
        }
        Request::Slice(_, length) => slice_line(&in_process::slice(which, con, length)),
        Request::Allocations(_) => counts_line(&in_process::count_allocations(which, con)),
    })
}

// The lines between them.

/// What the harness asks of a worker, about the variant of that index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Request {
    Warm(usize),
    Slice(usize, Duration),
    Allocations(usize),
}

impl Request {
    fn variant(self) -> usize {
        match self {
            Request::Warm(which) | Request::Slice(which, _) | Request::Allocations(which) => which,
        }
    }

    fn line(self) -> String {
        match self {
            Request::Warm(which) => format!("warm {which}"),
            Request::Slice(which, length) => format!("slice {which} {}", length.as_nanos()),
            Request::Allocations(which) => format!("allocations {which}"),
        }
    }

    fn parse(line: &str) -> Result<Request, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |word: &str| -> Result<u64, String> {
            word.parse()
                .map_err(|_| format!("`{word}` is not a number, in `{line}`"))
        };
        match words.as_slice() {
            ["warm", which] => Ok(Request::Warm(number(which)? as usize)),
            ["slice", which, nanos] => Ok(Request::Slice(
                number(which)? as usize,
                Duration::from_nanos(number(nanos)?),
            )),
            ["allocations", which] => Ok(Request::Allocations(number(which)? as usize)),
            _ => Err(format!("unknown request `{line}`")),
        }
    }
}

fn slice_line(slice: &Slice) -> String {
    format!(
        "{} {} {}",
        slice.calls,
        slice.wall.as_nanos(),
        slice.cpu.as_nanos()
    )
}

fn parse_slice(line: &str) -> Result<Slice, String> {
    let numbers: Vec<u64> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("not a slice: `{line}`"))?;
    match numbers.as_slice() {
        &[calls, wall, cpu] => Ok(Slice {
            calls,
            wall: Duration::from_nanos(wall),
            cpu: Duration::from_nanos(cpu),
        }),
        _ => Err(format!("not a slice: `{line}`")),
    }
}

fn counts_line(batches: &[Counts]) -> String {
    let counts: Vec<String> = batches
        .iter()
        .map(|c| format!("{}/{}", c.allocs, c.reallocs))
        .collect();
    counts.join(" ")
}

fn parse_counts(line: &str) -> Result<Vec<Counts>, String> {
    line.split_whitespace()
        .map(|batch| {
            let (allocs, reallocs) = batch.split_once('/')?;
            Some(Counts {
                allocs: allocs.parse().ok()?,
                reallocs: reallocs.parse().ok()?,
            })
        })
        .collect::<Option<Vec<Counts>>>()
        .filter(|batches| !batches.is_empty())
        .ok_or_else(|| format!("not allocation counts: `{line}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_back_as_written() {
        for request in [
            Request::Warm(3),
            Request::Slice(8, Duration::from_millis(100)),
            Request::Allocations(0),
        ] {
            assert_eq!(Request::parse(&request.line()), Ok(request));
        }
        assert!(Request::parse("slice 2").is_err());
        assert!(Request::parse("slice x 10").unwrap_err().contains("`x`"));
    }

    #[test]
    fn replies_read_back_as_written() {
        let slice = Slice {
            calls: 2500,
            wall: Duration::from_nanos(100_000_123),
            cpu: Duration::from_micros(31_000),
        };
        let read = parse_slice(&slice_line(&slice)).unwrap();
        assert_eq!(
            (read.calls, read.wall, read.cpu),
            (2500, slice.wall, slice.cpu)
        );
        let counts = [
            Counts {
                allocs: 200,
                reallocs: 0,
            },
            Counts {
                allocs: 201,
                reallocs: 3,
            },
        ];
        assert_eq!(parse_counts(&counts_line(&counts)).unwrap(), counts);
        assert!(parse_counts("").is_err());
        assert!(parse_slice("1 2").is_err());
    }

    #[test]
    fn the_worker_flag_takes_exactly_a_port() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(worker_port(&args(&[WORKER_FLAG, "6390"])), Some("6390"));
        assert_eq!(worker_port(&args(&[WORKER_FLAG])), None);
        assert_eq!(worker_port(&args(&["--quick"])), None);
    }
}
