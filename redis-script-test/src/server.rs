//! One throwaway real `redis-server` (or `valkey-server`).
//!
//! Each [`RedisServer`] is a private child process on a free loopback port,
//! with no persistence and its own temporary directory. Dropping it kills the
//! process and removes the directory, so nothing outlives the test.

use std::fs::{self, File};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redis_script::redis;

use crate::binary::ServerBinary;
use crate::spawn;

/// Spawn attempts before giving up: the free port we picked can be taken by
/// someone else between probing it and the server binding it.
const START_ATTEMPTS: usize = 5;
/// How long one attempt waits for the server to answer PING.
const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// Pauses between readiness probes: short at first (a server is up in a
/// few milliseconds, and every test pays the first pause), doubling to the
/// longest for one that is slow to start.
const FIRST_POLL_INTERVAL: Duration = Duration::from_millis(1);
const POLL_INTERVAL: Duration = Duration::from_millis(20);
/// How long a crash report waits for a server that closed its connections
/// to be gone.
const CRASH_EXIT_WAIT: Duration = Duration::from_secs(2);
/// Lines of the server's logs quoted in a startup panic.
const LOG_TAIL_LINES: usize = 30;

/// Which implementation answers: tests that depend on a server difference
/// (a message, a global, `COMMAND COUNT`) assert each one's own behaviour,
/// and tell versions apart with [`RedisServer::version`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// Redis (the project tests 7.0).
    Redis,
    /// Valkey (the project tests 8.1 and 9.1).
    Valkey,
}

impl std::fmt::Display for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Flavor::Redis => "Redis",
            Flavor::Valkey => "Valkey",
        })
    }
}

/// Makes temp dir names unique within this process (several servers may start
/// in the same nanosecond from parallel tests).
static DIR_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A running `redis-server` child process, private to its owner.
///
/// Listens on `127.0.0.1` only, keeps no data on disk, and is killed (and its
/// temp dir removed) on drop. Keep it alive as long as any connection to it.
pub struct RedisServer {
    /// Behind a lock, so that a test holding a shared reference can
    /// restart the server (the fault helpers take `&self`).
    child: Mutex<Child>,
    /// Set by [`kill`](Self::kill), cleared by a restart: an exit that is
    /// not a crash.
    killed: AtomicBool,
    port: u16,
    dir: PathBuf,
    binary: ServerBinary,
    /// Extra command-line arguments, kept for a restart on the same port.
    args: Vec<String>,
    /// The configuration file, in `dir`, that the server reads first (and
    /// may rewrite, as Sentinel does); `None` for none.
    config: Option<PathBuf>,
    flavor: Flavor,
    /// The version of [`flavor`](Self::flavor), as its `INFO server` says.
    version: String,
}

impl RedisServer {
    /// Starts a fresh server on a free loopback port and waits until it
    /// answers PING.
    ///
    /// # Panics
    ///
    /// If there is no server binary (see [`ServerBinary::find`]), or the server
    /// does not come up (the message then quotes the tail of its log).
    pub fn start() -> RedisServer {
        RedisServer::start_with(&[])
    }

    /// [`start`](Self::start) with extra command-line arguments, such as
    /// `["--replicaof", "127.0.0.1 6379"]` or cluster settings.
    pub fn start_with(args: &[&str]) -> RedisServer {
        RedisServer::start_with_args(|| args.iter().map(|arg| arg.to_string()).collect())
    }

    /// [`start_with`](Self::start_with) with arguments made anew for each
    /// start attempt, so that an attempt lost to a port race also picks any
    /// other port it names afresh (a cluster bus port, say).
    pub fn start_with_args(args: impl Fn() -> Vec<String>) -> RedisServer {
        RedisServer::start_with_config(None, args)
    }

    /// [`start_with_args`](Self::start_with_args) with a configuration file
    /// of the text `config`, written into the server's directory and passed
    /// as its first argument (Sentinel mode needs one, which it rewrites).
    pub fn start_with_config(config: Option<&str>, args: impl Fn() -> Vec<String>) -> RedisServer {
        RedisServer::start_binary(&ServerBinary::find(), config, args)
    }

    /// A fresh server of `binary`, rather than the one the environment
    /// names (see [`ServerBinary::find`]).
    pub fn start_on(binary: &ServerBinary) -> RedisServer {
        RedisServer::start_binary(binary, None, Vec::new)
    }

    /// [`start_with_config`](Self::start_with_config) on `binary`: the form
    /// every other start is.
    pub fn start_binary(
        binary: &ServerBinary,
        config: Option<&str>,
        args: impl Fn() -> Vec<String>,
    ) -> RedisServer {
        let mut last_failure = String::new();
        for attempt in 1..=START_ATTEMPTS {
            let dir = fresh_temp_dir();
            let config = config.map(|text| {
                let path = dir.join("server.conf");
                fs::write(&path, text)
                    .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                path
            });
            let mut server = RedisServer::spawn(binary, free_port(), dir, config, &args());
            match server.wait_ready() {
                Ok((flavor, version)) => {
                    server.flavor = flavor;
                    server.version = version;
                    return server;
                }
                // Most likely lost the port race: retry on a new port.
                Err(failure) => last_failure = server.describe(failure, attempt),
            }
        }
        panic!("could not start {binary} after {START_ATTEMPTS} attempts; last: {last_failure}");
    }

    /// Kills the server process (as a crash would: no shutdown, nothing
    /// saved), keeping its port and directory for
    /// [`start_again`](Self::start_again).
    pub fn kill(&self) {
        self.killed.store(true, Ordering::SeqCst);
        let mut child = self.child();
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Starts a killed server again on the same port, with the same
    /// arguments, and waits until it answers. Without persistence its data
    /// and script cache are gone.
    pub fn start_again(&self) {
        // A server still running (not killed first) would hold the port.
        self.kill();
        let mut last_failure = String::new();
        for attempt in 1..=START_ATTEMPTS {
            *self.child() = launch(
                self.binary.path(),
                self.port,
                &self.dir,
                self.config.as_deref(),
                &self.args,
            );
            self.killed.store(false, Ordering::SeqCst);
            match self.wait_ready() {
                Ok(_) => return,
                // The old socket may still hold the port for a moment.
                Err(failure) => {
                    last_failure = self.describe(failure, attempt);
                    thread::sleep(Duration::from_millis(200));
                }
            }
        }
        panic!(
            "could not restart the server on port {}: {last_failure}",
            self.port
        );
    }

    /// Which server this is, as its `INFO server` says.
    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// The server's own version, as its `INFO server` says: `redis_version`
    /// for Redis (`7.0.15`), `valkey_version` for Valkey (`9.1.2`; Valkey's
    /// `redis_version` is the Redis it is compatible with, `7.2.4`); empty
    /// if INFO has no such field.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The binary this server runs.
    pub fn binary(&self) -> &ServerBinary {
        &self.binary
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child().id()
    }

    /// The role the server reports (`master`, `slave`, `sentinel`), `None`
    /// if it does not answer within a second (as while it restarts its
    /// replication).
    pub fn role(&self) -> Option<String> {
        let mut con = self
            .client()
            .get_connection_with_timeout(Duration::from_secs(1))
            .ok()?;
        let _ = con.set_read_timeout(Some(Duration::from_secs(1)));
        let role: Vec<redis::Value> = redis::cmd("ROLE").query(&mut con).ok()?;
        match role.first() {
            Some(redis::Value::BulkString(name)) => String::from_utf8(name.clone()).ok(),
            _ => None,
        }
    }

    /// If the server has exited without being [`kill`](Self::kill)ed (it
    /// crashed, or was killed from outside), how, with the tail of its log:
    /// what a failed test reports.
    pub fn crash_report(&self) -> Option<String> {
        if self.killed.load(Ordering::SeqCst) {
            return None;
        }
        // A client can see the connection close before the process is gone.
        let deadline = Instant::now() + CRASH_EXIT_WAIT;
        let status = loop {
            match self.child().try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => thread::sleep(FIRST_POLL_INTERVAL),
                _ => return None,
            }
        };
        Some(format!(
            "{} on port {} exited during the test ({status})\n{}",
            self.binary,
            self.port,
            self.log_tail()
        ))
    }

    /// Runs `f` with the pid of the server process while it runs and cannot
    /// be reaped (the child's lock is held); `None` if it is not running.
    pub(crate) fn with_running_child<T>(&self, f: impl FnOnce(u32) -> T) -> Option<T> {
        let mut child = self.child();
        match child.try_wait() {
            Ok(None) => Some(f(child.id())),
            _ => None,
        }
    }

    /// Kills the server and removes its directory now, rather than when it
    /// is dropped: for a test that ran out of time, whose thread may never
    /// drop it.
    pub(crate) fn discard(&self) {
        self.kill();
        let _ = fs::remove_dir_all(&self.dir);
    }

    fn child(&self) -> MutexGuard<'_, Child> {
        self.child
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The TCP port the server listens on (on `127.0.0.1`).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Connection URL using the default protocol (RESP2).
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Connection URL that negotiates RESP3 (`HELLO 3`) on connect.
    pub fn url_resp3(&self) -> String {
        format!("redis://127.0.0.1:{}/?protocol=resp3", self.port)
    }

    /// A client for [`url`](Self::url) (RESP2).
    pub fn client(&self) -> redis::Client {
        redis::Client::open(self.url()).expect("test server URL is valid")
    }

    /// A client for [`url_resp3`](Self::url_resp3) (RESP3).
    pub fn client_resp3(&self) -> redis::Client {
        redis::Client::open(self.url_resp3()).expect("test server URL is valid")
    }

    /// A multiplexed async connection to this server.
    pub async fn multiplexed(&self) -> redis::aio::MultiplexedConnection {
        self.client()
            .get_multiplexed_async_connection()
            .await
            .unwrap()
    }

    /// A new synchronous RESP2 connection.
    ///
    /// # Panics
    ///
    /// If the server cannot be reached.
    pub fn connection(&self) -> redis::Connection {
        self.client().get_connection().unwrap_or_else(|e| {
            panic!("cannot connect to test redis-server at {}: {e}", self.url())
        })
    }

    /// Launches one server in `dir` on `port`. The result owns both at once,
    /// so its `Drop` cleans up even if a later step panics.
    fn spawn(
        binary: &ServerBinary,
        port: u16,
        dir: PathBuf,
        config: Option<PathBuf>,
        args: &[String],
    ) -> RedisServer {
        let child = launch(binary.path(), port, &dir, config.as_deref(), args);
        RedisServer {
            child: Mutex::new(child),
            killed: AtomicBool::new(false),
            port,
            dir,
            binary: binary.clone(),
            args: args.to_vec(),
            config,
            flavor: Flavor::Redis,
            version: String::new(),
        }
    }

    /// Why an attempt failed, for the panic message; kills a server that
    /// hangs, so that the next attempt does not race with it.
    fn describe(&self, failure: Failure, attempt: usize) -> String {
        let what = match failure {
            Failure::Exited(status) => format!("exited early ({status})"),
            Failure::TimedOut => {
                self.kill();
                format!("did not answer PING within {READY_TIMEOUT:?}")
            }
        };
        format!(
            "attempt {attempt}/{START_ATTEMPTS}: {} on port {} {what}\n{}",
            self.binary.path().display(),
            self.port,
            self.log_tail()
        )
    }

    /// Polls until the server answers PING, it exits, or the timeout passes.
    fn wait_ready(&self) -> Result<(Flavor, String), Failure> {
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut pause = FIRST_POLL_INTERVAL;
        loop {
            if let Ok(Some(status)) = self.child().try_wait() {
                return Err(Failure::Exited(status));
            }
            if let Some(identity) = self.answers_as_ours() {
                return Ok(identity);
            }
            if Instant::now() >= deadline {
                return Err(Failure::TimedOut);
            }
            thread::sleep(pause);
            pause = (pause * 2).min(POLL_INTERVAL);
        }
    }

    /// Which server answers, and its version, once PING answers *and* the
    /// answering server is our child: after a lost port race another server
    /// could answer briefly before ours exits.
    fn answers_as_ours(&self) -> Option<(Flavor, String)> {
        let mut con = self
            .client()
            .get_connection_with_timeout(Duration::from_millis(500))
            .ok()?;
        let _ = con.set_read_timeout(Some(Duration::from_secs(1)));
        redis::cmd("PING").query::<String>(&mut con).ok()?;
        let info: String = redis::cmd("INFO").arg("server").query(&mut con).ok()?;
        let field = |name: &str| {
            info.lines()
                .find_map(|line| line.trim().strip_prefix(name)?.strip_prefix(':'))
                .map(str::to_owned)
        };
        if field("process_id") != Some(self.pid().to_string()) {
            return None;
        }
        let (flavor, version) = if field("server_name").as_deref() == Some("valkey") {
            (Flavor::Valkey, field("valkey_version"))
        } else {
            (Flavor::Redis, field("redis_version"))
        };
        Some((flavor, version.unwrap_or_default()))
    }

    /// The last lines of the server's log file and console output.
    fn log_tail(&self) -> String {
        let mut out = String::new();
        for name in ["redis.log", "console.log"] {
            let path = self.dir.join(name);
            let text = fs::read_to_string(&path).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            // A crash report begins with the signal and goes on with a
            // memory test: quote its beginning, else the log's end.
            let start = lines
                .iter()
                .rposition(|line| line.contains("crashed by signal"))
                .unwrap_or(lines.len().saturating_sub(LOG_TAIL_LINES));
            let quoted = &lines[start..lines.len().min(start + LOG_TAIL_LINES)];
            // File name only: the temp dir is gone by the time a panic prints.
            out.push_str(&format!(
                "--- {name} (lines {} to {} of {})\n",
                start + 1,
                start + quoted.len(),
                lines.len()
            ));
            for line in quoted {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

impl Drop for RedisServer {
    /// Kills the server (SIGKILL is fine: there is nothing to persist), reaps
    /// it so no zombie remains, and removes its temp dir.
    fn drop(&mut self) {
        let child = self
            .child
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = child.kill();
        let _ = child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// For examples: a client of the server `REDIS_URL` names, if it is set
/// (and non-empty); otherwise of a throwaway server started here.
///
/// Returns the server (if one was started) beside the client. The caller
/// must keep the `Option<RedisServer>` alive while using the client:
/// dropping it stops the server. Fails if `REDIS_URL` is not a Redis URL.
pub fn client_from_env_or_start() -> redis::RedisResult<(Option<RedisServer>, redis::Client)> {
    match std::env::var("REDIS_URL") {
        Ok(url) if !url.is_empty() => Ok((None, redis::Client::open(url)?)),
        _ => {
            let server = RedisServer::start();
            let client = server.client();
            Ok((Some(server), client))
        }
    }
}

/// Why one startup attempt failed.
enum Failure {
    /// The child exited before answering PING (usually: port already taken).
    Exited(ExitStatus),
    /// The child kept running but never answered PING.
    TimedOut,
}

/// Starts the server process: loopback only, nothing on disk, in the
/// foreground; reading `config` first if given (the server takes a
/// configuration file only as its first argument).
fn launch(binary: &Path, port: u16, dir: &Path, config: Option<&Path>, args: &[String]) -> Child {
    // Fatal config errors go to stderr before the log file is opened:
    // capture the console too, so a panic can quote it.
    let console = File::options()
        .create(true)
        .append(true)
        .open(dir.join("console.log"))
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let console_err = console.try_clone().expect("clone console log handle");
    let mut command = Command::new(binary);
    command
        .args(config)
        .arg("--port")
        .arg(port.to_string())
        .args(["--bind", "127.0.0.1", "--protected-mode", "yes"])
        // No RDB snapshots and no AOF: nothing should ever touch disk.
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        // Stay in the foreground so we own (and can kill) the process.
        .args(["--daemonize", "no"])
        .arg("--logfile")
        .arg(dir.join("redis.log"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(console)
        .stderr(console_err);
    spawn::spawn(command).unwrap_or_else(|e| {
        let _ = fs::remove_dir_all(dir);
        panic!("cannot spawn {}: {e}", binary.display())
    })
}

/// Asks the OS for a free loopback port. The listener is dropped before the
/// server binds, so the port can be lost to a race; `start` retries for that.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0 to find a free port");
    listener
        .local_addr()
        .expect("local address of probe listener")
        .port()
}

/// Creates `<temp>/redis-script-test-<pid>-<counter>-<nanos>`: unique across
/// processes (pid), threads (counter) and runs (nanos).
fn fresh_temp_dir() -> PathBuf {
    let counter = DIR_COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "redis-script-test-{}-{counter}-{nanos}",
        std::process::id()
    ));
    // `create_dir` (not `_all`) fails if it already exists: it must be fresh.
    fs::create_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot create temp dir {}: {e}", dir.display()));
    dir
}
