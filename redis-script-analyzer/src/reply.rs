//! What a script can reply, as far as its text settles it: the replies the
//! reply-shape rule traces from each `return` (`rules/reply_shape.rs`) and
//! judges against the declared type ([`crate::reply_type::fits`]).
//!
//! Texts and elements are kept where the script spells them out, because
//! redis-rs converts by content as well as by kind: the bulk string `"12"`
//! becomes an `i64`, `"locked"` does not; the status `OK` is a `bool`, an
//! integer is never a tuple.

/// One reply a script can send. The RESP3 kinds (a map, a set, a double,
/// a big number, a verbatim string, and Lua's `false` after
/// `redis.setresp(3)`) reach a client as [`Protocol`] makes them
/// ([`Reply::received`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Not settled by the text: any reply.
    Any,
    /// Nil (a Lua `nil`, or `false` while the script replies in RESP2).
    Nil,
    /// An integer (`:1`; Lua numbers and `true`).
    Integer,
    /// A RESP3 double (`{double = n}`; ZSCORE's reply after
    /// `redis.setresp(3)`): the bulk string of its text on RESP2.
    Double,
    /// A RESP3 map (`{map = ...}`; HGETALL's reply after
    /// `redis.setresp(3)`): a flat array of keys and values on RESP2.
    Map,
    /// A RESP3 set (`{set = ...}`): an array of its members on RESP2.
    Set,
    /// A RESP3 big number (`{big_number = '...'}`), with its digits when
    /// the text settles them: a bulk string on RESP2.
    BigNumber(Option<Vec<u8>>),
    /// A RESP3 verbatim string (`{verbatim_string = ...}`): a bulk string
    /// on RESP2.
    Verbatim,
    /// Lua's `false` after `redis.setresp(3)`: a RESP3 boolean, which the
    /// bindings read as nil, on RESP3; the integer 0 on RESP2.
    False,
    /// A bulk string, with its bytes when the text settles them.
    String(Option<Vec<u8>>),
    /// A stream ID (`1700000000000-0`): a bulk string that no number nor
    /// boolean type takes.
    StreamId,
    /// A status (`+OK`), with its text when the text settles it.
    Status(Option<Vec<u8>>),
    /// An array.
    Array(Elements),
}

/// What the text settles about an array's elements: the ones it certainly
/// begins with, and whether there are no more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Elements {
    /// The replies each leading element can be.
    pub leading: Vec<Vec<Reply>>,
    /// Whether the array holds exactly `leading`.
    pub exact: bool,
}

impl Elements {
    /// Nothing known: any number of any elements.
    pub const UNKNOWN: Elements = Elements {
        leading: Vec::new(),
        exact: false,
    };
}

/// The protocol a client speaks to the server: what it receives of a
/// script's reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    Resp2,
    Resp3,
}

impl Protocol {
    /// Both, in the order findings name them.
    pub(crate) const BOTH: [Protocol; 2] = [Protocol::Resp2, Protocol::Resp3];

    /// Its name in a message: `RESP2`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Protocol::Resp2 => "RESP2",
            Protocol::Resp3 => "RESP3",
        }
    }
}

impl Reply {
    /// What a client on `protocol` receives of this reply, through a
    /// binding (which reads a RESP3 boolean `false` as nil): on RESP2 a
    /// RESP3 kind as the server sends it there; on RESP3 as it is.
    pub(crate) fn received(&self, protocol: Protocol) -> Reply {
        match (self, protocol) {
            (Reply::False, Protocol::Resp2) => Reply::Integer,
            (Reply::False, Protocol::Resp3) => Reply::Nil,
            (Reply::Map | Reply::Set, Protocol::Resp2) => Reply::ARRAY,
            (Reply::Double | Reply::Verbatim, Protocol::Resp2) => Reply::STRING,
            (Reply::BigNumber(digits), Protocol::Resp2) => Reply::String(digits.clone()),
            (Reply::Array(elements), _) => Reply::Array(Elements {
                leading: elements
                    .leading
                    .iter()
                    .map(|element| {
                        element
                            .iter()
                            .map(|reply| reply.received(protocol))
                            .collect()
                    })
                    .collect(),
                exact: elements.exact,
            }),
            (other, _) => other.clone(),
        }
    }

    /// A bulk string of unknown text.
    pub const STRING: Reply = Reply::String(None);
    /// An array of unknown elements.
    pub const ARRAY: Reply = Reply::Array(Elements::UNKNOWN);

    /// A status of this text.
    pub fn status(text: &str) -> Reply {
        Reply::Status(Some(text.as_bytes().to_vec()))
    }

    /// Whether the reply may be nil (the end of a Lua array).
    pub fn may_be_nil(&self) -> bool {
        matches!(self, Reply::Any | Reply::Nil | Reply::False)
    }

    /// The reply in words: "an integer", `the string "locked"`.
    fn describe(&self) -> String {
        let text = |bytes: &[u8]| format!("{:?}", String::from_utf8_lossy(bytes));
        match self {
            Reply::Any => "anything".to_owned(),
            Reply::Nil => "nil".to_owned(),
            Reply::Integer => "an integer".to_owned(),
            Reply::Double => "a double".to_owned(),
            Reply::Map => "a map".to_owned(),
            Reply::Set => "a set".to_owned(),
            Reply::BigNumber(_) => "a big number".to_owned(),
            Reply::Verbatim => "a verbatim string".to_owned(),
            Reply::False => "false".to_owned(),
            Reply::String(None) => "a string".to_owned(),
            Reply::String(Some(bytes)) => format!("the string {}", text(bytes)),
            Reply::StreamId => "a stream ID".to_owned(),
            Reply::Status(None) => "a status".to_owned(),
            Reply::Status(Some(bytes)) => format!("the status {}", text(bytes)),
            Reply::Array(Elements {
                leading,
                exact: true,
            }) if !leading.is_empty() => match leading.len() {
                1 => "an array of 1 element".to_owned(),
                n => format!("an array of {n} elements"),
            },
            Reply::Array(_) => "an array".to_owned(),
        }
    }

    /// The order replies are named in: integers, strings, statuses, arrays,
    /// maps, sets, doubles, RESP3's strings, false, nil.
    fn rank(&self) -> u8 {
        match self {
            Reply::Integer => 0,
            Reply::String(_) | Reply::StreamId => 1,
            Reply::Status(_) => 2,
            Reply::Array(_) => 3,
            Reply::Map => 4,
            Reply::Set => 5,
            Reply::Double => 6,
            Reply::BigNumber(_) | Reply::Verbatim => 7,
            Reply::False => 8,
            Reply::Nil => 9,
            Reply::Any => 10,
        }
    }
}

/// `replies` in words, each named once: "an integer or nil".
pub(crate) fn describe(replies: &[Reply]) -> String {
    let mut sorted: Vec<&Reply> = replies.iter().collect();
    sorted.sort_by_key(|reply| reply.rank());
    let mut names: Vec<String> = Vec::new();
    for reply in sorted {
        let name = reply.describe();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "nothing".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_named_once_in_a_fixed_order() {
        let replies = [
            Reply::Nil,
            Reply::status("OK"),
            Reply::Integer,
            Reply::Integer,
            Reply::String(Some(b"locked".to_vec())),
        ];
        assert_eq!(
            describe(&replies),
            "an integer, the string \"locked\", the status \"OK\" or nil"
        );
        let pair = Reply::Array(Elements {
            leading: vec![vec![Reply::Integer], vec![Reply::STRING]],
            exact: true,
        });
        assert_eq!(describe(&[pair]), "an array of 2 elements");
        assert_eq!(describe(&[]), "nothing");
    }
}
