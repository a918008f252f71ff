//! What each command does to the type of its first key, as each server
//! binary answered when asked (the generated [`table`]): the type its
//! smallest call leaves on a missing key, and the types of an existing key
//! on which it fails with WRONGTYPE.
//!
//! Facts, like the command table: the key-type rule reads them; they read
//! nothing above the servers.

mod table;
mod type_use;

pub(crate) use self::type_use::*;

use crate::servers::Server;

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
