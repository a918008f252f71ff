//! The test crate as a user adds it: a crate outside the workspace whose
//! only change is one `cargo add --dev redis-script-test` line, testing its
//! own script with `#[redis_script::test]`; and what its test binary
//! leaves behind when a test panics, hangs or is stopped.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::probe::{ProbeCrate, REDIS_FEATURE, repo};

const VISIT_LUA: &str = "return redis.call('INCR', KEYS[1])\n";

const FIXTURE: &str = "# The page had 41 visits.\nSET page:home 41\n";

/// The user's tests: sync, async, a cluster, a fixture, a fault helper, a
/// test that names its server (for the matrix), and the tests that fail
/// or hang on purpose (ignored unless asked for).
const TESTS_RS: &str = r#"
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use redis_script::redis;
use redis_script_test::RedisServer;

#[redis_script::redis_script(file = "lua/visit.lua", keys = 1)]
fn visit(page: &str) -> i64;

#[redis_script::test]
fn sync_test(con: &mut redis::Connection) {
    assert_eq!(visit("page:home").invoke(con).unwrap(), 1);
}

#[redis_script::test]
async fn async_test(mut con: redis::aio::MultiplexedConnection) {
    assert_eq!(visit("page:home").invoke_async(&mut con).await.unwrap(), 1);
}

#[redis_script::test(cluster)]
fn cluster_test(con: &mut redis::cluster::ClusterConnection) {
    for page in ["page:a", "page:b", "page:c"] {
        assert_eq!(visit(page).invoke(con).unwrap(), 1);
    }
}

#[redis_script::test(fixtures("tests/visits.redis"))]
fn fixture_test(con: &mut redis::Connection) {
    assert_eq!(visit("page:home").invoke(con).unwrap(), 42);
}

#[redis_script::test]
fn fault_test(server: &RedisServer, con: &mut redis::Connection) {
    visit("page:home").invoke(con).unwrap();
    server.flush_scripts();
    assert_eq!(visit("page:home").invoke(con).unwrap(), 2);
    server.restart();
    let mut con = server.connection();
    assert_eq!(visit("page:home").invoke(&mut con).unwrap(), 1);
}

#[redis_script::test]
fn names_its_server(server: &RedisServer) {
    println!("MATRIX {}", server.binary().path().display());
}

static RUNS: AtomicUsize = AtomicUsize::new(0);

#[redis_script::test]
#[ignore]
fn fails_on_the_second_run(_server: &RedisServer) {
    assert_eq!(RUNS.fetch_add(1, Ordering::SeqCst), 0, "the second run fails");
}

#[redis_script::test]
#[ignore]
fn panics_with_a_server(server: &RedisServer) {
    println!("SERVER PID {}", server.pid());
    panic!("on purpose");
}

#[redis_script::test(timeout_secs = 1)]
#[ignore]
fn hangs_past_its_timeout(server: &RedisServer) {
    println!("SERVER PID {}", server.pid());
    std::thread::sleep(Duration::from_secs(3600));
}

#[redis_script::test]
#[ignore]
fn z_waits(server: &RedisServer) {
    println!("WAITING {}", server.pid());
    std::thread::sleep(Duration::from_secs(3600));
}

#[redis_script::test]
#[ignore]
fn hangs(server: &RedisServer) {
    println!("SERVER PID {}", server.pid());
    std::thread::sleep(Duration::from_secs(3600));
}
"#;

/// The server this run tests on, for the probe's tests: the probe has no
/// bundled build of its own, and a machine may have no server on PATH.
fn this_server() -> PathBuf {
    redis_script_test::ServerBinary::find().path().to_path_buf()
}

/// `cargo <command>` on the probe, its tests on this run's server.
fn cargo(probe: &ProbeCrate, command: &str) -> Command {
    let mut cargo = probe.command(command, true);
    cargo.env("REDIS_SCRIPT_SERVER", this_server());
    cargo
}

/// The probe crate, its dev-dependency added as a user adds it.
fn probe() -> ProbeCrate {
    let probe = ProbeCrate::new("test-crate-probe", "fn main() {}\n");
    probe.write("lua/visit.lua", VISIT_LUA);
    probe.write("tests/visits.redis", FIXTURE);
    probe.write("tests/scripts.rs", TESTS_RS);
    let mut add = probe.command("add", true);
    add.args(["--dev", "--path"])
        .arg(repo().join("redis-script-test"));
    if REDIS_FEATURE == "redis-2" {
        add.args(["--no-default-features", "--features", "redis-2"]);
    }
    let added = add.output().unwrap();
    assert!(added.status.success(), "cargo add --dev: {}", text(&added));
    let manifest = std::fs::read_to_string(probe.path("Cargo.toml")).unwrap();
    let added_lines: Vec<&str> = manifest
        .lines()
        .filter(|line| !probe.manifest().lines().any(|old| old == *line))
        .filter(|line| !line.trim().is_empty())
        .collect();
    assert_eq!(
        added_lines.len(),
        2,
        "cargo add wrote a [dev-dependencies] table of one line: {added_lines:?}"
    );
    probe
}

/// The probe's test binary, built.
fn test_binary(probe: &ProbeCrate) -> PathBuf {
    let built = probe
        .command("test", true)
        .args(["--test", "scripts", "--no-run", "--message-format=json"])
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "building the probe's tests: {}",
        text(&built)
    );
    String::from_utf8_lossy(&built.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == "scripts")
        .find_map(|message| Some(PathBuf::from(message["executable"].as_str()?)))
        .expect("cargo names the test executable")
}

fn text(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A second server for the matrix: another binary than this run's if the
/// machine has one on PATH, else the same one again.
fn matrix() -> [PathBuf; 2] {
    let first = this_server();
    let second = ["redis-server", "valkey-server"]
        .iter()
        .filter_map(|name| {
            std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|dir| dir.join(name))
                .find(|path| path.is_file())
        })
        .find(|path| *path != first)
        .unwrap_or_else(|| first.clone());
    [first, second]
}

#[test]
fn a_crate_with_one_cargo_add_line_tests_its_script_on_every_server() {
    let probe = probe();

    let all = cargo(&probe, "test").output().unwrap();
    let output = text(&all);
    assert!(all.status.success(), "{output}");
    assert!(output.contains("test result: ok. 6 passed"), "{output}");

    // A matrix of two: each test once on each, and every run named.
    let [first, second] = matrix();
    let servers = std::env::join_paths([&first, &second]).unwrap();
    let matrix_run = cargo(&probe, "test")
        .args(["--test", "scripts", "names_its_server", "--", "--nocapture"])
        .env("REDIS_SCRIPT_SERVERS", &servers)
        .output()
        .unwrap();
    let output = text(&matrix_run);
    assert!(matrix_run.status.success(), "{output}");
    let named: Vec<&str> = output
        .lines()
        .filter(|l| l.starts_with("MATRIX "))
        .collect();
    assert_eq!(
        named,
        [
            format!("MATRIX {}", first.display()),
            format!("MATRIX {}", second.display())
        ],
        "{output}"
    );

    // A failure on one server of the matrix names that one.
    let failing = cargo(&probe, "test")
        .args([
            "--test",
            "scripts",
            "fails_on_the_second_run",
            "--",
            "--ignored",
        ])
        .env("REDIS_SCRIPT_SERVERS", &servers)
        .output()
        .unwrap();
    let output = text(&failing);
    assert!(!failing.status.success(), "{output}");
    let failures: Vec<&str> = output
        .lines()
        .filter(|line| line.starts_with("fails_on_the_second_run failed on "))
        .collect();
    assert_eq!(failures.len(), 1, "{output}");
    let named = format!("{} (from REDIS_SCRIPT_SERVERS): ", second.display());
    assert!(
        failures[0].contains(&named),
        "missing {named:?} in {:?}",
        failures[0]
    );
    assert!(
        failures[0].ends_with("the second run fails"),
        "{:?}",
        failures[0]
    );
}

/// Runs the probe's test binary on the tests `args` select, its servers'
/// directories under a temporary directory of its own, and returns the
/// output and that directory (each server's command line names it).
fn run_marked(binary: &Path, args: &[&str], envs: &[(&str, &str)]) -> (Output, Marker) {
    let marker = Marker::new();
    let mut command = Command::new(binary);
    command
        .args(args)
        .env("TMPDIR", &marker.dir)
        .env("REDIS_SCRIPT_SERVER", this_server());
    for (name, value) in envs {
        command.env(name, value);
    }
    (command.output().unwrap(), marker)
}

/// A temporary directory whose path marks the servers started under it.
struct Marker {
    dir: PathBuf,
}

impl Marker {
    fn new() -> Marker {
        let dir = std::env::temp_dir().join(format!(
            "redis-script-leftover-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ rand_bits()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Marker { dir }
    }

    /// The processes whose environment names the marker: the test binary
    /// (its TMPDIR) and the servers it started.
    fn processes(&self) -> BTreeSet<u32> {
        let needle = self.dir.to_string_lossy().into_owned();
        pids()
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|bytes| String::from_utf8_lossy(&bytes).contains(&needle))
            })
            .collect()
    }

    /// The servers started under the marker that still run: those whose
    /// working directory (the server's `--dir`) is in it. (A server
    /// rewrites its command line to its title, `redis-server 127.0.0.1:port`.)
    fn servers(&self) -> BTreeSet<u32> {
        pids()
            .filter(|pid| {
                std::fs::read_link(format!("/proc/{pid}/cwd"))
                    .is_ok_and(|cwd| cwd.starts_with(&self.dir))
            })
            .collect()
    }

    /// Waits, bounded, until no server of the marker runs.
    fn wait_no_servers(&self, within: Duration) -> BTreeSet<u32> {
        let deadline = Instant::now() + within;
        loop {
            let left = self.servers();
            if left.is_empty() || Instant::now() >= deadline {
                return left;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        // An orphaned test binary (its cargo stopped) still sleeps: end it.
        for pid in self.processes() {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pids() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
}

fn rand_bits() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// What `output` prints up to the end of the first line that contains
/// `needle`, waiting at most two minutes (a build may come first).
fn read_until(output: impl std::io::Read + Send + 'static, needle: &str) -> String {
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            if lines.send(line.unwrap_or_default()).is_err() {
                return;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = String::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
                if line.contains(needle) {
                    return seen;
                }
            }
            Err(_) => panic!("no {needle:?} within 2 minutes; the output so far:\n{seen}"),
        }
    }
}

/// The pids the probe's tests printed for their servers.
fn printed_pids(output: &str) -> Vec<u32> {
    output
        .lines()
        // libtest prints a test's output after its `test name ... `.
        .filter_map(|line| line.split("SERVER PID ").nth(1)?.trim().parse().ok())
        .collect()
}

#[test]
fn no_server_outlives_a_panicking_a_timed_out_or_a_stopped_test() {
    let probe = probe();
    let binary = test_binary(&probe);

    // A panicking test, then one that outlives its timeout, then one that
    // waits: when the third starts, the first two's servers must be gone
    // while their process still runs (so neither the process's end nor the
    // kernel's PR_SET_PDEATHSIG took them).
    let marker = Marker::new();
    let started = Instant::now();
    let mut run = Command::new(&binary)
        .args(["--ignored", "--test-threads=1", "--exact", "--nocapture"])
        .args(["hangs_past_its_timeout", "panics_with_a_server", "z_waits"])
        .env("TMPDIR", &marker.dir)
        .env("REDIS_SCRIPT_SERVER", this_server())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let seen = read_until(run.stdout.take().unwrap(), "WAITING");
    let pids = printed_pids(&seen);
    assert_eq!(pids.len(), 2, "{seen}");
    assert!(
        run.try_wait().unwrap().is_none(),
        "the test process still runs"
    );
    let waiting: u32 = seen
        .lines()
        .find_map(|line| line.split("WAITING ").nth(1)?.trim().parse().ok())
        .expect("the waiting test prints its server's pid");
    assert_eq!(
        marker.servers(),
        BTreeSet::from([waiting]),
        "after a panic and a timeout, only the waiting test's server runs:\n{seen}"
    );
    eprintln!("panic and timeout handled after {:?}", started.elapsed());
    let _ = run.kill();
    run.wait().unwrap();

    // `cargo test` stopped with SIGTERM while a test holds a server: Cargo
    // does not pass the signal on, and its test binary goes on as an
    // orphan, whose servers must still go.
    let marker = Marker::new();
    let mut cargo = cargo(&probe, "test")
        .args([
            "--test",
            "scripts",
            "--",
            "--ignored",
            "--exact",
            "hangs",
            "--nocapture",
        ])
        .env("TMPDIR", &marker.dir)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(marker.dir.join("cargo-stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    let stderr_file = marker.dir.join("cargo-stderr.txt");
    let seen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        read_until(cargo.stdout.take().unwrap(), "SERVER PID ")
    }))
    .unwrap_or_else(|_| {
        let stderr = std::fs::read_to_string(&stderr_file).unwrap_or_default();
        panic!("cargo test's stderr:\n{stderr}")
    });
    let pid = printed_pids(&seen)[0];
    assert!(
        marker.servers().contains(&pid),
        "the server runs while the test does"
    );
    let stopped = Command::new("kill")
        .args(["-TERM", &cargo.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    cargo.wait().unwrap();
    let left = marker.wait_no_servers(Duration::from_secs(10));
    assert_eq!(
        left,
        BTreeSet::new(),
        "servers left after cargo test was stopped"
    );
}

#[test]
fn one_process_per_test_as_nextest_runs_them_each_passes_and_leaves_nothing() {
    let probe = probe();
    let binary = test_binary(&probe);
    let list = |args: &[&str]| -> BTreeSet<String> {
        let listed = Command::new(&binary).args(args).output().unwrap();
        String::from_utf8_lossy(&listed.stdout)
            .lines()
            .filter_map(|line| line.strip_suffix(": test").map(str::to_owned))
            .collect()
    };
    let ignored = list(&["--list", "--format", "terse", "--ignored"]);
    let tests: Vec<String> = list(&["--list", "--format", "terse"])
        .difference(&ignored)
        .cloned()
        .collect();
    assert_eq!(tests.len(), 6, "{tests:?}");
    for test in &tests {
        let (run, marker) = run_marked(&binary, &["--exact", test], &[]);
        assert!(run.status.success(), "{test}: {}", text(&run));
        assert_eq!(
            marker.wait_no_servers(Duration::ZERO),
            BTreeSet::new(),
            "{test}"
        );
    }
}

#[test]
fn a_test_without_a_server_fails_and_says_how_to_get_one() {
    let probe = probe();
    let binary = test_binary(&probe);

    let mut command = Command::new(&binary);
    command
        .args(["--exact", "sync_test"])
        .env("PATH", "/nonexistent")
        .env_remove("REDIS_SCRIPT_SERVER")
        .env_remove("REDIS_SCRIPT_SERVERS");
    let none = command.output().unwrap();
    let output = text(&none);
    assert!(!none.status.success(), "{output}");
    for expected in [
        "no Redis or Valkey server found",
        "apt-get install redis-server",
        "REDIS_SCRIPT_SERVER=/path/to/redis-server",
    ] {
        assert!(
            output.contains(expected),
            "missing {expected:?} in:\n{output}"
        );
    }

    // A server that exits at start: its own words are in the failure.
    let fake = probe.path("bin/fake-server");
    probe.write(
        "bin/fake-server",
        "#!/bin/sh\necho '*** FATAL CONFIG FILE ERROR (from the fake server)' >&2\nexit 1\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (refused, _marker) = run_marked(
        &binary,
        &["--exact", "sync_test"],
        &[("REDIS_SCRIPT_SERVER", fake.to_str().unwrap())],
    );
    let output = text(&refused);
    assert!(!refused.status.success(), "{output}");
    for expected in [
        "sync_test: no server for it",
        "exited early (exit status: 1)",
        "FATAL CONFIG FILE ERROR (from the fake server)",
        "(from REDIS_SCRIPT_SERVER)",
    ] {
        assert!(
            output.contains(expected),
            "missing {expected:?} in:\n{output}"
        );
    }
}

const BAD_PARAMETERS_RS: &str = r#"
use redis_script::redis;

#[redis_script::test]
fn sync_test_with_an_async_connection(_con: redis::aio::MultiplexedConnection) {}

#[redis_script::test]
async fn async_test_with_a_string(_name: String) {}
"#;

/// In a test build (where `#[test]` functions exist) a parameter the
/// harness cannot make is a compile error at its type, naming it and what
/// a test can take instead.
#[test]
fn a_parameter_the_harness_cannot_make_is_a_compile_error() {
    let probe = probe();
    probe.write("tests/bad.rs", BAD_PARAMETERS_RS);
    let built = probe
        .command("test", true)
        .args(["--test", "bad", "--no-run"])
        .output()
        .unwrap();
    let output = text(&built);
    assert!(!built.status.success(), "{output}");
    for expected in [
        "a synchronous `#[redis_script::test]` cannot take a `MultiplexedConnection`",
        "async connections need an `async fn` test",
        "tests/bad.rs:5:45",
        "an async `#[redis_script::test]` cannot take a `std::string::String`",
        "tests/bad.rs:8:42",
    ] {
        assert!(
            output.contains(expected),
            "missing {expected:?} in:\n{output}"
        );
    }
}
