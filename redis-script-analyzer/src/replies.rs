//! What a Redis command replies to a script: the kinds of reply
//! `redis.call(name, args...)` can give, as Lua receives them on RESP2 (a
//! script's default), and whether one of them is nil.
//!
//! The facts come from the servers' command specifications: each command's
//! `reply_schema` (a JSON Schema of every reply on RESP2 and RESP3), turned
//! into [`Replies`] by a generator and checked in as `replies/table.rs`
//! ([`REPLIES`], sorted by name, as the command tables name commands:
//! lower case, `container|sub` for a subcommand). The generator is
//! `cargo xtask codegen` (the repository's `xtask/src/replies.rs`), which
//! reads Valkey's specification files of each release as
//! `specs/valkey-*-files.json` store them (`cargo xtask codegen --check`
//! says whether the file is current). A command none of them gives a
//! schema (Redis's vector sets, `XDELEX`) takes the kinds of reply its
//! binary was seen to send in every form its options give, stored beside
//! the binary's `COMMAND DOCS`. A test in the repository's
//! `tests/integration/analyzer/reply_conformance.rs` drives a sample of
//! commands through `EVAL` on the real server and checks each reply against
//! these facts. A schema maps to RESP2 as a script sees it:
//!
//! - `integer`, and an integer `const` (`0`, `1`, `-2`): an integer;
//!   `boolean` too (`:1` / `:0` on RESP2).
//! - `string`: a string, bulk or status (the schemas do not tell them
//!   apart, so [`kind::STRING`] stands for both); a `pattern` kept where
//!   it says more than "some text" ([`STREAM_ID`]).
//! - a string `const` at the top (`"OK"`, `"PONG"`): that status.
//! - `number` (a RESP3 double): the bulk string of its text.
//! - `array`, and `object` (a RESP3 map, flattened or paired on RESP2): an
//!   array; its length where every array alternative fixes it
//!   (`minItems == maxItems`), its elements' kinds where every one says them.
//! - `null`: nil (Lua's `false`).
//! - no `type` (EVAL's "whatever the script returns"): the command is left
//!   out, and replies anything.
//!
//! On top of that union, a small hand-written layer ([`call_replies`])
//! keeps what a schema cannot say: which alternative the arguments pick
//! (`SET` without `NX`/`XX`/`GET` replies only `OK`; `LPOP key` a string or
//! nil, `LPOP key count` an array or nil; `ZRANK` without `WITHSCORE` an
//! integer or nil; `ZADD` with `INCR`; `XADD` nil only with `NOMKSTREAM`;
//! `LPOS` with `COUNT`; `PING` with a message; `MGET`, `HMGET`, `ZMSCORE`,
//! `SMISMEMBER`, `GEOPOS` one element per name), and the few places where
//! the server says more than its schema (`TYPE`'s statuses).
//! Where the arguments would pick and the text does not settle them (a
//! variable option, `unpack(ARGV)` last), those commands reply anything;
//! every other command replies its union whatever its arguments.

mod kinds;
mod table;

pub use self::kinds::{CommandReplies, Kinds, Length, Replies, STREAM_ID, kind};
pub use self::table::REPLIES;

/// What the specifications say `name` (any case; `container|sub` for a
/// subcommand) replies; `None` for a command they give no reply schema.
pub fn command_replies(name: &str) -> Option<&'static Replies> {
    REPLIES
        .binary_search_by(|row| {
            row.name
                .bytes()
                .cmp(name.bytes().map(|b| b.to_ascii_lowercase()))
        })
        .ok()
        .map(|index| &REPLIES[index].replies)
}

/// One argument of a command call, as far as the script's text settles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A literal string (`'NX'`, `'field'`).
    Word(&'a [u8]),
    /// One value the text does not spell (`KEYS[1]`, `ARGV[2]`, `10`).
    Value,
    /// Last, any number of values (`unpack(ARGV)`, a call, `...`).
    Spread,
}

/// What `redis.call(name, args...)` can reply (`name` in any case, `args`
/// after it); `None` where nothing is known: no schema, or arguments that
/// pick the reply and that the text does not settle (see the module docs).
pub fn call_replies(name: &str, args: &[Arg]) -> Option<Replies> {
    // A script names a subcommand by its container and a first argument.
    if name.contains('|') {
        return None;
    }
    let name = name.to_ascii_lowercase();
    let (name, args) = match args.split_first() {
        Some((Arg::Word(sub), rest)) if !sub.contains(&b'|') => {
            let full = format!("{name}|{}", String::from_utf8_lossy(sub));
            match command_replies(&full) {
                Some(_) => (full, rest),
                None => (name, args),
            }
        }
        _ => (name, args),
    };
    let union = *command_replies(&name)?;
    let spread = matches!(args.last(), Some(Arg::Spread));
    let only = |kinds: u16| Replies {
        kinds: Kinds(kinds),
        ..union
    };
    use kind::*;
    let refined = match name.as_str() {
        // One element per key, field or member named.
        "mget" => one_each(union, args),
        "hmget" | "zmscore" | "smismember" | "geopos" => one_each(union, args.get(1..)?),
        _ if spread && argument_dependent(&name) => return None,
        "set" => set_replies(args.get(2..)?)?,
        "ping" => match args {
            [] => Replies {
                statuses: &["PONG"],
                ..Replies::of(STATUS)
            },
            _ => Replies::of(STRING),
        },
        // The key alone pops or picks one, or nil; a count, an array.
        "lpop" | "rpop" | "spop" | "srandmember" | "hrandfield" | "zrandmember" => match args {
            [_] => Replies::of(STRING | NIL),
            _ => Replies {
                length: Length::Unknown,
                elements: Some(Kinds(STRING)),
                // On a missing key LPOP/RPOP with a count reply nil, the
                // others an empty array.
                ..Replies::of(
                    ARRAY
                        | if matches!(name.as_str(), "lpop" | "rpop") {
                            NIL
                        } else {
                            0
                        },
                )
            },
        },
        "zrank" | "zrevrank" => match args {
            [_, _] => Replies::of(INTEGER | NIL),
            _ => Replies {
                length: Length::Exactly(2),
                ..only(ARRAY | NIL)
            },
        },
        // `INCR` makes it reply the new score, nil when a condition fails.
        "zadd" => {
            let flags = zadd_flags(args);
            let has = |flag: &str| {
                flags
                    .iter()
                    .any(|f| f.eq_ignore_ascii_case(flag.as_bytes()))
            };
            if has("INCR") {
                let conditional = ["NX", "XX", "GT", "LT"].into_iter().any(has);
                Replies::of(STRING | if conditional { NIL } else { 0 })
            } else {
                Replies::of(INTEGER)
            }
        }
        "xadd" => match xadd_creates_stream(args) {
            Some(true) => Replies {
                kinds: union.kinds.without(NIL),
                ..union
            },
            Some(false) => union,
            None => return None,
        },
        "lpos" if lpos_option(args.get(2..).unwrap_or_default(), b"COUNT") => Replies {
            elements: Some(Kinds(INTEGER)),
            ..Replies::of(ARRAY)
        },
        "lpos" if options_settled(args.get(2..).unwrap_or_default()) => Replies::of(INTEGER | NIL),
        "lpos" => return None,
        // The match itself, its length with `LEN`, the ranges with `IDX`
        // (an array; a map on RESP3).
        "lcs" => match lcs_reply(args.get(2..).unwrap_or_default())? {
            LcsReply::Match => only(STRING),
            LcsReply::Length => only(INTEGER),
            LcsReply::Ranges => only(ARRAY),
        },
        // The schemas say "string" and "null"; the server replies a status,
        // "none" for a missing key.
        "type" => Replies {
            statuses: TYPE_NAMES,
            ..Replies::of(STATUS)
        },
        _ => union,
    };
    // What RESP3 sends of the kinds the arguments leave.
    Some(Replies {
        resp3: union.narrowed(refined.kinds.0).resp3,
        ..refined
    })
}

/// The flags of `ZADD key flags... score member ...`: the literal words
/// after the key that are flags; the first other argument is a score.
fn zadd_flags<'a>(args: &[Arg<'a>]) -> Vec<&'a [u8]> {
    const FLAGS: [&[u8]; 7] = [b"NX", b"XX", b"GT", b"LT", b"CH", b"INCR", b"KEEPTTL"];
    args.iter()
        .skip(1)
        .map_while(|arg| match arg {
            Arg::Word(word) if FLAGS.iter().any(|f| word.eq_ignore_ascii_case(f)) => Some(*word),
            _ => None,
        })
        .collect()
}

/// Whether `XADD key options... id field value ...` creates a missing
/// stream: its options (before the ID) lack `NOMKSTREAM`; `None` where a
/// computed argument stands where an option could.
fn xadd_creates_stream(args: &[Arg]) -> Option<bool> {
    let mut options = args.iter().skip(1);
    while let Some(option) = options.next() {
        let Arg::Word(word) = option else {
            return None;
        };
        let is = |name: &[u8]| word.eq_ignore_ascii_case(name);
        if is(b"NOMKSTREAM") {
            return Some(false);
        } else if is(b"MAXLEN") || is(b"MINID") {
            // `[= | ~] threshold`
            match options.next()? {
                Arg::Word(mark) if mark == b"=" || mark == b"~" => {
                    options.next()?;
                }
                _ => {}
            }
        } else if is(b"LIMIT") {
            options.next()?;
        } else {
            // The ID: the options are over.
            return Some(true);
        }
    }
    None
}

/// What `LCS key1 key2 options...` replies.
enum LcsReply {
    Match,
    Length,
    Ranges,
}

/// What the options of `LCS` make it reply; `None` where a computed
/// argument stands where an option could.
fn lcs_reply(options: &[Arg]) -> Option<LcsReply> {
    let mut reply = LcsReply::Match;
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let Arg::Word(word) = option else {
            return None;
        };
        if word.eq_ignore_ascii_case(b"IDX") {
            reply = LcsReply::Ranges;
        } else if word.eq_ignore_ascii_case(b"LEN") {
            if !matches!(reply, LcsReply::Ranges) {
                reply = LcsReply::Length;
            }
        } else if word.eq_ignore_ascii_case(b"MINMATCHLEN") {
            options.next();
        }
    }
    Some(reply)
}

/// Whether `LPOS key element options...` names `option` among its options,
/// each a word followed by its value.
fn lpos_option(options: &[Arg], option: &[u8]) -> bool {
    options
        .iter()
        .step_by(2)
        .any(|arg| matches!(arg, Arg::Word(word) if word.eq_ignore_ascii_case(option)))
}

/// Whether the text settles which options `LPOS key element options...`
/// has: each is a literal word, or the value after `RANK` or `MAXLEN`.
fn options_settled(options: &[Arg]) -> bool {
    let mut options = options.iter();
    while let Some(option) = options.next() {
        match option {
            Arg::Word(word)
                if word.eq_ignore_ascii_case(b"RANK") || word.eq_ignore_ascii_case(b"MAXLEN") =>
            {
                options.next();
            }
            Arg::Word(_) => {}
            _ => return false,
        }
    }
    true
}

/// The statuses `TYPE` replies for the core types and Redis 8's vector
/// sets; a module's type replies its own name, a status like these, which
/// no declared type tells apart from them.
const TYPE_NAMES: &[&str] = &[
    "none",
    "string",
    "list",
    "set",
    "zset",
    "hash",
    "stream",
    "vectorset",
];

/// The commands whose reply [`call_replies`] picks by their arguments.
fn argument_dependent(name: &str) -> bool {
    matches!(
        name,
        "set"
            | "ping"
            | "lpop"
            | "rpop"
            | "spop"
            | "srandmember"
            | "hrandfield"
            | "zrandmember"
            | "zrank"
            | "zrevrank"
            | "zadd"
            | "xadd"
            | "lpos"
            | "lcs"
    )
}

/// An array of one element for each of `named`, of the kinds the union
/// gives its elements; at least as many when the last is a spread.
fn one_each(union: Replies, named: &[Arg]) -> Replies {
    let length = match named.split_last() {
        Some((Arg::Spread, rest)) => Length::AtLeast(rest.len()),
        _ => Length::Exactly(named.len()),
    };
    Replies { length, ..union }
}

/// The replies of `SET key value options...`, when every option is a
/// literal: the old value or nil with `GET`, `OK` or nil with `NX`/`XX`,
/// else `OK`.
fn set_replies(options: &[Arg]) -> Option<Replies> {
    let (mut get, mut conditional) = (false, false);
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let Arg::Word(word) = option else {
            return None;
        };
        match word.to_ascii_uppercase().as_slice() {
            b"GET" => get = true,
            b"NX" | b"XX" => conditional = true,
            // The expiry itself may be any value.
            b"EX" | b"PX" | b"EXAT" | b"PXAT" => {
                options.next()?;
            }
            b"KEEPTTL" => {}
            _ => return None,
        }
    }
    let ok = |kinds| Replies {
        statuses: &["OK"],
        ..Replies::of(kinds)
    };
    Some(match (get, conditional) {
        (true, _) => Replies::of(kind::STRING | kind::NIL),
        (false, true) => ok(kind::STATUS | kind::NIL),
        (false, false) => ok(kind::STATUS),
    })
}

/// Whether `redis.call(name, args...)` can reply nil.
pub(crate) fn may_reply_nil(name: &str, args: &[Arg]) -> bool {
    call_replies(name, args).is_some_and(|replies| replies.may_be_nil())
}

/// How many leading elements of the reply of `redis.call(name, args...)`
/// may each be nil (`MGET`'s, `HMGET`'s): `None` unless the reply is an
/// array whose length the call settles and whose elements may be nil.
pub(crate) fn nil_able_elements(name: &str, args: &[Arg]) -> Option<usize> {
    let replies = call_replies(name, args)?;
    let nil_able = replies
        .elements
        .is_some_and(|elements| elements.contains(kind::NIL));
    match replies.length {
        Length::Exactly(n) if nil_able => Some(n),
        _ => None,
    }
}

/// The arguments of a call as [`call_replies`] reads them: a last call or
/// `...` is a spread.
pub(crate) fn args_of(exprs: &[crate::syntax::tree::Expr]) -> Vec<Arg<'_>> {
    use crate::syntax::tree::Expr;
    exprs
        .iter()
        .enumerate()
        .map(|(index, expr)| match expr {
            Expr::String(text, _) => Arg::Word(text),
            _ if index + 1 == exprs.len() && crate::semantic::is_multi(expr) => Arg::Spread,
            _ => Arg::Value,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::kind::*;
    use super::*;

    fn words(args: &[&'static str]) -> Vec<Arg<'static>> {
        args.iter().map(|word| Arg::Word(word.as_bytes())).collect()
    }

    fn call(name: &str, args: &[&'static str]) -> Replies {
        call_replies(name, &words(args)).unwrap_or_else(|| panic!("{name} {args:?}"))
    }

    #[test]
    fn the_table_is_sorted_lower_case_and_unique() {
        assert!(REPLIES.windows(2).all(|w| w[0].name < w[1].name));
        for row in REPLIES {
            assert_eq!(row.name, row.name.to_ascii_lowercase());
            let replies = row.replies;
            assert_ne!(replies.kinds, Kinds(0), "{}", row.name);
            assert_eq!(
                replies.kinds.contains(STATUS),
                !replies.statuses.is_empty(),
                "{}",
                row.name
            );
        }
        assert!(command_replies("GET").is_some());
        // EVAL replies what the script returns: no schema, no facts.
        assert!(command_replies("eval").is_none());
        assert!(command_replies("nosuch").is_none());
    }

    #[test]
    fn newer_servers_commands_have_facts() {
        // Redis 8 and Valkey 9's hash fields with their own expiry, from
        // Valkey 9.1's schemas: one element per field.
        let ttl = call("HTTL", &["h", "FIELDS", "1", "f"]);
        assert_eq!(
            (ttl.kinds, ttl.elements),
            (Kinds(ARRAY), Some(Kinds(INTEGER)))
        );
        assert_eq!(
            call("HSETEX", &["h", "FIELDS", "1", "f", "v"]).kinds,
            Kinds(INTEGER)
        );
        let fields = call("HGETDEL", &["h", "FIELDS", "1", "f"]);
        assert_eq!(fields.elements, Some(Kinds(STRING | NIL)));
        // Redis's vector sets, as the binary was seen to reply.
        assert_eq!(call("VCARD", &["v"]).kinds, Kinds(INTEGER));
        assert_eq!(call("VGETATTR", &["v", "e"]).kinds, Kinds(STRING | NIL));
        let similar = call("VSIM", &["v", "ELE", "e", "WITHATTRIBS"]);
        assert_eq!(similar.kinds, Kinds(ARRAY));
        assert_eq!(similar.length, Length::Unknown);
        // Valkey 8.0's schema forgot LMOVE's nil; 9.1's has it.
        assert!(may_reply_nil("lmove", &words(&["a", "b", "LEFT", "RIGHT"])));
    }

    #[test]
    fn schemas_give_what_the_hand_written_lists_lacked() {
        // A stream ID, nil only with NOMKSTREAM.
        let xadd = call("XADD", &["s", "*", "f", "v"]);
        assert_eq!(xadd.kinds, Kinds(STRING));
        assert_eq!(xadd.pattern, Some(STREAM_ID));
        assert!(may_reply_nil(
            "xadd",
            &words(&["s", "NOMKSTREAM", "*", "f", "v"])
        ));
        // A subcommand by its first argument.
        let encoding = call("OBJECT", &["ENCODING", "k"]);
        assert_eq!(encoding.kinds, Kinds(STRING | NIL));
        assert!(call_replies("object", &[Arg::Value, Arg::Value]).is_none());
        assert!(call_replies("object|encoding", &words(&["k"])).is_none());
        // A count picks an array.
        assert_eq!(call("HRANDFIELD", &["h"]).kinds, Kinds(STRING | NIL));
        let some = call("hrandfield", &["h", "2", "WITHVALUES"]);
        assert_eq!(
            (some.kinds, some.elements),
            (Kinds(ARRAY), Some(Kinds(STRING)))
        );
        assert_eq!(call("LPOS", &["l", "x"]).kinds, Kinds(INTEGER | NIL));
        assert_eq!(call("LPOS", &["l", "x", "COUNT", "0"]).kinds, Kinds(ARRAY));
        assert!(call_replies("lpos", &[Arg::Value, Arg::Value, Arg::Value, Arg::Value]).is_none());
        // LCS: the match, its length, or the ranges.
        assert_eq!(call("LCS", &["a", "b"]).kinds, Kinds(STRING));
        assert_eq!(call("lcs", &["a", "b", "len"]).kinds, Kinds(INTEGER));
        assert_eq!(
            call(
                "LCS",
                &["a", "b", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"]
            )
            .kinds,
            Kinds(ARRAY)
        );
        assert!(call_replies("lcs", &[Arg::Value, Arg::Value, Arg::Value]).is_none());
        // Fixed lengths.
        assert_eq!(call("TIME", &[]).length, Length::Exactly(2));
        assert_eq!(call("SCAN", &["0"]).length, Length::Exactly(2));
        let rank = call("ZRANK", &["z", "m", "WITHSCORE"]);
        assert_eq!(
            (rank.kinds, rank.length),
            (Kinds(ARRAY | NIL), Length::Exactly(2))
        );
        // Doubles are bulk strings on RESP2.
        assert_eq!(call("ZINCRBY", &["z", "1", "m"]).kinds, Kinds(STRING));
        assert_eq!(call("GEODIST", &["g", "a", "b"]).kinds, Kinds(STRING | NIL));
        // Fixed statuses, and integers that were missing.
        assert_eq!(call("BGSAVE", &[]).statuses.len(), 4);
        assert_eq!(call("FLUSHALL", &[]).statuses, ["OK"]);
        assert_eq!(call("GETEX", &["k"]).kinds, Kinds(STRING | NIL));
        assert_eq!(call("ZINTERCARD", &["1", "z"]).kinds, Kinds(INTEGER));
        assert_eq!(call("RANDOMKEY", &[]).kinds, Kinds(STRING | NIL));
        // One element per member, nil where missing.
        let positions = call_replies("GEOPOS", &[Arg::Value, Arg::Value, Arg::Value]).unwrap();
        assert_eq!(positions.length, Length::Exactly(2));
        assert_eq!(
            nil_able_elements("geopos", &[Arg::Value, Arg::Value]),
            Some(1)
        );
        // An object (a map on RESP3) is an array on RESP2.
        assert_eq!(call("HGETALL", &["h"]).kinds, Kinds(ARRAY));
    }

    #[test]
    fn the_arguments_pick_among_the_union() {
        assert_eq!(call("SET", &["k", "v"]).kinds, Kinds(STATUS));
        assert_eq!(call("SET", &["k", "v", "NX"]).kinds, Kinds(STATUS | NIL));
        assert_eq!(call("SET", &["k", "v", "GET"]).kinds, Kinds(STRING | NIL));
        assert!(call_replies("set", &[Arg::Value, Arg::Value, Arg::Value]).is_none());
        // A spread may hold options: the commands they pick for are unsettled ...
        for name in ["set", "zadd", "lpop", "zrank", "xadd", "ping"] {
            assert!(
                call_replies(name, &[Arg::Value, Arg::Spread]).is_none(),
                "{name}"
            );
            assert!(!may_reply_nil(name, &[Arg::Value, Arg::Spread]), "{name}");
        }
        // ... the others reply their union whatever the arguments.
        assert!(may_reply_nil("GET", &[Arg::Spread]));
        assert_eq!(
            call_replies("INCR", &[Arg::Spread]).map(|r| r.kinds),
            Some(Kinds(INTEGER))
        );
        assert_eq!(call("LPOP", &["l"]).kinds, Kinds(STRING | NIL));
        assert_eq!(call("LPOP", &["l", "2"]).kinds, Kinds(ARRAY | NIL));
        assert_eq!(call("SPOP", &["s", "2"]).kinds, Kinds(ARRAY));
        assert_eq!(call("ZRANK", &["z", "m"]).kinds, Kinds(INTEGER | NIL));
        assert_eq!(call("ZADD", &["z", "1", "m"]).kinds, Kinds(INTEGER));
        assert_eq!(call("ZADD", &["z", "INCR", "1", "m"]).kinds, Kinds(STRING));
        assert_eq!(
            call("ZADD", &["z", "XX", "INCR", "1", "m"]).kinds,
            Kinds(STRING | NIL)
        );
        assert_eq!(call("PING", &[]).statuses, ["PONG"]);
        assert_eq!(call("PING", &["hi"]).kinds, Kinds(STRING));
        assert_eq!(call("TYPE", &["k"]).kinds, Kinds(STATUS));
        assert!(may_reply_nil("lmove", &words(&["a", "b", "LEFT", "RIGHT"])));
    }

    #[test]
    fn options_are_read_where_they_stand_not_among_keys_and_values() {
        // An element, a field or a member that spells an option is data.
        let lpos = call("LPOS", &["list", "count"]);
        assert_eq!(lpos.kinds, Kinds(INTEGER | NIL));
        assert_eq!(
            call("LPOS", &["list", "x", "COUNT", "0"]).kinds,
            Kinds(ARRAY)
        );
        let xadd = call("XADD", &["s", "*", "nomkstream", "v"]);
        assert!(!xadd.kinds.contains(NIL));
        let xadd = call(
            "XADD",
            &["s", "MAXLEN", "~", "1000", "NOMKSTREAM", "*", "f", "v"],
        );
        assert!(xadd.kinds.contains(NIL));
        assert_eq!(call("ZADD", &["z", "1", "incr"]).kinds, Kinds(INTEGER));
        assert_eq!(
            call("ZADD", &["z", "XX", "INCR", "1", "m"]).kinds,
            Kinds(STRING | NIL)
        );
        // A computed argument where an option could stand settles nothing.
        let computed = [
            Arg::Word(b"s"),
            Arg::Value,
            Arg::Word(b"f"),
            Arg::Word(b"v"),
        ];
        assert_eq!(call_replies("XADD", &computed), None);
    }

    #[test]
    fn one_element_per_name() {
        let mget = call("MGET", &["a", "b", "c"]);
        assert_eq!(
            (mget.kinds, mget.length),
            (Kinds(ARRAY), Length::Exactly(3))
        );
        assert_eq!(mget.elements, Some(Kinds(STRING | NIL)));
        assert_eq!(
            nil_able_elements("hmget", &words(&["h", "a", "b"])),
            Some(2)
        );
        assert_eq!(nil_able_elements("zmscore", &words(&["z", "a"])), Some(1));
        // SMISMEMBER's elements are 0 or 1, never nil.
        assert_eq!(nil_able_elements("smismember", &words(&["s", "a"])), None);
        let spread = call_replies("HMGET", &[Arg::Value, Arg::Value, Arg::Spread]).unwrap();
        assert_eq!(spread.length, Length::AtLeast(1));
        assert_eq!(nil_able_elements("hmget", &[Arg::Value, Arg::Spread]), None);
        assert_eq!(nil_able_elements("hgetall", &words(&["h"])), None);
    }
}
