//! What a command replies, as the generated table holds it: the [`kind`]s
//! of reply, their set ([`Kinds`]), an array's [`Length`], and a command's
//! [`Replies`].

/// The kinds of reply, one bit each, as a script receives them on RESP2;
/// and the ones RESP3 adds, which a script receives only after
/// `redis.setresp(3)` ([`Replies::resp3`](super::Replies::resp3)).
pub mod kind {
    /// An integer (`:1`).
    pub const INTEGER: u16 = 1 << 0;
    /// A string: a bulk string, or a status whose text the schema leaves open.
    pub const STRING: u16 = 1 << 1;
    /// A status of one of the texts [`Replies::statuses`](super::Replies::statuses) lists.
    pub const STATUS: u16 = 1 << 2;
    /// An array (`object` replies too, on RESP2).
    pub const ARRAY: u16 = 1 << 3;
    /// Nil: a nil bulk string or array, `false` in Lua (`nil` on RESP3).
    pub const NIL: u16 = 1 << 4;
    /// A RESP3 map (`{map = ...}` in Lua): an array on RESP2.
    pub const MAP: u16 = 1 << 5;
    /// A RESP3 set (`{set = ...}` in Lua): an array on RESP2.
    pub const SET: u16 = 1 << 6;
    /// A RESP3 double (`{double = n}` in Lua): a bulk string on RESP2.
    pub const DOUBLE: u16 = 1 << 7;
    /// A RESP3 boolean (`true`/`false` in Lua): an integer on RESP2.
    pub const BOOLEAN: u16 = 1 << 8;

    /// The RESP2 kind a RESP3 kind is sent as on RESP2 (itself for the
    /// kinds both have).
    pub const fn on_resp2(kind: u16) -> u16 {
        match kind {
            MAP | SET => ARRAY,
            DOUBLE => STRING,
            BOOLEAN => INTEGER,
            other => other,
        }
    }
}

/// The pattern of a stream ID (`1700000000000-0`), as the schemas write it
/// for `XADD`'s reply: a string no number or boolean type takes.
pub const STREAM_ID: &str = "[0-9]+-[0-9]+";

/// A set of [`kind`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds(pub u16);

impl Kinds {
    /// Does the set have every bit of `kinds` (e.g. `kind::NIL`)?
    pub const fn contains(self, kinds: u16) -> bool {
        self.0 & kinds == kinds
    }

    /// The set without the bits of `kinds`.
    pub const fn without(self, kinds: u16) -> Kinds {
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
    /// The kinds a script receives after `redis.setresp(3)`: maps, sets,
    /// doubles and booleans where the schema says so (an array of unique
    /// items may be a set or an array); `None` where nothing says
    /// (a reply only seen on RESP2).
    pub resp3: Option<Kinds>,
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
    pub const fn of(kinds: u16) -> Replies {
        Replies {
            kinds: Kinds(kinds),
            statuses: &[],
            pattern: None,
            length: Length::Unknown,
            elements: None,
            resp3: Some(Kinds(kinds)),
        }
    }

    /// These replies narrowed to `kinds` (RESP2 kinds of the union, as the
    /// arguments pick them), RESP3's narrowed alike: each RESP3 kind of
    /// the union kept where the RESP2 kind it is sent as is kept.
    pub fn narrowed(self, kinds: u16) -> Replies {
        let bits = || (0..u16::BITS).map(|shift| 1u16 << shift);
        let resp3 = self.resp3.map(|Kinds(union)| {
            let kept = bits()
                .filter(|bit| union & bit != 0 && kinds & kind::on_resp2(*bit) != 0)
                .fold(0, |all, bit| all | bit);
            // A RESP2 kind that no kept RESP3 kind is sent as (where the
            // server corrects its schema) stays itself.
            let uncovered = bits()
                .filter(|bit| kinds & bit != 0)
                .filter(|bit| {
                    !bits().any(|other| kept & other != 0 && kind::on_resp2(other) == *bit)
                })
                .fold(0, |all, bit| all | bit);
            Kinds(kept | uncovered)
        });
        Replies {
            kinds: Kinds(kinds),
            resp3,
            ..self
        }
    }

    /// Whether one of the replies is nil.
    pub const fn may_be_nil(&self) -> bool {
        self.kinds.contains(kind::NIL)
    }
}

/// One row of the generated table: `name`, its [`kind`]s, statuses,
/// string pattern, fixed array length, element kinds, and kinds after
/// `redis.setresp(3)`.
pub(crate) const fn r(
    name: &'static str,
    kinds: u16,
    statuses: &'static [&'static str],
    pattern: Option<&'static str>,
    length: Option<usize>,
    elements: Option<u16>,
    resp3: Option<u16>,
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
            resp3: match resp3 {
                Some(bits) => Some(Kinds(bits)),
                None => None,
            },
        },
    }
}
