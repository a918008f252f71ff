//! Values that look like Lua, or like the protocol, are data: a binding
//! sends the script's source as written and every key and argument as a
//! separate KEYS or ARGV value, never spliced into the source. Stored and
//! read back, each hostile value is exactly what was sent, and nothing else
//! happens: the other keys survive, no other command runs, and the server
//! compiles no script but the binding's own.

use std::collections::HashMap;

use redis::{Commands, Connection};
use redis_script::redis_script;

use crate::server::RedisServer;

#[redis_script(file = "tests/lua/set_value.lua", keys = 1)]
fn store(key: &[u8], value: &[u8]) -> Vec<u8>;

/// Each closes a Lua string, comment or long bracket, starts a statement,
/// or frames a command, if spliced into source or into the wire format.
const HOSTILE: &[&[u8]] = &[
    b"\"); redis.call('FLUSHALL') --",
    b"'); redis.call('FLUSHALL') --",
    b"' .. redis.call('FLUSHALL') .. '",
    b"]]",
    b"]]); redis.call('FLUSHALL') --[[",
    b"]==]",
    b"\nreturn redis.call('FLUSHALL')\n",
    b"\r\nredis.call('FLUSHALL')",
    b"return redis.call('FLUSHALL')",
    b"#!lua flags=allow-oom\nredis.call('FLUSHALL')",
    b"\0",
    b"x\0redis.call('FLUSHALL')",
    b"%s%d%n",
    b"KEYS[1]",
    b"\\",
    b"\r\n*1\r\n$8\r\nFLUSHALL\r\n",
];

/// Commands that must never have run.
const DESTRUCTIVE: &[&str] = &["flushall", "flushdb", "del", "unlink", "rename"];

fn survivors(con: &mut Connection) -> (Option<String>, Option<String>, Vec<String>) {
    let a: Option<String> = con.get("survivor:a").unwrap();
    let b: Option<String> = con.get("survivor:b").unwrap();
    let list: Vec<String> = con.lrange("survivor:list", 0, -1).unwrap();
    (a, b, list)
}

fn info_field(con: &mut Connection, section: &str, field: &str) -> Option<String> {
    let info: String = redis::cmd("INFO").arg(section).query(con).unwrap();
    info.lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .map(str::to_owned)
}

fn command_calls(con: &mut Connection) -> HashMap<String, u64> {
    let info: String = redis::cmd("INFO").arg("commandstats").query(con).unwrap();
    info.lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats.split(',').next()?.strip_prefix("calls=")?;
            Some((name.to_owned(), calls.parse().ok()?))
        })
        .collect()
}

#[test]
fn hostile_values_are_stored_verbatim_and_nothing_else_happens() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let () = con.set("survivor:a", "1").unwrap();
    let () = con.set("survivor:b", "2").unwrap();
    let _: usize = con.rpush("survivor:list", &["x", "y"]).unwrap();
    let expected_survivors = (
        Some("1".to_owned()),
        Some("2".to_owned()),
        vec!["x".to_owned(), "y".to_owned()],
    );

    for (index, value) in HOSTILE.iter().enumerate() {
        let victim = format!("victim:{index}");
        // The command carries the source as written and the value apart.
        let eval = store(victim.as_bytes(), value).eval_cmd().unwrap();
        let args: Vec<&[u8]> = eval
            .args_iter()
            .map(|arg| match arg {
                redis::Arg::Simple(bytes) => bytes,
                _ => unreachable!("no cursor"),
            })
            .collect();
        let shown = String::from_utf8_lossy(value);
        assert_eq!(args[1], store::SCRIPT.source().as_bytes(), "{shown:?}");
        assert_eq!(
            args[2..],
            [&b"1"[..], victim.as_bytes(), value],
            "{shown:?}"
        );

        // As a value, by EVALSHA and by EVAL (after the cache is flushed),
        // and as a key name.
        assert_eq!(
            store(victim.as_bytes(), value).invoke(&mut con).unwrap(),
            *value
        );
        let () = redis::cmd("SCRIPT").arg("FLUSH").query(&mut con).unwrap();
        assert_eq!(
            store(victim.as_bytes(), value).invoke(&mut con).unwrap(),
            *value
        );
        assert_eq!(store(value, b"stored").invoke(&mut con).unwrap(), b"stored");
        let stored: Vec<u8> = con.get(victim.as_str()).unwrap();
        assert_eq!(stored, *value, "{shown:?}");
        let stored: Vec<u8> = con.get(*value).unwrap();
        assert_eq!(stored, b"stored", "{shown:?}");
        assert_eq!(survivors(&mut con), expected_survivors, "after {shown:?}");
    }

    // Every key is there: the three survivors, a victim and a key named
    // after each value.
    let keys: usize = redis::cmd("DBSIZE").query(&mut con).unwrap();
    assert_eq!(keys, 3 + 2 * HOSTILE.len());
    let calls = command_calls(&mut con);
    for command in DESTRUCTIVE {
        assert_eq!(calls.get(*command), None, "{command} ran: {calls:?}");
    }
    // Nothing ran but what the test sent: per value, three stores (a SET
    // and a GET each), two GETs to read back and two for the survivors.
    let n = HOSTILE.len() as u64;
    assert_eq!(calls.get("set"), Some(&(3 * n + 2)), "{calls:?}");
    assert_eq!(
        calls.get("get"),
        Some(&(3 * n + 2 * n + 2 * n)),
        "{calls:?}"
    );
    // The server compiled one script: the binding's, never a value.
    assert_eq!(
        info_field(&mut con, "memory", "number_of_cached_scripts").as_deref(),
        Some("1")
    );
}
