//! How a call runs: EVALSHA, NOSCRIPT recovery, pipelines, argument encoding.

use redis::{ConnectionLike, Value};
use redis_script::{ErrorKind, NoScriptFallback, Script, ScriptPipeline, redis_script};

use crate::server::{Flavor, RedisServer};

/// Takes the lock.
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock(lock: &str, token: &str) -> bool;

#[redis_script(file = "tests/lua/noscript_coded_error.lua", keys = 1)]
fn noscript_coded_error(runs: &str) -> ();

#[redis_script(file = "tests/lua/nested_error.lua", keys = 1)]
fn nested_error(key: &str) -> Value;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 2)]
fn echo_variadic(a: &str, b: &str, first: i64, #[variadic] rest: &[&str]) -> Vec<String>;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_one<K: redis::ToRedisArgs>(key: K, arg: Option<i64>) -> Vec<String>;

/// A real connection that counts its round trips, and can refuse pipelines
/// as a sync cluster connection does.
pub(crate) struct Counting<'a> {
    inner: &'a mut redis::Connection,
    pub(crate) round_trips: usize,
    pub(crate) pipelining: bool,
}

impl<'a> Counting<'a> {
    pub(crate) fn new(inner: &'a mut redis::Connection) -> Self {
        Counting {
            inner,
            round_trips: 0,
            pipelining: true,
        }
    }
}

impl ConnectionLike for Counting<'_> {
    fn req_packed_command(&mut self, cmd: &[u8]) -> redis::RedisResult<Value> {
        self.round_trips += 1;
        self.inner.req_packed_command(cmd)
    }

    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> redis::RedisResult<Vec<Value>> {
        self.round_trips += 1;
        self.inner.req_packed_commands(cmd, offset, count)
    }

    fn get_db(&self) -> i64 {
        self.inner.get_db()
    }

    fn check_connection(&mut self) -> bool {
        self.inner.check_connection()
    }

    fn is_open(&self) -> bool {
        self.inner.is_open()
    }

    fn supports_pipelining(&self) -> bool {
        self.pipelining
    }
}

pub(crate) fn flush_scripts(con: &mut dyn ConnectionLike) {
    redis::cmd("SCRIPT").arg("FLUSH").exec(con).unwrap();
}

pub(crate) fn script_cached(con: &mut dyn ConnectionLike, script: &Script) -> bool {
    let exists: Vec<bool> = redis::cmd("SCRIPT")
        .arg("EXISTS")
        .arg(script.sha1())
        .query(con)
        .unwrap();
    exists == [true]
}

/// Calls of `command` the server saw since the last `CONFIG RESETSTAT`,
/// whether they ran (`calls`, which counts failures such as NOSCRIPT too) or
/// were rejected before running (`rejected_calls`).
pub(crate) fn command_calls(con: &mut dyn ConnectionLike, command: &str) -> u64 {
    let info: String = redis::cmd("INFO").arg("commandstats").query(con).unwrap();
    let prefix = format!("cmdstat_{command}:");
    let Some(line) = info.lines().find(|line| line.starts_with(&prefix)) else {
        return 0;
    };
    line[prefix.len()..]
        .split(',')
        .filter_map(|field| field.split_once('='))
        .filter(|(name, _)| matches!(*name, "calls" | "rejected_calls"))
        .map(|(_, value)| value.parse::<u64>().unwrap())
        .sum()
}

pub(crate) fn reset_stats(con: &mut dyn ConnectionLike) {
    redis::cmd("CONFIG").arg("RESETSTAT").exec(con).unwrap();
}

#[test]
fn embedded_sha1_equals_the_servers_for_every_shipped_script() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let shipped: Vec<&Script> = redis_script::recipes::scripts().collect();
    for script in &shipped {
        let sha1: String = script.load_cmd().query(&mut con).unwrap();
        assert_eq!(sha1, script.sha1(), "{}", script.file());
        script.load(&mut con).unwrap();
    }
    // Every file in scripts/ has a binding in the recipes, so none escapes the check.
    let mut on_disk: Vec<String> = lua_files_under("scripts");
    on_disk.sort();
    let mut bound: Vec<String> = shipped.iter().map(|s| s.file().to_owned()).collect();
    bound.sort();
    bound.dedup();
    assert_eq!(on_disk, bound);
}

/// The `.lua` files under `dir`, its subfolders included, as paths from the
/// crate's root.
fn lua_files_under(dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = format!("{dir}/{}", entry.unwrap().file_name().to_string_lossy());
        if std::path::Path::new(&path).is_dir() {
            files.extend(lua_files_under(&path));
        } else if path.ends_with(".lua") {
            files.push(path);
        }
    }
    files
}

#[test]
fn metadata_is_static_and_complete() {
    let script: &'static Script = &acquire_lock::SCRIPT;
    assert_eq!(script.name(), "acquire_lock");
    assert_eq!(script.file(), "scripts/lock_acquire.lua");
    assert_eq!(
        script.source(),
        include_str!("../../scripts/lock_acquire.lua")
    );
    assert_eq!(script.sha1().len(), 40);
    assert_eq!(script.key_count(), 1);
    assert_eq!(script.key_names(), ["lock"]);
    assert_eq!(script.arg_names(), ["ttl_ms", "token"]);
    assert_eq!(script.arg_arity(), redis_script::Arity::Exactly(2));
    assert_eq!(script.reply_type(), "Option<String>");
    assert_eq!(
        echo_variadic::SCRIPT.arg_arity(),
        redis_script::Arity::AtLeast(1)
    );
    assert_eq!(echo_variadic::SCRIPT.key_names(), ["a", "b"]);
    assert_eq!(release_lock::SCRIPT.reply_type(), "bool");
    let call = acquire_lock("k", 1, "t");
    assert!(std::ptr::eq(call.script(), script));
}

#[test]
fn invoke_runs_evalsha_in_one_round_trip_when_cached() {
    let server = RedisServer::start();
    let mut con = server.connection();
    acquire_lock::SCRIPT.load(&mut con).unwrap();
    reset_stats(&mut con);
    let mut counting = Counting::new(&mut con);
    let reply = acquire_lock("lock:a", 10_000, "t1")
        .invoke(&mut counting)
        .unwrap();
    assert_eq!(reply.as_deref(), Some("OK"));
    assert_eq!(counting.round_trips, 1);
    assert_eq!(command_calls(&mut con, "evalsha"), 1);
    assert_eq!(command_calls(&mut con, "eval"), 0);
}

#[test]
fn invoke_recovers_from_noscript_with_one_eval() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for (round, token) in ["t1", "t2"].into_iter().enumerate() {
        flush_scripts(&mut con);
        reset_stats(&mut con);
        let mut counting = Counting::new(&mut con);
        let lock = format!("lock:{round}");
        let reply = acquire_lock(&lock, 10_000, token)
            .invoke(&mut counting)
            .unwrap();
        assert_eq!(reply.as_deref(), Some("OK"));
        assert_eq!(counting.round_trips, 2, "EVALSHA, then exactly one EVAL");
        assert_eq!(command_calls(&mut con, "evalsha"), 1);
        assert_eq!(command_calls(&mut con, "eval"), 1);
        assert_eq!(command_calls(&mut con, "script|load"), 0);
        // EVAL cached it again: the next call is a plain EVALSHA.
        assert!(script_cached(&mut con, &acquire_lock::SCRIPT));
        let held: Option<String> = redis::cmd("GET").arg(&lock).query(&mut con).unwrap();
        assert_eq!(held.as_deref(), Some(token));
    }
}

#[test]
fn invoke_recovers_from_noscript_with_one_pipelined_load() {
    let server = RedisServer::start();
    let mut con = server.connection();
    flush_scripts(&mut con);
    reset_stats(&mut con);
    let mut counting = Counting::new(&mut con);
    let call = acquire_lock("lock:a", 10_000, "t1").on_noscript(NoScriptFallback::Load);
    assert_eq!(call.invoke(&mut counting).unwrap().as_deref(), Some("OK"));
    assert_eq!(
        counting.round_trips, 2,
        "EVALSHA, then SCRIPT LOAD + EVALSHA together"
    );
    assert_eq!(command_calls(&mut con, "evalsha"), 2);
    assert_eq!(command_calls(&mut con, "script|load"), 1);
    assert_eq!(command_calls(&mut con, "eval"), 0);
    assert!(script_cached(&mut con, &acquire_lock::SCRIPT));
}

/// Each server's own words for a missing script, which recovery recognises:
/// if a server changes them, this fails before users' calls do.
#[test]
fn each_server_words_noscript_as_recovery_expects() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let error = redis::cmd("EVALSHA")
        .arg("0000000000000000000000000000000000000000")
        .arg(0)
        .exec(&mut con)
        .unwrap_err();
    assert_eq!(error.code(), Some("NOSCRIPT"));
    let expected = match server.flavor() {
        Flavor::Redis => "No matching script. Please use EVAL.",
        Flavor::Valkey => "No matching script.",
    };
    assert_eq!(error.detail().map(str::trim), Some(expected));
    // And a call of a missing script recovers on this server.
    let reply = acquire_lock("lock:words", 10_000, "t")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply.as_deref(), Some("OK"));
}

#[test]
fn script_errors_are_not_mistaken_for_noscript() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("HSET")
        .arg("lock:h")
        .arg("f")
        .arg("v")
        .exec(&mut con)
        .unwrap();
    // GET on a hash fails inside the script: WRONGTYPE, reported once, not retried.
    release_lock::SCRIPT.load(&mut con).unwrap();
    reset_stats(&mut con);
    let error = release_lock("lock:h", "t").invoke(&mut con).unwrap_err();
    assert_eq!(error.script(), "release_lock");
    assert_eq!(error.code(), Some("WRONGTYPE"));
    assert!(error.to_string().contains("release_lock"), "{error}");
    assert_eq!(command_calls(&mut con, "evalsha"), 1);
    assert_eq!(command_calls(&mut con, "eval"), 0);
}

#[tokio::test(flavor = "current_thread")]
async fn invoke_async_recovers_from_noscript_on_multiplexed_and_manager() {
    let server = RedisServer::start();
    let client = server.client();
    let mut admin = server.connection();
    let mut multiplexed = client.get_multiplexed_async_connection().await.unwrap();
    let mut manager = redis::aio::ConnectionManager::new(client.clone())
        .await
        .unwrap();
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        flush_scripts(&mut admin);
        reset_stats(&mut admin);
        let first = acquire_lock("lock:m", 10_000, "m")
            .on_noscript(fallback)
            .invoke_async(&mut multiplexed)
            .await
            .unwrap();
        assert_eq!(first.as_deref(), Some("OK"));
        flush_scripts(&mut admin);
        let second = acquire_lock("lock:m", 10_000, "n")
            .on_noscript(fallback)
            .invoke_async(&mut manager)
            .await
            .unwrap();
        assert_eq!(second, None, "held by the first call");
        let release = release_lock("lock:m", "m").on_noscript(fallback);
        assert!(release.invoke_async(&mut manager).await.unwrap());
        // Three recoveries: two flushed acquires and the never-loaded release.
        let (evals, loads) = match fallback {
            NoScriptFallback::Eval => (3, 0),
            _ => (0, 3),
        };
        assert_eq!(command_calls(&mut admin, "eval"), evals, "{fallback:?}");
        assert_eq!(
            command_calls(&mut admin, "script|load"),
            loads,
            "{fallback:?}"
        );
    }
}

#[test]
fn pipelines_queue_eval_and_survive_a_flushed_cache() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for atomic in [false, true] {
        flush_scripts(&mut con);
        let token = if atomic { "atomic" } else { "plain" };
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        pipe.eval_script(&acquire_lock("lock:p", 10_000, token))
            .unwrap();
        pipe.incr("attempts", 1);
        pipe.eval_script(&acquire_lock("lock:p", 10_000, "other"))
            .unwrap();
        pipe.eval_script(&release_lock("lock:p", token)).unwrap();
        pipe.get("lock:p");
        let (taken, attempts, second, released, left): (
            Option<String>,
            i64,
            Option<String>,
            bool,
            Option<String>,
        ) = pipe.query(&mut con).unwrap();
        assert_eq!(taken.as_deref(), Some("OK"));
        assert_eq!(attempts, if atomic { 2 } else { 1 });
        assert_eq!(second, None);
        assert!(released);
        assert_eq!(left, None);
    }
}

/// How many commands of `pipe` are SCRIPT LOADs.
fn script_loads(pipe: &redis::Pipeline) -> usize {
    pipe.cmd_iter()
        .filter(|cmd| {
            let mut args = cmd.args_iter();
            matches!(
                (args.next(), args.next()),
                (
                    Some(redis::Arg::Simple(b"SCRIPT")),
                    Some(redis::Arg::Simple(b"LOAD"))
                )
            )
        })
        .count()
}

#[test]
fn evalsha_pipelines_load_each_script_once_and_survive_a_flushed_cache() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for atomic in [false, true] {
        flush_scripts(&mut con);
        redis::cmd("DEL").arg("attempts").exec(&mut con).unwrap();
        reset_stats(&mut con);
        let token = if atomic { "atomic" } else { "plain" };
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        pipe.evalsha_script(&acquire_lock("lock:e", 10_000, token))
            .unwrap();
        pipe.incr("attempts", 1);
        pipe.evalsha_script(&acquire_lock("lock:e", 10_000, "other"))
            .unwrap();
        pipe.evalsha_script(&release_lock("lock:e", token)).unwrap();
        pipe.get("lock:e");
        pipe.evalsha_script(&release_lock("lock:e", token)).unwrap();
        assert_eq!(script_loads(&pipe), 2, "one per distinct script");
        // The tuple has the user's commands only: the loads are ignored.
        let (taken, attempts, second, released, left, again): (
            Option<String>,
            i64,
            Option<String>,
            bool,
            Option<String>,
            bool,
        ) = pipe.query(&mut con).unwrap();
        assert_eq!(taken.as_deref(), Some("OK"), "atomic: {atomic}");
        assert_eq!(attempts, 1);
        assert_eq!(second, None, "held by the first call");
        assert!(released);
        assert_eq!(left, None);
        assert!(!again, "already released");
        // Each source reached the server once; every call ran as EVALSHA.
        assert_eq!(command_calls(&mut con, "script|load"), 2);
        assert_eq!(command_calls(&mut con, "evalsha"), 4);
        assert_eq!(command_calls(&mut con, "eval"), 0);
        assert!(script_cached(&mut con, &acquire_lock::SCRIPT));
        assert!(script_cached(&mut con, &release_lock::SCRIPT));
        // Everything committed, the script calls with the rest.
        let attempts: i64 = redis::cmd("GET").arg("attempts").query(&mut con).unwrap();
        assert_eq!(attempts, 1);
    }
}

#[tokio::test(flavor = "current_thread")]
async fn evalsha_pipelines_survive_a_flushed_cache_on_async_connections() {
    let server = RedisServer::start();
    let mut admin = server.connection();
    let mut con = server.multiplexed().await;
    for atomic in [false, true] {
        flush_scripts(&mut admin);
        reset_stats(&mut admin);
        let mut pipe = redis::pipe();
        if atomic {
            pipe.atomic();
        }
        pipe.evalsha_script(&acquire_lock("lock:a", 10_000, "t"))
            .unwrap();
        pipe.evalsha_script(&release_lock("lock:a", "t")).unwrap();
        pipe.evalsha_script(&acquire_lock("lock:a", 10_000, "u"))
            .unwrap();
        pipe.del("lock:a");
        let (taken, released, retaken, deleted): (Option<String>, bool, Option<String>, i64) =
            pipe.query_async(&mut con).await.unwrap();
        assert_eq!(taken.as_deref(), Some("OK"), "atomic: {atomic}");
        assert!(released);
        assert_eq!(retaken.as_deref(), Some("OK"));
        assert_eq!(deleted, 1);
        assert_eq!(command_calls(&mut admin, "script|load"), 2);
        assert_eq!(command_calls(&mut admin, "evalsha"), 3);
        assert_eq!(command_calls(&mut admin, "eval"), 0);
    }
}

#[test]
fn pipeline_replies_decode_one_by_one_with_the_declared_type() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for evalsha in [false, true] {
        let take = acquire_lock("lock:d", 10_000, "t");
        let release = release_lock("lock:d", "wrong");
        let mut pipe = redis::pipe();
        if evalsha {
            pipe.evalsha_script(&take).unwrap();
        } else {
            pipe.eval_script(&take).unwrap();
        }
        pipe.set("x", 1).ignore();
        if evalsha {
            pipe.evalsha_script(&release).unwrap();
        } else {
            pipe.eval_script(&release).unwrap();
        }
        pipe.del("lock:d").ignore();
        // Only the two calls' replies: not the loads, nor the ignored commands.
        let replies: Vec<Value> = pipe.query(&mut con).unwrap();
        assert_eq!(replies.len(), 2, "evalsha: {evalsha}");
        let mut replies = replies.into_iter();
        assert_eq!(
            take.decode(Ok(replies.next().unwrap())).unwrap().as_deref(),
            Some("OK")
        );
        assert!(!release.decode(Ok(replies.next().unwrap())).unwrap());
    }
}

#[test]
fn keys_then_fixed_args_then_the_variadic_tail_in_order() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let reply = echo_variadic("k1", "k2", 7, &["x", "y", "z"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply, ["k1", "k2", "7", "x", "y", "z"]);
    let tail: Vec<&str> = Vec::new();
    assert_eq!(
        echo_variadic("k1", "k2", 7, &tail)
            .invoke(&mut con)
            .unwrap(),
        ["k1", "k2", "7"]
    );
    // KEYS really are KEYS: the server sees numkeys = 2.
    let call = echo_variadic("k1", "k2", 7, &["x"]);
    let args_of = |cmd: redis::Cmd| -> Vec<Vec<u8>> {
        cmd.args_iter()
            .map(|arg| match arg {
                redis::Arg::Simple(bytes) => bytes.to_vec(),
                _ => unreachable!(),
            })
            .collect()
    };
    let evalsha = args_of(call.evalsha_cmd().unwrap());
    assert_eq!(evalsha[0], b"EVALSHA");
    assert_eq!(evalsha[1], echo_variadic::SCRIPT.sha1().as_bytes());
    let tail: [&[u8]; 5] = [b"2", b"k1", b"k2", b"7", b"x"];
    assert_eq!(evalsha[2..], tail);
    let eval = args_of(call.eval_cmd().unwrap());
    assert_eq!(eval[0], b"EVAL");
    assert_eq!(eval[1], echo_variadic::SCRIPT.source().as_bytes());
    assert_eq!(eval[2..], tail);
}

#[test]
fn a_parameter_that_is_not_one_value_is_an_error_and_sends_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert_eq!(echo_one("k", Some(1)).invoke(&mut con).unwrap(), ["k", "1"]);

    let mut counting = Counting::new(&mut con);
    let error = echo_one("k", None).invoke(&mut counting).unwrap_err();
    assert_eq!(error.script(), "echo_one");
    assert!(matches!(
        error.kind(),
        ErrorKind::Argument {
            parameter: "arg",
            values: 0
        }
    ));
    assert!(error.to_string().contains("`arg`"), "{error}");
    let error = echo_one(("k1", "k2"), Some(1))
        .invoke(&mut counting)
        .unwrap_err();
    assert!(matches!(
        error.kind(),
        ErrorKind::Argument {
            parameter: "key",
            values: 2
        }
    ));
    assert_eq!(counting.round_trips, 0);

    let mut pipe = redis::pipe();
    assert!(pipe.eval_script(&echo_one("k", None)).is_err());
    assert!(pipe.evalsha_script(&echo_one("k", None)).is_err());
    assert!(pipe.is_empty(), "nothing queued, not even SCRIPT LOAD");
}

#[test]
fn an_invocation_runs_again_and_converts_into_redis_error() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let call = acquire_lock("lock:r", 10_000, "t");
    assert!(call.invoke(&mut con).unwrap().is_some());
    assert!(
        call.invoke(&mut con).unwrap().is_none(),
        "second run sees the lock held"
    );
    let debug = format!("{call:?}");
    assert!(
        debug.contains("acquire_lock") && !debug.contains("lock:r"),
        "{debug}"
    );

    fn as_redis_result(con: &mut redis::Connection) -> redis::RedisResult<bool> {
        Ok(echo_one("k", None).invoke(con).map(|v| v.is_empty())?)
    }
    let error = as_redis_result(&mut con).unwrap_err();
    assert!(error.to_string().contains("echo_one"), "{error}");
}

#[test]
fn a_script_error_coded_noscript_is_not_retried() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        noscript_coded_error::SCRIPT.load(&mut con).unwrap();
        redis::cmd("DEL").arg("runs").exec(&mut con).unwrap();
        let error = noscript_coded_error("runs")
            .on_noscript(fallback)
            .invoke(&mut con)
            .unwrap_err();
        assert_eq!(error.code(), Some("NOSCRIPT"), "{error}");
        let runs: i64 = redis::cmd("GET").arg("runs").query(&mut con).unwrap();
        assert_eq!(runs, 1, "{fallback:?}: the script ran once");
    }
}

#[test]
fn load_fallback_sends_eval_where_the_connection_cannot_pipeline() {
    let server = RedisServer::start();
    let mut con = server.connection();
    flush_scripts(&mut con);
    reset_stats(&mut con);
    let mut counting = Counting::new(&mut con);
    counting.pipelining = false;
    let call = acquire_lock("lock:c", 10_000, "t").on_noscript(NoScriptFallback::Load);
    assert_eq!(call.invoke(&mut counting).unwrap().as_deref(), Some("OK"));
    assert_eq!(counting.round_trips, 2);
    assert_eq!(command_calls(&mut con, "eval"), 1);
    assert_eq!(command_calls(&mut con, "script|load"), 0);
}

#[test]
fn an_error_inside_a_table_is_part_of_the_reply() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let reply = nested_error("n").invoke(&mut con).unwrap();
    let Value::Array(items) = reply else {
        panic!("an array: {reply:?}")
    };
    assert_eq!(items[0], Value::Int(1));
    assert!(
        matches!(&items[1], Value::ServerError(error) if error.code() == "ERR"),
        "{items:?}"
    );
}
