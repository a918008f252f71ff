//! The reply-shape check on the two protocols, against the server the
//! harness starts and the redis-rs this build uses: each script below is
//! sent by `EVAL` on a RESP2 and on a RESP3 connection and read into the
//! type named. Where the check says the type cannot hold what a protocol
//! receives, reading it fails on that protocol; where it accepts the type
//! (each accepted case here is one the reply's text settles), both
//! succeed. Each refusal here is of one protocol alone, and the other reads
//! the reply.

use std::collections::{HashMap, HashSet};

use redis::{FromRedisValue, Value};
use redis_script_analyzer::reply_type::{RustType, reply_kind};
use redis_script_analyzer::{Checker, Declared, Rule, analyze};

use crate::server::RedisServer;

/// A declared type: as the check reads its name, and as redis-rs reads a
/// reply into it.
struct Declaration {
    ty: RustType,
    reads: fn(Value) -> bool,
}

fn reads<T: FromRedisValue>(value: Value) -> bool {
    T::from_redis_value(value).is_ok()
}

fn strings() -> Declaration {
    Declaration {
        ty: RustType::of("Vec", RustType::named("String")),
        reads: reads::<Vec<String>>,
    }
}

fn values() -> Declaration {
    Declaration {
        ty: RustType::of("Vec", RustType::named("Value")),
        reads: reads::<Vec<Value>>,
    }
}

fn pairs() -> Declaration {
    Declaration {
        ty: RustType::of(
            "Vec",
            RustType::Tuple(vec![RustType::named("String"), RustType::named("String")]),
        ),
        reads: reads::<Vec<(String, String)>>,
    }
}

fn map() -> Declaration {
    Declaration {
        ty: RustType::named("HashMap"),
        reads: reads::<HashMap<String, String>>,
    }
}

fn set() -> Declaration {
    Declaration {
        ty: RustType::named("HashSet"),
        reads: reads::<HashSet<String>>,
    }
}

fn named<T: FromRedisValue>(name: &str) -> Declaration {
    Declaration {
        ty: RustType::named(name),
        reads: reads::<T>,
    }
}

/// The protocol on which the check says the type cannot hold the reply,
/// from its finding; `None` where it accepts the type.
fn refused_on(source: &str, ty: &RustType) -> Option<&'static str> {
    let declared = Declared::default()
        .keys(1)
        .reply(reply_kind(ty))
        .reply_type(ty.clone())
        .checker(Checker::CommandLine);
    let analysis = analyze(source, declared);
    let finding = analysis
        .diagnostics
        .iter()
        .find(|finding| finding.rule == Rule::ReplyShape)?;
    Some(if finding.message.contains("on a RESP3 connection") {
        "RESP3"
    } else if finding.message.contains("on a RESP2 connection") {
        "RESP2"
    } else {
        "both"
    })
}

#[test]
fn what_the_check_refuses_on_one_protocol_fails_there_alone() {
    let cases: Vec<(&str, Declaration, Option<&str>)> = vec![
        // RESP3's reply tables, which a RESP2 connection receives as arrays
        // and strings.
        ("return {map = {a = '1'}}", strings(), Some("RESP3")),
        ("return {map = {a = '1'}}", map(), None),
        // A map's entries, each a map of one, in a sequence of values.
        ("return {map = {a = '1'}}", values(), None),
        // A set's members are its table's keys; two of them make a map
        // of one pair on RESP2.
        ("return {set = {a = true, b = true}}", map(), Some("RESP3")),
        ("return {set = {a = true}}", set(), None),
        ("return {set = {a = true}}", strings(), None),
        ("return {set = {a = true, b = true}}", pairs(), None),
        ("return {double = 1}", named::<bool>("bool"), Some("RESP3")),
        ("return {double = 3.5}", named::<f64>("f64"), None),
        ("return {double = 3.5}", named::<String>("String"), None),
        (
            "return {big_number = '123'}",
            named::<String>("String"),
            Some("RESP3"),
        ),
        (
            "return {big_number = '123'}",
            named::<i64>("i64"),
            Some("RESP3"),
        ),
        (
            "return {verbatim_string = {format = 'txt', string = 'hi'}}",
            named::<String>("String"),
            None,
        ),
        // Command replies after `redis.setresp(3)`: a map, a double.
        (
            "redis.setresp(3) redis.call('HSET', KEYS[1], 'f', 'v') \
             return redis.call('HGETALL', KEYS[1])",
            strings(),
            Some("RESP3"),
        ),
        (
            "redis.setresp(3) redis.call('HSET', KEYS[1], 'f', 'v') \
             return redis.call('HGETALL', KEYS[1])",
            map(),
            None,
        ),
        (
            "redis.setresp(3) return redis.call('ZINCRBY', KEYS[1], 1, 'm')",
            named::<bool>("bool"),
            Some("RESP3"),
        ),
        (
            "redis.setresp(3) return redis.call('ZINCRBY', KEYS[1], 1.5, 'm')",
            named::<f64>("f64"),
            None,
        ),
        // Without the switch, the replies are RESP2's on both.
        (
            "redis.call('HSET', KEYS[1], 'f', 'v') return redis.call('HGETALL', KEYS[1])",
            strings(),
            None,
        ),
        (
            "redis.call('SADD', KEYS[1], 'a') redis.setresp(3) \
             return redis.call('SMEMBERS', KEYS[1])",
            strings(),
            None,
        ),
    ];
    let server = RedisServer::start();
    let mut connections = [
        ("RESP2", server.connection()),
        ("RESP3", server.client_resp3().get_connection().unwrap()),
    ];
    let mut problems = Vec::new();
    for (source, declaration, expected) in &cases {
        let said = refused_on(source, &declaration.ty);
        if said != *expected {
            problems.push(format!(
                "{source} into {:?}: the check refuses it on {said:?}, not {expected:?}",
                declaration.ty
            ));
        }
        for (protocol, connection) in &mut connections {
            redis::cmd("DEL").arg("k").exec(connection).unwrap();
            let reply: Value = redis::cmd("EVAL")
                .arg(*source)
                .arg(1)
                .arg("k")
                .query(connection)
                .unwrap_or_else(|e| panic!("{source}: {e}"));
            let read = (declaration.reads)(reply.clone());
            let refused_here = matches!(said, Some(p) if p == *protocol || p == "both");
            if read == refused_here {
                problems.push(format!(
                    "{source} into {:?} on {protocol}: {reply:?} read: {read}, the check \
                     refuses it on {said:?}",
                    declaration.ty
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{:?} {}:\n{}",
        server.flavor(),
        server.version(),
        problems.join("\n")
    );
}
