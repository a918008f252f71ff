//! A typed call of one script, its arguments already encoded.

use std::fmt;
use std::marker::PhantomData;

use redis::{
    Arg, Cmd, ConnectionLike, FromRedisValue, RedisError, RedisResult, ToRedisArgs, Value,
};

use crate::error::{Error, ErrorKind};
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
/// - [`ScriptPipeline::eval_script`](crate::ScriptPipeline::eval_script)
///   queues it in a `redis::Pipeline` as EVAL, which cannot fail with NOSCRIPT.
///
/// An invocation can be run any number of times, e.g. in a retry loop.
#[must_use = "a script call does nothing until it is run with .invoke(), .invoke_async() \
              or queued with eval_script()"]
pub struct Invocation<T> {
    script: &'static Script,
    /// `EVALSHA sha numkeys keys.. args..`, encoded once when the call is built.
    evalsha: Cmd,
    /// The first parameter that did not encode to exactly one value.
    bad_parameter: Option<(&'static str, usize)>,
    fallback: NoScriptFallback,
    reply: PhantomData<fn() -> T>,
}

/// The leading arguments `EVALSHA sha`, which the EVAL form replaces with
/// `EVAL source` (`_RO` forms alike).
const EVALSHA_HEAD: usize = 2;

impl<T> Invocation<T> {
    /// Starts a call of `script`; called only by generated code.
    #[doc(hidden)]
    pub fn new(script: &'static Script) -> Invocation<T> {
        // Room for the fixed arguments and a typical payload, so a small call
        // encodes without growing its buffers.
        let arg_count = EVALSHA_HEAD + 1 + script.key_count() + script.arg_names().len();
        let mut evalsha = Cmd::with_capacity(arg_count, 128);
        evalsha
            .arg(script.commands().0)
            .arg(script.sha1())
            .arg(script.key_count());
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
        let before = self.evalsha.args_iter().len();
        value.write_redis_args(&mut self.evalsha);
        let written = self.evalsha.args_iter().len() - before;
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
    /// script), as `invoke` first sends it.
    pub fn evalsha_cmd(&self) -> Result<&Cmd, Error> {
        self.check_parameters()?;
        Ok(&self.evalsha)
    }

    /// The `EVAL` command of this call (`EVAL_RO` for a read-only script),
    /// with the full source; it cannot fail
    /// with NOSCRIPT, which makes it the form for pipelines and transactions.
    pub fn eval_cmd(&self) -> Result<Cmd, Error> {
        self.check_parameters()?;
        Ok(self.to_eval())
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

    /// The encoded KEYS of this call.
    fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.evalsha
            .args_iter()
            .skip(EVALSHA_HEAD + 1)
            .take(self.script.key_count())
            .map(|arg| match arg {
                Arg::Simple(bytes) => bytes,
                // Generated calls hold only plain arguments, never a SCAN cursor.
                _ => &[],
            })
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

    fn to_eval(&self) -> Cmd {
        let args = self.evalsha.args_iter().skip(EVALSHA_HEAD);
        let arg_count = args.len() + EVALSHA_HEAD;
        let data_len: usize = args.clone().map(|arg| arg_len(&arg)).sum();
        let mut eval = Cmd::with_capacity(arg_count, data_len + self.script.source().len() + 4);
        eval.arg(self.script.commands().1).arg(self.script.source());
        for arg in args {
            // Generated calls hold only plain arguments, never a SCAN cursor.
            if let Arg::Simple(bytes) = arg {
                eval.arg(bytes);
            }
        }
        eval
    }

    /// The one extra round trip after NOSCRIPT; `pipelining` says whether
    /// the connection can send SCRIPT LOAD and EVALSHA together (a sync
    /// cluster connection cannot), else EVAL stands in.
    fn recovery(&self, pipelining: bool) -> Recovery {
        match self.fallback {
            NoScriptFallback::Load if pipelining => {
                let mut pipe = redis::pipe();
                pipe.add_command(self.script.load_cmd())
                    .add_command(self.evalsha.clone())
                    .ignore_errors();
                Recovery::Load(pipe)
            }
            _ => Recovery::Eval(self.to_eval()),
        }
    }
}

impl<T: FromRedisValue> Invocation<T> {
    /// Runs the call on a connection: EVALSHA, and on NOSCRIPT one more round
    /// trip as chosen by [`on_noscript`](Self::on_noscript).
    pub fn invoke(&self, con: &mut dyn ConnectionLike) -> Result<T, Error> {
        self.check_parameters()?;
        let mut reply = con.req_command(&self.evalsha);
        if is_noscript(&reply) {
            reply = match self.recovery(con.supports_pipelining()) {
                Recovery::Eval(eval) => con.req_command(&eval),
                Recovery::Load(pipe) => pipe.query(con).and_then(loaded_reply),
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
        let mut reply = con.req_packed_command(&self.evalsha).await;
        if is_noscript(&reply) {
            reply = match self.recovery(true) {
                Recovery::Eval(eval) => con.req_packed_command(&eval).await,
                Recovery::Load(pipe) => pipe.query_async(con).await.and_then(loaded_reply),
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
            .field(
                "values",
                &(self.evalsha.args_iter().len() - EVALSHA_HEAD - 1),
            )
            .field("fallback", &self.fallback)
            .finish()
    }
}

fn arg_len(arg: &Arg<&[u8]>) -> usize {
    match arg {
        Arg::Simple(bytes) => bytes.len(),
        _ => 0,
    }
}

enum Recovery {
    Eval(Cmd),
    Load(redis::Pipeline),
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
