//! The `nil_comparison` rule against the server: for each command whose
//! reply the analyzer takes for nil-able, called on a missing key, the
//! server's Lua sees `false`, so `v == nil` does not hold where the rule
//! says so; after `redis.setresp(3)` it sees `nil`, where the rule is
//! silent.

use redis_script_analyzer::{Declared, Rule, analyze};

use crate::server;

/// Calls of commands whose reply schema has a null, and a `SET ... XX`,
/// each of which replies nil on a missing key.
const CALLS: &[&str] = &[
    "redis.call('GET', KEYS[1])",
    "redis.call('GETDEL', KEYS[1])",
    "redis.call('GETEX', KEYS[1])",
    "redis.call('GETSET', KEYS[1], 'x')",
    "redis.call('HGET', KEYS[1], 'field')",
    "redis.call('HRANDFIELD', KEYS[1])",
    "redis.call('LINDEX', KEYS[1], 0)",
    "redis.call('LMOVE', KEYS[1], KEYS[1], 'LEFT', 'RIGHT')",
    "redis.call('LPOP', KEYS[1])",
    "redis.call('RPOP', KEYS[1])",
    "redis.call('RPOPLPUSH', KEYS[1], KEYS[1])",
    "redis.call('SPOP', KEYS[1])",
    "redis.call('SRANDMEMBER', KEYS[1])",
    "redis.call('ZRANDMEMBER', KEYS[1])",
    "redis.call('ZRANK', KEYS[1], 'member')",
    "redis.call('ZREVRANK', KEYS[1], 'member')",
    "redis.call('ZSCORE', KEYS[1], 'member')",
    "redis.call('SET', KEYS[1], 'x', 'XX')",
    "redis.call('OBJECT', 'ENCODING', KEYS[1])",
    "redis.call('DUMP', KEYS[1])",
    "redis.call('GEODIST', KEYS[1], 'a', 'b')",
    "redis.call('LPOS', KEYS[1], 'x')",
    "redis.call('XADD', KEYS[1], 'NOMKSTREAM', '*', 'f', 'v')",
    "redis.call('ZADD', KEYS[1], 'XX', 'INCR', 1, 'm')",
];

/// `prelude`, then `local v = <call>`, replying how `v` compares: 1 for
/// `v == nil`, 2 for `v == false`, 0 for neither.
fn script(prelude: &str, call: &str) -> String {
    format!(
        "{prelude}local v = {call}\n\
         if v == nil then return 1 end\n\
         if v == false then return 2 end\n\
         return 0\n"
    )
}

fn nil_comparisons(source: &str) -> usize {
    let declared = Declared::default().keys(1);
    analyze(source, declared)
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.rule == Rule::NilComparison)
        .count()
}

#[test]
fn a_nil_reply_is_false_in_lua_where_the_rule_says_so() {
    let running = server::RedisServer::start();
    let mut con = running.connection();
    for call in CALLS {
        for (prelude, seen, flagged) in [("", 2, 1), ("redis.setresp(3)\n", 1, 0)] {
            // A key of its own, missing (GETSET writes it).
            let key = format!("nil-comparison:{prelude}{call}");
            let source = script(prelude, call);
            let reply: i64 = redis::cmd("EVAL")
                .arg(&source)
                .arg(1)
                .arg(&key)
                .query(&mut con)
                .unwrap_or_else(|error| panic!("{source}: {error}"));
            assert_eq!(
                reply,
                seen,
                "{} ({source}): 1 is nil, 2 is false",
                running.version()
            );
            assert_eq!(nil_comparisons(&source), flagged, "{source}");
        }
    }
}
