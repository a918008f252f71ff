//! What a command is, as `COMMAND` reports it: its name, arity, flags and
//! key positions ([`Command`]), and a row of the one generated table
//! ([`Entry`]): a form of a command and the servers that give it.

use std::fmt;

use self::flag::*;
use crate::servers::{Server, Servers};

/// The command flags, one bit each, named as `COMMAND` names them in upper
/// case: those redis-server 7.0.15, valkey-server 8.1.8 and 9.1.2 report (they hide
/// some internal ones, such as `may_replicate`). A server reporting a flag
/// missing here makes the generated table fail to build: add it here and to [`FLAG_NAMES`].
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
}

/// One row of the generated table: a command's form on some servers.
#[derive(Debug)]
pub(crate) struct Entry {
    /// The servers that give the command this form.
    pub(crate) servers: Servers,
    pub(crate) command: Command,
}

/// One row of the generated table: `servers` give the command `name`
/// this form.
pub(crate) const fn e(
    servers: Servers,
    name: &'static str,
    arity: i32,
    flags: u32,
    first_key: i32,
    last_key: i32,
    key_step: i32,
) -> Entry {
    Entry {
        servers,
        command: Command {
            name,
            arity,
            flags: Flags(flags),
            first_key,
            last_key,
            key_step,
        },
    }
}
