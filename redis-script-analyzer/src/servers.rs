//! The servers a script can target, and the one place that names each
//! one's version.
//!
//! A crate picks its targets in its `Cargo.toml`
//! (`[package.metadata.redis-script] servers = [...]`, read by
//! the proc-macro crate's `manifest`); the checks accept a global, a library member, a
//! command or a shebang only if every targeted server accepts it.

use std::fmt;

use crate::commands::Command;
use crate::commands::{redis_7_0, valkey_8_1, valkey_9_1};

/// One server the tables describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Server {
    /// Redis 7.0 (the tables come from 7.0.15).
    Redis7_0,
    /// Valkey 8.1 (the tables come from 8.1.8).
    Valkey8_1,
    /// Valkey 9.1 (the tables come from 9.1.2).
    Valkey9_1,
}

impl Server {
    /// Every server, in the order diagnostics consider them.
    pub const ALL: [Server; 3] = [Server::Redis7_0, Server::Valkey8_1, Server::Valkey9_1];

    /// The name `Cargo.toml` uses: `redis-7.0`.
    pub const fn key(self) -> &'static str {
        match self {
            Server::Redis7_0 => "redis-7.0",
            Server::Valkey8_1 => "valkey-8.1",
            Server::Valkey9_1 => "valkey-9.1",
        }
    }

    /// As a diagnostic says it: `Redis 7.0`.
    pub const fn name(self) -> &'static str {
        match self {
            Server::Redis7_0 => "Redis 7.0",
            Server::Valkey8_1 => "Valkey 8.1",
            Server::Valkey9_1 => "Valkey 9.1",
        }
    }

    /// The product alone: `Redis`, `Valkey`.
    pub const fn product(self) -> &'static str {
        match self {
            Server::Redis7_0 => "Redis",
            Server::Valkey8_1 | Server::Valkey9_1 => "Valkey",
        }
    }

    /// The exact version the tables were read from: `7.0.15`.
    pub const fn version(self) -> &'static str {
        match self {
            Server::Redis7_0 => redis_7_0::VERSION,
            Server::Valkey8_1 => valkey_8_1::VERSION,
            Server::Valkey9_1 => valkey_9_1::VERSION,
        }
    }

    /// The command table read from this server's `COMMAND`.
    pub fn commands(self) -> &'static [Command] {
        match self {
            Server::Redis7_0 => redis_7_0::COMMANDS,
            Server::Valkey8_1 => valkey_8_1::COMMANDS,
            Server::Valkey9_1 => valkey_9_1::COMMANDS,
        }
    }

    /// The server that `Cargo.toml` calls `key`.
    pub fn from_key(key: &str) -> Option<Server> {
        Server::ALL.into_iter().find(|server| server.key() == key)
    }

    const fn bit(self) -> u8 {
        match self {
            Server::Redis7_0 => 1,
            Server::Valkey8_1 => 2,
            Server::Valkey9_1 => 4,
        }
    }
}

impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Server`]s: the targets of a crate, or where a name exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Servers(u8);

impl Servers {
    /// Every server: the default target, since a script that passes runs on all.
    pub const ALL: Servers = Servers::only(Server::Redis7_0)
        .with(Server::Valkey8_1)
        .with(Server::Valkey9_1);
    /// Every Valkey (8.1 and 9.1), without Redis.
    pub const VALKEY: Servers = Servers::only(Server::Valkey8_1).with(Server::Valkey9_1);

    /// `server` alone.
    pub const fn only(server: Server) -> Servers {
        Servers(server.bit())
    }

    /// No server.
    pub const fn empty() -> Servers {
        Servers(0)
    }

    /// The set and `server`.
    pub const fn with(self, server: Server) -> Servers {
        Servers(self.0 | server.bit())
    }

    /// The servers in both sets.
    pub const fn and(self, other: Servers) -> Servers {
        Servers(self.0 & other.0)
    }

    /// Whether `server` is in the set.
    pub const fn contains(self, server: Server) -> bool {
        self.0 & server.bit() != 0
    }

    /// Whether every server of `other` is in the set.
    pub const fn covers(self, other: Servers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set has no server.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The servers in the set, in [`Server::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Server> {
        Server::ALL
            .into_iter()
            .filter(move |server| self.contains(*server))
    }

    /// The servers of `self` that `accepts` says yes to.
    pub fn filter(self, accepts: impl Fn(Server) -> bool) -> Servers {
        self.iter()
            .filter(|server| accepts(*server))
            .fold(Servers::empty(), Servers::with)
    }

    /// `Redis 7.0, Valkey 8.1 and Valkey 9.1`, for a diagnostic.
    pub fn names(self) -> String {
        let names: Vec<&str> = self.iter().map(Server::name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    /// The `Cargo.toml` lines that target exactly these servers.
    pub fn cargo_toml(self) -> String {
        let keys: Vec<String> = self.iter().map(|s| format!("{:?}", s.key())).collect();
        format!(
            "[package.metadata.redis-script] servers = [{}]",
            keys.join(", ")
        )
    }
}

impl Default for Servers {
    fn default() -> Servers {
        Servers::ALL
    }
}

/// The note for something that some targets accept and others refuse:
/// where it works, and how to target only those servers.
pub fn only_on_note(accepted_by: Servers) -> String {
    format!(
        "it exists on {0} only; to target only {0}, write in the crate's Cargo.toml: {1}",
        accepted_by.names(),
        accepted_by.cargo_toml()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_sets() {
        assert_eq!(Server::from_key("redis-7.0"), Some(Server::Redis7_0));
        assert_eq!(Server::from_key("valkey-8.1"), Some(Server::Valkey8_1));
        assert_eq!(Server::from_key("valkey-9.1"), Some(Server::Valkey9_1));
        assert_eq!(Server::from_key("redis"), None);
        assert_eq!(Server::from_key("valkey-9"), None);
        assert!(Servers::ALL.covers(Servers::VALKEY));
        assert!(!Servers::VALKEY.covers(Servers::ALL));
        assert!(!Servers::VALKEY.contains(Server::Redis7_0));
        assert_eq!(Servers::ALL.names(), "Redis 7.0, Valkey 8.1 and Valkey 9.1");
        assert_eq!(Servers::VALKEY.names(), "Valkey 8.1 and Valkey 9.1");
        assert_eq!(Servers::only(Server::Valkey9_1).names(), "Valkey 9.1");
        assert_eq!(Servers::empty().names(), "");
        assert_eq!(
            Servers::VALKEY.cargo_toml(),
            "[package.metadata.redis-script] servers = [\"valkey-8.1\", \"valkey-9.1\"]"
        );
        assert_eq!(
            Servers::ALL.filter(|s| s.product() == "Valkey"),
            Servers::VALKEY
        );
        assert_eq!(Server::Redis7_0.version(), "7.0.15");
        assert_eq!(Server::Valkey8_1.version(), "8.1.8");
        assert_eq!(Server::Valkey9_1.version(), "9.1.2");
        // Each server has a bit of its own, and ALL has them all.
        for server in Server::ALL {
            assert_eq!(Servers::only(server).iter().collect::<Vec<_>>(), [server]);
        }
        assert!(Servers::ALL.iter().eq(Server::ALL));
    }
}
