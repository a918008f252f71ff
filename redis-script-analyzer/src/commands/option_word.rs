//! One word of a command's arguments ([`OptionWord`]) and the servers
//! that take it: a row of the generated table of words.

use super::lookup::command;
use crate::servers::{Product, Server, Servers};

/// One word of a command's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionWord {
    /// The command, as the command tables name it: lower case,
    /// `container|sub` for a subcommand.
    pub command: &'static str,
    /// The word, as the documentation writes it (upper case): `NX`.
    pub token: &'static str,
    /// What follows the word, as the documentation types it (`integer`,
    /// `unix-time`, `NORMAL|MASTER|...`, `integer integer` for two
    /// values); empty for a flag, which stands alone.
    pub value: &'static str,
    /// The first Redis version that takes it; empty when Redis does not.
    redis_since: &'static str,
    /// The first Valkey version that takes it; empty when Valkey does not.
    valkey_since: &'static str,
}

impl OptionWord {
    /// A word alone (`NX`), not followed by a value (`EX 10`).
    pub const fn is_flag(&self) -> bool {
        self.value.is_empty()
    }

    /// The first version of `product` that takes the word (`6.2.0`), as
    /// its documentation says; `None` when that product does not.
    pub fn since(&self, product: Product) -> Option<&'static str> {
        let since = match product {
            Product::Redis => self.redis_since,
            Product::Valkey => self.valkey_since,
        };
        (!since.is_empty()).then_some(since)
    }

    /// Whether `server` takes the word: it has the command, and its
    /// release is no older than the word's `since` (a release covers each
    /// of its patch versions).
    pub fn is_on(&self, server: Server) -> bool {
        let Some(since) = self.since(server.product()) else {
            return false;
        };
        let (major, minor, _) = version(server.release());
        version(since) <= (major, minor, u32::MAX) && command(server, self.command).is_some()
    }

    /// The servers of `servers` that do not take the word.
    pub fn missing_on(&self, servers: Servers) -> Servers {
        servers.filter(|server| !self.is_on(server))
    }
}

/// `major.minor.patch` of `7.2.0` (and of `7.4`); a part that is missing
/// or not a number reads as 0.
fn version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

/// One row of the generated table: the command, the word, the value it
/// takes (empty: a flag), its `since` on Redis and on Valkey (empty: not
/// there).
pub(crate) const fn o(
    command: &'static str,
    token: &'static str,
    value: &'static str,
    redis_since: &'static str,
    valkey_since: &'static str,
) -> OptionWord {
    OptionWord {
        command,
        token,
        value,
        redis_since,
        valkey_since,
    }
}
