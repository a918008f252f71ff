//! The Lua -> Rust reply mapping, row by row, against a real server.
//!
//! Each test is a plain function of a connection and the protocol it speaks;
//! `on_both_protocols!` runs it on a fresh server once over RESP2 and once
//! over RESP3, as `<test>::resp2` and `<test>::resp3`. The scripts are small
//! fixtures in `tests/lua/`, each saying in its header what it returns.

use std::collections::HashMap;
use std::fmt::Debug;

use redis::{Connection, Value};
use redis_script::{Error, ErrorKind, redis_script};

use crate::server::RedisServer;

/// The protocol of the test's connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Resp2,
    Resp3,
}

impl Protocol {
    /// Runs `test` on a fresh server over a connection speaking `self`.
    fn run(self, test: fn(&mut Connection, Protocol)) {
        let server = RedisServer::start();
        let (client, version) = match self {
            Protocol::Resp2 => (server.client(), 2),
            Protocol::Resp3 => (server.client_resp3(), 3),
        };
        let mut con = client
            .get_connection()
            .unwrap_or_else(|e| panic!("cannot connect over {self:?}: {e}"));
        // HELLO without arguments reports the connection's protocol without
        // changing it: proof that the connection really speaks `self`.
        let hello: HashMap<String, Value> = redis::cmd("HELLO").query(&mut con).unwrap();
        assert_eq!(hello.get("proto"), Some(&Value::Int(version)), "{hello:?}");
        test(&mut con, self);
    }
}

/// For each test function, a module with a `resp2` and a `resp3` test that run it.
macro_rules! on_both_protocols {
    ($($(#[$attr:meta])* $test:ident,)*) => {$(
        mod $test {
            use super::Protocol;

            #[test]
            $(#[$attr])*
            fn resp2() {
                Protocol::Resp2.run(super::$test);
            }

            #[test]
            $(#[$attr])*
            fn resp3() {
                Protocol::Resp3.run(super::$test);
            }
        }
    )*};
}

on_both_protocols! {
    nil_and_false_are_none,
    true_is_true_and_integer_one,
    setresp3_booleans,
    numbers_are_integers,
    floats_are_truncated_toward_zero,
    resp3_doubles_keep_their_fraction,
    out_of_range_integers_are_reply_errors,
    strings_are_strings_and_bytes,
    tables_are_vecs_and_tuples,
    tables_stop_at_the_first_nil,
    nested_tables_are_nested_vecs,
    false_elements_are_none,
    status_replies_are_strings,
    script_errors_name_the_binding,
    unit_discards_any_reply,
    value_passes_the_raw_reply,
    a_generic_reply_gets_the_folded_booleans,
    replies_that_do_not_fit_are_reply_errors,
    any_from_redis_value_type_passes_through,
}

/// `redis.setresp` argument of the fixtures: the default reply protocol.
const LUA_RESP2: u8 = 2;
/// `redis.setresp` argument of the fixtures: `redis.setresp(3)`.
const LUA_RESP3: u8 = 3;

// --- tests/lua/booleans.lua: nil, false or true -----------------------------

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_option_string(value: &str, lua_resp: u8) -> Option<String>;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_option_i64(value: &str, lua_resp: u8) -> Option<i64>;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_bool(value: &str, lua_resp: u8) -> bool;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_i64(value: &str, lua_resp: u8) -> i64;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_value(value: &str, lua_resp: u8) -> redis::Value;

/// The reply type is a generic parameter: the macro cannot see that it may be
/// `redis::Value`, so the reply gets the folding every other type gets.
#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_generic<T: redis::FromRedisValue>(value: &str, lua_resp: u8) -> T;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn boolean_as_unit(value: &str, lua_resp: u8) -> ();

fn nil_and_false_are_none(con: &mut Connection, _: Protocol) {
    for value in ["nil", "false"] {
        let string = boolean_as_option_string(value, LUA_RESP2).invoke(con);
        assert_eq!(string.unwrap(), None, "{value}");
        let int = boolean_as_option_i64(value, LUA_RESP2).invoke(con);
        assert_eq!(int.unwrap(), None, "{value}");
        let flag = boolean_as_bool(value, LUA_RESP2).invoke(con);
        assert!(!flag.unwrap(), "{value}");
    }
}

fn true_is_true_and_integer_one(con: &mut Connection, _: Protocol) {
    for lua_resp in [LUA_RESP2, LUA_RESP3] {
        let flag = boolean_as_bool("true", lua_resp).invoke(con);
        assert!(flag.unwrap(), "setresp({lua_resp})");
        let int = boolean_as_i64("true", lua_resp).invoke(con);
        assert_eq!(int.unwrap(), 1, "setresp({lua_resp})");
        let int = boolean_as_option_i64("true", lua_resp).invoke(con);
        assert_eq!(int.unwrap(), Some(1), "setresp({lua_resp})");
        // redis-rs turns an integer into its decimal text.
        let string = boolean_as_option_string("true", lua_resp).invoke(con);
        assert_eq!(string.unwrap().as_deref(), Some("1"), "setresp({lua_resp})");
    }
}

fn setresp3_booleans(con: &mut Connection, protocol: Protocol) {
    // nil is a null whatever the script's protocol.
    assert_eq!(
        boolean_as_option_i64("nil", LUA_RESP3).invoke(con).unwrap(),
        None
    );
    assert!(!boolean_as_bool("nil", LUA_RESP3).invoke(con).unwrap());

    let string = boolean_as_option_string("false", LUA_RESP3)
        .invoke(con)
        .unwrap();
    let int = boolean_as_option_i64("false", LUA_RESP3)
        .invoke(con)
        .unwrap();
    let flag = boolean_as_bool("false", LUA_RESP3).invoke(con).unwrap();
    match protocol {
        // A RESP3 boolean false, which the runtime folds into a null.
        Protocol::Resp3 => {
            assert_eq!(string, None);
            assert_eq!(int, None);
        }
        // After redis.setresp(3), the server sends a Lua false to a RESP2
        // connection as integer 0: on the wire it cannot be told apart from a
        // script that returned 0, so an `Option` binding sees Some(0) (and
        // `Option<String>` sees "0"). Scripts meant for `Option` bindings on
        // RESP2 clients should not call redis.setresp(3).
        Protocol::Resp2 => {
            assert_eq!(string.as_deref(), Some("0"));
            assert_eq!(int, Some(0));
        }
    }
    assert!(!flag, "false is false for `bool` on both protocols");
}

// --- tests/lua/numbers.lua: a number, or a RESP3 double ----------------------

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_as_i64(number: &str, form: &str) -> i64;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_as_u32(number: &str, form: &str) -> u32;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_as_usize(number: &str, form: &str) -> usize;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_as_u8(number: &str, form: &str) -> u8;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_as_f64(number: &str, form: &str) -> f64;

fn numbers_are_integers(con: &mut Connection, _: Protocol) {
    assert_eq!(number_as_i64("42", "number").invoke(con).unwrap(), 42);
    assert_eq!(number_as_i64("-7", "number").invoke(con).unwrap(), -7);
    assert_eq!(number_as_i64("0", "number").invoke(con).unwrap(), 0);
    // 2^53, the largest range in which every integer is exact in a Lua number.
    let big = number_as_i64("9007199254740992", "number").invoke(con);
    assert_eq!(big.unwrap(), 9_007_199_254_740_992);
    assert_eq!(
        number_as_u32("4294967295", "number").invoke(con).unwrap(),
        u32::MAX
    );
    assert_eq!(number_as_usize("42", "number").invoke(con).unwrap(), 42);
    assert_eq!(number_as_u8("255", "number").invoke(con).unwrap(), 255);
}

fn floats_are_truncated_toward_zero(con: &mut Connection, _: Protocol) {
    assert_eq!(number_as_i64("3.7", "number").invoke(con).unwrap(), 3);
    assert_eq!(number_as_i64("-3.7", "number").invoke(con).unwrap(), -3);
    assert_eq!(number_as_i64("0.5", "number").invoke(con).unwrap(), 0);
    assert_eq!(number_as_usize("3.7", "number").invoke(con).unwrap(), 3);
    // The server truncates before the client sees it: even `f64` gets 3.
    assert_eq!(number_as_f64("3.7", "number").invoke(con).unwrap(), 3.0);
}

fn resp3_doubles_keep_their_fraction(con: &mut Connection, _: Protocol) {
    // A RESP3 double on RESP3, a bulk string "3.7000000000000002" on RESP2.
    assert_eq!(number_as_f64("3.7", "double").invoke(con).unwrap(), 3.7);
    assert_eq!(number_as_f64("-3.7", "double").invoke(con).unwrap(), -3.7);
}

fn out_of_range_integers_are_reply_errors(con: &mut Connection, _: Protocol) {
    // redis-rs alone casts with `as`: -1 into u32 would be 4294967295.
    let negative = number_as_u32("-1", "number").invoke(con);
    assert_reply_error(negative, "number_as_u32", "u32");
    let too_big = number_as_u8("300", "number").invoke(con);
    assert_reply_error(too_big, "number_as_u8", "u8");
    let too_big = number_as_u32("4294967296", "number").invoke(con);
    assert_reply_error(too_big, "number_as_u32", "u32");
    // Inside a Vec, an Option and a tuple alike.
    let in_vec = table_as_vec_u32("signed", 2).invoke(con);
    assert_reply_error(in_vec, "table_as_vec_u32", "Vec<u32>");
    let in_tuple = table_as_option_pair("signed", 2).invoke(con);
    assert_reply_error(in_tuple, "table_as_option_pair", "Option<(i64, u32)>");
    // In range, the same bindings convert.
    assert_eq!(table_as_vec_u32("list", 2).invoke(con).unwrap(), [1, 2, 3]);
    let pair = table_as_option_pair("flat_map", 2).invoke(con);
    assert!(pair.is_err(), "four elements are no pair: {pair:?}");
}

// --- tests/lua/strings.lua: ARGV[1] back, byte for byte ----------------------

#[redis_script(file = "tests/lua/strings.lua", keys = 0)]
fn string_as_string(text: &[u8]) -> String;

#[redis_script(file = "tests/lua/strings.lua", keys = 0)]
fn string_as_bytes(text: &[u8]) -> Vec<u8>;

#[redis_script(file = "tests/lua/strings.lua", keys = 0)]
fn string_as_i64(text: &[u8]) -> i64;

#[redis_script(file = "tests/lua/strings.lua", keys = 0)]
fn string_as_bool(text: &[u8]) -> bool;

/// Not UTF-8: a lone continuation byte, a NUL and 0xFF.
const NOT_UTF8: &[u8] = b"\x80\x00\xff";

fn strings_are_strings_and_bytes(con: &mut Connection, _: Protocol) {
    let text = "héllo, wörld";
    let string = string_as_string(text.as_bytes()).invoke(con);
    assert_eq!(string.unwrap(), text);
    assert_eq!(string_as_string(b"").invoke(con).unwrap(), "");
    let bytes = string_as_bytes(text.as_bytes()).invoke(con);
    assert_eq!(bytes.unwrap(), text.as_bytes());
    assert_eq!(string_as_bytes(NOT_UTF8).invoke(con).unwrap(), NOT_UTF8);
}

// --- tests/lua/tables.lua: a table chosen by name ----------------------------

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_vec(table: &str, lua_resp: u8) -> Vec<i64>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_triple(table: &str, lua_resp: u8) -> (i64, u32, usize);

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_vec_u32(table: &str, lua_resp: u8) -> Vec<u32>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_option_pair(table: &str, lua_resp: u8) -> Option<(i64, u32)>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_nested(table: &str, lua_resp: u8) -> Vec<Vec<i64>>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_options(table: &str, lua_resp: u8) -> Vec<Option<String>>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_pair(table: &str, lua_resp: u8) -> (String, i64);

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_map(table: &str, lua_resp: u8) -> std::collections::HashMap<String, i64>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_string(table: &str, lua_resp: u8) -> String;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_as_value(table: &str, lua_resp: u8) -> redis::Value;

fn tables_are_vecs_and_tuples(con: &mut Connection, _: Protocol) {
    assert_eq!(
        table_as_vec("list", LUA_RESP2).invoke(con).unwrap(),
        [1, 2, 3]
    );
    assert_eq!(
        table_as_triple("list", LUA_RESP2).invoke(con).unwrap(),
        (1, 2, 3)
    );
}

fn tables_stop_at_the_first_nil(con: &mut Connection, _: Protocol) {
    assert_eq!(table_as_vec("hole", LUA_RESP2).invoke(con).unwrap(), [1]);
    let raw = table_as_value("hole", LUA_RESP2).invoke(con).unwrap();
    assert_eq!(raw, Value::Array(vec![Value::Int(1)]));
}

fn nested_tables_are_nested_vecs(con: &mut Connection, _: Protocol) {
    let nested = table_as_nested("nested", LUA_RESP2).invoke(con).unwrap();
    assert_eq!(nested, [vec![1, 2], vec![3], vec![]]);
}

fn false_elements_are_none(con: &mut Connection, protocol: Protocol) {
    let some = |s: &str| Some(s.to_owned());
    let items = table_as_options("with_false", LUA_RESP2)
        .invoke(con)
        .unwrap();
    assert_eq!(items, [some("a"), None, some("c")]);

    let items = table_as_options("with_false", LUA_RESP3)
        .invoke(con)
        .unwrap();
    match protocol {
        // RESP3 booleans inside the array, folded into nulls.
        Protocol::Resp3 => assert_eq!(items, [some("a"), None, some("c")]),
        // The server sends false as integer 0 (see `setresp3_booleans`).
        Protocol::Resp2 => assert_eq!(items, [some("a"), some("0"), some("c")]),
    }
}

// --- tests/lua/status.lua: a status reply ------------------------------------

#[redis_script(file = "tests/lua/status.lua", keys = 0)]
fn status_as_string(made_by: &str, text: &str) -> String;

#[redis_script(file = "tests/lua/status.lua", keys = 0)]
fn status_as_value(made_by: &str, text: &str) -> redis::Value;

fn status_replies_are_strings(con: &mut Connection, _: Protocol) {
    for made_by in ["ok_table", "status_reply"] {
        let status = status_as_string(made_by, "X").invoke(con);
        assert_eq!(status.unwrap(), "X", "{made_by}");
        let raw = status_as_value(made_by, "X").invoke(con);
        assert_eq!(raw.unwrap(), Value::SimpleString("X".into()), "{made_by}");
        // redis-rs parses the status "OK" as its own variant.
        let ok = status_as_string(made_by, "OK").invoke(con);
        assert_eq!(ok.unwrap(), "OK", "{made_by}");
        let raw = status_as_value(made_by, "OK").invoke(con);
        assert_eq!(raw.unwrap(), Value::Okay, "{made_by}");
    }
}

// --- tests/lua/errors.lua: an error reply ------------------------------------

#[redis_script(file = "tests/lua/errors.lua", keys = 0)]
fn failing_script(how: &str) -> Option<String>;

#[redis_script(file = "tests/lua/errors.lua", keys = 0)]
fn failing_script_as_unit(how: &str) -> ();

fn script_errors_name_the_binding(con: &mut Connection, _: Protocol) {
    // (how the script fails, a part of its message, the error code)
    let cases = [
        ("err_table", "from an err table", "TABLECODE"),
        ("error_reply", "msg", "MYCODE"),
        ("error", "boom", "ERR"),
    ];
    for (how, message, code) in cases {
        let error = failing_script(how).invoke(con).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::Redis(_)),
            "{how}: {error:?}"
        );
        assert_eq!(error.script(), "failing_script", "{how}");
        assert_eq!(error.file(), "tests/lua/errors.lua", "{how}");
        assert_eq!(error.code(), Some(code), "{how}: {error}");
        let display = error.to_string();
        assert!(display.contains("`failing_script`"), "{how}: {display}");
        assert!(display.contains(message), "{how}: {display}");
    }
}

// --- `()`, no return type, and `redis::Value` --------------------------------

/// Declared without a return type: the same as `-> ()`.
#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_ignored(table: &str, lua_resp: u8);

fn unit_discards_any_reply(con: &mut Connection, _: Protocol) {
    for lua_resp in [LUA_RESP2, LUA_RESP3] {
        for table in ["list", "nested", "with_false", "map"] {
            let result = table_ignored(table, lua_resp).invoke(con);
            assert!(result.is_ok(), "{table}, setresp({lua_resp}): {result:?}");
        }
        for value in ["nil", "false", "true"] {
            let result = boolean_as_unit(value, lua_resp).invoke(con);
            assert!(result.is_ok(), "{value}, setresp({lua_resp}): {result:?}");
        }
    }
    string_as_bytes(NOT_UTF8).invoke(con).unwrap();
    status_as_string("ok_table", "X").invoke(con).unwrap();
    // ... but an error is still an error.
    let error = failing_script_as_unit("error_reply")
        .invoke(con)
        .unwrap_err();
    assert_eq!(error.code(), Some("MYCODE"), "{error}");
    assert_eq!(error.script(), "failing_script_as_unit");
}

fn value_passes_the_raw_reply(con: &mut Connection, protocol: Protocol) {
    let mut raw = |value, lua_resp| boolean_as_value(value, lua_resp).invoke(con).unwrap();
    assert_eq!(raw("nil", LUA_RESP2), Value::Nil);
    assert_eq!(raw("false", LUA_RESP2), Value::Nil);
    assert_eq!(raw("true", LUA_RESP2), Value::Int(1));
    assert_eq!(raw("nil", LUA_RESP3), Value::Nil);
    let (raw_false, raw_true) = (raw("false", LUA_RESP3), raw("true", LUA_RESP3));
    match protocol {
        // Unlike every other declared type, `Value` sees the RESP3 booleans.
        Protocol::Resp3 => {
            assert_eq!(raw_false, Value::Boolean(false));
            assert_eq!(raw_true, Value::Boolean(true));
        }
        Protocol::Resp2 => {
            assert_eq!(raw_false, Value::Int(0));
            assert_eq!(raw_true, Value::Int(1));
        }
    }

    let bytes = |s: &str| Value::BulkString(s.as_bytes().to_vec());
    let with_false = table_as_value("with_false", LUA_RESP3).invoke(con).unwrap();
    let map = table_as_value("map", LUA_RESP3).invoke(con).unwrap();
    match protocol {
        Protocol::Resp3 => {
            let items = vec![bytes("a"), Value::Boolean(false), bytes("c")];
            assert_eq!(with_false, Value::Array(items));
            let Value::Map(mut pairs) = map else {
                panic!("a RESP3 map, not {map:?}")
            };
            // Lua iterates a hash table in no fixed order.
            pairs.sort_by_key(|(key, _)| format!("{key:?}"));
            assert_eq!(
                pairs,
                [(bytes("a"), Value::Int(1)), (bytes("b"), Value::Int(2))]
            );
        }
        Protocol::Resp2 => {
            let items = vec![bytes("a"), Value::Int(0), bytes("c")];
            assert_eq!(with_false, Value::Array(items));
            let Value::Array(items) = map else {
                panic!("a flat array, not {map:?}")
            };
            assert_eq!(items.len(), 4, "{items:?}");
        }
    }
}

fn a_generic_reply_gets_the_folded_booleans(con: &mut Connection, protocol: Protocol) {
    let mut generic = |value| {
        boolean_as_generic::<Value>(value, LUA_RESP3)
            .invoke(con)
            .unwrap()
    };
    let (folded_false, folded_true) = (generic("false"), generic("true"));
    let expected_false = match protocol {
        Protocol::Resp3 => Value::Nil,
        // As `Value` itself sees it: `redis.setresp(3)` on RESP2 sends 0.
        Protocol::Resp2 => Value::Int(0),
    };
    assert_eq!(folded_false, expected_false);
    assert_eq!(folded_true, Value::Int(1));
}

// --- replies that do not fit the declared type -------------------------------

/// Asserts a reply-type error of the binding `script`, declared as returning `expected`.
pub(crate) fn assert_reply_error<T: Debug>(result: Result<T, Error>, script: &str, expected: &str) {
    let error = result.expect_err("the reply should not fit");
    match error.kind() {
        ErrorKind::Reply {
            expected: declared, ..
        } => assert_eq!(*declared, expected),
        other => panic!("expected ErrorKind::Reply, got {other:?}"),
    }
    assert_eq!(error.script(), script);
    assert_eq!(error.code(), None);
    let display = error.to_string();
    assert!(display.contains(&format!("`{script}`")), "{display}");
    assert!(display.contains(&format!("`{expected}`")), "{display}");
}

fn replies_that_do_not_fit_are_reply_errors(con: &mut Connection, _: Protocol) {
    let not_a_number = string_as_i64(b"not a number").invoke(con);
    assert_reply_error(not_a_number, "string_as_i64", "i64");
    let not_a_flag = string_as_bool(b"yes").invoke(con);
    assert_reply_error(not_a_flag, "string_as_bool", "bool");
    let not_utf8 = string_as_string(NOT_UTF8).invoke(con);
    assert_reply_error(not_utf8, "string_as_string", "String");
    let nil = boolean_as_i64("nil", LUA_RESP2).invoke(con);
    assert_reply_error(nil, "boolean_as_i64", "i64");
    let table = table_as_string("list", LUA_RESP2).invoke(con);
    assert_reply_error(table, "table_as_string", "String");
    let strings = table_as_vec("with_false", LUA_RESP2).invoke(con);
    assert_reply_error(strings, "table_as_vec", "Vec<i64>");
    let three_items = table_as_pair("list", LUA_RESP2).invoke(con);
    assert_reply_error(three_items, "table_as_pair", "(String, i64)");
    let odd_items = table_as_map("list", LUA_RESP2).invoke(con);
    let map_type = "std::collections::HashMap<String, i64>";
    assert_reply_error(odd_items, "table_as_map", map_type);
}

// --- any `FromRedisValue` type -----------------------------------------------

fn any_from_redis_value_type_passes_through(con: &mut Connection, _: Protocol) {
    let expected = HashMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]);
    let flat = table_as_map("flat_map", LUA_RESP2).invoke(con).unwrap();
    assert_eq!(flat, expected);
    // A RESP3 map on RESP3, a flat array on RESP2.
    let map = table_as_map("map", LUA_RESP3).invoke(con).unwrap();
    assert_eq!(map, expected);
    let pair = table_as_pair("pair", LUA_RESP2).invoke(con).unwrap();
    assert_eq!(pair, ("name".to_owned(), 7));
}
