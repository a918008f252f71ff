//! The Redis command tables: name, arity, flags and key positions of every
//! command, subcommands included, as each server's `COMMAND` reports them.
//!
//! The table itself is generated, one file for every server
//! (`commands/table.rs`: a row per form a name takes, with the servers
//! that give it), by `cargo xtask codegen`, which needs no server, from the
//! servers' stored specifications (`specs/`; `cargo xtask codegen --check`
//! says whether the file is current). Servers with a binary at hand
//! (Redis 7.0 and 8.2, Valkey 8.1 and 9.1) have their `COMMAND` stored
//! from it (the test `capture` in the repository's
//! `tests/integration/analyzer/tables.rs`, with `REDIS_SCRIPT_REGENERATE=1`,
//! reads the server that `REDIS_SCRIPT_SERVER` names);
//! the releases between (Redis 7.2, 7.4 and 8.0, Valkey 8.0) are derived
//! from the newest one's `COMMAND` and `COMMAND DOCS` (the repository's
//! `xtask/src/derive.rs`): a command is there if
//! its `since` is, an argument added later leaves the arity it changed, and
//! the few changes the documentation does not record are listed there. The
//! derivation is checked where a binary exists: Redis 7.0 derived from 8.2's
//! data equals the table read from 7.0, Valkey 8.1 derived from 9.1's equals
//! 8.1's. The test `table_matches_installed_server` compares the table of
//! whichever server runs with that server on every `cargo test --workspace`.
//! This file is hand-written: the types, lookups in the table of one
//! [`Server`], and the facts about commands that `COMMAND` does not report.
//! The facts each server adds (its words for a refused call, what it refuses
//! in a read-only script) are in its [`Profile`](crate::servers::Profile);
//! what a command replies is [`crate::replies`]'s; the words of a
//! command's arguments (`SET`'s `NX`, `EX`) come from [`options()`].
//!
//! # How a script's `redis.call(name, arg1, ...)` is checked (Redis 7.0)
//!
//! Tried on redis-server 7.0.15 (`script.c`, `scriptCall`), in this order:
//! 1. Lookup: `name`, in any case, names a command; a name with `|` never
//!    does (`redis.call('config|get', ...)` is unknown). If that command has
//!    subcommands and the call has a further argument, `arg1` (any case)
//!    picks the subcommand. Nothing found: "Unknown Redis command called from
//!    script" (also for `redis.call('config', 'nosuch')`). [`resolve`] does
//!    this lookup.
//! 2. Arity of the command found, counting the name and the subcommand:
//!    "Wrong number of args calling Redis command from script". This comes
//!    before the flags: `redis.call('config')` (a container has arity -2) and
//!    `redis.call('config', 'set', 'x')` fail with it, not with `noscript`.
//! 3. `noscript` of the command found: "This Redis command is not allowed
//!    from script". For a container, the SUBCOMMAND's flags decide, not the
//!    container's: `config` itself has no flags at all, while `config|get`,
//!    `config|set`, `config|rewrite` and `config|resetstat` are `noscript`
//!    and `config|help` is not (`redis.call('config', 'help')` runs). So the
//!    checker consults the flags of what [`resolve`] returns; when the
//!    subcommand is not a literal, it can only say "every subcommand of
//!    CONFIG but HELP is not allowed from scripts" ([`Command::subcommands`]).
//! 4. Later, at run time only: ACL, `write` in a read-only context (a
//!    `no-writes` script, `EVAL_RO`, a replica), `denyoom` when out of memory.
//!
//! Valkey 8.1 checks in the same order, in its own words for the first two
//! ("Unknown command called from script", "Wrong number of args calling
//! command from script"); its table differs from Redis 7.0's in a few
//! commands (`WAITAOF`, `CLIENT SETINFO`, ...), arities (`ZRANK` takes
//! `WITHSCORE`) and flags (blocking commands are not `noscript`).
//!
//! Redis 8.2 checks in the same order and words as Redis 7.0; its table
//! adds hash field expiry (`HEXPIRE`, ... since 7.4; `HGETEX`, `HSETEX`,
//! `HGETDEL` since 8.0), the vector sets of its built-in module (`VADD`,
//! `VSIM`, ...: flagged `module`), `WAITAOF`, and runs blocking commands
//! in scripts (without blocking) like Valkey.
//!
//! Valkey 9.1 checks in the same order, with 8.1's words but for two: a
//! known container with no such subcommand fails with "unknown subcommand
//! 'nosuch'. Try CONFIG HELP.", as outside a script, and a `noscript`
//! command with "This Valkey command
//! is not allowed from script" ([`CallRefusals`](crate::servers::CallRefusals)). Its table has every
//! command of 8.1's, with the same or wider arities (`SCRIPT DEBUG`,
//! `CLUSTER REPLICATE`) and the same `noscript` flags, and adds commands:
//! hash field expiry (`HEXPIRE`, `HGETEX`, `HSETEX`, `HGETDEL`, ...),
//! `DELIFEQ`, `MSETEX`, `CLUSTERSCAN` and the slot migration subcommands of
//! `CLUSTER`.
//!
//! Arity: `n > 0` means exactly `n` words, `n < 0` at least `-n`, the command
//! name (and subcommand) included: `get` is 2, `set` is -3, `config|get` -3.

use std::cmp::Ordering;
use std::fmt;

use crate::servers::Server;

// The generated tables, one file per server; each server's profile
// (`servers::PROFILES`) names its own.
pub(crate) mod redis_7_0;
pub(crate) mod redis_7_2;
pub(crate) mod redis_7_4;
pub(crate) mod redis_8_0;
pub(crate) mod redis_8_2;
pub(crate) mod valkey_8_0;
pub(crate) mod valkey_8_1;
pub(crate) mod valkey_9_1;

// The words of each command's arguments (`SET`'s `NX`), generated too.
mod options;

pub use self::options::{OptionWord, all_options, option, options};

/// The command flags, one bit each, named as `COMMAND` names them in upper
/// case: those redis-server 7.0.15, valkey-server 8.1.8 and 9.1.2 report (they hide
/// some internal ones, such as `may_replicate`). A server reporting a flag
/// missing here leaves the generated table naming a constant that does not
/// exist: add it here and to [`FLAG_NAMES`].
pub mod flag {
    /// `write`.
    pub const WRITE: u32 = 1 << 0;
    /// `readonly`.
    pub const READONLY: u32 = 1 << 1;
    /// `denyoom`.
    pub const DENYOOM: u32 = 1 << 2;
    /// `admin`.
    pub const ADMIN: u32 = 1 << 3;
    /// `pubsub`.
    pub const PUBSUB: u32 = 1 << 4;
    /// `noscript`.
    pub const NOSCRIPT: u32 = 1 << 5;
    /// `blocking`.
    pub const BLOCKING: u32 = 1 << 6;
    /// `loading`.
    pub const LOADING: u32 = 1 << 7;
    /// `stale`.
    pub const STALE: u32 = 1 << 8;
    /// `skip_monitor`.
    pub const SKIP_MONITOR: u32 = 1 << 9;
    /// `skip_slowlog`.
    pub const SKIP_SLOWLOG: u32 = 1 << 10;
    /// `asking`.
    pub const ASKING: u32 = 1 << 11;
    /// `fast`.
    pub const FAST: u32 = 1 << 12;
    /// `no_auth`.
    pub const NO_AUTH: u32 = 1 << 13;
    /// `no_mandatory_keys`.
    pub const NO_MANDATORY_KEYS: u32 = 1 << 14;
    /// `no_async_loading`.
    pub const NO_ASYNC_LOADING: u32 = 1 << 15;
    /// `no_multi`.
    pub const NO_MULTI: u32 = 1 << 16;
    /// `movablekeys`.
    pub const MOVABLEKEYS: u32 = 1 << 17;
    /// `allow_busy`.
    pub const ALLOW_BUSY: u32 = 1 << 18;
    /// Valkey's name for `skip_slowlog`.
    pub const SKIP_COMMANDLOG: u32 = 1 << 19;
    /// `module`: a command of a module, such as Redis 8's vector sets,
    /// which are built into its binary.
    pub const MODULE: u32 = 1 << 20;
}

/// Each flag bit with the name `COMMAND` gives it, in bit order.
pub static FLAG_NAMES: &[(u32, &str)] = &[
    (WRITE, "write"),
    (READONLY, "readonly"),
    (DENYOOM, "denyoom"),
    (ADMIN, "admin"),
    (PUBSUB, "pubsub"),
    (NOSCRIPT, "noscript"),
    (BLOCKING, "blocking"),
    (LOADING, "loading"),
    (STALE, "stale"),
    (SKIP_MONITOR, "skip_monitor"),
    (SKIP_SLOWLOG, "skip_slowlog"),
    (ASKING, "asking"),
    (FAST, "fast"),
    (NO_AUTH, "no_auth"),
    (NO_MANDATORY_KEYS, "no_mandatory_keys"),
    (NO_ASYNC_LOADING, "no_async_loading"),
    (NO_MULTI, "no_multi"),
    (MOVABLEKEYS, "movablekeys"),
    (ALLOW_BUSY, "allow_busy"),
    (SKIP_COMMANDLOG, "skip_commandlog"),
    (MODULE, "module"),
];

/// A set of [`flag`]s.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(pub u32);

use self::flag::*;

impl Flags {
    /// Does the set have every bit of `flags` (e.g. `flag::NOSCRIPT`)?
    pub const fn contains(self, flags: u32) -> bool {
        self.0 & flags == flags
    }

    /// The bit of the flag `COMMAND` calls `name` (any case).
    pub fn from_name(name: &str) -> Option<u32> {
        FLAG_NAMES
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|&(bit, _)| bit)
    }

    /// The names of the flags in the set, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        FLAG_NAMES
            .iter()
            .filter(move |&&(bit, _)| self.contains(bit))
            .map(|&(_, name)| name)
    }
}

impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

/// One command or subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    /// Lower case; a subcommand is `container|sub` (`config|get`).
    pub name: &'static str,
    /// `n > 0`: exactly `n` words; `n < 0`: at least `-n`; the name (and
    /// subcommand) counted.
    pub arity: i32,
    /// What `COMMAND` reports of the command's flags.
    pub flags: Flags,
    /// Legacy key positions from `COMMAND` (1-based word index, 0 if no key;
    /// `last_key` -1 means the last word). Commands with `movablekeys` find
    /// their keys otherwise.
    pub first_key: i32,
    /// See [`Command::first_key`].
    pub last_key: i32,
    /// See [`Command::first_key`].
    pub key_step: i32,
}

impl Command {
    /// [`Command::name`]: lower case, `container|sub` for a subcommand.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Flagged `write`: refused in a `no-writes` script.
    pub const fn is_write(&self) -> bool {
        self.flags.contains(WRITE)
    }

    /// Flagged `readonly`: reads data.
    pub const fn is_readonly(&self) -> bool {
        self.flags.contains(READONLY)
    }

    /// Refused by `server` in a read-only script like a write (see
    /// [`Profile::may_replicate`](crate::servers::Profile::may_replicate)).
    pub fn may_replicate(&self, server: Server) -> bool {
        server.profile().may_replicate.contains(&self.name)
    }

    /// Refused inside a script ([`CallRefusals::noscript`](crate::servers::CallRefusals::noscript)).
    pub const fn is_noscript(&self) -> bool {
        self.flags.contains(NOSCRIPT)
    }

    /// Does a call with `words` words (the name, the subcommand and the
    /// arguments) pass the arity check?
    pub fn accepts_word_count(&self, words: usize) -> bool {
        let needed = self.arity.unsigned_abs() as usize;
        if self.arity >= 0 {
            words == needed
        } else {
            words >= needed
        }
    }

    /// For `config|get`: `config`.
    pub fn container(&self) -> Option<&'static str> {
        self.name.split_once('|').map(|(container, _)| container)
    }

    /// Does a call pick a subcommand with its first argument (CONFIG, SCRIPT)?
    pub fn has_subcommands(&self, server: Server) -> bool {
        !self.subcommands(server).is_empty()
    }

    /// For `config`: `config|get`, `config|help`, ...; empty for a command
    /// without subcommands (and for a subcommand).
    pub fn subcommands(&self, server: Server) -> &'static [Command] {
        subcommands_of(server, self.name)
    }
}

/// Compares a table name (lower case) with `name` in any case.
fn cmp_lower(table_name: &str, name: &str) -> Ordering {
    table_name
        .bytes()
        .cmp(name.bytes().map(|b| b.to_ascii_lowercase()))
}

/// The command or subcommand `name` (any case; `container|sub` for a
/// subcommand), as the table names it. This is a table lookup: what a script
/// would run is [`resolve`].
pub fn command(server: Server, name: &str) -> Option<&'static Command> {
    let table = server.commands();
    table
        .binary_search_by(|c| cmp_lower(c.name, name))
        .ok()
        .map(|i| &table[i])
}

/// The subcommands of `container` (any case) on `server`, sorted by name.
pub fn subcommands_of(server: Server, container: &str) -> &'static [Command] {
    if container.contains('|') {
        return &[];
    }
    let table = server.commands();
    let prefix = format!("{}|", container.to_ascii_lowercase());
    let start = table.partition_point(|c| c.name < prefix.as_str());
    let len = table[start..]
        .iter()
        .take_while(|c| c.name.starts_with(&prefix))
        .count();
    &table[start..start + len]
}

/// "Did you mean" for an unknown command name (any case), among the
/// commands (not subcommands) of `server`: `lpsuh` -> `lpush`.
pub fn suggest(server: Server, name: &str) -> Option<&'static str> {
    suggestion(server, name).map(|found| found.name)
}

/// [`suggest`], saying whether the suggestion is the only one that close.
pub(crate) fn suggestion(
    server: Server,
    name: &str,
) -> Option<crate::suggest::Suggestion<'static>> {
    let lower = name.to_ascii_lowercase();
    let names = server
        .commands()
        .iter()
        .map(|c| c.name)
        .filter(|n| !n.contains('|'));
    crate::suggest::suggestion(&lower, names)
}

/// What `server` runs for `redis.call(name, first_arg, ...)`, looked up as
/// the server does (see the module docs): `first_arg` is the literal first
/// argument after the name, `None` if the call has none. `None` for "Unknown
/// Redis command called from script". When the first argument exists but is
/// not a literal, use [`command`] and [`Command::subcommands`] instead.
pub fn resolve(server: Server, name: &str, first_arg: Option<&str>) -> Option<&'static Command> {
    if name.contains('|') {
        return None;
    }
    let base = command(server, name)?;
    match first_arg {
        Some(sub) if base.has_subcommands(server) => {
            if sub.contains('|') {
                return None;
            }
            command(server, &format!("{}|{sub}", base.name))
        }
        _ => Some(base),
    }
}

/// One row of a generated table.
pub(crate) const fn c(
    name: &'static str,
    arity: i32,
    flags: u32,
    first_key: i32,
    last_key: i32,
    key_step: i32,
) -> Command {
    Command {
        name,
        arity,
        flags: Flags(flags),
        first_key,
        last_key,
        key_step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_lower_case_and_unique() {
        for server in Server::ALL {
            let table = server.commands();
            assert!(table.windows(2).all(|w| w[0].name < w[1].name), "{server}");
            for cmd in table {
                assert_eq!(cmd.name, cmd.name.to_ascii_lowercase());
                if let Some(container) = cmd.container() {
                    let parent =
                        command(server, container).expect("a subcommand's container is listed");
                    assert!(parent.subcommands(server).contains(cmd));
                }
            }
        }
    }

    #[test]
    fn script_relevant_flags() {
        for server in Server::ALL {
            let command = |name| command(server, name);
            assert!(command("set").unwrap().is_write());
            assert!(command("LPUSH").unwrap().is_write());
            assert!(command("Incr").unwrap().is_write());
            assert!(command("get").unwrap().is_readonly());
            assert!(!command("get").unwrap().is_write());
            assert!(command("time").is_some_and(|c| !c.is_noscript()));
            assert!(command("eval").unwrap().is_noscript());
            assert!(command("multi").unwrap().is_noscript());
            assert!(command("nosuch").is_none());
            assert!(command("").is_none());
            // The container has no flags; its subcommands decide.
            let config = command("config").unwrap();
            assert_eq!(config.flags, Flags::default());
            assert!(command("config|get").unwrap().is_noscript());
            assert!(command("CONFIG|GET").unwrap().is_noscript());
            assert!(command("config|help").is_some_and(|c| !c.is_noscript()));
            assert!(command("script|load").unwrap().is_noscript());
            let subcommands = config.subcommands(server);
            assert!(subcommands.iter().any(|c| c.name == "config|set"));
            assert!(command("get").unwrap().subcommands(server).is_empty());
        }
    }

    #[test]
    fn the_servers_differ_where_their_command_replies_do() {
        let (redis, valkey) = (Server::Redis7_0, Server::Valkey8_1);
        // Redis 7.0 refuses blocking commands in scripts; Valkey runs them.
        assert!(command(redis, "blpop").unwrap().is_noscript());
        assert!(!command(valkey, "blpop").unwrap().is_noscript());
        assert!(command(redis, "waitaof").is_none());
        assert!(command(valkey, "waitaof").is_some());
        // ZRANK ... WITHSCORE is Valkey's (and Redis 7.2's).
        assert!(!command(redis, "zrank").unwrap().accepts_word_count(4));
        assert!(command(valkey, "zrank").unwrap().accepts_word_count(4));
        // `COMMAND COUNT` counts the commands, not their subcommands.
        let count = |server: Server| {
            let table = server.commands();
            table.iter().filter(|c| c.container().is_none()).count()
        };
        assert_eq!((count(redis), count(valkey)), (240, 242));
        // Valkey 9.1 adds hash field expiry, DELIFEQ, MSETEX, ...
        let valkey_9_1 = Server::Valkey9_1;
        assert_eq!(count(valkey_9_1), 257);
        for name in [
            "hexpire", "hgetex", "hsetex", "hgetdel", "delifeq", "msetex",
        ] {
            assert!(command(valkey, name).is_none(), "{name}");
            assert!(
                command(valkey_9_1, name).is_some_and(Command::is_write),
                "{name}"
            );
        }
        // ... and wider arities.
        assert!(
            !command(valkey, "script|debug")
                .unwrap()
                .accepts_word_count(4)
        );
        assert!(
            command(valkey_9_1, "script|debug")
                .unwrap()
                .accepts_word_count(4)
        );
    }

    #[test]
    fn read_only_refusals_name_known_commands() {
        for server in Server::ALL {
            for name in server.profile().may_replicate {
                let found = command(server, name).unwrap_or_else(|| panic!("{name}"));
                assert!(found.may_replicate(server) && !found.is_write(), "{name}");
            }
        }
        let (redis, valkey) = (Server::Redis7_0, Server::Valkey8_1);
        let setslot = command(valkey, "cluster|setslot").unwrap();
        assert!(setslot.may_replicate(valkey) && !setslot.may_replicate(redis));
    }

    #[test]
    fn resolve_as_the_server_does() {
        for server in Server::ALL {
            let resolve = |name, sub| resolve(server, name, sub);
            let command = |name| command(server, name);
            assert_eq!(resolve("config", Some("get")).unwrap().name, "config|get");
            assert_eq!(resolve("CONFIG", Some("GeT")).unwrap().name, "config|get");
            assert_eq!(resolve("config", None).unwrap().name, "config");
            assert!(resolve("config", Some("nosuch")).is_none());
            assert!(resolve("config|get", Some("maxmemory")).is_none());
            assert_eq!(resolve("get", Some("k")).unwrap().name, "get");
            assert!(resolve("nosuch", None).is_none());
            assert!(command("config").unwrap().has_subcommands(server));
            assert!(!command("get").unwrap().has_subcommands(server));
            assert_eq!(suggest(server, "lpsuh"), Some("lpush"));
            assert_eq!(suggest(server, "HGETAL"), Some("hgetall"));
            assert_eq!(suggest(server, "get"), None);
            assert_eq!(suggest(server, "xyzzyq"), None);
            // Arity: `config` alone fails the arity check before `noscript`.
            assert!(!resolve("config", None).unwrap().accepts_word_count(1));
            let get = command("get").unwrap();
            assert!(get.accepts_word_count(2) && !get.accepts_word_count(3));
            let set = command("set").unwrap();
            assert!(!set.accepts_word_count(2) && set.accepts_word_count(5));
        }
    }
}
