//! One command's facts about its key's type on some servers ([`TypeUse`]),
//! and the types a key may hold ([`KeyTypes`]): what the generated table
//! is made of.

use crate::servers::Servers;

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
    pub(super) name: &'static str,
    pub(super) servers: Servers,
    /// The type any key holds after the command's smallest call succeeds
    /// (0: none certain).
    pub(crate) creates: KeyTypes,
    /// The types of an existing key on which the call fails with WRONGTYPE.
    pub(crate) wrongtype_on: KeyTypes,
    /// Whether it makes nothing of a missing key when its values are empty
    /// (`SETRANGE k 0 ''`).
    pub(crate) needs_values: bool,
}

/// A row of the table.
pub(super) const fn u(
    name: &'static str,
    servers: Servers,
    creates: KeyTypes,
    wrongtype_on: KeyTypes,
    needs_values: bool,
) -> TypeUse {
    TypeUse {
        name,
        servers,
        creates,
        wrongtype_on,
        needs_values,
    }
}
