//! Script eviction: Valkey (8.1 and 9.1 alike) and Redis from 7.4 on keep
//! at most 500 scripts cached by EVAL, evicting the least recently used,
//! and never evict scripts added by SCRIPT LOAD; Redis 7.0 evicts nothing.
//! A binding whose script was evicted recovers as after a flush; the
//! `Load` strategies keep it.

use redis::ConnectionLike;
use redis_script::NoScriptFallback;

use crate::counter::{counter_value, incr_counter};
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::server::{Flavor, RedisServer};

/// Distinct scripts sent with EVAL: more than a server that evicts keeps.
const DISTINCT_SCRIPTS: usize = 600;
/// How many EVAL-cached scripts a server that evicts keeps (Valkey 8.1.8
/// and 9.1.2, Redis 8.2.3 alike).
const EVAL_CACHE: u64 = 500;

/// Whether `server` evicts scripts cached by EVAL: every Valkey, and Redis
/// from 7.4 on.
fn evicts_eval_scripts(server: &RedisServer) -> bool {
    let mut release = server.version().split('.').map(|n| n.parse().unwrap_or(0));
    let release: (u32, u32) = (release.next().unwrap_or(0), release.next().unwrap_or(0));
    server.flavor() == Flavor::Valkey || release >= (7, 4)
}
const COUNTER: &str = "eviction:counter";

/// Sends [`DISTINCT_SCRIPTS`] EVALs of distinct scripts, as an application
/// that generates its scripts would, in one pipeline.
fn eval_distinct_scripts(con: &mut dyn ConnectionLike) {
    let mut pipe = redis::pipe();
    for index in 0..DISTINCT_SCRIPTS {
        pipe.cmd("EVAL")
            .arg(format!("return {index} -- generated"))
            .arg(0)
            .ignore();
    }
    pipe.exec(con).unwrap();
}

/// A numeric field of `INFO <section>`, if the server has it.
fn info_field(con: &mut dyn ConnectionLike, section: &str, field: &str) -> Option<u64> {
    let info: String = redis::cmd("INFO").arg(section).query(con).unwrap();
    let prefix = format!("{field}:");
    info.lines()
        .find_map(|line| line.trim().strip_prefix(&prefix))
        .map(|value| value.parse().unwrap())
}

#[test]
fn an_eval_cached_script_is_evicted_where_the_server_evicts_and_its_binding_recovers() {
    let server = RedisServer::start();
    let mut con = server.connection();
    flush_scripts(&mut con);
    // The default recovery caches the script by EVAL.
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 1);
    assert!(script_cached(&mut con, &incr_counter::SCRIPT));

    eval_distinct_scripts(&mut con);
    let cached = info_field(&mut con, "memory", "number_of_cached_scripts");
    let still_cached = script_cached(&mut con, &incr_counter::SCRIPT);
    let evicts = evicts_eval_scripts(&server);
    if evicts {
        assert!(
            !still_cached,
            "the server kept the least recently used script"
        );
        assert_eq!(cached, Some(EVAL_CACHE));
        let evictions = info_field(&mut con, "stats", "evicted_scripts");
        assert_eq!(evictions, Some(DISTINCT_SCRIPTS as u64 + 1 - EVAL_CACHE));
    } else {
        assert!(still_cached, "Redis 7.0 evicted a script");
        assert_eq!(cached, Some(DISTINCT_SCRIPTS as u64 + 1));
    }

    // The binding runs again, once, recovering the evicted script by EVAL.
    reset_stats(&mut con);
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 2);
    assert_eq!(counter_value(&mut con, COUNTER), 2);
    assert_eq!(command_calls(&mut con, "eval"), u64::from(evicts));
    assert_eq!(command_calls(&mut con, "evalsha"), 1);
}

#[test]
fn a_script_added_by_script_load_is_never_evicted() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // Two ways a binding's script gets loaded rather than EVAL-cached:
    // `Script::load`, and recovering with `NoScriptFallback::Load`.
    for preloaded in [true, false] {
        flush_scripts(&mut con);
        redis::cmd("DEL").arg(COUNTER).exec(&mut con).unwrap();
        let call = incr_counter(COUNTER).on_noscript(NoScriptFallback::Load);
        if preloaded {
            incr_counter::SCRIPT.load(&mut con).unwrap();
        }
        assert_eq!(call.invoke(&mut con).unwrap(), 1);

        eval_distinct_scripts(&mut con);
        assert!(
            script_cached(&mut con, &incr_counter::SCRIPT),
            "evicted although loaded (preloaded: {preloaded})"
        );
        if evicts_eval_scripts(&server) {
            // The generated scripts were evicted around it.
            let evictions = info_field(&mut con, "stats", "evicted_scripts");
            assert!(evictions.is_some_and(|evicted| evicted > 0));
        }
        reset_stats(&mut con);
        assert_eq!(call.invoke(&mut con).unwrap(), 2);
        assert_eq!(command_calls(&mut con, "evalsha"), 1, "a plain EVALSHA");
        assert_eq!(command_calls(&mut con, "script|load"), 0);
        assert_eq!(command_calls(&mut con, "eval"), 0);
    }
}
