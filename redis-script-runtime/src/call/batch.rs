//! A typed pipeline of script calls: each call's own result, its errors
//! named by binding, whether or not its neighbours failed.

use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use redis::{ConnectionLike, FromRedisValue, Pipeline, RedisError, RedisResult, Value};

use super::invocation::{self, Invocation};
use super::recovery::{self, Binding, CallAfterLoad, FailedLoad};
use crate::embedded::script::Script;
use crate::error::{Error, ErrorKind};
use crate::observe::{self, PipelineRun};

/// Script calls sent together in one round trip, plain or atomic
/// (`MULTI`/`EXEC`), each with its own typed result.
///
/// Where a `redis::Pipeline` fails as a whole when one of its commands
/// fails, with redis-rs's error naming no script, a batch gives every call
/// its own `Result<T, Error>`: the value, converted to the binding's
/// declared type, or an [`Error`] that names the binding and its file and
/// whose [`applied`](Error::applied) says whether that call may have taken
/// effect. Calls of bindings with different reply types mix freely; each
/// [`add`](Batch::add) returns a typed handle, [`Queued<T>`], that takes its
/// call's result out of the [`BatchReplies`].
///
/// ```ignore
/// use redis_script::Batch;
///
/// let mut batch = Batch::new();             // or Batch::atomic()
/// let taken = batch.add(&acquire_lock("lock:a", 10_000, &token))?;
/// let hits = batch.add(&incr_counter("hits"))?;
/// let mut replies = batch.run(&mut con);    // or run_async(&mut con).await
/// let taken: Option<String> = replies.take(&taken)?;
/// match replies.take(&hits) {
///     Ok(hits) => println!("{hits} hits"),
///     Err(error) if error.applied() == Applied::No => { /* safe to retry */ }
///     Err(error) => return Err(error.into()),
/// }
/// ```
///
/// # How scripts reach the server
///
/// By default each distinct script is loaded once per batch, in the same
/// round trip, by a `SCRIPT LOAD` queued before its first call, and every
/// call is sent as EVALSHA (as
/// [`ScriptPipeline::evalsha_script`](crate::ScriptPipeline::evalsha_script)
/// does). A batch never recovers from NOSCRIPT by itself with a second
/// round trip: outside MULTI the calls after a failed one have already run,
/// so a call re-sent later would run out of its order. Instead:
///
/// - A call whose `SCRIPT LOAD` in this batch was refused (an ACL user
///   without `script|load`, a proxy) and that then found no script fails
///   with the load's error (`NOPERM ... 'script|load'`), named by the
///   binding; it did not run ([`Applied::No`](crate::Applied::No)). If the
///   server had the script cached anyway, the call runs and succeeds.
/// - [`with_eval`](Batch::with_eval) sends every call as EVAL with its
///   source and loads nothing: for users and proxies without SCRIPT LOAD,
///   and for re-sending the calls of a batch that failed that way.
///
/// Outside MULTI, a `SCRIPT FLUSH` served between a load and a call fails
/// that call with NOSCRIPT, not applied; inside MULTI nothing can come
/// between them (see [`ScriptPipeline`](crate::ScriptPipeline)).
///
/// A `#[redis_function]` call is sent as FCALL (or FCALL_RO), its library
/// not loaded: deploy libraries with [`load_all`](crate::load_all).
///
/// # What `applied` says, per call
///
/// - The call's reply is a value: `Ok`, or a reply that does not fit the
///   declared type ([`Applied::Yes`](crate::Applied::Yes)).
/// - Its reply is an error: the rules of [`Error::applied`]. The server
///   refused it (NOSCRIPT, NOPERM, OOM, BUSY, ...): `No`; the script raised
///   an error, perhaps after writing: `Maybe` (Redis does not undo a
///   script's writes, inside MULTI neither).
/// - Its script's `SCRIPT LOAD` failed and it found no script: the load's
///   error, `No`.
/// - In an atomic batch whose EXEC the server refused (`EXECABORT`, because
///   a command was refused while queued, e.g. a SCRIPT LOAD refused by the
///   ACL): nothing ran. A call refused while queued fails with its own
///   error, a call of a script whose load was refused with the load's
///   error, every other call with EXECABORT; all are `No`. If EXEC answers
///   nil (a key the connection `WATCH`ed changed), every call fails as not
///   applied.
/// - No reply at all, because the connection failed: every call fails
///   with that error, `Maybe` (the batch may have been sent, in part or in
///   full), or `No` when the connection was refused before sending.
///
/// So a retry of exactly the calls whose error is `No` never applies a call
/// twice.
///
/// # Where it runs
///
/// On any connection that pipelines: `redis::Connection`, pooled ones, and
/// async ones (`MultiplexedConnection`, `ConnectionManager`). A sync
/// `ClusterConnection` does not pipeline: each call fails, not applied.
///
/// An async cluster connection sends a batch to one node as a whole, like
/// a `redis::Pipeline`, so all its calls' keys must share a slot:
/// [`check_slots`](Batch::check_slots) says so before sending. And when
/// any reply of a pipeline asks redis-rs to act (MOVED, ASK, TRYAGAIN,
/// CLUSTERDOWN, ...: a slot moving, a failover), redis-rs sends the whole
/// pipeline again, to the node named or after a wait; the calls of a plain
/// batch that had already run would then run again, and what their errors
/// say would describe the last attempt only. So on a cluster run
/// [`Batch::atomic`] batches: a redirected MULTI runs nothing (EXECABORT)
/// before it is sent again, so each call runs at most once.
///
/// A batch takes calls as they are: to run them under a
/// [`KeyPrefix`](crate::KeyPrefix), add `call.key_prefix(&prefix)`; a
/// [`PrefixedConnection`](crate::PrefixedConnection)'s prefix does not
/// reach a batch run on the connection inside it.
///
/// # Observability
///
/// Each run counts each of its calls for its script, as `invoke` counts
/// a call each time it runs; each failed call counts one error of its class
/// ([`Script::stats`](crate::Script::stats), and the `metrics` feature's
/// counters). A run is one `redis_script.pipeline` span (feature `tracing`)
/// and counts in the pipeline metrics, as
/// [`ScriptPipeline::observed`](crate::ScriptPipeline::observed) does.
#[derive(Debug)]
pub struct Batch {
    id: u64,
    /// The commands, atomic in redis-rs's sense for an atomic batch
    /// (MULTI and EXEC are added when it is packed).
    pipe: Pipeline,
    /// Whether calls are sent as EVAL, with no SCRIPT LOAD.
    eval: bool,
    /// Each queued command, in order.
    commands: Vec<Queue>,
    /// For each call (in the order added), its command's position.
    calls: Vec<usize>,
    /// Every key of every call, with its hash slot, for
    /// [`check_slots`](Batch::check_slots).
    keys: Vec<(String, u16)>,
}

/// A copy is another batch: its handles do not read the original's
/// replies, nor the original's its.
impl Clone for Batch {
    fn clone(&self) -> Batch {
        Batch {
            id: NEXT_BATCH.fetch_add(1, Ordering::Relaxed),
            pipe: self.pipe.clone(),
            eval: self.eval,
            commands: self.commands.clone(),
            calls: self.calls.clone(),
            keys: self.keys.clone(),
        }
    }
}

/// One command of a batch.
#[derive(Debug, Clone, Copy)]
enum Queue {
    /// `SCRIPT LOAD` of this script's source.
    Load(&'static Script),
    /// A call of this script; `load` is the position of its script's
    /// `SCRIPT LOAD` in this batch, if the batch queued one.
    Call {
        script: &'static Script,
        load: Option<usize>,
    },
}

/// Tells batches apart, so a handle is not read against another's replies.
static NEXT_BATCH: AtomicU64 = AtomicU64::new(0);

impl Default for Batch {
    fn default() -> Self {
        Batch::new()
    }
}

impl Batch {
    /// An empty batch, sent as a plain pipeline: the server may serve other
    /// clients between its commands, and each call runs whatever the
    /// others do.
    pub fn new() -> Batch {
        Batch {
            id: NEXT_BATCH.fetch_add(1, Ordering::Relaxed),
            pipe: redis::pipe(),
            eval: false,
            commands: Vec::new(),
            calls: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// An empty batch, sent inside `MULTI`/`EXEC`: its commands run
    /// together, nothing in between; if one is refused while queued, none
    /// runs.
    pub fn atomic() -> Batch {
        let mut batch = Batch::new();
        batch.pipe.atomic();
        batch
    }

    /// Sends the calls added from now on as EVAL (or EVAL_RO) with the
    /// script's source, and loads nothing: for a user or proxy that may
    /// not `SCRIPT LOAD`, and for re-sending calls that failed for that
    /// reason. It costs the source on the wire, and the server's hashing of
    /// it, for every call.
    pub fn with_eval(mut self) -> Batch {
        self.eval = true;
        self
    }

    /// Whether the batch runs inside `MULTI`/`EXEC`.
    pub fn is_atomic(&self) -> bool {
        self.pipe.is_transaction()
    }

    /// How many calls the batch holds.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether the batch holds no call.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Fails with [`ErrorKind::CrossSlot`](ErrorKind::CrossSlot),
    /// naming every key of the batch and its slot, unless all the keys of
    /// all its calls share one hash slot: what a cluster needs to run the
    /// batch on one node (see "Where it runs" above). Sends nothing.
    pub fn check_slots(&self) -> Result<(), Error> {
        if crate::wire::slot::span_several(self.keys.iter().map(|(_, slot)| *slot)) {
            return Err(Error::operation(
                "Batch",
                ErrorKind::CrossSlot {
                    keys: self.keys.clone(),
                },
            ));
        }
        Ok(())
    }

    /// Adds `call`, after a `SCRIPT LOAD` of its script if the batch has
    /// none yet, and returns the handle that takes its result from the
    /// replies. Fails, adding nothing, if one of its keys or fixed
    /// arguments did not encode to exactly one value.
    pub fn add<T>(&mut self, call: &Invocation<T>) -> Result<Queued<T>, Error> {
        call.check_parameters()?;
        let script = call.script();
        let load = match (self.eval, script.library()) {
            // Nothing to load: EVAL carries the source; a function's
            // library is deployed apart (see the type's docs).
            (true, _) | (_, Some(_)) => None,
            (false, None) => Some(self.load_of(script)),
        };
        call.queue_in(&mut self.pipe, self.eval)?;
        self.keys.extend(call.key_slots());
        self.commands.push(Queue::Call { script, load });
        self.calls.push(self.commands.len() - 1);
        Ok(Queued {
            batch: self.id,
            call: self.calls.len() - 1,
            reply: PhantomData,
        })
    }

    /// The position of the `SCRIPT LOAD` of `script` in this batch, queued
    /// now if there is none. Bindings of one file share it.
    fn load_of(&mut self, script: &'static Script) -> usize {
        let known = self.commands.iter().position(|queued| match queued {
            Queue::Load(loaded) => loaded.sha1() == script.sha1(),
            Queue::Call { .. } => false,
        });
        known.unwrap_or_else(|| {
            self.pipe.add_command(script.load_cmd());
            self.commands.push(Queue::Load(script));
            self.commands.len() - 1
        })
    }

    /// How many replies the server sends: one per command, and for an
    /// atomic batch those of MULTI and EXEC.
    fn reply_count(&self) -> usize {
        self.commands.len() + if self.is_atomic() { 2 } else { 0 }
    }

    /// Runs the batch on `con` in one round trip and returns every call's
    /// result. Never fails as a whole: a connection that fails fails each
    /// call (see the type's docs for what each call's `applied` is then).
    pub fn run(&self, con: &mut dyn ConnectionLike) -> BatchReplies {
        if self.is_empty() {
            return self.replies(Ok(Vec::new()));
        }
        self.count_calls();
        let run = PipelineRun::start(&self.pipe, self.is_atomic(), || con.get_db());
        let raw = if con.supports_pipelining() {
            // From offset 0: every reply, those of MULTI and of each queued
            // command included, error replies as values.
            run.in_scope(|| {
                con.req_packed_commands(&self.pipe.get_packed_pipeline(), 0, self.reply_count())
            })
        } else {
            Err(RedisError::from((
                redis::ErrorKind::Client,
                "this connection does not pipeline (a sync cluster connection); \
                 run the calls one by one, or the batch on an async connection",
            )))
        };
        run.finish(&raw);
        self.replies(raw)
    }

    /// The async form of [`run`](Self::run), for `MultiplexedConnection`,
    /// `ConnectionManager` and any other `redis::aio::ConnectionLike`.
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn run_async<C: redis::aio::ConnectionLike>(&self, con: &mut C) -> BatchReplies {
        if self.is_empty() {
            return self.replies(Ok(Vec::new()));
        }
        self.count_calls();
        let run = PipelineRun::start(&self.pipe, self.is_atomic(), || con.get_db());
        let raw = run
            .instrument(con.req_packed_commands(&self.pipe, 0, self.reply_count()))
            .await;
        run.finish(&raw);
        self.replies(raw)
    }

    /// The same run on a [fred](https://docs.rs/fred) client or pool
    /// (`fred::clients::Client`, `Pool`, any `fred::interfaces::ClientLike`):
    /// the batch's commands in one fred `Pipeline`, an atomic batch inside
    /// `MULTI`/`EXEC` in that pipeline, every command routed to the node of
    /// the batch's first key on a clustered client (so, as on a redis-rs
    /// cluster, all its keys must share a slot: [`check_slots`](Self::check_slots)).
    /// Each call's result and its `applied` are as for [`run`](Self::run),
    /// but for two things fred does not give:
    ///
    /// - fred reads a pipeline's replies into its own values, which fail a
    ///   reply that holds an error (`{1, redis.pcall(...)}`) as a whole, as
    ///   that error; and do not tell `+OK` from a bulk string, nor a set
    ///   from an array (replies that fit a binding's declared type either way).
    /// - fred reads EXEC's reply as one value, failed as a whole when any
    ///   call in it failed: then every call of an atomic batch fails with
    ///   that error, [`Applied::Maybe`](crate::Applied::Maybe) (they ran; one
    ///   of them failed). EXECABORT (nothing ran) is read per call as on
    ///   redis-rs.
    #[cfg(feature = "fred")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fred")))]
    pub async fn run_fred<C: fred::interfaces::ClientLike>(&self, client: &C) -> BatchReplies {
        use crate::call::fred::{Route, database, run_pipeline};
        if self.is_empty() {
            return self.replies(Ok(Vec::new()));
        }
        self.count_calls();
        let run = PipelineRun::start(&self.pipe, self.is_atomic(), || database(client));
        let route = Route::at(self.keys.first().map(|(_, slot)| *slot));
        let commands = self.pipe.cmd_iter().map(|cmd| {
            cmd.args_iter().filter_map(|arg| match arg {
                redis::Arg::Simple(bytes) => Some(bytes),
                _ => None,
            })
        });
        let raw = run
            .instrument(run_pipeline(client, route, commands, self.is_atomic()))
            .await;
        run.finish(&raw);
        self.replies(raw)
    }

    /// Counts each call of a run for its script, as `invoke` counts a call
    /// each time it runs.
    fn count_calls(&self) {
        for queued in &self.commands {
            if let Queue::Call { script, .. } = queued {
                observe::queued(script);
            }
        }
    }

    /// Each call's result from the raw replies of a run.
    fn replies(&self, raw: RedisResult<Vec<Value>>) -> BatchReplies {
        let outcomes = match raw {
            Err(error) => self.each_call(|_, script| Err(Error::redis(script, error.clone()))),
            Ok(replies) if replies.len() != self.reply_count() => {
                let error = RedisError::from((
                    redis::ErrorKind::UnexpectedReturnType,
                    "the batch got another number of replies than it sent commands",
                ));
                self.each_call(|_, script| Err(Error::redis(script, error.clone())))
            }
            Ok(replies) if self.is_atomic() => self.transaction_outcomes(replies),
            Ok(replies) => self.outcomes(&replies),
        };
        for outcome in &outcomes {
            if let Outcome {
                script,
                reply: Some(Err(error)),
            } = outcome
            {
                observe::failed(script, error);
            }
        }
        BatchReplies {
            batch: self.id,
            outcomes,
        }
    }

    /// An outcome for each call, from `outcome(position, script)`.
    fn each_call(
        &self,
        mut outcome: impl FnMut(usize, &'static Script) -> Result<Value, Error>,
    ) -> Vec<Outcome> {
        self.calls
            .iter()
            .map(|&position| {
                let Queue::Call { script, .. } = self.commands[position] else {
                    unreachable!("`calls` holds positions of calls")
                };
                Outcome {
                    script,
                    reply: Some(outcome(position, script)),
                }
            })
            .collect()
    }

    /// Each call's outcome from `replies`, one per command, as a plain
    /// pipeline or an executed transaction answers.
    fn outcomes(&self, replies: &[Value]) -> Vec<Outcome> {
        self.each_call(|position, script| match &replies[position] {
            call @ Value::ServerError(error) => Err(self
                .load_error(position, replies, CallAfterLoad::Replied(call))
                .unwrap_or_else(|| Error::redis(script, error.clone().into()))),
            value => Ok(value.clone()),
        })
    }

    /// The error of the call at `position`'s script's `SCRIPT LOAD` in this
    /// batch, named by the call's binding, if that load failed and its
    /// error is the call's (see [`recovery::after_failed_load`]).
    fn load_error(
        &self,
        position: usize,
        replies: &[Value],
        call: CallAfterLoad<'_>,
    ) -> Option<Error> {
        let Queue::Call {
            script,
            load: Some(load),
        } = self.commands[position]
        else {
            return None;
        };
        let Value::ServerError(error) = &replies[load] else {
            return None;
        };
        match recovery::after_failed_load(Binding::of(script), call) {
            FailedLoad::LoadErrorStands => {
                Some(Error::redis(script, error.clone().into()).during_load())
            }
            FailedLoad::CallReplyStands => None,
        }
    }

    /// Each call's outcome from the replies of MULTI, of each queued
    /// command and of EXEC.
    fn transaction_outcomes(&self, mut replies: Vec<Value>) -> Vec<Outcome> {
        let exec = replies.pop();
        let queued = &replies[1..];
        match exec {
            Some(Value::Array(executed)) if executed.len() == self.commands.len() => {
                self.outcomes(&executed)
            }
            // Refused while queued, or aborted at EXEC: nothing ran.
            Some(Value::ServerError(abort)) => self.each_call(|position, script| {
                let own = match &queued[position] {
                    Value::ServerError(error) => Some(Error::redis(script, error.clone().into())),
                    _ => None,
                };
                Err(own
                    .or_else(|| self.load_error(position, queued, CallAfterLoad::Discarded))
                    .unwrap_or_else(|| Error::redis(script, abort.clone().into())))
            }),
            Some(Value::Nil) => {
                let discarded = RedisError::from((
                    redis::ErrorKind::Client,
                    "EXEC answered nil: a key this connection WATCHed changed, \
                     and the transaction was discarded",
                ));
                self.each_call(|_, script| Err(Error::redis(script, discarded.clone())))
            }
            other => {
                let unexpected = RedisError::from((
                    redis::ErrorKind::UnexpectedReturnType,
                    "EXEC did not answer with one reply per queued command",
                    format!("{other:?}"),
                ));
                self.each_call(|_, script| Err(Error::redis(script, unexpected.clone())))
            }
        }
    }
}

/// The handle of one call in a [`Batch`], typed by the binding's reply:
/// [`BatchReplies::take`] gives its result.
#[must_use = "the handle is what takes the call's result from the replies"]
pub struct Queued<T> {
    batch: u64,
    call: usize,
    reply: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Queued<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Queued")
            .field("batch", &self.batch)
            .field("call", &self.call)
            .finish()
    }
}

/// What the calls of one run of a [`Batch`] returned, each taken with its
/// handle: [`take`](Self::take).
#[derive(Debug)]
pub struct BatchReplies {
    batch: u64,
    outcomes: Vec<Outcome>,
}

/// One call's reply; `None` once taken.
#[derive(Debug)]
struct Outcome {
    script: &'static Script,
    reply: Option<Result<Value, Error>>,
}

impl BatchReplies {
    /// The result of the call that `call` was returned for: its reply
    /// converted to the binding's type, or its error (see [`Batch`] for
    /// what [`Error::applied`] says of each). A reply is taken once; taking
    /// it again, or with a handle of another batch, is an error of kind
    /// `Client` named `Batch` (not applied: nothing is sent).
    pub fn take<T: FromRedisValue>(&mut self, call: &Queued<T>) -> Result<T, Error> {
        let reply = match self.outcomes.get_mut(call.call) {
            Some(outcome) if call.batch == self.batch => {
                outcome.reply.take().map(|reply| (outcome.script, reply))
            }
            _ => None,
        };
        match reply {
            Some((script, Ok(value))) => invocation::decode_counted(script, Ok(value)),
            // Counted as it was read.
            Some((_, Err(error))) => Err(error),
            None => Err(Error::operation(
                "Batch",
                ErrorKind::Redis(RedisError::from((
                    redis::ErrorKind::Client,
                    "this reply was taken already, or the handle is of another batch",
                ))),
            )),
        }
    }

    /// The errors of the calls not taken yet, each with its call's position
    /// in the batch (0 for the first call added): for a log line, or to
    /// count what to retry. A reply that does not fit its call's type is
    /// found only when [taken](Self::take), so it is not among them.
    pub fn errors(&self) -> impl Iterator<Item = (usize, &Error)> {
        self.outcomes
            .iter()
            .enumerate()
            .filter_map(|(index, outcome)| match &outcome.reply {
                Some(Err(error)) => Some((index, error)),
                _ => None,
            })
    }

    /// How many calls the batch held.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether the batch held no call.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }
}
