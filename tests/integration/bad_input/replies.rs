//! Replies of every shape a server can send, into every return type a
//! binding can declare: never a panic; a value, or an error that names the
//! binding; and an integer type never wraps, saturates or truncates a value
//! out of its range into one that looks valid.
//!
//! The replies are `redis::Value` trees of every variant (RESP2 and RESP3:
//! nulls, integers, bulk and simple strings, OK, arrays, maps, sets,
//! attributes, pushes, doubles, booleans, verbatim strings, big numbers,
//! server errors), nested, empty and of the wrong type, made by proptest,
//! which shrinks a failing reply to a small one. Huge and deep replies are
//! a plain test of their own. No server runs: [`Invocation::decode`]
//! converts a reply the way `invoke` does.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use redis::{FromRedisValue, PushKind, Value, VerbatimFormat};
use redis_script::{Error, ErrorKind, Invocation, redis_script};

use super::property_config;

/// Cases per run: about two seconds of a debug build on this 2-core machine.
const CASES: u32 = 1_000;

/// One binding of `any_reply.lua` per reply type. The script never runs
/// here; only the declared type matters.
macro_rules! reply_bindings {
    ($($name:ident -> $ty:ty;)*) => {$(
        #[redis_script(file = "tests/lua/any_reply.lua", keys = 0)]
        fn $name() -> $ty;
    )*};
}

reply_bindings! {
    as_i8 -> i8;
    as_i16 -> i16;
    as_i32 -> i32;
    as_i64 -> i64;
    as_i128 -> i128;
    as_isize -> isize;
    as_u8 -> u8;
    as_u16 -> u16;
    as_u32 -> u32;
    as_u64 -> u64;
    as_u128 -> u128;
    as_usize -> usize;
    as_f64 -> f64;
    as_bool -> bool;
    as_string -> String;
    as_bytes -> Vec<u8>;
    as_unit -> ();
    as_value -> redis::Value;
    as_option_u8 -> Option<u8>;
    as_option_i128 -> Option<i128>;
    as_option_string -> Option<String>;
    as_option_bool -> Option<bool>;
    as_vec_u16 -> Vec<u16>;
    as_vec_i128 -> Vec<i128>;
    as_vec_string -> Vec<String>;
    as_vec_option_i8 -> Vec<Option<i8>>;
    as_vec_option_i128 -> Vec<Option<i128>>;
    as_nested_u32 -> Vec<Vec<u32>>;
    as_nested_i128 -> Vec<Vec<i128>>;
    as_pairs -> Vec<(u8, String)>;
    as_pairs_i128 -> Vec<(i128, String)>;
    as_pair -> (u32, i8);
    as_pair_i128 -> (i128, i128);
    as_triple -> (String, Option<u64>, Vec<u8>);
    as_triple_i128 -> (String, Option<i128>, Vec<u8>);
    as_option_pair -> Option<(i64, u32)>;
    as_option_pair_i128 -> Option<(i128, i128)>;
    as_hash_map -> HashMap<String, u8>;
    as_hash_map_i128 -> HashMap<String, i128>;
    as_btree_map -> BTreeMap<i16, Vec<u16>>;
    as_btree_map_i128 -> BTreeMap<i128, Vec<i128>>;
    as_hash_set -> HashSet<u16>;
    as_hash_set_i128 -> HashSet<i128>;
    as_btree_set -> BTreeSet<i8>;
    as_btree_set_i128 -> BTreeSet<i128>;
}

/// The reply type is a generic parameter: the macro cannot see what it is.
#[redis_script(file = "tests/lua/any_reply.lua", keys = 0)]
fn as_generic<T: FromRedisValue>() -> T;

proptest! {
    #![proptest_config(property_config(CASES))]

    #[test]
    fn every_reply_converts_or_fails_naming_the_binding(reply in reply()) {
        every_type_takes(&reply)?;
    }
}

#[test]
fn huge_deep_and_empty_replies_convert_or_fail_naming_the_binding() {
    let mut replies = vec![
        Value::Array(Vec::new()),
        Value::Set(Vec::new()),
        Value::Map(Vec::new()),
        Value::BulkString(Vec::new()),
        Value::SimpleString(String::new()),
        Value::Push {
            kind: PushKind::Other(String::new()),
            data: Vec::new(),
        },
        // A 1 MiB bulk string that is not UTF-8, and one of digits.
        Value::BulkString(vec![0xff; 1 << 20]),
        Value::BulkString(vec![b'7'; 1 << 20]),
        // 20,000 integers, the last one out of every narrow type's range.
        Value::Array(
            (0..20_000)
                .map(|i| Value::Int(if i == 19_999 { i64::MIN } else { i % 100 }))
                .collect(),
        ),
        // 10,000 pairs, as RESP3 sends a table with string keys.
        Value::Map(
            (0..10_000)
                .map(|i| (Value::BulkString(i.to_string().into_bytes()), Value::Int(i)))
                .collect(),
        ),
    ];
    // As deep as redis-rs parses a reply (100 levels), in every container.
    for depth in [99, 100] {
        replies.push(nested(depth, |inner| Value::Array(vec![inner])));
        replies.push(nested(depth, |inner| {
            Value::Set(vec![inner, Value::Int(1)])
        }));
        replies.push(nested(depth, |inner| {
            Value::Map(vec![(Value::Int(1), inner)])
        }));
        replies.push(nested(depth, |inner| Value::Attribute {
            data: Box::new(inner),
            attributes: Vec::new(),
        }));
    }
    for reply in &replies {
        if let Err(error) = every_type_takes(reply) {
            panic!("{error}\nreply: {}", abbreviated(reply));
        }
    }
}

fn nested(depth: usize, wrap: impl Fn(Value) -> Value) -> Value {
    (0..depth).fold(Value::Int(-1), |inner, _| wrap(inner))
}

fn abbreviated(reply: &Value) -> String {
    let text = format!("{reply:?}");
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}... ({} bytes)", &text[..at], text.len()),
        None => text,
    }
}

/// Converts `reply` into every declared type, checking each promise.
fn every_type_takes(reply: &Value) -> Result<(), TestCaseError> {
    let top = without_attributes(reply);
    let is_error = matches!(reply, Value::ServerError(_));

    // The integer types: the value as sent, or an error.
    let wide = converted(as_i128(), reply)?;
    if let Ok(n) = &wide {
        prop_assert!(reply_integer(top) == Some(*n), "i128 {} from {:?}", n, top);
    }
    let wide = wide.ok();
    same_number(converted(as_i8(), reply)?, &wide, i128::from)?;
    same_number(converted(as_i16(), reply)?, &wide, i128::from)?;
    same_number(converted(as_i32(), reply)?, &wide, i128::from)?;
    same_number(converted(as_i64(), reply)?, &wide, i128::from)?;
    same_number(converted(as_isize(), reply)?, &wide, |n| n as i128)?;
    same_number(converted(as_u8(), reply)?, &wide, i128::from)?;
    same_number(converted(as_u16(), reply)?, &wide, i128::from)?;
    same_number(converted(as_u32(), reply)?, &wide, i128::from)?;
    same_number(converted(as_u64(), reply)?, &wide, i128::from)?;
    same_number(converted(as_u128(), reply)?, &wide, |n| n as i128)?;
    same_number(converted(as_usize(), reply)?, &wide, |n| n as i128)?;
    // An integer in a type's range is that number.
    if let Value::Int(n) = top {
        let n = *n;
        prop_assert_eq!(converted(as_i64(), reply)?.ok(), Some(n));
        prop_assert_eq!(converted(as_u8(), reply)?.ok(), u8::try_from(n).ok());
        prop_assert_eq!(converted(as_i8(), reply)?.ok(), i8::try_from(n).ok());
        prop_assert_eq!(converted(as_u64(), reply)?.ok(), u64::try_from(n).ok());
        prop_assert_eq!(converted(as_u128(), reply)?.ok(), u128::try_from(n).ok());
        prop_assert_eq!(converted(as_usize(), reply)?.ok(), usize::try_from(n).ok());
    }

    let _ = converted(as_f64(), reply)?;
    let _ = converted(as_string(), reply)?;
    let _ = converted(as_bytes(), reply)?;
    let flag = converted(as_bool(), reply)?;
    let option_bool = converted(as_option_bool(), reply)?;
    let option_string = converted(as_option_string(), reply)?;
    let option_u8 = converted(as_option_u8(), reply)?;
    // Every Lua false, as a RESP2 null or a RESP3 boolean, is `None` and `false`.
    if matches!(top, Value::Nil | Value::Boolean(false)) {
        prop_assert_eq!(flag.ok(), Some(false));
        prop_assert_eq!(option_bool.ok(), Some(None));
        prop_assert_eq!(option_string.ok(), Some(None));
        prop_assert_eq!(option_u8.as_ref().ok(), Some(&None));
    }
    let option_i128 = converted(as_option_i128(), reply)?.ok();
    same_number(option_u8, &option_i128, |n| n.map(i128::from))?;

    // `()` takes anything but an error; `redis::Value` is the reply as sent.
    let unit = converted(as_unit(), reply)?;
    prop_assert_eq!(unit.is_ok(), !is_error);
    let raw = converted(as_value(), reply)?;
    match raw {
        // Compared as printed: a NaN double is not equal to itself.
        Ok(raw) => prop_assert_eq!(format!("{raw:?}"), format!("{reply:?}")),
        Err(_) => prop_assert!(is_error),
    }
    // A generic `T` gets the reply with RESP3 booleans folded, wherever they are.
    match converted(as_generic::<Value>(), reply)? {
        Ok(folded) => prop_assert!(!has_boolean(&folded), "{:?}", folded),
        Err(_) => prop_assert!(is_error),
    }

    // Collections, with their integers checked wherever they sit.
    let _ = converted(as_vec_string(), reply)?;
    let wide = converted(as_vec_i128(), reply)?.ok();
    same_number(converted(as_vec_u16(), reply)?, &wide, |v| {
        v.into_iter().map(i128::from).collect()
    })?;
    let wide = converted(as_vec_option_i128(), reply)?.ok();
    same_number(converted(as_vec_option_i8(), reply)?, &wide, |v| {
        v.into_iter().map(|n| n.map(i128::from)).collect()
    })?;
    let wide = converted(as_nested_i128(), reply)?.ok();
    same_number(converted(as_nested_u32(), reply)?, &wide, |v| {
        v.into_iter()
            .map(|inner| inner.into_iter().map(i128::from).collect())
            .collect()
    })?;
    let wide = converted(as_pairs_i128(), reply)?.ok();
    same_number(converted(as_pairs(), reply)?, &wide, |v| {
        v.into_iter().map(|(n, s)| (i128::from(n), s)).collect()
    })?;
    let wide = converted(as_pair_i128(), reply)?.ok();
    same_number(converted(as_pair(), reply)?, &wide, |(a, b)| {
        (i128::from(a), i128::from(b))
    })?;
    let wide = converted(as_triple_i128(), reply)?.ok();
    same_number(converted(as_triple(), reply)?, &wide, |(s, n, b)| {
        (s, n.map(i128::from), b)
    })?;
    let wide = converted(as_option_pair_i128(), reply)?.ok();
    same_number(converted(as_option_pair(), reply)?, &wide, |pair| {
        pair.map(|(a, b)| (i128::from(a), i128::from(b)))
    })?;
    let wide = converted(as_hash_map_i128(), reply)?.ok();
    same_number(converted(as_hash_map(), reply)?, &wide, |map| {
        map.into_iter().map(|(k, n)| (k, i128::from(n))).collect()
    })?;
    let wide = converted(as_btree_map_i128(), reply)?.ok();
    same_number(converted(as_btree_map(), reply)?, &wide, |map| {
        map.into_iter()
            .map(|(k, v)| (i128::from(k), v.into_iter().map(i128::from).collect()))
            .collect()
    })?;
    let wide = converted(as_hash_set_i128(), reply)?.ok();
    same_number(converted(as_hash_set(), reply)?, &wide, |set| {
        set.into_iter().map(i128::from).collect()
    })?;
    let wide = converted(as_btree_set_i128(), reply)?.ok();
    same_number(converted(as_btree_set(), reply)?, &wide, |set| {
        set.into_iter().map(i128::from).collect()
    })?;

    // A failed call (the connection, say) is an error of the binding too.
    let failed = as_pairs().decode(Err(redis::RedisError::from((
        redis::ErrorKind::Io,
        "connection reset",
    ))));
    prop_assert!(matches!(failed, Err(ref e) if e.script() == "as_pairs"));
    Ok(())
}

/// Converts `reply` with `call`: a panic fails the property, and an error
/// must name the binding, its file, and, for a reply that does not fit, the
/// type as declared; a server error is reported as the server's.
fn converted<T: FromRedisValue>(
    call: Invocation<T>,
    reply: &Value,
) -> Result<Result<T, Error>, TestCaseError> {
    let script = call.script();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| call.decode(Ok(reply.clone()))))
        .map_err(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            TestCaseError::fail(format!("`{}` panicked: {message}", script.name()))
        })?;
    if let Err(error) = &outcome {
        prop_assert_eq!(error.script(), script.name());
        prop_assert_eq!(error.file(), "tests/lua/any_reply.lua");
        let shown = error.to_string();
        let named = format!("script `{}` (tests/lua/any_reply.lua): ", script.name());
        prop_assert!(shown.starts_with(&named), "{}", shown);
        match error.kind() {
            ErrorKind::Reply { expected, .. } => {
                prop_assert_eq!(*expected, script.reply_type());
                prop_assert!(!matches!(reply, Value::ServerError(_)), "{}", shown);
            }
            ErrorKind::Redis(_) => {
                prop_assert!(matches!(reply, Value::ServerError(_)), "{}", shown)
            }
            other => prop_assert!(false, "`{}`: {:?}", script.name(), other),
        }
    }
    Ok(outcome)
}

/// A narrow integer type converts exactly when `i128` (which holds every
/// integer a reply can carry) converts the same reply to the same numbers.
fn same_number<N, W: PartialEq + Debug>(
    narrow: Result<N, Error>,
    wide: &Option<W>,
    widen: impl FnOnce(N) -> W,
) -> Result<(), TestCaseError> {
    if let Ok(narrow) = narrow {
        let narrow = widen(narrow);
        prop_assert!(
            wide.as_ref() == Some(&narrow),
            "a narrow type got {:?} where i128 got {:?}",
            narrow,
            wide
        );
    }
    Ok(())
}

/// The integer an integer type may take from `reply`: an integer, a string
/// of one, a double that is a whole number, or 1 for `true` (as RESP2
/// sends a Lua `true`).
fn reply_integer(reply: &Value) -> Option<i128> {
    let parse = |text: &str| text.parse::<i128>().ok();
    match reply {
        Value::Int(n) => Some(i128::from(*n)),
        Value::Boolean(true) => Some(1),
        Value::Double(d) if d.is_finite() && d.fract() == 0.0 && d.abs() < 2f64.powi(127) => {
            Some(*d as i128)
        }
        Value::BulkString(bytes) => std::str::from_utf8(bytes).ok().and_then(parse),
        Value::SimpleString(text) => parse(text),
        _ => None,
    }
}

/// The value under an attribute, as redis-rs reads one (one level).
fn without_attributes(reply: &Value) -> &Value {
    match reply {
        Value::Attribute { data, .. } => data,
        other => other,
    }
}

fn has_boolean(value: &Value) -> bool {
    let any = |items: &[Value]| items.iter().any(has_boolean);
    let any_pair = |pairs: &[(Value, Value)]| {
        pairs
            .iter()
            .any(|(key, value)| has_boolean(key) || has_boolean(value))
    };
    match value {
        Value::Boolean(_) => true,
        Value::Array(items) | Value::Set(items) => any(items),
        Value::Push { data, .. } => any(data),
        Value::Map(pairs) => any_pair(pairs),
        Value::Attribute { data, attributes } => has_boolean(data) || any_pair(attributes),
        _ => false,
    }
}

// --- the replies --------------------------------------------------------------

/// Any reply: leaves of every kind, in arrays, sets, maps, attributes and
/// pushes, up to 6 levels deep.
fn reply() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 48, 6, |inner| {
        let pair = (inner.clone(), inner.clone());
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            vec(inner.clone(), 0..6).prop_map(Value::Set),
            vec(pair.clone(), 0..4).prop_map(Value::Map),
            (inner.clone(), vec(pair, 0..2)).prop_map(|(data, attributes)| Value::Attribute {
                data: Box::new(data),
                attributes,
            }),
            (push_kind(), vec(inner, 0..4)).prop_map(|(kind, data)| Value::Push { kind, data }),
        ]
    })
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Nil),
        1 => Just(Value::Okay),
        1 => any::<bool>().prop_map(Value::Boolean),
        3 => integer().prop_map(Value::Int),
        3 => bytes().prop_map(Value::BulkString),
        1 => text().prop_map(Value::SimpleString),
        2 => double().prop_map(Value::Double),
        1 => (verbatim_format(), text())
            .prop_map(|(format, text)| Value::VerbatimString { format, text }),
        1 => "-?[0-9]{1,45}".prop_map(|digits| Value::BigNumber(digits.into_bytes())),
        1 => server_error(),
    ]
}

/// Integers around every integer type's edges, and any other.
fn integer() -> impl Strategy<Value = i64> {
    let edges: Vec<i64> = [i8::MIN as i64, i16::MIN as i64, i32::MIN as i64, i64::MIN]
        .into_iter()
        .chain([i8::MAX as i64, i16::MAX as i64, i32::MAX as i64, i64::MAX])
        .chain([u8::MAX as i64, u16::MAX as i64, u32::MAX as i64])
        .flat_map(|edge| [edge.saturating_sub(1), edge, edge.saturating_add(1)])
        .chain([0, 1, -1])
        .collect();
    prop_oneof![proptest::sample::select(edges), -300i64..300, any::<i64>()]
}

/// Bytes that read as numbers, as text, or as neither.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        integer().prop_map(|n| n.to_string().into_bytes()),
        "-?[0-9]{1,40}(\\.[0-9]{0,3})?".prop_map(String::into_bytes),
        proptest::sample::select(vec![
            "", "OK", "1", "0", "nan", "inf", "-inf", "1e3", " 1", "+5"
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        vec(any::<u8>(), 0..12),
    ]
}

/// A line of text, as a simple string carries it (no CR or LF).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[^\r\n]{0,12}",
        integer().prop_map(|n| n.to_string()),
        Just("OK".to_owned())
    ]
}

fn double() -> impl Strategy<Value = f64> {
    let edges = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        255.9,
        256.0,
        -128.9,
        -129.0,
        9_223_372_036_854_775_807.0,
        -9_223_372_036_854_775_808.0,
        18_446_744_073_709_551_616.0,
        1.7e38,
        3.5e38,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    prop_oneof![proptest::sample::select(edges), -1e4f64..1e4, any::<f64>()]
}

fn verbatim_format() -> impl Strategy<Value = VerbatimFormat> {
    prop_oneof![
        Just(VerbatimFormat::Text),
        Just(VerbatimFormat::Markdown),
        "[a-z]{3}".prop_map(VerbatimFormat::Unknown),
    ]
}

fn push_kind() -> impl Strategy<Value = PushKind> {
    prop_oneof![
        Just(PushKind::Message),
        Just(PushKind::Invalidate),
        Just(PushKind::Disconnection),
        "[a-z]{1,8}".prop_map(PushKind::Other),
    ]
}

/// An error reply as redis-rs parses one off the wire: a known code or
/// another, with or without a message.
fn server_error() -> impl Strategy<Value = Value> {
    let codes = vec![
        "ERR",
        "NOSCRIPT",
        "BUSY",
        "CROSSSLOT",
        "WRONGTYPE",
        "OOM",
        "READONLY",
        "MOVED",
        "ASK",
        "TRYAGAIN",
        "MYCODE",
        "x",
    ];
    (proptest::sample::select(codes), "( [^\r\n]{0,16})?").prop_map(|(code, detail)| {
        let line = format!("-{code}{detail}\r\n");
        match redis::parse_redis_value(line.as_bytes()) {
            Ok(error @ Value::ServerError(_)) => error,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    })
}
