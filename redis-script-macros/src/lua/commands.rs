// Generated from redis-server 7.0.15 (COMMAND) on 2026-11-22 by:
//   REDIS_SCRIPT_REGENERATE=1 cargo test -p redis-script-macros regenerate -- --ignored

//! The Redis command table: name, arity, flags and key positions of every
//! command, subcommands included, as the server's `COMMAND` reports them.
//!
//! The header above, [`REDIS_VERSION`] and the table between the `BEGIN` /
//! `END GENERATED TABLE` markers are written by the `#[ignore]`d test
//! `regenerate` in `commands_gen.rs` (it starts a redis-server from `PATH` and
//! reads `COMMAND`); the rest of this file is hand-written and kept as is. The
//! test `table_matches_installed_server` there compares the table with the
//! installed server on every `cargo test`.
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
//! Arity: `n > 0` means exactly `n` words, `n < 0` at least `-n`, the command
//! name (and subcommand) included: `get` is 2, `set` is -3, `config|get` -3.

use std::cmp::Ordering;
use std::fmt;

use self::flag::*;

/// The version of the redis-server the table was read from.
pub const REDIS_VERSION: &str = "7.0.15";

/// The command flags, one bit each, named as `COMMAND` names them in upper
/// case: those redis-server 7.0.15 reports (it hides some internal ones, such
/// as `may_replicate`). A server reporting a flag missing here makes
/// `regenerate` stop and ask for it to be added (here and to [`FLAG_NAMES`]).
pub mod flag {
    pub const WRITE: u32 = 1 << 0;
    pub const READONLY: u32 = 1 << 1;
    pub const DENYOOM: u32 = 1 << 2;
    pub const ADMIN: u32 = 1 << 3;
    pub const PUBSUB: u32 = 1 << 4;
    pub const NOSCRIPT: u32 = 1 << 5;
    pub const BLOCKING: u32 = 1 << 6;
    pub const LOADING: u32 = 1 << 7;
    pub const STALE: u32 = 1 << 8;
    pub const SKIP_MONITOR: u32 = 1 << 9;
    pub const SKIP_SLOWLOG: u32 = 1 << 10;
    pub const ASKING: u32 = 1 << 11;
    pub const FAST: u32 = 1 << 12;
    pub const NO_AUTH: u32 = 1 << 13;
    pub const NO_MANDATORY_KEYS: u32 = 1 << 14;
    pub const NO_ASYNC_LOADING: u32 = 1 << 15;
    pub const NO_MULTI: u32 = 1 << 16;
    pub const MOVABLEKEYS: u32 = 1 << 17;
    pub const ALLOW_BUSY: u32 = 1 << 18;
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
];

/// A set of [`flag`]s.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(pub u32);

impl Flags {
    /// Does the set have every bit of `flags` (e.g. `flag::NOSCRIPT`)?
    pub const fn contains(self, flags: u32) -> bool {
        self.0 & flags == flags
    }

    #[cfg(test)]
    /// The bit of the flag `COMMAND` calls `name`.
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
    pub flags: Flags,
    /// Legacy key positions from `COMMAND` (1-based word index, 0 if no key;
    /// `last_key` -1 means the last word). Commands with `movablekeys` find
    /// their keys otherwise.
    pub first_key: i32,
    pub last_key: i32,
    pub key_step: i32,
}

impl Command {
    /// [`Command::name`]: lower case, `container|sub` for a subcommand.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    pub const fn is_write(&self) -> bool {
        self.flags.contains(WRITE)
    }

    #[cfg(test)]
    pub const fn is_readonly(&self) -> bool {
        self.flags.contains(READONLY)
    }

    /// Refused inside a script: "This Redis command is not allowed from script".
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

    #[cfg(test)]
    /// For `config|get`: `config`.
    pub fn container(&self) -> Option<&'static str> {
        self.name.split_once('|').map(|(container, _)| container)
    }

    /// Does a call pick a subcommand with its first argument (CONFIG, SCRIPT)?
    pub fn has_subcommands(&self) -> bool {
        !self.subcommands().is_empty()
    }

    /// For `config`: `config|get`, `config|help`, ...; empty for a command
    /// without subcommands (and for a subcommand).
    pub fn subcommands(&self) -> &'static [Command] {
        subcommands_of(self.name)
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
pub fn command(name: &str) -> Option<&'static Command> {
    COMMANDS
        .binary_search_by(|c| cmp_lower(c.name, name))
        .ok()
        .map(|i| &COMMANDS[i])
}

/// The subcommands of `container` (any case), sorted by name.
pub fn subcommands_of(container: &str) -> &'static [Command] {
    if container.contains('|') {
        return &[];
    }
    let prefix = format!("{}|", container.to_ascii_lowercase());
    let start = COMMANDS.partition_point(|c| c.name < prefix.as_str());
    let len = COMMANDS[start..]
        .iter()
        .take_while(|c| c.name.starts_with(&prefix))
        .count();
    &COMMANDS[start..start + len]
}

/// "Did you mean" for an unknown command name (any case), among the
/// commands (not subcommands): `lpsuh` -> `lpush`, `hgetal` -> `hgetall`.
pub fn suggest(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let names = COMMANDS.iter().map(|c| c.name).filter(|n| !n.contains('|'));
    super::sandbox::suggest(&lower, names)
}

/// What Redis 7.0 runs for `redis.call(name, first_arg, ...)`, looked up as
/// the server does (see the module docs): `first_arg` is the literal first
/// argument after the name, `None` if the call has none. `None` for "Unknown
/// Redis command called from script". When the first argument exists but is
/// not a literal, use [`command`] and [`Command::subcommands`] instead.
pub fn resolve(name: &str, first_arg: Option<&str>) -> Option<&'static Command> {
    if name.contains('|') {
        return None;
    }
    let base = command(name)?;
    match first_arg {
        Some(sub) if !base.subcommands().is_empty() => {
            if sub.contains('|') {
                return None;
            }
            command(&format!("{}|{sub}", base.name))
        }
        _ => Some(base),
    }
}

const fn c(
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

// BEGIN GENERATED TABLE
#[rustfmt::skip]
pub static COMMANDS: &[Command] = &[
    c("acl", -2, 0, 0, 0, 0),
    c("acl|cat", -2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|deluser", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|dryrun", -4, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|genpass", -2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|getuser", 3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|help", 2, LOADING | STALE, 0, 0, 0),
    c("acl|list", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|load", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|log", -2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|save", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|setuser", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|users", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("acl|whoami", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("append", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("asking", 1, FAST, 0, 0, 0),
    c("auth", -2, NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY, 0, 0, 0),
    c("bgrewriteaof", 1, ADMIN | NOSCRIPT | NO_ASYNC_LOADING, 0, 0, 0),
    c("bgsave", -1, ADMIN | NOSCRIPT | NO_ASYNC_LOADING, 0, 0, 0),
    c("bitcount", -2, READONLY, 1, 1, 1),
    c("bitfield", -2, WRITE | DENYOOM, 1, 1, 1),
    c("bitfield_ro", -2, READONLY | FAST, 1, 1, 1),
    c("bitop", -4, WRITE | DENYOOM, 2, -1, 1),
    c("bitpos", -3, READONLY, 1, 1, 1),
    c("blmove", 6, WRITE | DENYOOM | NOSCRIPT | BLOCKING, 1, 2, 1),
    c("blmpop", -5, WRITE | BLOCKING | MOVABLEKEYS, 0, 0, 0),
    c("blpop", -3, WRITE | NOSCRIPT | BLOCKING, 1, -2, 1),
    c("brpop", -3, WRITE | NOSCRIPT | BLOCKING, 1, -2, 1),
    c("brpoplpush", 4, WRITE | DENYOOM | NOSCRIPT | BLOCKING, 1, 2, 1),
    c("bzmpop", -5, WRITE | BLOCKING | MOVABLEKEYS, 0, 0, 0),
    c("bzpopmax", -3, WRITE | NOSCRIPT | BLOCKING | FAST, 1, -2, 1),
    c("bzpopmin", -3, WRITE | NOSCRIPT | BLOCKING | FAST, 1, -2, 1),
    c("client", -2, 0, 0, 0, 0),
    c("client|caching", 3, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|getname", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|getredir", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|help", 2, LOADING | STALE, 0, 0, 0),
    c("client|id", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|info", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|kill", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|list", -2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|no-evict", 3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|pause", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|reply", 3, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|setname", 3, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|tracking", -3, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|trackinginfo", 2, NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|unblock", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("client|unpause", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("cluster", -2, 0, 0, 0, 0),
    c("cluster|addslots", -3, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|addslotsrange", -4, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|bumpepoch", 2, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|count-failure-reports", 3, ADMIN | STALE, 0, 0, 0),
    c("cluster|countkeysinslot", 3, STALE, 0, 0, 0),
    c("cluster|delslots", -3, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|delslotsrange", -4, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|failover", -2, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|flushslots", 2, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|forget", 3, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|getkeysinslot", 4, STALE, 0, 0, 0),
    c("cluster|help", 2, LOADING | STALE, 0, 0, 0),
    c("cluster|info", 2, STALE, 0, 0, 0),
    c("cluster|keyslot", 3, STALE, 0, 0, 0),
    c("cluster|links", 2, STALE, 0, 0, 0),
    c("cluster|meet", -4, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|myid", 2, STALE, 0, 0, 0),
    c("cluster|nodes", 2, STALE, 0, 0, 0),
    c("cluster|replicas", 3, ADMIN | STALE, 0, 0, 0),
    c("cluster|replicate", 3, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|reset", -2, ADMIN | NOSCRIPT | STALE, 0, 0, 0),
    c("cluster|saveconfig", 2, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|set-config-epoch", 3, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|setslot", -4, ADMIN | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("cluster|shards", 2, STALE, 0, 0, 0),
    c("cluster|slaves", 3, ADMIN | STALE, 0, 0, 0),
    c("cluster|slots", 2, STALE, 0, 0, 0),
    c("command", -1, LOADING | STALE, 0, 0, 0),
    c("command|count", 2, LOADING | STALE, 0, 0, 0),
    c("command|docs", -2, LOADING | STALE, 0, 0, 0),
    c("command|getkeys", -4, LOADING | STALE, 0, 0, 0),
    c("command|getkeysandflags", -4, LOADING | STALE, 0, 0, 0),
    c("command|help", 2, LOADING | STALE, 0, 0, 0),
    c("command|info", -2, LOADING | STALE, 0, 0, 0),
    c("command|list", -2, LOADING | STALE, 0, 0, 0),
    c("config", -2, 0, 0, 0, 0),
    c("config|get", -3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("config|help", 2, LOADING | STALE, 0, 0, 0),
    c("config|resetstat", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("config|rewrite", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("config|set", -4, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("copy", -3, WRITE | DENYOOM, 1, 2, 1),
    c("dbsize", 1, READONLY | FAST, 0, 0, 0),
    c("debug", -2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("decr", 2, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("decrby", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("del", -2, WRITE, 1, -1, 1),
    c("discard", 1, NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY, 0, 0, 0),
    c("dump", 2, READONLY, 1, 1, 1),
    c("echo", 2, LOADING | STALE | FAST, 0, 0, 0),
    c("eval", -3, NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("eval_ro", -3, READONLY | NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("evalsha", -3, NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("evalsha_ro", -3, READONLY | NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("exec", 1, NOSCRIPT | LOADING | STALE | SKIP_SLOWLOG, 0, 0, 0),
    c("exists", -2, READONLY | FAST, 1, -1, 1),
    c("expire", -3, WRITE | FAST, 1, 1, 1),
    c("expireat", -3, WRITE | FAST, 1, 1, 1),
    c("expiretime", 2, READONLY | FAST, 1, 1, 1),
    c("failover", -1, ADMIN | NOSCRIPT | STALE, 0, 0, 0),
    c("fcall", -3, NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("fcall_ro", -3, READONLY | NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLEKEYS, 0, 0, 0),
    c("flushall", -1, WRITE, 0, 0, 0),
    c("flushdb", -1, WRITE, 0, 0, 0),
    c("function", -2, 0, 0, 0, 0),
    c("function|delete", 3, WRITE | NOSCRIPT, 0, 0, 0),
    c("function|dump", 2, NOSCRIPT, 0, 0, 0),
    c("function|flush", -2, WRITE | NOSCRIPT, 0, 0, 0),
    c("function|help", 2, LOADING | STALE, 0, 0, 0),
    c("function|kill", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0),
    c("function|list", -2, NOSCRIPT, 0, 0, 0),
    c("function|load", -3, WRITE | DENYOOM | NOSCRIPT, 0, 0, 0),
    c("function|restore", -3, WRITE | DENYOOM | NOSCRIPT, 0, 0, 0),
    c("function|stats", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0),
    c("geoadd", -5, WRITE | DENYOOM, 1, 1, 1),
    c("geodist", -4, READONLY, 1, 1, 1),
    c("geohash", -2, READONLY, 1, 1, 1),
    c("geopos", -2, READONLY, 1, 1, 1),
    c("georadius", -6, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
    c("georadius_ro", -6, READONLY, 1, 1, 1),
    c("georadiusbymember", -5, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
    c("georadiusbymember_ro", -5, READONLY, 1, 1, 1),
    c("geosearch", -7, READONLY, 1, 1, 1),
    c("geosearchstore", -8, WRITE | DENYOOM, 1, 2, 1),
    c("get", 2, READONLY | FAST, 1, 1, 1),
    c("getbit", 3, READONLY | FAST, 1, 1, 1),
    c("getdel", 2, WRITE | FAST, 1, 1, 1),
    c("getex", -2, WRITE | FAST, 1, 1, 1),
    c("getrange", 4, READONLY, 1, 1, 1),
    c("getset", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hdel", -3, WRITE | FAST, 1, 1, 1),
    c("hello", -1, NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY, 0, 0, 0),
    c("hexists", 3, READONLY | FAST, 1, 1, 1),
    c("hget", 3, READONLY | FAST, 1, 1, 1),
    c("hgetall", 2, READONLY, 1, 1, 1),
    c("hincrby", 4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hincrbyfloat", 4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hkeys", 2, READONLY, 1, 1, 1),
    c("hlen", 2, READONLY | FAST, 1, 1, 1),
    c("hmget", -3, READONLY | FAST, 1, 1, 1),
    c("hmset", -4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hrandfield", -2, READONLY, 1, 1, 1),
    c("hscan", -3, READONLY, 1, 1, 1),
    c("hset", -4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hsetnx", 4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("hstrlen", 3, READONLY | FAST, 1, 1, 1),
    c("hvals", 2, READONLY, 1, 1, 1),
    c("incr", 2, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("incrby", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("incrbyfloat", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("info", -1, LOADING | STALE, 0, 0, 0),
    c("keys", 2, READONLY, 0, 0, 0),
    c("lastsave", 1, LOADING | STALE | FAST, 0, 0, 0),
    c("latency", -2, 0, 0, 0, 0),
    c("latency|doctor", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("latency|graph", 3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("latency|help", 2, LOADING | STALE, 0, 0, 0),
    c("latency|histogram", -2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("latency|history", 3, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("latency|latest", 2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("latency|reset", -2, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("lcs", -3, READONLY, 1, 2, 1),
    c("lindex", 3, READONLY, 1, 1, 1),
    c("linsert", 5, WRITE | DENYOOM, 1, 1, 1),
    c("llen", 2, READONLY | FAST, 1, 1, 1),
    c("lmove", 5, WRITE | DENYOOM, 1, 2, 1),
    c("lmpop", -4, WRITE | MOVABLEKEYS, 0, 0, 0),
    c("lolwut", -1, READONLY | FAST, 0, 0, 0),
    c("lpop", -2, WRITE | FAST, 1, 1, 1),
    c("lpos", -3, READONLY, 1, 1, 1),
    c("lpush", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("lpushx", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("lrange", 4, READONLY, 1, 1, 1),
    c("lrem", 4, WRITE, 1, 1, 1),
    c("lset", 4, WRITE | DENYOOM, 1, 1, 1),
    c("ltrim", 4, WRITE, 1, 1, 1),
    c("memory", -2, 0, 0, 0, 0),
    c("memory|doctor", 2, 0, 0, 0, 0),
    c("memory|help", 2, LOADING | STALE, 0, 0, 0),
    c("memory|malloc-stats", 2, 0, 0, 0, 0),
    c("memory|purge", 2, 0, 0, 0, 0),
    c("memory|stats", 2, 0, 0, 0, 0),
    c("memory|usage", -3, READONLY, 2, 2, 1),
    c("mget", -2, READONLY | FAST, 1, -1, 1),
    c("migrate", -6, WRITE | MOVABLEKEYS, 3, 3, 1),
    c("module", -2, 0, 0, 0, 0),
    c("module|help", 2, LOADING | STALE, 0, 0, 0),
    c("module|list", 2, ADMIN | NOSCRIPT, 0, 0, 0),
    c("module|load", -3, ADMIN | NOSCRIPT | NO_ASYNC_LOADING, 0, 0, 0),
    c("module|loadex", -3, ADMIN | NOSCRIPT | NO_ASYNC_LOADING, 0, 0, 0),
    c("module|unload", 3, ADMIN | NOSCRIPT | NO_ASYNC_LOADING, 0, 0, 0),
    c("monitor", 1, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("move", 3, WRITE | FAST, 1, 1, 1),
    c("mset", -3, WRITE | DENYOOM, 1, -1, 2),
    c("msetnx", -3, WRITE | DENYOOM, 1, -1, 2),
    c("multi", 1, NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY, 0, 0, 0),
    c("object", -2, 0, 0, 0, 0),
    c("object|encoding", 3, READONLY, 2, 2, 1),
    c("object|freq", 3, READONLY, 2, 2, 1),
    c("object|help", 2, LOADING | STALE, 0, 0, 0),
    c("object|idletime", 3, READONLY, 2, 2, 1),
    c("object|refcount", 3, READONLY, 2, 2, 1),
    c("persist", 2, WRITE | FAST, 1, 1, 1),
    c("pexpire", -3, WRITE | FAST, 1, 1, 1),
    c("pexpireat", -3, WRITE | FAST, 1, 1, 1),
    c("pexpiretime", 2, READONLY | FAST, 1, 1, 1),
    c("pfadd", -2, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("pfcount", -2, READONLY, 1, -1, 1),
    c("pfdebug", 3, WRITE | DENYOOM | ADMIN, 2, 2, 1),
    c("pfmerge", -2, WRITE | DENYOOM, 1, -1, 1),
    c("pfselftest", 1, ADMIN, 0, 0, 0),
    c("ping", -1, FAST, 0, 0, 0),
    c("psetex", 4, WRITE | DENYOOM, 1, 1, 1),
    c("psubscribe", -2, PUBSUB | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("psync", -3, ADMIN | NOSCRIPT | NO_ASYNC_LOADING | NO_MULTI, 0, 0, 0),
    c("pttl", 2, READONLY | FAST, 1, 1, 1),
    c("publish", 3, PUBSUB | LOADING | STALE | FAST, 0, 0, 0),
    c("pubsub", -2, 0, 0, 0, 0),
    c("pubsub|channels", -2, PUBSUB | LOADING | STALE, 0, 0, 0),
    c("pubsub|help", 2, LOADING | STALE, 0, 0, 0),
    c("pubsub|numpat", 2, PUBSUB | LOADING | STALE, 0, 0, 0),
    c("pubsub|numsub", -2, PUBSUB | LOADING | STALE, 0, 0, 0),
    c("pubsub|shardchannels", -2, PUBSUB | LOADING | STALE, 0, 0, 0),
    c("pubsub|shardnumsub", -2, PUBSUB | LOADING | STALE, 0, 0, 0),
    c("punsubscribe", -1, PUBSUB | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("quit", -1, NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY, 0, 0, 0),
    c("randomkey", 1, READONLY, 0, 0, 0),
    c("readonly", 1, LOADING | STALE | FAST, 0, 0, 0),
    c("readwrite", 1, LOADING | STALE | FAST, 0, 0, 0),
    c("rename", 3, WRITE, 1, 2, 1),
    c("renamenx", 3, WRITE | FAST, 1, 2, 1),
    c("replconf", -1, ADMIN | NOSCRIPT | LOADING | STALE | ALLOW_BUSY, 0, 0, 0),
    c("replicaof", 3, ADMIN | NOSCRIPT | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("reset", 1, NOSCRIPT | LOADING | STALE | FAST | NO_AUTH | ALLOW_BUSY, 0, 0, 0),
    c("restore", -4, WRITE | DENYOOM, 1, 1, 1),
    c("restore-asking", -4, WRITE | DENYOOM | ASKING, 1, 1, 1),
    c("role", 1, NOSCRIPT | LOADING | STALE | FAST, 0, 0, 0),
    c("rpop", -2, WRITE | FAST, 1, 1, 1),
    c("rpoplpush", 3, WRITE | DENYOOM, 1, 2, 1),
    c("rpush", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("rpushx", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("sadd", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("save", 1, ADMIN | NOSCRIPT | NO_ASYNC_LOADING | NO_MULTI, 0, 0, 0),
    c("scan", -2, READONLY, 0, 0, 0),
    c("scard", 2, READONLY | FAST, 1, 1, 1),
    c("script", -2, 0, 0, 0, 0),
    c("script|debug", 3, NOSCRIPT, 0, 0, 0),
    c("script|exists", -3, NOSCRIPT, 0, 0, 0),
    c("script|flush", -2, NOSCRIPT, 0, 0, 0),
    c("script|help", 2, LOADING | STALE, 0, 0, 0),
    c("script|kill", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0),
    c("script|load", 3, NOSCRIPT | STALE, 0, 0, 0),
    c("sdiff", -2, READONLY, 1, -1, 1),
    c("sdiffstore", -3, WRITE | DENYOOM, 1, -1, 1),
    c("select", 2, LOADING | STALE | FAST, 0, 0, 0),
    c("set", -3, WRITE | DENYOOM, 1, 1, 1),
    c("setbit", 4, WRITE | DENYOOM, 1, 1, 1),
    c("setex", 4, WRITE | DENYOOM, 1, 1, 1),
    c("setnx", 3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("setrange", 4, WRITE | DENYOOM, 1, 1, 1),
    c("shutdown", -1, ADMIN | NOSCRIPT | LOADING | STALE | NO_MULTI | ALLOW_BUSY, 0, 0, 0),
    c("sinter", -2, READONLY, 1, -1, 1),
    c("sintercard", -3, READONLY | MOVABLEKEYS, 0, 0, 0),
    c("sinterstore", -3, WRITE | DENYOOM, 1, -1, 1),
    c("sismember", 3, READONLY | FAST, 1, 1, 1),
    c("slaveof", 3, ADMIN | NOSCRIPT | STALE | NO_ASYNC_LOADING, 0, 0, 0),
    c("slowlog", -2, 0, 0, 0, 0),
    c("slowlog|get", -2, ADMIN | LOADING | STALE, 0, 0, 0),
    c("slowlog|help", 2, LOADING | STALE, 0, 0, 0),
    c("slowlog|len", 2, ADMIN | LOADING | STALE, 0, 0, 0),
    c("slowlog|reset", 2, ADMIN | LOADING | STALE, 0, 0, 0),
    c("smembers", 2, READONLY, 1, 1, 1),
    c("smismember", -3, READONLY | FAST, 1, 1, 1),
    c("smove", 4, WRITE | FAST, 1, 2, 1),
    c("sort", -2, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
    c("sort_ro", -2, READONLY | MOVABLEKEYS, 1, 1, 1),
    c("spop", -2, WRITE | FAST, 1, 1, 1),
    c("spublish", 3, PUBSUB | LOADING | STALE | FAST, 1, 1, 1),
    c("srandmember", -2, READONLY, 1, 1, 1),
    c("srem", -3, WRITE | FAST, 1, 1, 1),
    c("sscan", -3, READONLY, 1, 1, 1),
    c("ssubscribe", -2, PUBSUB | NOSCRIPT | LOADING | STALE, 1, -1, 1),
    c("strlen", 2, READONLY | FAST, 1, 1, 1),
    c("subscribe", -2, PUBSUB | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("substr", 4, READONLY, 1, 1, 1),
    c("sunion", -2, READONLY, 1, -1, 1),
    c("sunionstore", -3, WRITE | DENYOOM, 1, -1, 1),
    c("sunsubscribe", -1, PUBSUB | NOSCRIPT | LOADING | STALE, 1, -1, 1),
    c("swapdb", 3, WRITE | FAST, 0, 0, 0),
    c("sync", 1, ADMIN | NOSCRIPT | NO_ASYNC_LOADING | NO_MULTI, 0, 0, 0),
    c("time", 1, LOADING | STALE | FAST, 0, 0, 0),
    c("touch", -2, READONLY | FAST, 1, -1, 1),
    c("ttl", 2, READONLY | FAST, 1, 1, 1),
    c("type", 2, READONLY | FAST, 1, 1, 1),
    c("unlink", -2, WRITE | FAST, 1, -1, 1),
    c("unsubscribe", -1, PUBSUB | NOSCRIPT | LOADING | STALE, 0, 0, 0),
    c("unwatch", 1, NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY, 0, 0, 0),
    c("wait", 3, NOSCRIPT, 0, 0, 0),
    c("watch", -2, NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY, 1, -1, 1),
    c("xack", -4, WRITE | FAST, 1, 1, 1),
    c("xadd", -5, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("xautoclaim", -6, WRITE | FAST, 1, 1, 1),
    c("xclaim", -6, WRITE | FAST, 1, 1, 1),
    c("xdel", -3, WRITE | FAST, 1, 1, 1),
    c("xgroup", -2, 0, 0, 0, 0),
    c("xgroup|create", -5, WRITE | DENYOOM, 2, 2, 1),
    c("xgroup|createconsumer", 5, WRITE | DENYOOM, 2, 2, 1),
    c("xgroup|delconsumer", 5, WRITE, 2, 2, 1),
    c("xgroup|destroy", 4, WRITE, 2, 2, 1),
    c("xgroup|help", 2, LOADING | STALE, 0, 0, 0),
    c("xgroup|setid", -5, WRITE, 2, 2, 1),
    c("xinfo", -2, 0, 0, 0, 0),
    c("xinfo|consumers", 4, READONLY, 2, 2, 1),
    c("xinfo|groups", 3, READONLY, 2, 2, 1),
    c("xinfo|help", 2, LOADING | STALE, 0, 0, 0),
    c("xinfo|stream", -3, READONLY, 2, 2, 1),
    c("xlen", 2, READONLY | FAST, 1, 1, 1),
    c("xpending", -3, READONLY, 1, 1, 1),
    c("xrange", -4, READONLY, 1, 1, 1),
    c("xread", -4, READONLY | BLOCKING | MOVABLEKEYS, 0, 0, 0),
    c("xreadgroup", -7, WRITE | BLOCKING | MOVABLEKEYS, 0, 0, 0),
    c("xrevrange", -4, READONLY, 1, 1, 1),
    c("xsetid", -3, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("xtrim", -4, WRITE, 1, 1, 1),
    c("zadd", -4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("zcard", 2, READONLY | FAST, 1, 1, 1),
    c("zcount", 4, READONLY | FAST, 1, 1, 1),
    c("zdiff", -3, READONLY | MOVABLEKEYS, 0, 0, 0),
    c("zdiffstore", -4, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
    c("zincrby", 4, WRITE | DENYOOM | FAST, 1, 1, 1),
    c("zinter", -3, READONLY | MOVABLEKEYS, 0, 0, 0),
    c("zintercard", -3, READONLY | MOVABLEKEYS, 0, 0, 0),
    c("zinterstore", -4, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
    c("zlexcount", 4, READONLY | FAST, 1, 1, 1),
    c("zmpop", -4, WRITE | MOVABLEKEYS, 0, 0, 0),
    c("zmscore", -3, READONLY | FAST, 1, 1, 1),
    c("zpopmax", -2, WRITE | FAST, 1, 1, 1),
    c("zpopmin", -2, WRITE | FAST, 1, 1, 1),
    c("zrandmember", -2, READONLY, 1, 1, 1),
    c("zrange", -4, READONLY, 1, 1, 1),
    c("zrangebylex", -4, READONLY, 1, 1, 1),
    c("zrangebyscore", -4, READONLY, 1, 1, 1),
    c("zrangestore", -5, WRITE | DENYOOM, 1, 2, 1),
    c("zrank", 3, READONLY | FAST, 1, 1, 1),
    c("zrem", -3, WRITE | FAST, 1, 1, 1),
    c("zremrangebylex", 4, WRITE, 1, 1, 1),
    c("zremrangebyrank", 4, WRITE, 1, 1, 1),
    c("zremrangebyscore", 4, WRITE, 1, 1, 1),
    c("zrevrange", -4, READONLY, 1, 1, 1),
    c("zrevrangebylex", -4, READONLY, 1, 1, 1),
    c("zrevrangebyscore", -4, READONLY, 1, 1, 1),
    c("zrevrank", 3, READONLY | FAST, 1, 1, 1),
    c("zscan", -3, READONLY, 1, 1, 1),
    c("zscore", 3, READONLY | FAST, 1, 1, 1),
    c("zunion", -3, READONLY | MOVABLEKEYS, 0, 0, 0),
    c("zunionstore", -4, WRITE | DENYOOM | MOVABLEKEYS, 1, 1, 1),
];
// END GENERATED TABLE

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_lower_case_and_unique() {
        assert!(COMMANDS.windows(2).all(|w| w[0].name < w[1].name));
        for cmd in COMMANDS {
            assert_eq!(cmd.name, cmd.name.to_ascii_lowercase());
            if let Some(container) = cmd.container() {
                let parent = command(container).expect("a subcommand's container is listed");
                assert!(parent.subcommands().contains(cmd));
            }
        }
    }

    #[test]
    fn script_relevant_flags() {
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
        assert!(config.subcommands().iter().any(|c| c.name == "config|set"));
        assert!(command("get").unwrap().subcommands().is_empty());
    }

    #[test]
    fn resolve_as_redis_does() {
        assert_eq!(resolve("config", Some("get")).unwrap().name, "config|get");
        assert_eq!(resolve("CONFIG", Some("GeT")).unwrap().name, "config|get");
        assert_eq!(resolve("config", None).unwrap().name, "config");
        assert!(resolve("config", Some("nosuch")).is_none());
        assert!(resolve("config|get", Some("maxmemory")).is_none());
        assert_eq!(resolve("get", Some("k")).unwrap().name, "get");
        assert!(resolve("nosuch", None).is_none());
        assert!(command("config").unwrap().has_subcommands());
        assert!(!command("get").unwrap().has_subcommands());
        assert_eq!(suggest("lpsuh"), Some("lpush"));
        assert_eq!(suggest("HGETAL"), Some("hgetall"));
        assert_eq!(suggest("get"), None);
        assert_eq!(suggest("xyzzyq"), None);
        // Arity: `config` alone fails the arity check before `noscript`.
        assert!(!resolve("config", None).unwrap().accepts_word_count(1));
        let get = command("get").unwrap();
        assert!(get.accepts_word_count(2) && !get.accepts_word_count(3));
        let set = command("set").unwrap();
        assert!(!set.accepts_word_count(2) && set.accepts_word_count(5));
    }
}
