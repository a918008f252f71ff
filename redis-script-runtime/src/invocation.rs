//! A typed call of one script, its arguments already encoded.

use std::fmt;
use std::marker::PhantomData;

use redis::{Cmd, ConnectionLike, FromRedisValue, RedisError, RedisResult, ToRedisArgs, Value};

use crate::error::{Error, ErrorKind};
use crate::packed::{self, Packed};
use crate::reply::decode;
use crate::script::Script;
use crate::slot::key_slot;

/// What [`Invocation::invoke`] does when the server answers EVALSHA with
/// NOSCRIPT (after a restart, a `SCRIPT FLUSH` or a failover). Either way the
/// call recovers in exactly one more round trip and NOSCRIPT never reaches
/// the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum NoScriptFallback {
    /// Send `EVAL` with the full source, which also caches the script again.
    /// Works everywhere EVALSHA does, including proxies without SCRIPT LOAD.
    #[default]
    Eval,
    /// Send `SCRIPT LOAD` and `EVALSHA` together in one pipelined round trip.
    /// Scripts added by SCRIPT LOAD are not evicted the way EVAL-cached ones
    /// can be on newer Redis and Valkey. Needs a server that allows SCRIPT LOAD;
    /// on a connection that cannot pipeline (a sync cluster connection), EVAL
    /// is sent instead.
    Load,
}

/// One call of a script: the script, its encoded KEYS and ARGV, and the Rust
/// type its reply converts to.
///
/// The function that `#[redis_script]` generates returns one of these; how it
/// runs is chosen by the method:
///
/// - [`invoke`](Self::invoke) on a `redis::ConnectionLike`: EVALSHA, with
///   NOSCRIPT recovery (see [`NoScriptFallback`]);
/// - [`invoke_async`](Self::invoke_async) on a `redis::aio::ConnectionLike`
///   (`MultiplexedConnection`, `ConnectionManager`, ...): the same;
/// - [`ScriptPipeline::evalsha_script`](crate::ScriptPipeline::evalsha_script)
///   queues it in a `redis::Pipeline` as EVALSHA, after one `SCRIPT LOAD`
///   of the script per pipeline, and
///   [`ScriptPipeline::eval_script`](crate::ScriptPipeline::eval_script) as
///   EVAL: neither can fail with NOSCRIPT.
///
/// An invocation can be run any number of times, e.g. in a retry loop.
#[must_use = "a script call does nothing until it is run with .invoke(), .invoke_async() \
              or queued with evalsha_script()"]
pub struct Invocation<T> {
    script: &'static Script,
    /// `EVALSHA sha numkeys keys.. args..`, packed once when the call is
    /// built, as `invoke` sends it.
    evalsha: Packed,
    /// The first parameter that did not encode to exactly one value.
    bad_parameter: Option<(&'static str, usize)>,
    fallback: NoScriptFallback,
    reply: PhantomData<fn() -> T>,
}

/// Room for the packed KEYS and ARGV of a typical call (a short key, a token,
/// a number), so that most calls are packed in a buffer that never grows.
const TYPICAL_VALUE_BYTES: usize = 48;

impl<T> Invocation<T> {
    /// Starts a call of `script`; called only by generated code.
    #[doc(hidden)]
    pub fn new(script: &'static Script) -> Invocation<T> {
        let values = script.key_count() + script.arg_names().len();
        let mut evalsha = Packed::new(&evalsha_head(script), TYPICAL_VALUE_BYTES * (values + 1));
        script.key_count().write_redis_args(&mut evalsha);
        Invocation {
            script,
            evalsha,
            bad_parameter: None,
            fallback: NoScriptFallback::default(),
            reply: PhantomData,
        }
    }

    /// Appends a key or fixed argument, which must encode to exactly one value.
    #[doc(hidden)]
    pub fn single<A: ToRedisArgs>(&mut self, parameter: &'static str, value: &A) {
        let before = self.evalsha.values();
        value.write_redis_args(&mut self.evalsha);
        let written = self.evalsha.values() - before;
        if written != 1 && self.bad_parameter.is_none() {
            self.bad_parameter = Some((parameter, written));
        }
    }

    /// Appends the `#[variadic]` tail of ARGV: any number of values.
    #[doc(hidden)]
    pub fn variadic<A: ToRedisArgs>(&mut self, values: &A) {
        values.write_redis_args(&mut self.evalsha);
    }

    /// The script this call runs.
    pub fn script(&self) -> &'static Script {
        self.script
    }

    /// Chooses how [`invoke`](Self::invoke) recovers from NOSCRIPT.
    pub fn on_noscript(mut self, fallback: NoScriptFallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// The `EVALSHA` command of this call (`EVALSHA_RO` for a read-only
    /// script), as `invoke` first sends it, built anew as a redis-rs `Cmd`.
    pub fn evalsha_cmd(&self) -> Result<Cmd, Error> {
        self.check_parameters()?;
        Ok(self.evalsha.to_cmd(&evalsha_head(self.script)))
    }

    /// The `EVAL` command of this call (`EVAL_RO` for a read-only script),
    /// with the full source; it cannot fail with NOSCRIPT.
    pub fn eval_cmd(&self) -> Result<Cmd, Error> {
        self.check_parameters()?;
        Ok(self.evalsha.to_cmd(&eval_head(self.script)))
    }

    /// Refuses the call, sending nothing, if its keys are in more than one
    /// hash slot: a Redis Cluster would refuse it with CROSSSLOT, whatever
    /// the script's flags (`allow-cross-slot-keys` concerns only keys the
    /// script reaches without declaring them). Cluster pipelines run this
    /// before queueing a call. `invoke` does not: on a single server, keys
    /// in any slots are fine, and redis-rs's connection traits do not tell a
    /// cluster connection apart; a cluster's refusal of the call (nothing of
    /// it runs) is reported with the same detail.
    pub fn check_slots(&self) -> Result<(), Error> {
        self.check_parameters()?;
        if self.keys_span_slots() {
            return Err(self.cross_slot_error());
        }
        Ok(())
    }

    fn keys_span_slots(&self) -> bool {
        let mut slots = self.keys().map(key_slot);
        match slots.next() {
            Some(first) => slots.any(|slot| slot != first),
            None => false,
        }
    }

    /// The encoded KEYS of this call: the values after numkeys.
    fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.evalsha
            .tail_values()
            .skip(1)
            .take(self.script.key_count())
    }

    fn cross_slot_error(&self) -> Error {
        let keys = self
            .keys()
            .map(|key| (String::from_utf8_lossy(key).into_owned(), key_slot(key)))
            .collect();
        Error::new(self.script, ErrorKind::CrossSlot { keys })
    }

    fn check_parameters(&self) -> Result<(), Error> {
        match self.bad_parameter {
            None => Ok(()),
            Some((parameter, values)) => Err(Error::new(
                self.script,
                ErrorKind::Argument { parameter, values },
            )),
        }
    }

    /// `SCRIPT LOAD source` and this call's EVALSHA, packed together to go
    /// in one round trip.
    fn load_then_evalsha(&self) -> Vec<u8> {
        let load: [&[u8]; 3] = [b"SCRIPT", b"LOAD", self.script.source().as_bytes()];
        let evalsha = self.evalsha.command();
        let mut bytes = packed::pack(&load, evalsha.len());
        bytes.extend_from_slice(evalsha);
        bytes
    }
}

impl<T: FromRedisValue> Invocation<T> {
    /// Runs the call on a connection: EVALSHA, and on NOSCRIPT one more round
    /// trip as chosen by [`on_noscript`](Self::on_noscript).
    pub fn invoke(&self, con: &mut dyn ConnectionLike) -> Result<T, Error> {
        self.check_parameters()?;
        // Sent as packed when the call was built: nothing to allocate.
        let mut reply = con.req_packed_command(self.evalsha.command());
        if is_noscript(&reply) {
            reply = match self.fallback {
                // A sync cluster connection cannot pipeline: EVAL stands in.
                NoScriptFallback::Load if con.supports_pipelining() => con
                    .req_packed_commands(&self.load_then_evalsha(), 0, 2)
                    .and_then(loaded_reply),
                _ => con.req_packed_command(&self.evalsha.with_head(&eval_head(self.script))),
            };
        }
        self.finish(reply)
    }

    /// The async form of [`invoke`](Self::invoke), for `MultiplexedConnection`,
    /// `ConnectionManager` and any other `redis::aio::ConnectionLike`.
    #[cfg(feature = "aio")]
    pub async fn invoke_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
    ) -> Result<T, Error> {
        self.check_parameters()?;
        // redis-rs's async connections take a `Cmd`, not packed bytes.
        let evalsha = self.evalsha.to_cmd(&evalsha_head(self.script));
        let mut reply = con.req_packed_command(&evalsha).await;
        if is_noscript(&reply) {
            reply = match self.fallback {
                NoScriptFallback::Load => {
                    let mut pipe = redis::pipe();
                    pipe.add_command(self.script.load_cmd())
                        .add_command(evalsha)
                        .ignore_errors();
                    pipe.query_async(con).await.and_then(loaded_reply)
                }
                _ => {
                    let eval = self.evalsha.to_cmd(&eval_head(self.script));
                    con.req_packed_command(&eval).await
                }
            };
        }
        self.finish(reply)
    }

    /// The reply of a call that `invoke` sent: a cluster's CROSSSLOT refusal
    /// of keys that do span slots becomes [`ErrorKind::CrossSlot`] with every
    /// key and its slot (any other CROSSSLOT, e.g. one a script raised
    /// itself, stays as the server sent it).
    fn finish(&self, reply: RedisResult<Value>) -> Result<T, Error> {
        if error_code(&reply) == Some("CROSSSLOT") && self.keys_span_slots() {
            return Err(self.cross_slot_error());
        }
        self.decode(reply)
    }

    /// Converts a reply of this script, e.g. one taken from a pipeline's
    /// `Vec<redis::Value>`, the way `invoke` does.
    pub fn decode(&self, reply: RedisResult<Value>) -> Result<T, Error> {
        decode(
            self.script,
            self.script.reply_type(),
            self.script.reply_shape(),
            reply,
        )
    }
}

impl<T> fmt::Debug for Invocation<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Arguments may carry secrets (tokens, passwords): show only their count.
        f.debug_struct("Invocation")
            .field("script", &self.script.name())
            // Less numkeys, the first value.
            .field("values", &(self.evalsha.values() - 1))
            .field("fallback", &self.fallback)
            .finish()
    }
}

/// The leading arguments `EVALSHA sha1` (or `EVALSHA_RO`).
fn evalsha_head(script: &'static Script) -> [&'static [u8]; 2] {
    [script.commands().0.as_bytes(), script.sha1().as_bytes()]
}

/// The leading arguments `EVAL source` (or `EVAL_RO`) that replace
/// `EVALSHA sha1` in the EVAL form.
fn eval_head(script: &'static Script) -> [&'static [u8]; 2] {
    [script.commands().1.as_bytes(), script.source().as_bytes()]
}

/// Whether the server did not know the script. Matched on the server's own
/// message, not only on the code: a script may fail with an error whose code
/// is NOSCRIPT (`redis.error_reply('NOSCRIPT ...')`), and running it again
/// would repeat its writes. Redis says `No matching script. Please use
/// EVAL.`, Valkey `No matching script.`: both start with [`NOSCRIPT_MESSAGE`].
fn is_noscript(reply: &RedisResult<Value>) -> bool {
    error_code(reply) == Some("NOSCRIPT")
        && error_detail(reply).is_some_and(is_server_noscript_message)
}

/// The code of an error reply (`NOSCRIPT`, `CROSSSLOT`, ...), whether redis-rs
/// returned it as an `Err` or inside the value.
fn error_code(reply: &RedisResult<Value>) -> Option<&str> {
    match reply {
        Err(error) => error.code(),
        Ok(Value::ServerError(error)) => Some(error.code()),
        Ok(_) => None,
    }
}

/// The message of an error reply, after its code.
fn error_detail(reply: &RedisResult<Value>) -> Option<&str> {
    match reply {
        Err(error) => error.detail(),
        Ok(Value::ServerError(error)) => error.details(),
        Ok(_) => None,
    }
}

/// The start of every supported server's own NOSCRIPT message.
const NOSCRIPT_MESSAGE: &str = "No matching script.";

fn is_server_noscript_message(detail: &str) -> bool {
    match detail.trim().strip_prefix(NOSCRIPT_MESSAGE) {
        Some(rest) => rest.is_empty() || rest == " Please use EVAL.",
        None => false,
    }
}

/// The EVALSHA reply of a `SCRIPT LOAD` + `EVALSHA` pipeline; if SCRIPT LOAD
/// itself failed (a proxy may refuse it), its error explains more than the
/// NOSCRIPT that follows from it.
fn loaded_reply(replies: Vec<Value>) -> RedisResult<Value> {
    let mut replies = replies.into_iter();
    let (Some(load), Some(evalsha)) = (replies.next(), replies.next()) else {
        return Err(RedisError::from((
            redis::ErrorKind::UnexpectedReturnType,
            "SCRIPT LOAD + EVALSHA pipeline returned fewer than two replies",
        )));
    };
    let evalsha = Ok(evalsha);
    match load {
        Value::ServerError(error) if is_noscript(&evalsha) => Err(error.into()),
        _ => evalsha,
    }
}

#[cfg(test)]
mod tests {
    use super::is_server_noscript_message;

    #[test]
    fn the_noscript_message_of_each_server_is_recognised() {
        // Redis 7.0 and Valkey 8.1, as each sends it.
        assert!(is_server_noscript_message(
            "No matching script. Please use EVAL."
        ));
        assert!(is_server_noscript_message("No matching script."));
        // A script's own error coded NOSCRIPT is not the server's.
        assert!(!is_server_noscript_message("fake"));
        assert!(!is_server_noscript_message(
            "No matching script. Or is there?"
        ));
        assert!(!is_server_noscript_message(""));
    }
}
