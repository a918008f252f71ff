//! The servers a script can target: one [`Profile`] each, in one list
//! (`servers!` below), holding everything the checks know about that server.
//!
//! A crate picks its targets in its `Cargo.toml`
//! (`[package.metadata.redis-script] servers = [...]`, read by the
//! proc-macro crate's `manifest`), a binding with `servers = [...]`, the
//! `redis-lua` tool in `redis-lua.toml` or with `--server`; the checks
//! accept a global, a library member, a command or a shebang only if every
//! targeted server accepts it. Without a setting, every server here is a
//! target: a script that passes runs on each.
//!
//! Adding a server is its specifications (in the analyzer's `specs/`
//! folder), one line in the list below (`servers!`), and `cargo xtask
//! codegen`, which puts its commands in the one command table.

use std::fmt;

use crate::rule::Checker;

use self::sandbox_extra::{OS_CLOCK, VALKEY_NAMES};

/// Which server family a [`Server`] belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Product {
    /// Redis (Redis Open Source, formerly Redis Community Edition).
    Redis,
    /// Valkey.
    Valkey,
}

impl Product {
    /// `Redis`, `Valkey`.
    pub const fn name(self) -> &'static str {
        match self {
            Product::Redis => "Redis",
            Product::Valkey => "Valkey",
        }
    }
}

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a server's command table comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Read from the server binary's `COMMAND`.
    Binary,
    /// Derived from a newer server's `COMMAND` and `COMMAND DOCS` (each
    /// command's and argument's `since` and history), for a release with no
    /// binary at hand.
    Derived {
        /// The server whose data it is derived from.
        from: Server,
    },
}

/// How a server words its refusal of a `redis.call` (see the docs of
/// [`crate::commands`]), as `EVAL` replies them (after `ERR `, before
/// ` script: ...`); checked by `script_errors_follow_the_table` in the
/// repository's `tests/integration/analyzer/tables.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallRefusals {
    /// No such command: "Unknown Redis command called from script".
    pub unknown: &'static str,
    /// Whether a known container with no such subcommand gets words of its
    /// own ([`CallRefusals::unknown_subcommand`]) rather than [`unknown`](Self::unknown).
    pub names_unknown_subcommand: bool,
    /// The arity check: "Wrong number of args calling Redis command from script".
    pub arity: &'static str,
    /// A `noscript` command: "This Redis command is not allowed from script".
    pub noscript: &'static str,
    /// A write (or [`Profile::may_replicate`]) command in a read-only script.
    pub write_in_read_only: &'static str,
}

impl CallRefusals {
    /// The words for `redis.call(container, sub, ...)` when `container` (as
    /// the script wrote it) has no subcommand `sub`: [`unknown`](Self::unknown),
    /// or on Valkey 9.1 "unknown subcommand 'nosuch'. Try CONFIG HELP.".
    pub fn unknown_subcommand(&self, container: &str, sub: &str) -> String {
        if self.names_unknown_subcommand {
            format!(
                "unknown subcommand '{sub}'. Try {} HELP.",
                container.to_ascii_uppercase()
            )
        } else {
            self.unknown.to_owned()
        }
    }
}

/// What the server's Lua sandbox has beyond Redis 7.0's, one bit each (a
/// [`Profile::sandbox_extras`]).
pub(crate) mod sandbox_extra {
    /// The `os` table with `os.clock` (Redis 7.4 and Valkey 8.0 on).
    pub(crate) const OS_CLOCK: u8 = 1 << 0;
    /// Valkey's names: the `server` table (the `redis` table under another
    /// name), `redis.SERVER_NAME`, `redis.VALKEY_VERSION` and
    /// `redis.VALKEY_VERSION_NUM`.
    pub(crate) const VALKEY_NAMES: u8 = 1 << 1;
}

/// How a server reads a script's `#!` line (see [`crate::shebang`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShebangRules {
    /// Whether the engine name is matched in any case (`#!LUA`), not only
    /// as `#!lua`.
    pub(crate) engine_any_case: bool,
    /// Whether a part goes on after its closing quote (`'a'b` is `ab`)
    /// rather than the line being refused.
    pub(crate) continues_after_quote: bool,
}

/// Everything the checks know about one server.
#[derive(Debug)]
pub struct Profile {
    /// The server this profile describes.
    pub server: Server,
    /// The name the settings use: `redis-8.2`.
    pub key: &'static str,
    /// As a diagnostic says it: `Redis 8.2`.
    pub name: &'static str,
    /// Redis or Valkey.
    pub product: Product,
    /// The server's words for a refused call.
    pub refusals: CallRefusals,
    /// The commands (flagged neither `write` nor `noscript`) that the server
    /// flags `may-replicate`, which it refuses in read-only scripts like
    /// writes; `COMMAND` does not report that flag. Found by calling every
    /// such command in a `no-writes` script
    /// (`read_only_scripts_refuse_what_the_table_says` in the repository's
    /// `tests/integration/analyzer/tables.rs`); sorted.
    pub may_replicate: &'static [&'static str],
    /// What its sandbox has beyond Redis 7.0's ([`sandbox_extra`] bits).
    pub(crate) sandbox_extras: u8,
    /// How it reads a script's `#!` line.
    pub(crate) shebang: ShebangRules,
}

// The facts the servers of a family share, checked on each server with a
// binary (Redis 7.0 and 8.2, Valkey 8.1 and 9.1) and carried to the Redis
// releases between them, where both ends agree; Valkey 8.0's were read in
// its source (tag 8.0.1): 8.1's words and `may_replicate`, Redis's strict
// `#!lua`.
const WRITE_IN_READ_ONLY: &str = "Write commands are not allowed from read-only scripts";
const REDIS_REFUSALS: CallRefusals = CallRefusals {
    unknown: "Unknown Redis command called from script",
    names_unknown_subcommand: false,
    arity: "Wrong number of args calling Redis command from script",
    noscript: "This Redis command is not allowed from script",
    write_in_read_only: WRITE_IN_READ_ONLY,
};
const VALKEY_8_REFUSALS: CallRefusals = CallRefusals {
    unknown: "Unknown command called from script",
    names_unknown_subcommand: false,
    arity: "Wrong number of args calling command from script",
    noscript: "This Redis command is not allowed from script",
    write_in_read_only: WRITE_IN_READ_ONLY,
};
const VALKEY_9_REFUSALS: CallRefusals = CallRefusals {
    unknown: "Unknown command called from script",
    names_unknown_subcommand: true,
    arity: "Wrong number of args calling command from script",
    noscript: "This Valkey command is not allowed from script",
    write_in_read_only: WRITE_IN_READ_ONLY,
};
const REDIS_MAY_REPLICATE: &[&str] = &["pfcount", "publish", "spublish"];
const VALKEY_8_MAY_REPLICATE: &[&str] = &["cluster|setslot", "pfcount", "publish", "spublish"];
const VALKEY_9_MAY_REPLICATE: &[&str] = &[
    "cluster|setslot",
    "cluster|syncslots",
    "pfcount",
    "publish",
    "spublish",
];
const REDIS_SHEBANG: ShebangRules = ShebangRules {
    engine_any_case: false,
    continues_after_quote: false,
};
const VALKEY_8_1_SHEBANG: ShebangRules = ShebangRules {
    engine_any_case: true,
    continues_after_quote: false,
};
const VALKEY_9_SHEBANG: ShebangRules = ShebangRules {
    engine_any_case: true,
    continues_after_quote: true,
};

/// Declares the servers, one line each: the [`Server`] variant and its
/// [`Profile`]. The order is the order diagnostics consider them (and the
/// generated command table's): Redis, then Valkey, each oldest first.
macro_rules! servers {
    ($($(#[doc = $doc:literal])+ $variant:ident => { $($field:ident: $value:expr),+ $(,)? })+) => {
        /// One server the tables describe.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Server {
            $($(#[doc = $doc])+ $variant,)+
        }

        /// Every server's profile, in [`Server`] order.
        pub(crate) static PROFILES: [Profile; [$(Server::$variant),+].len()] = [
            $(Profile { server: Server::$variant, $($field: $value),+ },)+
        ];
    };
}

servers! {
    /// Redis 7.0.
    Redis7_0 => { key: "redis-7.0", name: "Redis 7.0", product: Product::Redis, refusals: REDIS_REFUSALS, may_replicate: REDIS_MAY_REPLICATE, sandbox_extras: 0, shebang: REDIS_SHEBANG }
    /// Redis 7.2.
    Redis7_2 => { key: "redis-7.2", name: "Redis 7.2", product: Product::Redis, refusals: REDIS_REFUSALS, may_replicate: REDIS_MAY_REPLICATE, sandbox_extras: 0, shebang: REDIS_SHEBANG }
    /// Redis 7.4.
    Redis7_4 => { key: "redis-7.4", name: "Redis 7.4", product: Product::Redis, refusals: REDIS_REFUSALS, may_replicate: REDIS_MAY_REPLICATE, sandbox_extras: OS_CLOCK, shebang: REDIS_SHEBANG }
    /// Redis 8.0.
    Redis8_0 => { key: "redis-8.0", name: "Redis 8.0", product: Product::Redis, refusals: REDIS_REFUSALS, may_replicate: REDIS_MAY_REPLICATE, sandbox_extras: OS_CLOCK, shebang: REDIS_SHEBANG }
    /// Redis 8.2.
    Redis8_2 => { key: "redis-8.2", name: "Redis 8.2", product: Product::Redis, refusals: REDIS_REFUSALS, may_replicate: REDIS_MAY_REPLICATE, sandbox_extras: OS_CLOCK, shebang: REDIS_SHEBANG }
    /// Valkey 8.0.
    Valkey8_0 => { key: "valkey-8.0", name: "Valkey 8.0", product: Product::Valkey, refusals: VALKEY_8_REFUSALS, may_replicate: VALKEY_8_MAY_REPLICATE, sandbox_extras: OS_CLOCK | VALKEY_NAMES, shebang: REDIS_SHEBANG }
    /// Valkey 8.1.
    Valkey8_1 => { key: "valkey-8.1", name: "Valkey 8.1", product: Product::Valkey, refusals: VALKEY_8_REFUSALS, may_replicate: VALKEY_8_MAY_REPLICATE, sandbox_extras: OS_CLOCK | VALKEY_NAMES, shebang: VALKEY_8_1_SHEBANG }
    /// Valkey 9.1.
    Valkey9_1 => { key: "valkey-9.1", name: "Valkey 9.1", product: Product::Valkey, refusals: VALKEY_9_REFUSALS, may_replicate: VALKEY_9_MAY_REPLICATE, sandbox_extras: OS_CLOCK | VALKEY_NAMES, shebang: VALKEY_9_SHEBANG }
}

impl Server {
    /// Every server, in the order diagnostics consider them: the order of
    /// the list of profiles.
    pub const ALL: [Server; PROFILES.len()] = {
        let mut all = [Server::Redis7_0; PROFILES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = PROFILES[i].server;
            i += 1;
        }
        all
    };

    /// Everything the checks know about the server.
    pub const fn profile(self) -> &'static Profile {
        &PROFILES[self as usize]
    }

    /// The name the settings use: `redis-7.0`.
    pub const fn key(self) -> &'static str {
        self.profile().key
    }

    /// As a diagnostic says it: `Redis 7.0`.
    pub const fn name(self) -> &'static str {
        self.profile().name
    }

    /// The product alone: `Redis`, `Valkey`.
    pub const fn product(self) -> Product {
        self.profile().product
    }

    /// The release, as the settings' key ends: `7.4`.
    pub fn release(self) -> &'static str {
        let key = self.key();
        key.split_once('-').map_or(key, |(_, release)| release)
    }

    /// The server that the settings call `key`.
    pub fn from_key(key: &str) -> Option<Server> {
        Server::ALL.into_iter().find(|server| server.key() == key)
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Server`]s: the targets of a crate, or where a name exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Servers(u16);

impl Servers {
    /// Every server: the default target, since a script that passes runs on all.
    pub const ALL: Servers = Servers((1 << Server::ALL.len()) - 1);
    /// Every Valkey, without Redis.
    pub const VALKEY: Servers = Servers::of(Product::Valkey);
    /// Every Redis, without Valkey.
    pub const REDIS: Servers = Servers::of(Product::Redis);

    /// `server` alone.
    pub const fn only(server: Server) -> Servers {
        Servers(server.bit())
    }

    /// No server.
    pub const fn empty() -> Servers {
        Servers(0)
    }

    /// Every server of `product`.
    pub const fn of(product: Product) -> Servers {
        let mut set = Servers::empty();
        let mut i = 0;
        while i < PROFILES.len() {
            if PROFILES[i].product as u8 == product as u8 {
                set = set.with(PROFILES[i].server);
            }
            i += 1;
        }
        set
    }

    /// Every server whose sandbox has all of `extras` ([`sandbox_extra`]
    /// bits; 0: every server).
    pub(crate) const fn with_sandbox(extras: u8) -> Servers {
        let mut set = Servers::empty();
        let mut i = 0;
        while i < PROFILES.len() {
            if PROFILES[i].sandbox_extras & extras == extras {
                set = set.with(PROFILES[i].server);
            }
            i += 1;
        }
        set
    }

    /// The set and `server`.
    pub const fn with(self, server: Server) -> Servers {
        Servers(self.0 | server.bit())
    }

    /// The servers in either set.
    pub const fn union(self, other: Servers) -> Servers {
        Servers(self.0 | other.0)
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

    /// `"redis-7.0", "valkey-9.1"`: the keys, quoted, to list them.
    pub fn quoted_keys(self) -> String {
        let keys: Vec<String> = self.iter().map(|s| format!("{:?}", s.key())).collect();
        keys.join(", ")
    }

    /// `["redis-7.0", "valkey-9.1"]`: the list the settings take.
    pub(crate) fn keys_list(self) -> String {
        format!("[{}]", self.quoted_keys())
    }

    /// Where and what to write in `Cargo.toml` to target exactly these
    /// servers.
    pub(crate) fn cargo_toml(self) -> String {
        format!(
            "`servers = {}` under [package.metadata.redis-script]",
            self.keys_list()
        )
    }

    /// The setting that targets exactly these servers, as `checker` reads
    /// its settings.
    pub fn setting(self, checker: Checker) -> String {
        match checker {
            Checker::Attribute => format!(
                "write in the crate's Cargo.toml {} (or, for one `#[redis_script]` or \
                 `#[redis_function]` binding, `servers = {}` in its attribute)",
                self.cargo_toml(),
                self.keys_list()
            ),
            Checker::CommandLine => {
                let flags: Vec<String> = self
                    .iter()
                    .map(|s| format!("--server {}", s.key()))
                    .collect();
                format!(
                    "write in redis-lua.toml: servers = {}, or pass {}",
                    self.keys_list(),
                    flags.join(" ")
                )
            }
        }
    }
}

impl Default for Servers {
    fn default() -> Servers {
        Servers::ALL
    }
}

/// The note for something that some targets accept and others refuse:
/// every server that has it, and the setting (as `checker` reads it) that
/// targets only those.
pub(crate) fn only_on_note(accepted_by: Servers, checker: Checker) -> String {
    format!(
        "it exists on {} only; to target those, {}",
        accepted_by.names(),
        accepted_by.setting(checker)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_sets() {
        assert_eq!(Server::from_key("redis-7.0"), Some(Server::Redis7_0));
        assert_eq!(Server::from_key("redis-8.2"), Some(Server::Redis8_2));
        assert_eq!(Server::from_key("valkey-8.1"), Some(Server::Valkey8_1));
        assert_eq!(Server::from_key("valkey-9.1"), Some(Server::Valkey9_1));
        assert_eq!(Server::from_key("redis"), None);
        assert_eq!(Server::from_key("valkey-9"), None);
        assert!(Servers::ALL.covers(Servers::VALKEY));
        assert!(!Servers::VALKEY.covers(Servers::ALL));
        assert!(!Servers::VALKEY.contains(Server::Redis7_0));
        assert_eq!(
            Servers::VALKEY.names(),
            "Valkey 8.0, Valkey 8.1 and Valkey 9.1"
        );
        assert_eq!(
            Servers::REDIS.names(),
            "Redis 7.0, Redis 7.2, Redis 7.4, Redis 8.0 and Redis 8.2"
        );
        assert_eq!(Servers::only(Server::Valkey9_1).names(), "Valkey 9.1");
        assert_eq!(Servers::empty().names(), "");
        let two = Servers::only(Server::Redis8_2).with(Server::Valkey9_1);
        assert_eq!(
            two.cargo_toml(),
            "`servers = [\"redis-8.2\", \"valkey-9.1\"]` under [package.metadata.redis-script]"
        );
        assert_eq!(
            two.setting(Checker::CommandLine),
            "write in redis-lua.toml: servers = [\"redis-8.2\", \"valkey-9.1\"], or pass \
             --server redis-8.2 --server valkey-9.1"
        );
        assert!(
            two.setting(Checker::Attribute)
                .ends_with("`servers = [\"redis-8.2\", \"valkey-9.1\"]` in its attribute)")
        );
        assert_eq!(
            Servers::ALL.filter(|s| s.product() == Product::Valkey),
            Servers::VALKEY
        );
        assert_eq!(Server::Redis7_4.release(), "7.4");
        assert_eq!(Server::Redis7_0.version(), "7.0.15");
        assert_eq!(Server::Redis8_2.version(), "8.2.3");
        assert_eq!(Server::Redis7_4.version(), "7.4");
        assert_eq!(Server::Valkey8_1.version(), "8.1.8");
        assert_eq!(Server::Valkey9_1.version(), "9.1.2");
        // Each server has a bit of its own, and ALL has them all.
        for server in Server::ALL {
            assert_eq!(Servers::only(server).iter().collect::<Vec<_>>(), [server]);
        }
        assert!(Servers::ALL.iter().eq(Server::ALL));
    }

    #[test]
    fn one_profile_per_server_in_order() {
        for (index, server) in Server::ALL.into_iter().enumerate() {
            let profile = server.profile();
            assert_eq!(profile.server, server);
            assert_eq!(server as usize, index);
            assert_eq!(
                profile.key,
                profile.name.to_ascii_lowercase().replace(' ', "-"),
                "{server}: the key is the name"
            );
            assert!(profile.name.starts_with(profile.product.name()));
            assert!(server.version().starts_with(server.release()));
            assert!(
                server
                    .version()
                    .starts_with(&profile.key[profile.key.len() - 3..]),
                "{server}: version {}",
                server.version()
            );
            assert!(server.commands().next().is_some(), "{server}");
            assert!(profile.may_replicate.windows(2).all(|w| w[0] < w[1]));
            if let Origin::Derived { from } = server.origin() {
                assert_eq!(from.origin(), Origin::Binary);
                assert_eq!(from.product(), profile.product);
            }
        }
        assert_eq!(Servers::with_sandbox(0), Servers::ALL);
        assert_eq!(
            Servers::with_sandbox(sandbox_extra::VALKEY_NAMES),
            Servers::VALKEY
        );
        assert!(!Servers::with_sandbox(sandbox_extra::OS_CLOCK).contains(Server::Redis7_2));
        assert!(Servers::with_sandbox(sandbox_extra::OS_CLOCK).contains(Server::Redis7_4));
    }

    #[test]
    fn refusal_words() {
        let words = |server: Server| server.profile().refusals;
        assert_eq!(
            words(Server::Redis7_0).unknown_subcommand("config", "x"),
            words(Server::Redis7_0).unknown
        );
        assert_eq!(
            words(Server::Valkey9_1).unknown_subcommand("Config", "NoSuch"),
            "unknown subcommand 'NoSuch'. Try CONFIG HELP."
        );
        assert_eq!(words(Server::Redis8_2), words(Server::Redis7_0));
        assert_eq!(
            words(Server::Valkey9_1).noscript,
            "This Valkey command is not allowed from script"
        );
    }
}
