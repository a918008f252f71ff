//! What each command does to the type of its first key, as each server
//! binary answered when asked (the generated [`table`]): the type its
//! smallest call leaves on a missing key, and the types of an existing key
//! on which it fails with WRONGTYPE.
//!
//! Facts, like the command table: the key-type rule reads them; they read
//! nothing above the servers.

mod table;

use crate::servers::{Server, Servers};

/// A set of the types a key may hold, one bit each.
pub(crate) type KeyTypes = u8;

pub(crate) const STRING: KeyTypes = 1;
pub(crate) const LIST: KeyTypes = 2;
pub(crate) const HASH: KeyTypes = 4;
pub(crate) const SET: KeyTypes = 8;
pub(crate) const ZSET: KeyTypes = 16;
pub(crate) const STREAM: KeyTypes = 32;
/// A string holding a HyperLogLog, which the HyperLogLog commands make
/// and the others read as a string.
pub(crate) const HYPERLOGLOG: KeyTypes = 64;

/// One command's facts on some servers.
#[derive(Debug)]
pub(crate) struct TypeUse {
    name: &'static str,
    servers: Servers,
    /// The type a missing key holds after the command's smallest call
    /// (0: none).
    pub(crate) creates: KeyTypes,
    /// The types of an existing key on which the call fails with WRONGTYPE.
    pub(crate) wrongtype_on: KeyTypes,
}

const fn u(
    name: &'static str,
    servers: Servers,
    creates: KeyTypes,
    wrongtype_on: KeyTypes,
) -> TypeUse {
    TypeUse {
        name,
        servers,
        creates,
        wrongtype_on,
    }
}

/// The facts of `name` (lower case) on `server`; `None` for a command
/// that was not asked (one on no type of value, a blocking one).
pub(crate) fn type_use(server: Server, name: &str) -> Option<&'static TypeUse> {
    let start = table::USES.partition_point(|row| row.name < name);
    table::USES[start..]
        .iter()
        .take_while(|row| row.name == name)
        .find(|row| row.servers.contains(server))
}

/// A type as `TYPE` names it: `set`, `zset`.
pub(crate) fn name(key_type: KeyTypes) -> &'static str {
    match key_type {
        STRING => "string",
        LIST => "list",
        HASH => "hash",
        SET => "set",
        ZSET => "sorted set",
        STREAM => "stream",
        HYPERLOGLOG => "HyperLogLog",
        _ => "value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_answers_are_read_back() {
        let sadd = type_use(Server::Redis7_0, "sadd").expect("SADD was asked");
        assert_eq!(
            (sadd.creates, sadd.wrongtype_on),
            (SET, STRING | LIST | HASH | ZSET | STREAM | HYPERLOGLOG)
        );
        let set = type_use(Server::Valkey9_1, "set").expect("SET was asked");
        assert_eq!((set.creates, set.wrongtype_on), (STRING, 0));
        assert!(type_use(Server::Redis7_0, "del").is_none());
        assert!(type_use(Server::Redis7_0, "blpop").is_none());
    }
}
