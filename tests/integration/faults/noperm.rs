//! ACL refusals (NOPERM): the NOSCRIPT recovery never turns a refused
//! EVALSHA into an EVAL, a refused recovery fails with the server's
//! NOPERM, and neither ran the script. A command the user may not run,
//! called from inside the script, fails the script where it stands.

use redis_script::{Applied, ErrorClass, NoScriptFallback, redis_script};

use crate::counter::{counter_value, incr_counter};
use crate::invocation::command_calls;
use crate::server::RedisServer;

/// Sets KEYS[1], then increments KEYS[2]: a write before the refused
/// command, when the user may SET but not INCR.
#[redis_script(file = "tests/lua/set_then_incr.lua", keys = 2)]
fn set_then_incr(written: &str, counter: &str) -> i64;

const COUNTER: &str = "noperm:counter";
const PASSWORD: &str = "secret";

/// A connection as a new ACL user with `rules` (beside a password and all keys).
fn connect_as(server: &RedisServer, user: &str, rules: &[&str]) -> redis::Connection {
    let mut admin = server.connection();
    redis::cmd("ACL")
        .arg("SETUSER")
        .arg(user)
        .arg("on")
        .arg(format!(">{PASSWORD}"))
        .arg("~*")
        .arg(rules)
        .exec(&mut admin)
        .unwrap();
    let url = format!("redis://{user}:{PASSWORD}@127.0.0.1:{}/", server.port());
    redis::Client::open(url).unwrap().get_connection().unwrap()
}

#[test]
fn a_refused_evalsha_is_not_recovered_by_eval() {
    let server = RedisServer::start();
    // The script is cached, so only the ACL stands in the way.
    incr_counter::SCRIPT.load(&mut server.connection()).unwrap();
    let mut con = connect_as(&server, "eval_only", &["+@all", "-evalsha", "-evalsha_ro"]);
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        let error = incr_counter(COUNTER)
            .on_noscript(fallback)
            .invoke(&mut con)
            .unwrap_err();
        assert_eq!(error.code(), Some("NOPERM"), "{error}");
        assert!(error.to_string().contains("incr_counter"), "{error}");
        assert_eq!(error.applied(), Applied::No);
        assert_eq!(error.class(), ErrorClass::Refused);
    }
    // No EVAL reached the server, not even one the ACL refused.
    assert_eq!(command_calls(&mut server.connection(), "eval"), 0);
    assert_eq!(counter_value(&mut server.connection(), COUNTER), 0);
}

#[test]
fn a_recovery_by_a_refused_eval_fails_with_noperm_and_script_load_recovers() {
    let server = RedisServer::start();
    let mut con = connect_as(&server, "evalsha_only", &["+@all", "-eval", "-eval_ro"]);
    // Not cached: EVALSHA answers NOSCRIPT, and the EVAL that follows is refused.
    let error = incr_counter(COUNTER).invoke(&mut con).unwrap_err();
    assert_eq!(error.code(), Some("NOPERM"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(error.class(), ErrorClass::Refused);
    assert_eq!(counter_value(&mut server.connection(), COUNTER), 0);
    // SCRIPT LOAD is allowed to this user: that recovery runs the call.
    let call = incr_counter(COUNTER).on_noscript(NoScriptFallback::Load);
    assert_eq!(call.invoke(&mut con).unwrap(), 1);
    assert_eq!(incr_counter(COUNTER).invoke(&mut con).unwrap(), 2);
}

#[test]
fn a_command_the_user_may_not_run_fails_the_script_after_its_earlier_writes() {
    let server = RedisServer::start();
    let mut con = connect_as(&server, "no_incr", &["+@all", "-incr"]);
    let error = set_then_incr("noperm:written", COUNTER)
        .invoke(&mut con)
        .unwrap_err();
    // Not NOPERM: the script's own failure, after a write that stays.
    assert_eq!(error.code(), Some("ERR"), "{error}");
    // Redis 7.0: "The user executing the script can't run this command";
    // Valkey: "ACL failure in script: User no_incr has no permissions".
    let message = error.to_string();
    assert!(
        message.contains("can't run this command") || message.contains("no permissions"),
        "{message}"
    );
    assert_eq!(error.class(), ErrorClass::Script);
    assert_eq!(error.applied(), Applied::Maybe);
    let written: Option<String> = redis::cmd("GET")
        .arg("noperm:written")
        .query(&mut server.connection())
        .unwrap();
    assert_eq!(written.as_deref(), Some("1"));
    assert_eq!(counter_value(&mut server.connection(), COUNTER), 0);
}
