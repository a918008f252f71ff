//! What the caller declares about a script: its keys and arguments, the
//! type its reply goes into, the servers it must run on, and what not to
//! report ([`Declared`]).

use crate::diagnostic::Allowed;
use crate::reply_type::{ReplyKind, RustType};
use crate::rule::Checker;
use crate::servers::{Server, Servers};

/// What the caller's declaration says about the script.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Declared {
    /// Keys (`KEYS` has indexes 1 to `keys`).
    pub(crate) keys: usize,
    /// Fixed ARGV values.
    pub(crate) args: usize,
    /// Whether a variable tail (`#[variadic]`) may add more ARGV values.
    pub(crate) variadic: bool,
    /// Whether KEYS may hold more than `keys` values: a checker that does
    /// not know the count (the `redis-lua` tool on a script without a
    /// header) sets it, and then no KEYS index is out of range.
    pub(crate) variadic_keys: bool,
    /// What the declared return type makes of a Lua `nil` or `false`.
    pub(crate) reply: ReplyKind,
    /// The declared return type, as far as its name tells: the reply-shape
    /// check refuses it if it takes none of the script's replies
    /// ([`RustType::Other`] takes any).
    pub(crate) reply_type: RustType,
    /// `#!lua flags=no-writes` ([`crate::analyze`] takes it from the shebang).
    pub(crate) read_only: bool,
    /// The findings not to report.
    pub(crate) allowed: Allowed,
    /// The servers the script must run on.
    pub(crate) servers: Servers,
    /// Who checks, which words the notes on allowing a finding.
    pub(crate) checker: Checker,
    /// Whether the script must run on Redis Cluster (or behind a proxy that
    /// routes by KEYS): a key that does not come from KEYS is an error
    /// there ([`Rule::UndeclaredKey`](crate::Rule::UndeclaredKey)).
    pub(crate) cluster: bool,
}

/// Built from [`Declared::default`], one setting at a time:
/// `Declared::default().keys(1).args(2)`.
impl Declared {
    /// Keys (`KEYS` has indexes 1 to `keys`).
    #[must_use]
    pub fn keys(mut self, keys: usize) -> Declared {
        self.keys = keys;
        self
    }

    /// Fixed ARGV values.
    #[must_use]
    pub fn args(mut self, args: usize) -> Declared {
        self.args = args;
        self
    }

    /// Whether a variable tail (`#[variadic]`) may add more ARGV values.
    #[must_use]
    pub fn variadic(mut self, variadic: bool) -> Declared {
        self.variadic = variadic;
        self
    }

    /// Whether KEYS may hold more than `keys` values: a checker that does
    /// not know the count (the `redis-lua` tool on a script without a
    /// header) sets it, and then no KEYS index is out of range.
    #[must_use]
    pub fn variadic_keys(mut self, variadic_keys: bool) -> Declared {
        self.variadic_keys = variadic_keys;
        self
    }

    /// What the declared return type makes of a Lua `nil` or `false`.
    #[must_use]
    pub fn reply(mut self, reply: ReplyKind) -> Declared {
        self.reply = reply;
        self
    }

    /// The declared return type, as far as its name tells: the reply-shape
    /// check refuses it if it takes none of the script's replies
    /// ([`RustType::Other`] takes any).
    #[must_use]
    pub fn reply_type(mut self, reply_type: RustType) -> Declared {
        self.reply_type = reply_type;
        self
    }

    /// `#!lua flags=no-writes` ([`crate::analyze`] takes it from the shebang).
    #[must_use]
    pub fn read_only(mut self, read_only: bool) -> Declared {
        self.read_only = read_only;
        self
    }

    /// The findings not to report.
    #[must_use]
    pub fn allowed(mut self, allowed: Allowed) -> Declared {
        self.allowed = allowed;
        self
    }

    /// The servers the script must run on.
    #[must_use]
    pub fn servers(mut self, servers: Servers) -> Declared {
        self.servers = servers;
        self
    }

    /// Who checks, which words the notes on allowing a finding.
    #[must_use]
    pub fn checker(mut self, checker: Checker) -> Declared {
        self.checker = checker;
        self
    }

    /// Whether the script must run on Redis Cluster (or behind a proxy that
    /// routes by KEYS): a key that does not come from KEYS is an error
    /// there ([`Rule::UndeclaredKey`](crate::Rule::UndeclaredKey)).
    #[must_use]
    pub fn cluster(mut self, cluster: bool) -> Declared {
        self.cluster = cluster;
        self
    }
}

impl Declared {
    /// The first targeted server, to name where all of them agree.
    pub(crate) fn first_target(&self) -> Server {
        self.servers.iter().next().unwrap_or(Server::Redis7_0)
    }
}

/// No keys, no arguments, a reply that is not checked, every server.
impl Default for Declared {
    fn default() -> Declared {
        Declared {
            keys: 0,
            args: 0,
            variadic: false,
            variadic_keys: false,
            reply: ReplyKind::Unknown,
            reply_type: RustType::Other,
            read_only: false,
            allowed: Allowed::NONE,
            servers: Servers::ALL,
            checker: Checker::Attribute,
            cluster: false,
        }
    }
}
