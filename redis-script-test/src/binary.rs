//! Which server binary a test runs: found once per start, and named in
//! every failure.
//!
//! The order is [`SERVER_ENV`] (`REDIS_SCRIPT_SERVER`: a path, or a command
//! on `PATH`), then `redis-server` and `valkey-server` on `PATH`, then, with
//! the feature `bundled`, the Valkey built from vendored source. A test
//! never skips for want of a server: [`ServerBinary::find`] panics with the
//! ways to get one. [`SERVERS_ENV`] (`REDIS_SCRIPT_SERVERS`) lists several,
//! and each `#[redis_script::test]` then runs once on each.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable that chooses the server binary: a path, or a
/// command name looked up on `PATH`.
pub const SERVER_ENV: &str = "REDIS_SCRIPT_SERVER";

/// The environment variable that lists the servers every
/// `#[redis_script::test]` runs on, one run each, separated as `PATH` is
/// (`:` on Unix): `REDIS_SCRIPT_SERVERS=redis-server:/opt/valkey/bin/valkey-server`.
/// Set, it takes the place of [`SERVER_ENV`] for those tests.
pub const SERVERS_ENV: &str = "REDIS_SCRIPT_SERVERS";

/// The command names looked for on `PATH` when [`SERVER_ENV`] is unset, in
/// this order.
const ON_PATH: [&str; 2] = ["redis-server", "valkey-server"];

/// A server binary, and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerBinary {
    path: PathBuf,
    origin: Origin,
}

/// Where a [`ServerBinary`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Named by [`SERVER_ENV`].
    ServerEnv,
    /// Listed in [`SERVERS_ENV`].
    ServersEnv,
    /// Found on `PATH`.
    Path,
    /// Built from the source vendored with the feature `bundled`.
    Bundled,
    /// Given by the caller ([`ServerBinary::at`]).
    Given,
}

impl ServerBinary {
    /// The server [`SERVER_ENV`] names, else `redis-server` or
    /// `valkey-server` on `PATH`, else (with the feature `bundled`) the
    /// Valkey built from vendored source.
    ///
    /// # Panics
    ///
    /// If there is none, with a message that says how to get one: tests
    /// need a real server, and a test without one fails rather than skips.
    pub fn find() -> ServerBinary {
        match env_value(SERVER_ENV) {
            Some(name) => ServerBinary::resolve(&name, Origin::ServerEnv).unwrap_or_else(|| {
                panic!(
                    "{SERVER_ENV}={} is not a server binary (a path, or a command on PATH)",
                    name.to_string_lossy()
                )
            }),
            None => ON_PATH
                .iter()
                .find_map(|name| ServerBinary::resolve(name.as_ref(), Origin::Path))
                .or_else(bundled)
                .unwrap_or_else(|| panic!("{}", no_server_message())),
        }
    }

    /// The servers each `#[redis_script::test]` runs on: those
    /// [`SERVERS_ENV`] lists, else the one [`find`](Self::find) finds.
    ///
    /// # Panics
    ///
    /// As [`find`](Self::find), or if an entry of the list is not a server
    /// binary.
    pub fn matrix() -> Vec<ServerBinary> {
        let Some(list) = env_value(SERVERS_ENV) else {
            return vec![ServerBinary::find()];
        };
        let binaries: Vec<ServerBinary> = std::env::split_paths(&list)
            .filter(|entry| !entry.as_os_str().is_empty())
            .map(|entry| {
                ServerBinary::resolve(entry.as_os_str(), Origin::ServersEnv).unwrap_or_else(|| {
                    panic!(
                        "{SERVERS_ENV} lists {}, which is not a server binary \
                         (each entry is a path, or a command on PATH)",
                        entry.display()
                    )
                })
            })
            .collect();
        // Else every test would pass having run nowhere.
        assert!(
            !binaries.is_empty(),
            "{SERVERS_ENV}={} lists no server (entries are separated as in PATH)",
            list.to_string_lossy()
        );
        binaries
    }

    /// The binary at `path`, as the caller names it.
    pub fn at(path: impl Into<PathBuf>) -> ServerBinary {
        ServerBinary {
            path: path.into(),
            origin: Origin::Given,
        }
    }

    /// The binary's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where it was found.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The CLI that comes with the server: `redis-cli` beside
    /// `redis-server`, `valkey-cli` beside `valkey-server` (cluster set-ups
    /// are joined with it).
    ///
    /// # Panics
    ///
    /// If it is not there.
    pub fn cli(&self) -> PathBuf {
        let cli = self.companion("cli");
        assert!(
            cli.is_file(),
            "{} not found beside {}: a cluster is joined with the server's own CLI",
            cli.display(),
            self.path.display()
        );
        cli
    }

    /// The path of the server's companion program `tool` beside it, as its
    /// distribution names them: `redis-benchmark` for `benchmark` beside
    /// `redis-server`, `valkey-benchmark` beside `valkey-server`. It may
    /// not exist.
    pub fn companion(&self, tool: &str) -> PathBuf {
        let name = self
            .path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("redis-server")
            .replace("-server", &format!("-{tool}"));
        self.path.with_file_name(name)
    }

    /// `name` as a path (if it has a directory part) or a command on `PATH`.
    fn resolve(name: &std::ffi::OsStr, origin: Origin) -> Option<ServerBinary> {
        let path = PathBuf::from(name);
        let found = if path.components().count() > 1 {
            Some(path).filter(|path| path.is_file())
        } else {
            std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        };
        found.map(|path| ServerBinary { path, origin })
    }
}

impl fmt::Display for ServerBinary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origin = match self.origin {
            Origin::ServerEnv => SERVER_ENV,
            Origin::ServersEnv => SERVERS_ENV,
            Origin::Path => "PATH",
            Origin::Bundled => "the bundled build",
            Origin::Given => "given",
        };
        write!(f, "{} (from {origin})", self.path.display())
    }
}

/// A variable's value, unset when empty.
fn env_value(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|value| !value.is_empty())
}

/// The Valkey built from vendored source, if the feature is on.
#[cfg(feature = "bundled")]
fn bundled() -> Option<ServerBinary> {
    let path = redis_script_bundled_valkey::server();
    assert!(
        path.is_file(),
        "the bundled Valkey server is missing at {}: it is built with the crate \
         redis-script-bundled-valkey; build it again (`cargo clean -p \
         redis-script-bundled-valkey`, then the tests)",
        path.display()
    );
    Some(ServerBinary {
        path: path.to_path_buf(),
        origin: Origin::Bundled,
    })
}

#[cfg(not(feature = "bundled"))]
fn bundled() -> Option<ServerBinary> {
    None
}

/// What a test without a server says.
fn no_server_message() -> String {
    format!(
        "no Redis or Valkey server found: the test starts a real one, and \
         neither redis-server nor valkey-server is on PATH. Install one \
         (`apt-get install redis-server` or `apt-get install valkey-server` on \
         Debian and Ubuntu, `brew install redis` or `brew install valkey` on \
         macOS), name a binary in {SERVER_ENV}=/path/to/redis-server, or turn on \
         the feature `bundled` of redis-script-test, which builds Valkey from \
         source (needs make and a C compiler)."
    )
}
