//! A Lua lock against a WATCH lock: 1, 2, 5 and 10 clients repeatedly
//! taking and releasing one lock for a window, pausing 1 ms after a failed
//! attempt; counted are attempts and acquisitions.
//!
//! Five locks: the recipe (`redis_script::recipes::lock`), the same Lua
//! written by hand over `redis::cmd`, a WATCH/MULTI lock in Rust, and the
//! Lua and WATCH locks in Python with redis-py (benches/python/). Rust
//! clients are threads with a connection each; Python clients are processes
//! (threads would share the interpreter lock).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Barrier;
use std::thread;
use std::time::{Duration, Instant};

use redis::Connection;
use redis_script::recipes::lock::{HeldLock, Lock};
use redis_script::recipes::random_token;

use crate::markdown::{figure, ratio, table_head, table_row};
use crate::measure::order;
use crate::options::{Options, repo_root};
use crate::part::{Part, Plot, Target};
use crate::run::Run;
use crate::section::Section;
use crate::server::Server;
use crate::stats::{Summary, number, ratios};
use crate::svg::{Chart, Series, line_chart};

/// The pinned redis-py, installed by the harness into a directory of its own.
pub const REDIS_PY: &str = "8.1.0";

pub const KEY: &str = "bench:lock";
/// The lock's time to live (the reference figures' `lock_timeout=10`).
pub const TTL: Duration = Duration::from_secs(10);
/// The pause after a failed attempt (the reference figures' `time.sleep(.001)`).
pub const RETRY_PAUSE: Duration = Duration::from_millis(1);

/// The same semantics as `scripts/lock_acquire.lua`: SET NX PX, so the lock
/// never exists without an expiry. ARGV: time to live (ms), token.
pub const ACQUIRE_LUA: &str = "return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])";
/// The same semantics as `scripts/lock_release.lua`: deletes the lock only
/// for the holder's token. ARGV: token.
pub const RELEASE_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
     return redis.call('DEL', KEYS[1]) end return 0";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Recipe,
    RustLua,
    RustWatch,
    PythonLua,
    PythonWatch,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Recipe,
        Variant::RustLua,
        Variant::RustWatch,
        Variant::PythonLua,
        Variant::PythonWatch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Recipe => "Rust Lua lock, recipe (`recipes::lock`)",
            Variant::RustLua => "Rust Lua lock, hand-written (`redis::cmd` EVALSHA)",
            Variant::RustWatch => "Rust WATCH lock (redis-rs)",
            Variant::PythonLua => "Python Lua lock (redis-py)",
            Variant::PythonWatch => "Python WATCH lock (redis-py)",
        }
    }

    /// The name in the plot's legend.
    pub fn short_name(self) -> &'static str {
        match self {
            Variant::Recipe => "Rust Lua lock (recipe)",
            Variant::RustLua => "Rust Lua lock (hand-written)",
            Variant::RustWatch => "Rust WATCH lock",
            Variant::PythonLua => "Python Lua lock",
            Variant::PythonWatch => "Python WATCH lock",
        }
    }

    pub fn is_python(self) -> bool {
        matches!(self, Variant::PythonLua | Variant::PythonWatch)
    }
}

/// What all clients of one run did together.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub attempts: u64,
    pub acquisitions: u64,
    /// Releases that found the lock no longer held; must stay 0.
    pub lost: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.attempts += other.attempts;
        self.acquisitions += other.acquisitions;
        self.lost += other.lost;
    }
}

pub struct Results {
    pub clients: Vec<usize>,
    /// Per client count, per variant ([`Variant::ALL`] order), per round.
    pub runs: Vec<Vec<Vec<Counts>>>,
    /// Why the Python variants did not run, if they did not.
    pub python_error: Option<String>,
    /// `python=3.11.7 redis-py=8.1.0`, as the Python side reports it.
    pub python_versions: Option<String>,
}

/// A lock implementation as one client thread uses it. Errors end the
/// benchmark: there are none on a healthy server.
trait Client {
    /// What a successful attempt gives, to release with.
    type Held;
    /// Tries once.
    fn try_acquire(&mut self, con: &mut Connection) -> Option<Self::Held>;
    /// Releases; whether the lock was still held.
    fn release(&mut self, con: &mut Connection, held: Self::Held) -> bool;
}

/// Through the recipe, as an application uses it.
struct Recipe {
    lock: Lock,
}

impl Client for Recipe {
    type Held = HeldLock;

    fn try_acquire(&mut self, con: &mut Connection) -> Option<HeldLock> {
        self.lock.try_acquire(con).expect("Lock::try_acquire")
    }

    fn release(&mut self, con: &mut Connection, held: HeldLock) -> bool {
        held.release(con).expect("HeldLock::release")
    }
}

/// The same Lua, called by hand with EVALSHA.
struct HandLua {
    acquire_sha: String,
    release_sha: String,
}

impl Client for HandLua {
    type Held = String;

    fn try_acquire(&mut self, con: &mut Connection) -> Option<String> {
        let token = random_token();
        let taken: Option<String> = redis::cmd("EVALSHA")
            .arg(&self.acquire_sha)
            .arg(1)
            .arg(KEY)
            .arg(TTL.as_millis() as u64)
            .arg(&token)
            .query(con)
            .expect("EVALSHA acquire");
        taken.map(|_| token)
    }

    fn release(&mut self, con: &mut Connection, token: String) -> bool {
        let deleted: i64 = redis::cmd("EVALSHA")
            .arg(&self.release_sha)
            .arg(1)
            .arg(KEY)
            .arg(&token)
            .query(con)
            .expect("EVALSHA release");
        deleted == 1
    }
}

/// No script: SET NX PX takes the lock; the release WATCHes the key, reads
/// it, and deletes it in MULTI/EXEC if it still holds the token.
struct Watch;

impl Client for Watch {
    type Held = String;

    fn try_acquire(&mut self, con: &mut Connection) -> Option<String> {
        let token = random_token();
        let taken: Option<String> = redis::cmd("SET")
            .arg(KEY)
            .arg(&token)
            .arg("NX")
            .arg("PX")
            .arg(TTL.as_millis() as u64)
            .query(con)
            .expect("SET NX PX");
        taken.map(|_| token)
    }

    fn release(&mut self, con: &mut Connection, token: String) -> bool {
        loop {
            redis::cmd("WATCH").arg(KEY).exec(con).expect("WATCH");
            let holder: Option<String> = redis::cmd("GET").arg(KEY).query(con).expect("GET");
            if holder.as_deref() != Some(token.as_str()) {
                redis::cmd("UNWATCH").exec(con).expect("UNWATCH");
                return false;
            }
            // EXEC replies nil when the key changed after WATCH: look again.
            let deleted: Option<(i64,)> = redis::pipe()
                .atomic()
                .cmd("DEL")
                .arg(KEY)
                .query(con)
                .expect("MULTI DEL EXEC");
            if deleted.is_some() {
                return true;
            }
        }
    }
}

/// One client's loop until `window` has passed.
fn client_loop<C: Client>(mut client: C, con: &mut Connection, window: Duration) -> Counts {
    let mut counts = Counts::default();
    let deadline = Instant::now() + window;
    while Instant::now() < deadline {
        counts.attempts += 1;
        match client.try_acquire(con) {
            Some(held) => {
                counts.acquisitions += 1;
                if !client.release(con, held) {
                    counts.lost += 1;
                }
            }
            None => thread::sleep(RETRY_PAUSE),
        }
    }
    counts
}

/// `clients` threads of `variant`, each with its own connection, starting
/// together.
fn rust_run(server: &Server, variant: Variant, clients: usize, window: Duration) -> Counts {
    let mut con = server.connection();
    let load = |source: &str, con: &mut Connection| -> String {
        redis::cmd("SCRIPT")
            .arg("LOAD")
            .arg(source)
            .query(con)
            .expect("SCRIPT LOAD")
    };
    let acquire_sha = load(ACQUIRE_LUA, &mut con);
    let release_sha = load(RELEASE_LUA, &mut con);
    for script in redis_script::recipes::scripts() {
        script.load(&mut con).expect("SCRIPT LOAD");
    }
    let start = Barrier::new(clients);
    let server_client = server.client();
    thread::scope(|scope| {
        let threads: Vec<_> = (0..clients)
            .map(|_| {
                let (start, server_client) = (&start, server_client.clone());
                let (acquire_sha, release_sha) = (acquire_sha.clone(), release_sha.clone());
                scope.spawn(move || {
                    let mut con = server_client.get_connection().expect("a connection");
                    start.wait();
                    match variant {
                        Variant::Recipe => {
                            let lock = Lock::new(KEY, TTL);
                            client_loop(Recipe { lock }, &mut con, window)
                        }
                        Variant::RustLua => {
                            let hand = HandLua {
                                acquire_sha,
                                release_sha,
                            };
                            client_loop(hand, &mut con, window)
                        }
                        _ => client_loop(Watch, &mut con, window),
                    }
                })
            })
            .collect();
        let mut total = Counts::default();
        for thread in threads {
            total += thread.join().expect("a client thread");
        }
        total
    })
}

/// The Python side: the interpreter and the private redis-py directory.
struct Python {
    script: PathBuf,
    path: PathBuf,
}

impl Python {
    /// Installs the pinned redis-py into `target/bench-python/` (once) and
    /// checks that it imports.
    fn prepare() -> Result<(Python, String), String> {
        let root = repo_root();
        let path = root.join(format!("target/bench-python/redis-{REDIS_PY}"));
        let script = root.join("benches/python/lock_bench.py");
        if !path.join("redis/__init__.py").is_file() {
            eprintln!("  installing redis-py {REDIS_PY} into {}", path.display());
            let status = Command::new("python3")
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(["--no-input", "--target"])
                .arg(&path)
                .arg(format!("redis=={REDIS_PY}"))
                // Installing into a directory of our own as root is fine.
                .env("PIP_ROOT_USER_ACTION", "ignore")
                .status()
                .map_err(|e| format!("cannot run python3 -m pip: {e}"))?;
            if !status.success() {
                return Err(format!("pip install redis=={REDIS_PY} failed ({status})"));
            }
        }
        let python = Python { script, path };
        let versions = python.run(&["--versions"])?;
        Ok((python, versions))
    }

    fn run(&self, args: &[&str]) -> Result<String, String> {
        let output = Command::new("python3")
            .arg(&self.script)
            .args(args)
            .env("PYTHONPATH", &self.path)
            .output()
            .map_err(|e| format!("cannot run python3: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "{} {} failed ({}): {}",
                self.script.display(),
                args.join(" "),
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    fn lock_run(
        &self,
        server: &Server,
        variant: Variant,
        clients: usize,
        window: Duration,
    ) -> Result<Counts, String> {
        let line = self.run(&[
            "--port",
            &server.port().to_string(),
            "--variant",
            if variant == Variant::PythonLua {
                "lua"
            } else {
                "watch"
            },
            "--clients",
            &clients.to_string(),
            "--seconds",
            &window.as_secs_f64().to_string(),
            "--key",
            KEY,
            "--ttl-ms",
            &TTL.as_millis().to_string(),
        ])?;
        parse_counts(&line).ok_or_else(|| format!("unexpected output: {line}"))
    }
}

/// Reads `attempts=1 acquisitions=1 lost=0`.
fn parse_counts(line: &str) -> Option<Counts> {
    let mut counts = Counts::default();
    let mut seen = 0;
    for pair in line.split_whitespace() {
        let (name, value) = pair.split_once('=')?;
        let value: u64 = value.parse().ok()?;
        match name {
            "attempts" => counts.attempts = value,
            "acquisitions" => counts.acquisitions = value,
            "lost" => counts.lost = value,
            _ => return None,
        }
        seen += 1;
    }
    (seen == 3).then_some(counts)
}

pub fn run(server: &Server, options: &Options) -> Results {
    let mut results = Results {
        clients: options.lock_clients.clone(),
        runs: vec![vec![Vec::new(); Variant::ALL.len()]; options.lock_clients.len()],
        python_error: None,
        python_versions: None,
    };
    let python = if options.python {
        match Python::prepare() {
            Ok((python, versions)) => {
                results.python_versions = Some(versions);
                Some(python)
            }
            Err(error) => {
                eprintln!("  Python variants left out: {error}");
                results.python_error = Some(error);
                None
            }
        }
    } else {
        results.python_error = Some("--skip-python".into());
        None
    };
    let mut con = server.connection();
    for round in 0..options.rounds {
        for (i, &clients) in options.lock_clients.iter().enumerate() {
            for which in order(Variant::ALL.len(), round) {
                let variant = Variant::ALL[which];
                redis::cmd("DEL").arg(KEY).exec(&mut con).expect("DEL");
                let counts = if variant.is_python() {
                    let Some(python) = &python else { continue };
                    match python.lock_run(server, variant, clients, options.lock_window) {
                        Ok(counts) => counts,
                        Err(error) => panic!("Python lock run failed: {error}"),
                    }
                } else {
                    rust_run(server, variant, clients, options.lock_window)
                };
                assert_eq!(counts.lost, 0, "{}: a holder lost its lock", variant.name());
                results.runs[i][which].push(counts);
            }
            let last = |which: usize| {
                results.runs[i][which]
                    .last()
                    .map_or(0, |counts| counts.acquisitions)
            };
            eprintln!(
                "  lock round {}, {clients} clients: recipe {}, hand Lua {}, WATCH {}, py Lua {}, py WATCH {}",
                round + 1,
                last(0),
                last(1),
                last(2),
                last(3),
                last(4)
            );
        }
    }
    results
}

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

impl Part for Results {
    fn section(&self) -> Section {
        Section::Lock
    }

    fn write(&self, md: &mut String, run: &Run) {
        let window = run.options.lock_window.as_secs_f64();
        let scale = 10.0 / window;
        let _ = writeln!(
            md,
            "1, 2, 5 and 10 clients take and release one lock (`{KEY}`, time to live {} s) \
             over and over; a client that finds it taken sleeps 1 ms and tries again. \
             Counted over {window:.1} s windows{}. Rust clients are threads with a connection \
             each; Python clients are processes (`benches/python/lock_bench.py`), as threads \
             would share the interpreter lock. All clients share CPU {}, the server has CPU {}. \
             The reference columns are the figures first published for this benchmark: Python \
             clients of a Lua lock and of a lock taken with SETNX + EXPIRE, on another machine.\n",
            TTL.as_secs(),
            if (window - 10.0).abs() > 1e-9 {
                " and scaled to 10 s to sit next to the reference figures"
            } else {
                ""
            },
            run.machine.client_cpus,
            run.machine.server_cpus
        );
        let _ = writeln!(md, "Acquisitions in 10 s:\n");
        self.table(md, scale, false);
        let _ = writeln!(md, "\nAttempts in 10 s:\n");
        self.table(md, scale, true);
        if let Some(error) = &self.python_error {
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
    }

    fn targets(&self) -> Vec<Target> {
        let mut targets = Vec::new();
        for (i, clients) in self.clients.iter().enumerate() {
            let acquisitions = |which: usize| -> Vec<f64> {
                self.runs[i][which]
                    .iter()
                    .map(|c| c.acquisitions as f64)
                    .collect()
            };
            if let Some(r) = ratios(&acquisitions(0), &acquisitions(1)) {
                targets.push(Target::ratio(
                    format!(
                        "lock, {clients} client{}: recipe vs hand-written Rust Lua lock, acquisitions",
                        if *clients == 1 { "" } else { "s" }
                    ),
                    "≥ 0.97x",
                    r,
                    0.97,
                    false,
                ));
            }
        }
        targets
    }

    fn plot(&self, run: &Run) -> Option<Plot> {
        let scale = 10.0 / run.options.lock_window.as_secs_f64();
        let series = Variant::ALL
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_python() || self.python_error.is_none())
            .map(|(which, variant)| Series {
                name: variant.short_name().into(),
                points: self
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
                dashed: *variant == Variant::RustLua,
            })
            .collect();
        let chart = Chart {
            title: "One lock, many clients: acquisitions in 10 s".into(),
            x_label: "clients".into(),
            y_label: "acquisitions per 10 s".into(),
            categories: self.clients.iter().map(|c| c.to_string()).collect(),
            series,
        };
        Some(Plot {
            file: "lock.svg",
            alt: "Acquisitions by number of clients",
            svg: line_chart(&chart),
        })
    }
}

impl Results {
    /// The counts per client count (acquisitions, or attempts), scaled to
    /// 10 s, beside the reference figures; acquisitions add the recipe's
    /// ratio.
    fn table(&self, md: &mut String, scale: f64, attempts: bool) {
        let names = Variant::ALL.iter().map(|variant| variant.name().to_owned());
        let ratio_head = (!attempts).then(|| "recipe vs hand-written".to_owned());
        table_head(
            md,
            ["clients", "reference: Lua lock", "reference: SETNX lock"]
                .map(str::to_owned)
                .into_iter()
                .chain(names)
                .chain(ratio_head),
        );
        let scaled = |counts: &[Counts]| -> Vec<f64> {
            counts
                .iter()
                .map(|c| (if attempts { c.attempts } else { c.acquisitions }) as f64 * scale)
                .collect()
        };
        // The reference table: attempts and acquisitions of its SETNX lock, then of its Lua lock.
        let (lua, setnx) = if attempts { (2, 0) } else { (3, 1) };
        for (i, clients) in self.clients.iter().enumerate() {
            let reference = REFERENCE_TABLE
                .iter()
                .find(|(n, _)| n == clients)
                .map(|(_, s)| *s);
            let reference_cell =
                |k: usize| reference.map_or("–".into(), |s| number(s[k] as f64, 0));
            let counts =
                (0..Variant::ALL.len()).map(|which| figure(&scaled(&self.runs[i][which]), 0));
            let recipe = (!attempts)
                .then(|| ratio(ratios(&scaled(&self.runs[i][0]), &scaled(&self.runs[i][1]))));
            table_row(
                md,
                [
                    clients.to_string(),
                    reference_cell(lua),
                    reference_cell(setnx),
                ]
                .into_iter()
                .chain(counts)
                .chain(recipe),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_python_counts_are_read() {
        assert_eq!(
            parse_counts("attempts=12 acquisitions=10 lost=0"),
            Some(Counts {
                attempts: 12,
                acquisitions: 10,
                lost: 0
            })
        );
        assert_eq!(parse_counts("attempts=12 acquisitions=10"), None);
        assert_eq!(parse_counts("attempts=x acquisitions=10 lost=0"), None);
        assert_eq!(parse_counts(""), None);
    }

    #[test]
    fn the_hand_written_lua_means_what_the_recipes_scripts_mean() {
        // The recipe's scripts, without their comments, are these bodies.
        let strip = |source: &str| {
            source
                .lines()
                .filter(|line| !line.trim_start().starts_with("--"))
                .collect::<Vec<_>>()
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let acquire = include_str!("../../scripts/lock_acquire.lua");
        let release = include_str!("../../scripts/lock_release.lua");
        assert_eq!(strip(acquire), ACQUIRE_LUA);
        assert_eq!(
            strip(release),
            RELEASE_LUA.split_whitespace().collect::<Vec<_>>().join(" ")
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
