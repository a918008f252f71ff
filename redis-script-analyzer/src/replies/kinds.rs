//! What a command replies, as the generated table holds it: the [`kind`]s
//! of reply, their set ([`Kinds`]), an array's [`Length`], and a command's
//! [`Replies`].

/// The kinds of reply, one bit each, as a script receives them on RESP2.
pub mod kind {
    /// An integer (`:1`).
    pub const INTEGER: u8 = 1 << 0;
    /// A string: a bulk string, or a status whose text the schema leaves open.
    pub const STRING: u8 = 1 << 1;
    /// A status of one of the texts [`Replies::statuses`](super::Replies::statuses) lists.
    pub const STATUS: u8 = 1 << 2;
    /// An array (`object` replies too).
    pub const ARRAY: u8 = 1 << 3;
    /// Nil: a nil bulk string or array, `false` in Lua.
    pub const NIL: u8 = 1 << 4;
}

/// The pattern of a stream ID (`1700000000000-0`), as the schemas write it
/// for `XADD`'s reply: a string no number or boolean type takes.
pub const STREAM_ID: &str = "[0-9]+-[0-9]+";

/// A set of [`kind`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds(pub u8);

impl Kinds {
    /// Does the set have every bit of `kinds` (e.g. `kind::NIL`)?
    pub const fn contains(self, kinds: u8) -> bool {
        self.0 & kinds == kinds
    }

    /// The set without the bits of `kinds`.
    pub const fn without(self, kinds: u8) -> Kinds {
        Kinds(self.0 & !kinds)
    }
}

/// How many elements an array reply has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Length {
    /// Not said.
    Unknown,
    /// Exactly this many.
    Exactly(usize),
    /// This many or more.
    AtLeast(usize),
}

/// What a command can reply, every alternative at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replies {
    /// The kinds of reply it can give.
    pub kinds: Kinds,
    /// The texts of its status replies ([`kind::STATUS`]), in the order
    /// the schema gives them.
    pub statuses: &'static [&'static str],
    /// The pattern every string reply matches (as the schema writes it),
    /// when it says more than "some text": [`STREAM_ID`].
    pub pattern: Option<&'static str>,
    /// How many elements an array reply has.
    pub length: Length,
    /// The kinds every element of an array reply can be, when said.
    pub elements: Option<Kinds>,
}

/// One row of [`REPLIES`](super::REPLIES).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandReplies {
    /// Lower case; a subcommand is `container|sub` (`object|encoding`).
    pub name: &'static str,
    /// What it can reply.
    pub replies: Replies,
}

impl Replies {
    /// Replies of these kinds, nothing more said.
    pub const fn of(kinds: u8) -> Replies {
        Replies {
            kinds: Kinds(kinds),
            statuses: &[],
            pattern: None,
            length: Length::Unknown,
            elements: None,
        }
    }

    /// Whether one of the replies is nil.
    pub const fn may_be_nil(&self) -> bool {
        self.kinds.contains(kind::NIL)
    }
}

/// One row of the generated table: `name`, its [`kind`]s, statuses,
/// string pattern, fixed array length and element kinds.
pub(crate) const fn r(
    name: &'static str,
    kinds: u8,
    statuses: &'static [&'static str],
    pattern: Option<&'static str>,
    length: Option<usize>,
    elements: Option<u8>,
) -> CommandReplies {
    CommandReplies {
        name,
        replies: Replies {
            kinds: Kinds(kinds),
            statuses,
            pattern,
            length: match length {
                Some(n) => Length::Exactly(n),
                None => Length::Unknown,
            },
            elements: match elements {
                Some(bits) => Some(Kinds(bits)),
                None => None,
            },
        },
    }
}
