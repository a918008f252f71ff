//! Where redis-rs 1.x and 2.0 read a reply differently, each test states
//! what redis-rs itself does on the version this build uses (`redis-1` or
//! `redis-2`), and what a binding does on both. CI runs the suite once per
//! version, so each statement is checked against the real crate.
//!
//! 2.0 also turns TCP_NODELAY on by default; that changes latency only, which
//! a test here does not time.

use std::collections::HashMap;

use redis::{FromRedisValue, Value};
use redis_script::redis_script;

use crate::reply_mapping::assert_reply_error;
use crate::server::RedisServer;

/// Whether this build runs on redis-rs 2.0.
const REDIS_2: bool = cfg!(feature = "redis-2");

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_into_u8(number: &str, form: &str) -> u8;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_into_u32(number: &str, form: &str) -> u32;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn number_into_i64(number: &str, form: &str) -> i64;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn table_into_map(table: &str, lua_resp: u8) -> HashMap<String, i64>;

/// redis-rs 1.x converts with `as`: a value out of the type's range wraps.
/// 2.0 refuses it. A binding refuses it on both.
#[test]
fn an_integer_out_of_range() {
    let wrapped = u32::from_redis_value(Value::Int(-1));
    let wrapped_u8 = u8::from_redis_value(Value::Int(300));
    if REDIS_2 {
        assert!(wrapped.is_err(), "{wrapped:?}");
        assert!(wrapped_u8.is_err(), "{wrapped_u8:?}");
    } else {
        assert_eq!(wrapped.unwrap(), u32::MAX);
        assert_eq!(wrapped_u8.unwrap(), 44);
    }

    let server = RedisServer::start();
    let mut con = server.connection();
    let negative = number_into_u32("-1", "number").invoke(&mut con);
    assert_reply_error(negative, "number_into_u32", "u32");
    let too_big = number_into_u8("300", "number").invoke(&mut con);
    assert_reply_error(too_big, "number_into_u8", "u8");
}

/// A RESP3 double into an integer type: redis-rs 1.x truncates the
/// fraction, saturates and reads NaN as 0; 2.0 refuses all three. A binding
/// takes a whole number in range and refuses the rest, on both.
#[test]
fn a_double_into_an_integer() {
    let fraction = i64::from_redis_value(Value::Double(3.7));
    let saturated = u8::from_redis_value(Value::Double(1e10));
    let nan = i64::from_redis_value(Value::Double(f64::NAN));
    if REDIS_2 {
        assert!(fraction.is_err(), "{fraction:?}");
        assert!(saturated.is_err(), "{saturated:?}");
        assert!(nan.is_err(), "{nan:?}");
    } else {
        assert_eq!(fraction.unwrap(), 3);
        assert_eq!(saturated.unwrap(), u8::MAX);
        assert_eq!(nan.unwrap(), 0);
    }
    // Both read a whole double as its integer.
    assert_eq!(i64::from_redis_value(Value::Double(3.0)).unwrap(), 3);

    let server = RedisServer::start();
    let mut con = server.client_resp3().get_connection().unwrap();
    assert_eq!(number_into_i64("3", "double").invoke(&mut con).unwrap(), 3);
    let fraction = number_into_i64("3.7", "double").invoke(&mut con);
    assert_reply_error(fraction, "number_into_i64", "i64");
    let saturated = number_into_u8("1e10", "double").invoke(&mut con);
    assert_reply_error(saturated, "number_into_u8", "u8");
}

/// An array of two-element arrays into a map: redis-rs 2.0 reads it as
/// key-value pairs (the RESP3 shape some commands reply), 1.x refuses it.
/// A binding follows the redis-rs it runs on. A flat array and a RESP3 map
/// are maps on both.
#[test]
fn a_table_of_pairs_into_a_map() {
    let pair =
        |key: &str, value| Value::Array(vec![Value::BulkString(key.into()), Value::Int(value)]);
    let pairs = Value::Array(vec![pair("a", 1), pair("b", 2)]);
    let converted = HashMap::<String, i64>::from_redis_value(pairs);
    let expected = HashMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]);

    let server = RedisServer::start();
    let mut con = server.client_resp3().get_connection().unwrap();
    let bound = table_into_map("pairs", 2).invoke(&mut con);
    if REDIS_2 {
        assert_eq!(converted.unwrap(), expected);
        assert_eq!(bound.unwrap(), expected);
    } else {
        assert!(converted.is_err(), "{converted:?}");
        assert_reply_error(bound, "table_into_map", "HashMap<String, i64>");
    }
    for (table, lua_resp) in [("flat_map", 2), ("map", 3)] {
        let map = table_into_map(table, lua_resp).invoke(&mut con);
        assert_eq!(map.unwrap(), expected, "{table}");
    }
}

/// What the reply-shape check refuses at compile time fails at run time on
/// either redis-rs, RESP2 and RESP3 alike: each script below, sent by EVAL
/// and read by redis-rs into the type the check refuses, is an error.
#[test]
fn replies_the_reply_shape_check_refuses_fail_on_the_server() {
    fn fails<T: FromRedisValue + std::fmt::Debug>(con: &mut redis::Connection, source: &str) {
        let eval = || redis::cmd("EVAL").arg(source).arg(1).arg("k").clone();
        redis::cmd("DEL").arg("k").exec(con).unwrap();
        // The server replies; only the conversion fails.
        let sent: Value = eval().query(con).unwrap();
        redis::cmd("DEL").arg("k").exec(con).unwrap();
        let reply: redis::RedisResult<T> = eval().query(con);
        assert!(reply.is_err(), "{source}: {sent:?} into {reply:?}");
    }
    let server = RedisServer::start();
    for mut con in [
        server.connection(),
        server.client_resp3().get_connection().unwrap(),
    ] {
        let words = "if redis.call('EXISTS', KEYS[1]) == 1 then return 'locked' end return 'free'";
        fails::<bool>(&mut con, words);
        fails::<i64>(&mut con, words);
        fails::<Vec<i64>>(&mut con, words);
        fails::<i64>(&mut con, "return redis.status_reply('OK')");
        fails::<i64>(&mut con, "return redis.call('SET', KEYS[1], 'v')");
        fails::<i64>(&mut con, "return redis.call('HMSET', KEYS[1], 'f', 'v')");
        fails::<(i64, i64)>(&mut con, "return redis.call('INCR', KEYS[1])");
        fails::<(i64, i64)>(&mut con, "return {1, 2, 3}");
        fails::<bool>(
            &mut con,
            "return redis.call('SMISMEMBER', KEYS[1], 'a', 'b')",
        );
        fails::<i64>(&mut con, "return redis.status_reply('EMPTY')");
        fails::<i64>(&mut con, "return redis.call('SMEMBERS', KEYS[1])");
        // RESP3's reply tables, on either protocol.
        fails::<i64>(&mut con, "return {map = {a = '1'}}");
        fails::<String>(&mut con, "return {set = {a = true}}");
        fails::<bool>(&mut con, "return {big_number = '12345'}");
        fails::<(String, String)>(
            &mut con,
            "return {verbatim_string = {format = 'txt', string = 'hi'}}",
        );
    }
}
