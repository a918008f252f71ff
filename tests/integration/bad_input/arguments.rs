//! Arguments that are hard to carry arrive exactly; arguments that are not
//! one value never leave the client.
//!
//! `tests/lua/echo_argv.lua` replies with its KEYS and then its ARGV, so a
//! call shows the bytes the server received. Each way of running a call
//! (EVALSHA, the EVAL and SCRIPT LOAD recoveries from NOSCRIPT, async,
//! pipelines) gets the same hostile values, on RESP2 and RESP3.

use std::collections::HashMap;

use redis::{Connection, ToRedisArgs};
use redis_script::{Error, ErrorKind, Invocation, NoScriptFallback, ScriptPipeline, redis_script};

use crate::server::RedisServer;

/// Byte strings as `&[u8]`: any bytes, one value each.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_bytes(key: &[u8], first: &[u8], #[variadic] rest: &[Vec<u8>]) -> Vec<Vec<u8>>;

/// Generic parameters: what they encode to is known only at run time.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_generic<K: ToRedisArgs, A: ToRedisArgs>(key: K, arg: A) -> Vec<Vec<u8>>;

/// An `Option` parameter: `None` encodes to no value at all.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_optional(key: &str, arg: Option<&str>) -> Vec<Vec<u8>>;

/// Values that break naive encodings: empty, NUL bytes, not UTF-8, RESP
/// framing, Lua quoting, and 1 MiB of every byte value.
fn hostile_values() -> Vec<Vec<u8>> {
    let mut values: Vec<Vec<u8>> = [
        &b""[..],
        b"\0",
        b"a\0b\0",
        b"\xff\xfe\x80\xc3",
        b"\r\n",
        b"$5\r\nhello\r\n",
        b"*1\r\n$4\r\nPING\r\n",
        b"\"]]\n'",
        "héllo, wörld ✓".as_bytes(),
    ]
    .iter()
    .map(|value| value.to_vec())
    .collect();
    values.push((0..1 << 20).map(|i| (i % 251) as u8).collect());
    values
}

/// A 10,000-value ARGV tail, the hostile values among them.
fn long_tail() -> Vec<Vec<u8>> {
    let mut tail: Vec<Vec<u8>> = (0..10_000)
        .map(|i: u32| i.to_string().into_bytes())
        .collect();
    for (i, value) in hostile_values().into_iter().enumerate() {
        tail[i * 997] = value;
    }
    tail
}

/// A call's key, first argument and tail.
type Placement<'a> = (&'a [u8], &'a [u8], &'a [Vec<u8>]);

/// A call, the parameter it refuses, and how many values that encoded to.
type Refused = (Invocation<Vec<Vec<u8>>>, &'static str, usize);

/// What the echo script must reply for a call: its arguments in order.
fn expected(key: &[u8], first: &[u8], rest: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut all = vec![key.to_vec(), first.to_vec()];
    all.extend(rest.iter().cloned());
    all
}

fn assert_echoed(what: &str, reply: Result<Vec<Vec<u8>>, Error>, expected: &[Vec<u8>]) {
    let reply = reply.unwrap_or_else(|error| panic!("{what}: {error}"));
    assert_eq!(reply.len(), expected.len(), "{what}: how many values");
    for (index, (got, want)) in reply.iter().zip(expected).enumerate() {
        assert!(
            got == want,
            "{what}: value {index} came back as {} bytes {:?}..., sent {} bytes {:?}...",
            got.len(),
            &got[..got.len().min(16)],
            want.len(),
            &want[..want.len().min(16)]
        );
    }
}

#[test]
fn hostile_values_round_trip_exactly_on_resp2() {
    let server = RedisServer::start();
    round_trips(&server, &mut server.connection(), "RESP2");
}

#[test]
fn hostile_values_round_trip_exactly_on_resp3() {
    let server = RedisServer::start();
    let mut con = server.client_resp3().get_connection().unwrap();
    round_trips(&server, &mut con, "RESP3");
}

fn round_trips(server: &RedisServer, con: &mut Connection, protocol: &str) {
    let values = hostile_values();
    let tail = long_tail();
    let mut flusher = server.connection();
    let mut flush = || {
        let () = redis::cmd("SCRIPT")
            .arg("FLUSH")
            .query(&mut flusher)
            .unwrap();
    };
    for value in &values {
        let what = |how: &str| format!("{protocol}, {how}, {} bytes", value.len());
        // As the key, as a fixed argument, and in the tail.
        let one = std::slice::from_ref(value);
        let placements: [Placement; 3] =
            [(value, b"x", &[]), (b"k", value, &[]), (b"k", b"x", one)];
        for (key, first, rest) in placements {
            let want = expected(key, first, rest);
            let call = echo_bytes(key, first, rest);
            assert_echoed(&what("EVALSHA"), call.invoke(con), &want);
            flush();
            assert_echoed(&what("EVAL after NOSCRIPT"), call.invoke(con), &want);
            flush();
            let call = call.on_noscript(NoScriptFallback::Load);
            let reply = call.invoke(con);
            assert_echoed(&what("SCRIPT LOAD after NOSCRIPT"), reply, &want);
        }
    }

    // 10,000 values in the tail, in every way a call runs.
    let call = echo_bytes(b"k", b"x", &tail);
    let want = expected(b"k", b"x", &tail);
    assert_echoed(&format!("{protocol}, tail"), call.invoke(con), &want);
    flush();
    assert_echoed(&format!("{protocol}, tail, EVAL"), call.invoke(con), &want);
    for atomic in [false, true] {
        for evalsha in [false, true] {
            let mut pipe = redis::pipe();
            if atomic {
                pipe.atomic();
            }
            if evalsha {
                pipe.evalsha_script(&call).unwrap();
            } else {
                pipe.eval_script(&call).unwrap();
            }
            let replies: Vec<redis::Value> = pipe.query(con).unwrap();
            let reply = replies.into_iter().next_back().map(Ok);
            let what = format!("{protocol}, tail, pipeline (atomic {atomic}, EVALSHA {evalsha})");
            assert_echoed(&what, call.decode(reply.expect("a reply")), &want);
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = match protocol {
            "RESP3" => server.client_resp3(),
            _ => server.client(),
        };
        let mut con = client.get_multiplexed_async_connection().await.unwrap();
        let reply = call.invoke_async(&mut con).await;
        assert_echoed(&format!("{protocol}, tail, async"), reply, &want);
    });
}

/// Every server command's call count, from `INFO commandstats`.
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

/// Refused before anything is sent: checked by the server's own count of
/// the commands it ran, which only `INFO` itself may change.
#[tokio::test(flavor = "current_thread")]
async fn a_parameter_that_is_not_one_value_is_refused_before_anything_is_sent() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut async_con = server.multiplexed().await;
    let one_entry: HashMap<&str, &str> = HashMap::from([("field", "value")]);
    let none: Option<&str> = None;
    let empty: Vec<String> = Vec::new();

    let before = command_calls(&mut con);
    let refused: Vec<Refused> = vec![
        (echo_optional("k", None), "arg", 0),
        (echo_generic("k", none), "arg", 0),
        (echo_generic("k", &empty), "arg", 0),
        (echo_generic(("k1", "k2"), "x"), "key", 2),
        (echo_generic("k", &one_entry), "arg", 2),
        (echo_generic("k", &["a", "b", "c"]), "arg", 3),
    ];
    for (call, parameter, values) in &refused {
        let check = |result: Result<_, Error>, how: &str| {
            let error = result.err().unwrap_or_else(|| panic!("{how}: accepted"));
            assert!(
                matches!(
                    error.kind(),
                    ErrorKind::Argument { parameter: p, values: v }
                        if *p == *parameter && *v == *values
                ),
                "{how}: {error:?}"
            );
            assert_eq!(error.script(), call.script().name(), "{how}");
            assert!(
                error.to_string().contains(&format!("`{parameter}`")),
                "{how}: {error}"
            );
        };
        check(call.invoke(&mut con).map(drop), "invoke");
        check(
            call.invoke_async(&mut async_con).await.map(drop),
            "invoke_async",
        );
        check(
            redis::pipe().evalsha_script(call).map(drop),
            "evalsha_script",
        );
        check(redis::pipe().eval_script(call).map(drop), "eval_script");
        check(call.evalsha_cmd().map(drop), "evalsha_cmd");
        check(call.eval_cmd().map(drop), "eval_cmd");
        check(call.check_slots(), "check_slots");
    }
    let mut after = command_calls(&mut con);
    let mut before = before;
    before.remove("info");
    after.remove("info");
    assert_eq!(after, before, "the server ran commands for refused calls");

    // The count does see a call that goes out.
    let sent = echo_optional("k", Some("x")).invoke(&mut con).unwrap();
    assert_eq!(sent, [b"k".to_vec(), b"x".to_vec()]);
    assert_eq!(command_calls(&mut con).get("evalsha"), Some(&1));
}
