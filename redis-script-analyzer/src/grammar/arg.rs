//! One argument of a command's grammar ([`Arg`]), as `COMMAND DOCS` gives
//! it, and a command's tree on a set of servers ([`Grammar`]).

use crate::servers::Servers;

/// What an argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A key name.
    Key,
    /// Any text (`string`).
    Text,
    /// A glob-style pattern.
    Pattern,
    /// An integer.
    Integer,
    /// A floating-point number.
    Double,
    /// A Unix time, an integer.
    UnixTime,
    /// Its token alone (`pure-token`: `NX`).
    Token,
    /// One of its nested arguments.
    OneOf,
    /// Its nested arguments in order.
    Block,
}

/// The argument may be left out.
pub(super) const O: u8 = 1;
/// The argument may be repeated.
pub(super) const M: u8 = 2;
/// Each repetition repeats its token too (`GET p [GET p ...]`).
pub(super) const T: u8 = 4;

/// One argument.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Arg {
    pub(crate) kind: Kind,
    flags: u8,
    /// The word that comes first (`EX` of `EX seconds`); empty for none.
    pub(crate) token: &'static str,
    /// Its name in the documentation (`seconds`).
    pub(crate) name: &'static str,
    /// A `oneof`'s choices, or a `block`'s parts.
    pub(crate) args: &'static [Arg],
    /// As a choice of a `oneof`: the other choices (bits of their indexes)
    /// the server refuses in one call with it, as the binary answered
    /// (`NX` of EXPIRE with `XX`, `GT` and `LT`; SORT takes `ASC` with
    /// `DESC`).
    pub(crate) excludes: u32,
}

impl Arg {
    pub(crate) const fn optional(&self) -> bool {
        self.flags & O != 0
    }

    pub(crate) const fn multiple(&self) -> bool {
        self.flags & M != 0
    }

    /// Whether each repetition starts with the token again.
    pub(crate) const fn multiple_token(&self) -> bool {
        self.flags & T != 0
    }

    /// Whether its first word is always a token: a word the server
    /// recognises, so the server finds it wherever it stands among the
    /// other such arguments.
    pub(crate) fn token_led(&self) -> bool {
        !self.token.is_empty()
            || match self.kind {
                Kind::OneOf => !self.args.is_empty() && self.args.iter().all(Arg::token_led),
                Kind::Block => self.args.first().is_some_and(Arg::token_led),
                _ => false,
            }
    }
}

/// A command's arguments on some servers.
#[derive(Debug)]
pub(crate) struct Grammar {
    /// The command, lower case (`object|encoding` for a subcommand).
    pub(crate) name: &'static str,
    /// The servers whose documentation gives this tree.
    pub(crate) servers: Servers,
    /// The arguments after the name (and a subcommand's name).
    pub(crate) args: &'static [Arg],
}

/// A word alone.
pub(super) const fn t(flags: u8, token: &'static str) -> Arg {
    Arg {
        kind: Kind::Token,
        flags,
        token,
        name: "",
        args: &[],
        excludes: 0,
    }
}

/// A value, after its token if it has one.
pub(super) const fn v(kind: Kind, flags: u8, token: &'static str, name: &'static str) -> Arg {
    Arg {
        kind,
        flags,
        token,
        name,
        args: &[],
        excludes: 0,
    }
}

/// A `oneof` or a `block`.
pub(super) const fn a(
    kind: Kind,
    flags: u8,
    token: &'static str,
    name: &'static str,
    args: &'static [Arg],
) -> Arg {
    Arg {
        kind,
        flags,
        token,
        name,
        args,
        excludes: 0,
    }
}

/// A choice that excludes the others whose indexes are the bits of
/// `excludes`.
pub(super) const fn x(excludes: u32, choice: Arg) -> Arg {
    Arg { excludes, ..choice }
}

/// A command's tree on `servers`.
pub(super) const fn g(name: &'static str, servers: Servers, args: &'static [Arg]) -> Grammar {
    Grammar {
        name,
        servers,
        args,
    }
}
