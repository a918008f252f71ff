//! A typed call of one script, its arguments already encoded.

use std::fmt;
use std::marker::PhantomData;

use redis::{
    Cmd, ConnectionLike, FromRedisValue, RedisError, RedisResult, RedisWrite, ToRedisArgs, Value,
};

use super::recovery::{self, Binding, CallAfterLoad, FailedLoad, NoScriptFallback, Recovery};
use crate::embedded::script::Script;
use crate::error::{Error, ErrorKind};
use crate::observe::{self, CallObservation};
use crate::reply::decode;
use crate::wire::key_prefix::KeyPrefix;
use crate::wire::packed::{self, Packed};
use crate::wire::refusals;
use crate::wire::slot::key_slot;

/// What a binding's parameter may be: any type that implements redis-rs's
/// [`ToRedisArgs`] (`&str`, `String`, integers, `f64`, `bool`, `&[u8]`,
/// [`Json<T>`](crate::Json), or a type of yours that implements it).
///
/// Every `ToRedisArgs` type implements it. It is the bound the generated
/// code puts on each parameter, so that a parameter of another type is a
/// compile error at that type, in words about parameters; a generic
/// binding or helper can use it as its own bound:
///
/// ```
/// use redis_script_runtime::Argument; // `redis_script::Argument` in the facade
///
/// fn sent<A: Argument>(value: A) -> Vec<Vec<u8>> {
///     value.to_redis_args()
/// }
/// assert_eq!(sent(42), [b"42".to_vec()]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of a script binding: it does not implement `redis::ToRedisArgs`",
    label = "not a KEYS or ARGV value",
    note = "a key or argument must implement `redis::ToRedisArgs`: use `&str`, `String`, an integer, `f64`, `bool` or `&[u8]`; for a serde type, `redis_script::Json<{Self}>` (feature `json`) sends it as JSON text; or implement `ToRedisArgs` for this type"
)]
pub trait Argument: ToRedisArgs {}

// Not recommended: the error stays at `Argument` and its words, instead of
// descending to `ToRedisArgs` and listing its implementors, most of which
// (tuples, `&mut T`) a binding's parameter is not.
#[diagnostic::do_not_recommend]
impl<T: ToRedisArgs> Argument for T {}

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
/// - `invoke_fred` (feature `fred`) on a fred client or pool: the same;
/// - [`ScriptPipeline::evalsha_script`](crate::ScriptPipeline::evalsha_script)
///   queues it in a `redis::Pipeline` as EVALSHA, after one `SCRIPT LOAD`
///   of the script per pipeline, and
///   [`ScriptPipeline::eval_script`](crate::ScriptPipeline::eval_script) as
///   EVAL: neither can fail with NOSCRIPT;
/// - [`Batch::add`](crate::Batch::add) queues it in a batch, which gives
///   each call its own result;
/// - [`PrefixedConnection::invoke`](crate::PrefixedConnection::invoke) runs
///   it under the connection's key prefix ([`key_prefix`](Self::key_prefix)
///   for one call).
///
/// An invocation can be run any number of times, e.g. in a retry loop.
#[must_use = "a script call does nothing until it is run with .invoke(), .invoke_async() \
              or queued with evalsha_script() or Batch::add()"]
pub struct Invocation<T> {
    script: &'static Script,
    /// `EVALSHA sha numkeys keys.. args..`, packed once when the call is
    /// built, as `invoke` sends it.
    evalsha: Packed,
    /// How many KEYS the call passes: its numkeys, the values after it.
    key_count: usize,
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
            key_count: script.key_count(),
            bad_parameter: None,
            fallback: NoScriptFallback::default(),
            reply: PhantomData,
        }
    }

    /// Appends a key or fixed argument, which must encode to exactly one value.
    #[doc(hidden)]
    pub fn single<A: Argument>(&mut self, parameter: &'static str, value: &A) {
        let before = self.evalsha.values();
        value.write_redis_args(&mut self.evalsha);
        let written = self.evalsha.values() - before;
        if written != 1 && self.bad_parameter.is_none() {
            self.bad_parameter = Some((parameter, written));
        }
    }

    /// Appends the `#[variadic]` tail of ARGV: any number of values.
    #[doc(hidden)]
    pub fn variadic<A: Argument>(&mut self, values: &A) {
        values.write_redis_args(&mut self.evalsha);
    }

    /// Appends the `#[variadic]` last key parameter, after the fixed keys
    /// and before any argument: any number of keys, none included, each
    /// counted into the call's numkeys.
    #[doc(hidden)]
    pub fn variadic_keys<A: Argument>(&mut self, keys: &A) {
        let before = self.evalsha.values();
        keys.write_redis_args(&mut self.evalsha);
        self.key_count += self.evalsha.values() - before;
        self.evalsha.set_first_number(self.key_count);
    }

    /// The script this call runs.
    pub fn script(&self) -> &'static Script {
        self.script
    }

    /// Chooses how [`invoke`](Self::invoke) recovers from NOSCRIPT. A call
    /// of a `#[redis_function]` binding always recovers by loading its
    /// library (FUNCTION LOAD REPLACE), whatever this says.
    pub fn on_noscript(mut self, fallback: NoScriptFallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// This call with `prefix` put before each of its KEYS, e.g. to run it
    /// in a tenant's namespace; ARGV is left as it is. A call that is not
    /// prefixed costs nothing for it; a prefixed one is packed again, once.
    ///
    /// Everything that runs the call sends the prefixed keys: `invoke`,
    /// `invoke_async`, [`ScriptPipeline`](crate::ScriptPipeline), FCALL of a
    /// `#[redis_function]` binding, and on a cluster, routing and
    /// [`check_slots`](Self::check_slots) go by the prefixed keys' slots
    /// (which a [`KeyPrefix`] keeps as the keys' own, see there). Prefixing
    /// twice nests: `b:` on a call prefixed with `a:` gives `b:a:key`.
    ///
    /// Keys that a script builds itself, or reads from ARGV, get no prefix:
    /// pass them in KEYS, or derive them from a KEYS value in the script
    /// (see the redis-script guide's "Key prefixes").
    pub fn key_prefix(self, prefix: &KeyPrefix) -> Self {
        self.with_key_prefix(prefix).unwrap_or(self)
    }

    /// A copy of this call under `prefix`, as [`key_prefix`](Self::key_prefix)
    /// makes it, for callers that hold only a reference; `None` when the
    /// prefix changes nothing.
    pub(crate) fn with_key_prefix(&self, prefix: &KeyPrefix) -> Option<Self> {
        Some(Invocation {
            script: self.script,
            evalsha: self.packed_with_key_prefix(prefix)?,
            key_count: self.key_count,
            bad_parameter: self.bad_parameter,
            fallback: self.fallback,
            reply: PhantomData,
        })
    }

    /// This call's command again, each of its KEYS written under `prefix`;
    /// `None` for the empty prefix, and for a call whose keys did not each
    /// encode to one value (they cannot be told apart to be prefixed, and
    /// the call fails before anything is sent).
    fn packed_with_key_prefix(&self, prefix: &KeyPrefix) -> Option<Packed> {
        if prefix.is_empty() || self.bad_parameter.is_some() {
            return None;
        }
        let mut tail = self.evalsha.tail_values();
        let room = self.evalsha.tail_bytes() + prefix.as_str().len() * self.key_count;
        let mut packed = Packed::new(&evalsha_head(self.script), room);
        packed.write_arg(tail.next()?); // numkeys
        for key in self.keys() {
            prefix.write_key(&mut packed, key);
        }
        for arg in self.args() {
            packed.write_arg(arg);
        }
        Some(packed)
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

    /// Queues this call in `pipe` as [`evalsha_cmd`](Self::evalsha_cmd)
    /// (with `full_source`, as [`eval_cmd`](Self::eval_cmd)), without
    /// building the `Cmd` where the pipeline need not hold one.
    pub(crate) fn queue_in(
        &self,
        pipe: &mut redis::Pipeline,
        full_source: bool,
    ) -> Result<(), Error> {
        self.check_parameters()?;
        let (command, [_, first]) = if full_source {
            (self.script.eval_command(), eval_head(self.script))
        } else {
            (self.script.call_command(), evalsha_head(self.script))
        };
        self.evalsha.queue_in(pipe, command, first);
        Ok(())
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
        crate::wire::slot::span_several(self.keys().map(key_slot))
    }

    /// The encoded KEYS of this call: the values after numkeys.
    fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.evalsha.tail_values().skip(1).take(self.key_count)
    }

    /// The encoded ARGV of this call: the values after its KEYS.
    fn args(&self) -> impl Iterator<Item = &[u8]> {
        self.evalsha.tail_values().skip(1 + self.key_count)
    }

    fn cross_slot_error(&self) -> Error {
        Error::new(
            self.script,
            ErrorKind::CrossSlot {
                keys: self.key_slots().collect(),
            },
        )
    }

    /// Each key of this call, as text, with its hash slot.
    pub(crate) fn key_slots(&self) -> impl Iterator<Item = (String, u16)> {
        self.keys()
            .map(|key| (String::from_utf8_lossy(key).into_owned(), key_slot(key)))
    }

    pub(crate) fn check_parameters(&self) -> Result<(), Error> {
        match self.bad_parameter {
            None => Ok(()),
            Some((parameter, values)) => Err(Error::new(
                self.script,
                ErrorKind::Argument { parameter, values },
            )),
        }
    }

    /// Starts observing a run of this call: counts it and opens its span.
    /// The database index is asked for only with spans or metrics compiled
    /// in, the values only by a span that a subscriber wants.
    fn observe(&self, db: impl FnOnce() -> i64) -> CallObservation {
        // Less numkeys, the first value.
        let value_count = self.evalsha.values() - 1;
        CallObservation::start(self.script, self.key_count, value_count, db, || {
            self.values_text()
        })
    }

    /// The call's keys and arguments as text, for a span that records them
    /// (see [`observe::record_values`](crate::observe)).
    fn values_text(&self) -> (String, String) {
        let text = |values: Vec<&[u8]>| {
            let values: Vec<_> = values.iter().map(|v| String::from_utf8_lossy(v)).collect();
            format!("{values:?}")
        };
        (text(self.keys().collect()), text(self.args().collect()))
    }

    /// What this call does after `reply`, the reply to its call, on a
    /// transport that `pipelines` or not (see [`recovery::plan`]); a
    /// recovery is counted and traced here, before it is sent.
    fn plan(
        &self,
        reply: &RedisResult<Value>,
        pipelines: bool,
        observation: &CallObservation,
    ) -> Recovery {
        let plan = recovery::plan(Binding::of(self.script), self.fallback, reply, pipelines);
        if let Some(how) = plan.observed_as() {
            observation.recovery(how);
        }
        plan
    }

    /// The command that puts this call's script or library on the server:
    /// `SCRIPT LOAD source`, or `FUNCTION LOAD REPLACE code`.
    fn load_args(&self) -> Vec<&'static [u8]> {
        match self.script.library() {
            Some(library) => vec![b"FUNCTION", b"LOAD", b"REPLACE", library.code().as_bytes()],
            None => vec![b"SCRIPT", b"LOAD", self.script.source().as_bytes()],
        }
    }

    /// The load of [`load_args`](Self::load_args) and this call, packed
    /// together to go in one round trip.
    fn load_then_call(&self) -> Vec<u8> {
        let call = self.evalsha.command();
        let mut bytes = packed::pack(&self.load_args(), call.len());
        bytes.extend_from_slice(call);
        bytes
    }

    /// The load of [`load_args`](Self::load_args) and this call, as a
    /// redis-rs pipeline for async connections.
    #[cfg(feature = "aio")]
    fn load_then_call_pipeline(&self) -> redis::Pipeline {
        let mut load = redis::Cmd::new();
        for arg in self.load_args() {
            load.arg(arg);
        }
        let mut pipe = redis::pipe();
        pipe.add_command(load)
            .add_command(self.evalsha.to_cmd(&evalsha_head(self.script)))
            .ignore_errors();
        pipe
    }

    /// The call's reply from a load + call pipeline; if the load itself
    /// failed and the call then found nothing to run, the load's error
    /// instead (see [`recovery::after_failed_load`]).
    fn loaded_reply(&self, replies: RedisResult<Vec<Value>>) -> Result<RedisResult<Value>, Error> {
        let mut replies = match replies {
            Ok(replies) => replies.into_iter(),
            Err(error) => return Ok(Err(error)),
        };
        let (Some(load), Some(call)) = (replies.next(), replies.next()) else {
            return Ok(Err(RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "a load + call pipeline returned fewer than two replies",
            ))));
        };
        let Value::ServerError(error) = load else {
            return Ok(Ok(call));
        };
        let binding = Binding::of(self.script);
        match recovery::after_failed_load(binding, CallAfterLoad::Replied(&call)) {
            FailedLoad::LoadErrorStands => {
                Err(Error::redis(self.script, error.into()).during_load())
            }
            FailedLoad::CallReplyStands => Ok(Ok(call)),
        }
    }
}

impl<T: FromRedisValue> Invocation<T> {
    /// Runs the call on a connection: EVALSHA, and on NOSCRIPT one more round
    /// trip as chosen by [`on_noscript`](Self::on_noscript).
    pub fn invoke(&self, con: &mut dyn ConnectionLike) -> Result<T, Error> {
        let observation = self.observe(|| con.get_db());
        let result = observation.in_scope(|| self.run(con, &observation));
        observation.finish(&result);
        result
    }

    fn run(&self, con: &mut dyn ConnectionLike, observation: &CallObservation) -> Result<T, Error> {
        self.check_parameters()?;
        // Sent as packed when the call was built: nothing to allocate.
        let mut reply = con.req_packed_command(self.evalsha.command());
        let pipelines = con.supports_pipelining();
        reply = match self.plan(&reply, pipelines, observation) {
            Recovery::None => reply,
            Recovery::RetryAsEval => {
                con.req_packed_command(&self.evalsha.with_head(&eval_head(self.script)))
            }
            // A sync cluster connection cannot pipeline: the library is
            // loaded first (redis-rs sends FUNCTION LOAD to every primary).
            Recovery::LoadLibraryThenRetry if !pipelines => {
                self.script.load(con)?;
                con.req_packed_command(self.evalsha.command())
            }
            Recovery::LoadScriptThenRetry | Recovery::LoadLibraryThenRetry => {
                let replies = con.req_packed_commands(&self.load_then_call(), 0, 2);
                self.loaded_reply(replies)?
            }
        };
        self.finish(reply)
    }

    /// The async form of [`invoke`](Self::invoke), for `MultiplexedConnection`,
    /// `ConnectionManager` and any other `redis::aio::ConnectionLike`.
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn invoke_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
    ) -> Result<T, Error> {
        let observation = self.observe(|| con.get_db());
        let result = observation
            .instrument(self.run_async(con, &observation))
            .await;
        observation.finish(&result);
        result
    }

    #[cfg(feature = "aio")]
    async fn run_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
        observation: &CallObservation,
    ) -> Result<T, Error> {
        self.check_parameters()?;
        // redis-rs's async connections take a `Cmd`, not packed bytes.
        let call = self.evalsha.to_cmd(&evalsha_head(self.script));
        let mut reply = con.req_packed_command(&call).await;
        reply = match self.plan(&reply, true, observation) {
            Recovery::None => reply,
            Recovery::RetryAsEval => {
                let eval = self.evalsha.to_cmd(&eval_head(self.script));
                con.req_packed_command(&eval).await
            }
            Recovery::LoadScriptThenRetry | Recovery::LoadLibraryThenRetry => {
                self.loaded_reply(self.load_then_call_pipeline().query_async(con).await)?
            }
        };
        self.finish(reply)
    }

    /// The same call on a [fred](https://docs.rs/fred) client or pool
    /// (`fred::clients::Client`, `Pool`, or any `fred::interfaces::ClientLike`):
    /// EVALSHA (FCALL for a `#[redis_function]` binding), and the same
    /// recovery as [`invoke_async`](Self::invoke_async) when the script or
    /// library is missing, in sequence: EVAL once (or SCRIPT LOAD then the
    /// call, with [`NoScriptFallback::Load`]), or FUNCTION LOAD REPLACE then
    /// the call once. The reply and the errors are read as on redis-rs,
    /// every error naming the binding. On a clustered client each command
    /// goes to the node of the call's first key.
    #[cfg(feature = "fred")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fred")))]
    pub async fn invoke_fred<C: fred::interfaces::ClientLike>(
        &self,
        client: &C,
    ) -> Result<T, Error> {
        let observation = self.observe(|| crate::call::fred::database(client));
        let result = observation
            .instrument(self.run_fred(client, &observation))
            .await;
        observation.finish(&result);
        result
    }

    #[cfg(feature = "fred")]
    async fn run_fred<C: fred::interfaces::ClientLike>(
        &self,
        client: &C,
        observation: &CallObservation,
    ) -> Result<T, Error> {
        use crate::call::fred::{Route, send};
        self.check_parameters()?;
        let route = Route::at(self.keys().next().map(key_slot));
        let [command, called] = evalsha_head(self.script);
        let call = || {
            send(
                client,
                route,
                command,
                std::iter::once(called).chain(self.evalsha.tail_values()),
            )
        };
        let mut reply = call().await;
        // fred pipelines no pair on one connection as redis-rs does: a
        // load, then the call, each routed alike, serve as well.
        reply = match self.plan(&reply, true, observation) {
            Recovery::None => reply,
            Recovery::RetryAsEval => {
                let [command, source] = eval_head(self.script);
                let tail = std::iter::once(source).chain(self.evalsha.tail_values());
                send(client, route, command, tail).await
            }
            Recovery::LoadScriptThenRetry | Recovery::LoadLibraryThenRetry => {
                let loaded = match self.load_args().split_first() {
                    Some((command, args)) => {
                        send(client, route, command, args.iter().copied()).await
                    }
                    None => Ok(Value::Nil),
                };
                if let Some(error) = load_failure(loaded) {
                    return Err(Error::redis(self.script, error).during_load());
                }
                call().await
            }
        };
        self.finish(reply)
    }

    /// The reply of a call that `invoke` sent: a cluster's CROSSSLOT refusal
    /// of keys that do span slots becomes [`ErrorKind::CrossSlot`] with every
    /// key and its slot (any other CROSSSLOT, e.g. one a script raised
    /// itself, stays as the server sent it).
    fn finish(&self, reply: RedisResult<Value>) -> Result<T, Error> {
        let cross_slot = refusals::error_words(&reply).is_some_and(|(code, _)| code == "CROSSSLOT");
        if cross_slot && self.keys_span_slots() {
            return Err(self.cross_slot_error());
        }
        self.convert(reply)
    }

    /// Converts a reply of this script, e.g. one taken from a pipeline's
    /// `Vec<redis::Value>`, the way `invoke` does. An error counts as a
    /// failed call of the script (see [`Script::stats`]), as it does in
    /// `invoke`.
    pub fn decode(&self, reply: RedisResult<Value>) -> Result<T, Error> {
        decode_counted(self.script, reply)
    }

    fn convert(&self, reply: RedisResult<Value>) -> Result<T, Error> {
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

/// Converts a reply of `script` to its declared type `T`, as
/// [`Invocation::decode`] does, counting an error as a failed call.
pub(crate) fn decode_counted<T: FromRedisValue>(
    script: &'static Script,
    reply: RedisResult<Value>,
) -> Result<T, Error> {
    let result = decode(script, script.reply_type(), script.reply_shape(), reply);
    if let Err(error) = &result {
        observe::failed(script, error);
    }
    result
}

/// The leading arguments `EVALSHA sha1` (or `EVALSHA_RO`, or `FCALL name`).
fn evalsha_head(script: &'static Script) -> [&'static [u8]; 2] {
    script.call_head()
}

/// The leading arguments `EVAL source` (or `EVAL_RO`) that replace
/// `EVALSHA sha1` in the EVAL form.
fn eval_head(script: &'static Script) -> [&'static [u8]; 2] {
    script.eval_head()
}

/// The error of a load's reply, if it failed: the connection's, or the
/// server's refusal.
#[cfg(feature = "fred")]
fn load_failure(reply: RedisResult<Value>) -> Option<RedisError> {
    match reply {
        Err(error) => Some(error),
        Ok(Value::ServerError(error)) => Some(error.into()),
        Ok(_) => None,
    }
}
