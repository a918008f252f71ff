//! What a call does when the server lacks what it runs, decided once for
//! every transport: send it again as EVAL, or load the script or library
//! and send it again, or let the reply stand; and after a load that
//! failed, whose error the call reports.
//!
//! The decisions read only the binding and the server's reply, never a
//! connection: [`invocation`](super::invocation) carries them out on
//! redis-rs's sync and async connections and on fred's clients, and
//! [`batch`](super::batch) (which never sends a call twice) reads its
//! calls' replies with them. So this file stands below both, importing
//! nothing of theirs.

use redis::{RedisResult, Value};

use crate::embedded::script::Script;
use crate::observe;
use crate::wire::refusals;

/// What [`Invocation::invoke`](crate::Invocation::invoke) does when the
/// server answers EVALSHA with NOSCRIPT (after a restart, a `SCRIPT FLUSH`,
/// a failover, or an eviction).
/// Either way the call recovers in exactly one more round trip and NOSCRIPT
/// never reaches the caller.
///
/// The two differ in how the server keeps the script afterwards. Valkey,
/// and Redis from 7.4 on, evict scripts cached by EVAL once they hold more
/// than 500 of them, the least recently used first (Redis 7.0 keeps them
/// all), and never evict a script
/// added by SCRIPT LOAD. So with `Eval` an application that also sends
/// many distinct EVALs (generated scripts, other tools) can see its
/// scripts evicted, and each eviction costs a call the extra round trip
/// and the source on the wire, as a flush does; with `Load` (or after
/// [`Script::load`](crate::Script::load)) the script stays until the next
/// flush or restart. Both checked on valkey-server 8.1.8 and 9.1.2 and
/// redis-server 7.0.15 and 8.2.3: `cargo test --test integration -- faults::eviction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum NoScriptFallback {
    /// Send `EVAL` with the full source, which also caches the script again,
    /// as an EVAL-cached script (which the server may evict, see above). Works
    /// everywhere EVALSHA does, including proxies without SCRIPT LOAD.
    #[default]
    Eval,
    /// Send `SCRIPT LOAD` and `EVALSHA` together in one pipelined round trip.
    /// Scripts added by SCRIPT LOAD are never evicted (see above). Needs a
    /// server that allows SCRIPT LOAD; on a connection that cannot pipeline
    /// (a sync cluster connection), EVAL is sent instead. If SCRIPT LOAD is
    /// refused, the call fails with its error, and the script has not run.
    ///
    /// Unlike EVAL, these are two commands, so they share the window of a
    /// plain pipeline (see [`ScriptPipeline`](crate::ScriptPipeline)): a
    /// `SCRIPT FLUSH` that the server serves between them fails the call
    /// with NOSCRIPT (not applied). The server serves another client there
    /// only if it reads the pair in two parts (a long script, a slow
    /// network), so this is rare, but where a client may flush at any time
    /// `Eval` is the recovery that no flush can fail; the flush-storm tests
    /// use it.
    Load,
}

/// What a binding calls, as far as its recovery goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binding {
    /// A script, called by EVALSHA (or EVALSHA_RO).
    Script,
    /// A function of a library, called by FCALL, or by FCALL_RO when
    /// `read_only` (a `no-writes` function).
    Function {
        /// Whether it is called by FCALL_RO.
        read_only: bool,
    },
}

impl Binding {
    /// What `script` calls.
    pub(crate) fn of(script: &Script) -> Binding {
        match script.library() {
            Some(_) => Binding::Function {
                read_only: script.is_read_only(),
            },
            None => Binding::Script,
        }
    }
}

/// What the server lacked when it refused a call before running anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    /// The script: not in the server's cache (NOSCRIPT), after a restart, a
    /// `SCRIPT FLUSH`, a failover or an eviction.
    Script,
    /// The function ("Function not found"): its library is missing, or
    /// there in a version without it.
    Function,
    /// Only the function's `no-writes` flag: FCALL_RO refused because the
    /// server's version of the library registers the function without it,
    /// as an older build did (a deploy that added the flag).
    NoWritesFlag,
}

/// What the server lacked, if the error reply `code` `detail` says that it
/// refused a call of `binding` for want of it; `None` for any other error,
/// among them a script's own error in the same words (a script's
/// NOSCRIPT, a script's "Function not found"), which may follow writes.
pub(crate) fn missing(binding: Binding, code: &str, detail: &str) -> Option<Missing> {
    match binding {
        Binding::Script => refusals::is_server_noscript(code, detail).then_some(Missing::Script),
        Binding::Function { .. } if code != "ERR" => None,
        Binding::Function { .. } if refusals::is_function_not_found(detail) => {
            Some(Missing::Function)
        }
        Binding::Function { read_only } => (read_only
            && refusals::is_write_flag_under_ro(detail))
        .then_some(Missing::NoWritesFlag),
    }
}

/// [`missing`] for a reply as redis-rs returns it.
fn missing_in(binding: Binding, reply: &RedisResult<Value>) -> Option<Missing> {
    refusals::error_words(reply).and_then(|(code, detail)| missing(binding, code, detail))
}

/// What an invocation does after the reply to its call: see [`plan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recovery {
    /// The reply is the call's outcome: nothing was missing.
    None,
    /// Send the call again as EVAL with the script's source, which also
    /// caches the script again.
    RetryAsEval,
    /// `SCRIPT LOAD` the script, then send the call again. If the load
    /// fails, its error is the call's (see [`after_failed_load`]).
    LoadScriptThenRetry,
    /// `FUNCTION LOAD REPLACE` the library, then send the call again. If
    /// the load fails, its error is the call's.
    LoadLibraryThenRetry,
}

impl Recovery {
    /// How the recovery is counted and traced (one of `observe`'s
    /// `RECOVERY_` names); `None` when there is none.
    pub(crate) fn observed_as(self) -> Option<&'static str> {
        match self {
            Recovery::None => None,
            Recovery::RetryAsEval => Some(observe::RECOVERY_EVAL),
            Recovery::LoadScriptThenRetry => Some(observe::RECOVERY_SCRIPT_LOAD),
            Recovery::LoadLibraryThenRetry => Some(observe::RECOVERY_FUNCTION_LOAD),
        }
    }
}

/// What an invocation of `binding` does after `reply`, the reply to its
/// call: recover once if the server lacked what the call runs (which it
/// refused before running anything), else nothing.
///
/// A script recovers as `fallback` says, but by EVAL on a transport that
/// does not `pipeline` (a sync cluster connection), which cannot send its
/// SCRIPT LOAD and the call together; fred, which sends the two one after
/// the other on the call's route, counts as pipelining. A function
/// recovers by loading its library, whether the function was missing or
/// only its `no-writes` flag.
pub(crate) fn plan(
    binding: Binding,
    fallback: NoScriptFallback,
    reply: &RedisResult<Value>,
    pipelines: bool,
) -> Recovery {
    match (missing_in(binding, reply), fallback) {
        (None, _) => Recovery::None,
        (Some(Missing::Function | Missing::NoWritesFlag), _) => Recovery::LoadLibraryThenRetry,
        (Some(Missing::Script), NoScriptFallback::Load) if pipelines => {
            Recovery::LoadScriptThenRetry
        }
        (Some(Missing::Script), _) => Recovery::RetryAsEval,
    }
}

/// The call sent right after a load of its script or library that failed,
/// both in one round trip (an invocation's recovery, a batch).
#[derive(Debug, Clone, Copy)]
pub(crate) enum CallAfterLoad<'a> {
    /// The server answered the call with this reply.
    Replied(&'a Value),
    /// The call ran nothing: the transaction that queued it was discarded
    /// at EXEC (EXECABORT: the load was refused while queued).
    Discarded,
}

/// Which error a call reports after a load of its script or library that
/// failed: see [`after_failed_load`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailedLoad {
    /// The call's own reply: it found what it runs (the server had it
    /// anyway), or failed for another reason than its absence.
    CallReplyStands,
    /// The load's error, which explains more than the NOSCRIPT (or
    /// "Function not found", or EXECABORT) that followed from it; nothing
    /// of the call ran.
    LoadErrorStands,
}

/// Which error a call of `binding` reports after a load of its script or
/// library that failed (a proxy or an ACL may refuse SCRIPT LOAD, a server
/// may refuse a library): the load's, if the call then ran nothing for
/// want of what the load would have put there.
pub(crate) fn after_failed_load(binding: Binding, call: CallAfterLoad<'_>) -> FailedLoad {
    let call_lacked = match call {
        CallAfterLoad::Replied(reply) => refusals::error_words_in(reply)
            .and_then(|(code, detail)| missing(binding, code, detail))
            .is_some(),
        CallAfterLoad::Discarded => true,
    };
    if call_lacked {
        FailedLoad::LoadErrorStands
    } else {
        FailedLoad::CallReplyStands
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use redis::{RedisError, RedisResult, Value};

    use super::{
        Binding, CallAfterLoad, FailedLoad, Missing, NoScriptFallback, Recovery, after_failed_load,
        missing, plan,
    };

    const NOSCRIPT_REDIS: &str = "-NOSCRIPT No matching script. Please use EVAL.\r\n";
    const NOSCRIPT_VALKEY: &str = "-NOSCRIPT No matching script.\r\n";
    const NOSCRIPT_RAISED: &str = "-NOSCRIPT raised by the script\r\n";
    const FUNCTION_NOT_FOUND: &str = "-ERR Function not found\r\n";
    const WRITE_FLAG: &str = "-ERR Can not execute a script with write flag using *_ro command.\r\n";
    const SCRIPT_ERROR: &str = "-ERR user_script:1: boom script: 8290, on @user_script:1.\r\n";

    const SCRIPT: Binding = Binding::Script;
    const FUNCTION: Binding = Binding::Function { read_only: false };
    const RO_FUNCTION: Binding = Binding::Function { read_only: true };
    const BINDINGS: [Binding; 3] = [SCRIPT, FUNCTION, RO_FUNCTION];
    const FALLBACKS: [NoScriptFallback; 2] = [NoScriptFallback::Eval, NoScriptFallback::Load];

    /// The error reply `resp` (`-CODE message\r\n`) as a value.
    fn error_value(resp: &str) -> Value {
        let value = redis::parse_redis_value(resp.as_bytes()).unwrap();
        assert!(matches!(value, Value::ServerError(_)), "{resp}");
        value
    }

    /// The error reply `resp` both ways redis-rs returns one: as an `Err`
    /// (`req_packed_command`) and inside the value (a pipeline's reply).
    fn both_forms(resp: &str) -> [RedisResult<Value>; 2] {
        let Value::ServerError(error) = error_value(resp) else {
            unreachable!()
        };
        [Err(error.clone().into()), Ok(Value::ServerError(error))]
    }

    /// `plan` for each fallback and each kind of transport.
    fn plans(binding: Binding, reply: &RedisResult<Value>) -> Vec<Recovery> {
        let mut plans = Vec::new();
        for fallback in FALLBACKS {
            for pipelines in [true, false] {
                plans.push(plan(binding, fallback, reply, pipelines));
            }
        }
        plans
    }

    #[test]
    fn the_server_noscript_is_a_missing_script_for_a_script_only() {
        for detail in ["No matching script. Please use EVAL.", "No matching script."] {
            assert_eq!(missing(SCRIPT, "NOSCRIPT", detail), Some(Missing::Script));
            assert_eq!(missing(FUNCTION, "NOSCRIPT", detail), None);
            assert_eq!(missing(RO_FUNCTION, "NOSCRIPT", detail), None);
        }
        // A script's own error coded NOSCRIPT: running it again would
        // repeat what it wrote.
        assert_eq!(missing(SCRIPT, "NOSCRIPT", "raised by the script"), None);
        assert_eq!(missing(SCRIPT, "NOSCRIPT", ""), None);
        assert_eq!(missing(SCRIPT, "ERR", "Function not found"), None);
    }

    #[test]
    fn a_missing_function_and_a_missing_flag_for_a_function_only() {
        for function in [FUNCTION, RO_FUNCTION] {
            assert_eq!(
                missing(function, "ERR", "Function not found"),
                Some(Missing::Function)
            );
            // The words under another code are not the server's.
            assert_eq!(missing(function, "WRONGTYPE", "Function not found"), None);
            assert_eq!(missing(function, "ERR", "boom"), None);
            assert_eq!(missing(function, "ERR", ""), None);
        }
        let flag = "Can not execute a script with write flag using *_ro command";
        for detail in [flag.to_owned(), format!("{flag}.")] {
            assert_eq!(
                missing(RO_FUNCTION, "ERR", &detail),
                Some(Missing::NoWritesFlag)
            );
            // FCALL (not _RO) is never refused so: the words are the function's.
            assert_eq!(missing(FUNCTION, "ERR", &detail), None);
            assert_eq!(missing(SCRIPT, "ERR", &detail), None);
        }
    }

    #[test]
    fn a_reply_that_lacks_nothing_is_not_recovered() {
        let lost: RedisError = io::Error::from(io::ErrorKind::UnexpectedEof).into();
        let refused: RedisError = io::Error::from(io::ErrorKind::ConnectionRefused).into();
        let [raised_err, raised_value] = both_forms(NOSCRIPT_RAISED);
        let [script_err, script_value] = both_forms(SCRIPT_ERROR);
        for reply in [
            Ok(Value::Int(1)),
            Ok(Value::Nil),
            Ok(Value::Okay),
            Err(lost),
            Err(refused),
            raised_err,
            raised_value,
            script_err,
            script_value,
        ] {
            for binding in BINDINGS {
                assert!(
                    plans(binding, &reply).iter().all(|p| *p == Recovery::None),
                    "{binding:?} {reply:?}"
                );
            }
        }
    }

    #[test]
    fn a_missing_script_is_sent_again_as_the_fallback_says() {
        for resp in [NOSCRIPT_REDIS, NOSCRIPT_VALKEY] {
            for reply in both_forms(resp) {
                let eval = |pipelines| plan(SCRIPT, NoScriptFallback::Eval, &reply, pipelines);
                let load = |pipelines| plan(SCRIPT, NoScriptFallback::Load, &reply, pipelines);
                assert_eq!(eval(true), Recovery::RetryAsEval);
                assert_eq!(eval(false), Recovery::RetryAsEval);
                assert_eq!(load(true), Recovery::LoadScriptThenRetry);
                // SCRIPT LOAD cannot go with the call: EVAL stands in.
                assert_eq!(load(false), Recovery::RetryAsEval);
                // A function is never missing by NOSCRIPT.
                assert!(plans(FUNCTION, &reply).iter().all(|p| *p == Recovery::None));
            }
        }
    }

    #[test]
    fn a_missing_function_or_flag_loads_the_library_whatever_the_fallback() {
        for reply in both_forms(FUNCTION_NOT_FOUND) {
            for function in [FUNCTION, RO_FUNCTION] {
                let plans = plans(function, &reply);
                assert!(plans.iter().all(|p| *p == Recovery::LoadLibraryThenRetry));
            }
            assert!(plans(SCRIPT, &reply).iter().all(|p| *p == Recovery::None));
        }
        // A deploy that added `no-writes`: the server's library lacks only the flag.
        for reply in both_forms(WRITE_FLAG) {
            let plans_ro = plans(RO_FUNCTION, &reply);
            assert!(plans_ro.iter().all(|p| *p == Recovery::LoadLibraryThenRetry));
            assert!(plans(FUNCTION, &reply).iter().all(|p| *p == Recovery::None));
            assert!(plans(SCRIPT, &reply).iter().all(|p| *p == Recovery::None));
        }
    }

    #[test]
    fn each_recovery_is_observed_by_what_it_sends() {
        assert_eq!(Recovery::None.observed_as(), None);
        assert_eq!(Recovery::RetryAsEval.observed_as(), Some("EVAL"));
        assert_eq!(
            Recovery::LoadScriptThenRetry.observed_as(),
            Some("SCRIPT LOAD")
        );
        assert_eq!(
            Recovery::LoadLibraryThenRetry.observed_as(),
            Some("FUNCTION LOAD")
        );
    }

    #[test]
    fn a_failed_load_is_the_error_of_a_call_that_then_lacked_what_it_loads() {
        let stands = |binding, resp: &str| {
            after_failed_load(binding, CallAfterLoad::Replied(&error_value(resp)))
        };
        assert_eq!(stands(SCRIPT, NOSCRIPT_REDIS), FailedLoad::LoadErrorStands);
        assert_eq!(stands(SCRIPT, NOSCRIPT_VALKEY), FailedLoad::LoadErrorStands);
        assert_eq!(
            stands(FUNCTION, FUNCTION_NOT_FOUND),
            FailedLoad::LoadErrorStands
        );
        assert_eq!(stands(RO_FUNCTION, WRITE_FLAG), FailedLoad::LoadErrorStands);
        // The call found what it runs, or failed for another reason.
        assert_eq!(stands(SCRIPT, NOSCRIPT_RAISED), FailedLoad::CallReplyStands);
        assert_eq!(stands(SCRIPT, SCRIPT_ERROR), FailedLoad::CallReplyStands);
        assert_eq!(stands(FUNCTION, NOSCRIPT_REDIS), FailedLoad::CallReplyStands);
        assert_eq!(stands(FUNCTION, WRITE_FLAG), FailedLoad::CallReplyStands);
        for binding in BINDINGS {
            let ran = after_failed_load(binding, CallAfterLoad::Replied(&Value::Int(1)));
            assert_eq!(ran, FailedLoad::CallReplyStands);
            // A transaction discarded at EXEC ran nothing: the load says why.
            let discarded = after_failed_load(binding, CallAfterLoad::Discarded);
            assert_eq!(discarded, FailedLoad::LoadErrorStands);
        }
    }
}
